"""What every game shares: errors, seeded randomness, option and deck checks,
match formats and rankings.

Randomness (ENGINE.md "Randomness"): every random decision is drawn from a
stream keyed by HMAC-SHA256(seed, "<counter>:<block>"). A game keeps the
counter in its state, increments it in ``apply`` for each event that recorded
a random result, and writes the result (a deck order, a reshuffled pile) into
that event, so ``apply`` and replay never need the generator.
"""
from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from dataclasses import dataclass
from functools import reduce
from typing import Any, Iterable, Sequence


class IllegalMove(Exception):
    """A rejected move. ``code`` is a stable string, ``rule`` the rule id (e.g. "L5")."""

    def __init__(self, code: str, message: str = "", rule: str | None = None):
        super().__init__(message or code)
        self.code = code
        self.message = message or code
        self.rule = rule

    def to_json(self) -> dict:
        return {"code": self.code, "rule": self.rule, "message": self.message}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"IllegalMove(code={self.code!r}, rule={self.rule!r}, message={self.message!r})"


# --------------------------------------------------------------------------
# Seeded randomness
# --------------------------------------------------------------------------

class SeededRandom:
    """A deterministic stream for one random decision: HMAC-SHA256(seed, counter:block).

    >>> SeededRandom("s", 0).shuffled([1, 2, 3]) == SeededRandom("s", 0).shuffled([1, 2, 3])
    True
    """

    def __init__(self, seed: str, counter: int):
        self._key = seed.encode("utf-8")
        self._counter = counter
        self._block = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            msg = f"{self._counter}:{self._block}".encode("ascii")
            self._buffer += hmac.new(self._key, msg, hashlib.sha256).digest()
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection sampling on 64-bit words."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = int.from_bytes(self._bytes(8), "big")
            if x < limit:
                return x % n

    def shuffled(self, items: Sequence) -> list:
        """A Fisher-Yates permutation of ``items`` (a new list)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def shuffled(seed: str, counter: int, items: Sequence) -> list:
    """Shorthand: the permutation of ``items`` for random decision number ``counter``."""
    return SeededRandom(seed, counter).shuffled(items)


# --------------------------------------------------------------------------
# Checks at ``start``
# --------------------------------------------------------------------------

def check_seats(seats: int, low: int, high: int, game: str) -> None:
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise ValueError(f"{game} is played by {low}–{high} seats, not {seats!r}")


def check_options(options: dict | None, allowed: dict[str, Any], game: str) -> dict:
    """Merge ``options`` over the defaults.

    ``allowed`` maps each option to ``(default, check)`` where ``check`` is a
    tuple of allowed values or a predicate. Unknown names and bad values raise
    ``ValueError``.
    """
    options = dict(options or {})
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"{game}: unknown option(s) {', '.join(unknown)}")
    merged = {}
    for name, (default, check) in allowed.items():
        value = options.get(name, default)
        ok = value in check if isinstance(check, (tuple, list, set, frozenset)) else check(value)
        if not ok:
            raise ValueError(f"{game}: bad value {value!r} for option {name!r}")
        merged[name] = value
    return merged


def positive_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def non_negative_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_deck(deck: Sequence[str] | None, cards: Sequence[str], game: str) -> list[str] | None:
    """A stacked deck must be a permutation of ``cards`` (ENGINE.md "Stacked decks")."""
    if deck is None:
        return None
    if not isinstance(deck, (list, tuple)) or not all(isinstance(c, str) for c in deck):
        raise ValueError(f"{game}: a stacked deck is a list of card codes")
    if Counter(deck) != Counter(cards):
        raise ValueError(f"{game}: a stacked deck must be a permutation of the game's cards")
    return list(deck)


# --------------------------------------------------------------------------
# Seats, rounds and match formats
# --------------------------------------------------------------------------

def next_seat(seat: int, seats: int, direction: int = 1) -> int:
    """The neighbour of ``seat``: clockwise for direction 1, else counterclockwise."""
    return (seat + direction) % seats


def rank_by_scores(scores: Sequence[int], *, highest_first: bool = True,
                   seats: Iterable[int] | None = None) -> list[list[int]]:
    """Places best first; equal scores share a place. ``seats`` limits who is ranked."""
    pool = list(range(len(scores))) if seats is None else list(seats)
    order = sorted(set(scores[s] for s in pool), reverse=highest_first)
    return [[s for s in pool if scores[s] == value] for value in order]


@dataclass(frozen=True)
class FirstToTarget:
    """The match ends when a seat reaches ``target``; most points rank first."""
    target: int

    def is_over(self, scores: Sequence[int]) -> bool:
        return max(scores) >= self.target

    def ranking(self, scores: Sequence[int]) -> list[list[int]]:
        return rank_by_scores(scores, highest_first=True)


@dataclass(frozen=True)
class FewestWhenTarget:
    """The match ends when a seat reaches ``target``; fewest points rank first."""
    target: int

    def is_over(self, scores: Sequence[int]) -> bool:
        return max(scores) >= self.target

    def ranking(self, scores: Sequence[int]) -> list[list[int]]:
        return rank_by_scores(scores, highest_first=False)


@dataclass(frozen=True)
class SingleRound:
    """One deal; the highest (or lowest) score ranks first."""
    highest_first: bool = True

    def ranking(self, scores: Sequence[int]) -> list[list[int]]:
        return rank_by_scores(scores, highest_first=self.highest_first)


@dataclass(frozen=True)
class Elimination:
    """Seats lose lives; at zero a seat is out. Later out ranks better; out together shares."""
    lives: int

    def ranking(self, out_round: Sequence[int | None]) -> list[list[int]]:
        """``out_round[s]`` is the round in which seat s went out, None while alive."""
        key = [float("inf") if r is None else r for r in out_round]
        return rank_by_scores(key, highest_first=True)


# --------------------------------------------------------------------------
# Shared protocol helpers
# --------------------------------------------------------------------------

class Game:
    """Base of every game object: ``fold`` is ``reduce(apply, events, None)``.

    A subclass defines ``name``, ``MIN_SEATS``, ``MAX_SEATS``, ``MAX_EVENTS``
    and the calls of ENGINE.md. ``apply`` must never mutate its ``state``
    argument (states are shared by caches); it returns a new state.
    """

    name = ""
    MIN_SEATS = 2
    MAX_SEATS = 2
    MAX_EVENTS = 100_000

    def fold(self, events: Iterable[dict]):
        return reduce(self.apply, events, None)

    # Hooks for the protocol test (not part of ENGINE.md's public surface).
    def all_cards(self, state) -> list[str]:
        """Every physical card in the state, wherever it lies (conservation check)."""
        raise NotImplementedError

    def hidden_cards(self, state, seat: int | None) -> list[str]:
        """Card codes (active faces where relevant) that ``seat`` must not see now."""
        raise NotImplementedError


def copies_hidden_everywhere(hidden: Iterable[str], total: Counter) -> set[str]:
    """Codes whose every copy is hidden: such a code must not appear in a view."""
    h = Counter(hidden)
    return {code for code, n in h.items() if n >= total.get(code, 0)}
