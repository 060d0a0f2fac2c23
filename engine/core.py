"""What every game shares: errors, seeded randomness, option and deck checks,
match formats and rankings.

Randomness (docs/engine-contract.md "Randomness"): every random decision is drawn from a
stream keyed by HMAC-SHA256(seed, "<counter>:<block>"). A game keeps the
counter in its state, increments it in ``apply`` for each event that recorded
a random result, and writes the result (a deck order, a reshuffled pile) into
that event, so ``apply`` and replay never need the generator.
"""
from __future__ import annotations

import hashlib
import hmac
import reprlib
import struct
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import TYPE_CHECKING, Any


class IllegalMove(Exception):
    """A rejected move. ``code`` is a stable string, ``rule`` the rule id (e.g. "L5")."""

    def __init__(self, code: str, message: str = "", rule: str | None = None):
        super().__init__(message or code)
        self.code = code
        self.message = message or code
        self.rule = rule

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"IllegalMove(code={self.code!r}, rule={self.rule!r}, message={self.message!r})"


# --------------------------------------------------------------------------
# Seeded randomness
# --------------------------------------------------------------------------

_WORD = 1 << 64
_BLOCK = 64  # SHA-256's block size, for HMAC's pads
_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))
#: ``randbelow``'s rejection bound for each n below 256 (a word at or above it is drawn again).
_LIMITS = [_WORD - (_WORD % n) if n else 0 for n in range(256)]


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
        self._pos = 0  # bytes of the stream used so far
        # HMAC (RFC 2104) with the key's inner and outer pads hashed once, not per block:
        # the same bytes as hmac.digest(key, msg, "sha256"), at a third of the cost.
        key = self._key if len(self._key) <= _BLOCK else hashlib.sha256(self._key).digest()
        key = key.ljust(_BLOCK, b"\0")
        self._inner = hashlib.sha256(key.translate(_IPAD))
        self._outer = hashlib.sha256(key.translate(_OPAD))

    def _fill(self, end: int) -> None:
        """Extend the stream to at least ``end`` bytes: HMAC-SHA256(seed, "counter:block")
        for block 0, 1, ..."""
        while len(self._buffer) < end:
            inner = self._inner.copy()
            inner.update(f"{self._counter}:{self._block}".encode("ascii"))
            outer = self._outer.copy()
            outer.update(inner.digest())
            self._buffer += outer.digest()
            self._block += 1

    def _bytes(self, n: int) -> bytes:
        end = self._pos + n
        self._fill(end)
        out = self._buffer[self._pos:end]
        self._pos = end
        return out

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection sampling on 64-bit words."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _WORD - (_WORD % n)
        while True:
            x = int.from_bytes(self._bytes(8), "big")
            if x < limit:
                return x % n

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        """A Fisher-Yates permutation of ``items`` (a new list): ``randbelow(i + 1)`` for i
        from the last index down to 1. The words are read in one go (the same stream, the
        same numbers); a rejected word, which almost never happens, hands the rest to
        ``randbelow``."""
        out = list(items)
        last = len(out) - 1
        if last < 1:
            return out
        start = self._pos
        self._fill(start + 8 * last)
        words = struct.unpack_from(f">{last}Q", self._buffer, start)
        limits = _LIMITS if last + 1 < len(_LIMITS) else [_WORD - (_WORD % n) if n else 0 for n in range(last + 2)]
        for k, x in enumerate(words):
            i = last - k
            n = i + 1
            if x >= limits[n]:     # rejected: continue word by word
                self._pos = start + 8 * k
                for m in range(i, 0, -1):
                    j = self.randbelow(m + 1)
                    out[m], out[j] = out[j], out[m]
                return out
            j = x % n
            out[i], out[j] = out[j], out[i]
        self._pos = start + 8 * last
        return out


# --------------------------------------------------------------------------
# The match's seed: the server's secret together with every seat's randomness
# --------------------------------------------------------------------------

SEED_FORMULA = "cardleague-seed-v1"


def match_seed(secret: str, contributions: Sequence[str]) -> str:
    """The engine's seed of a match: HMAC-SHA256(key = the server's secret, message =
    "cardleague-seed-v1" followed by each seat's contribution in seat order, one per line),
    as 64 hex digits.

    The server publishes SHA-256(secret) when the match opens, before any seat contributes;
    each seat then contributes a random value (a person's browser or API client draws its own;
    a bot's seat, or a person's seat the server fills in, gets ``server_contribution``). So the
    server cannot choose a deal after seeing the players' values (its secret is committed and
    its own values follow from it), and the players cannot steer the deal without the secret,
    which is revealed when the match ends. Anyone can then recompute this seed and replay.
    """
    message = "\n".join([SEED_FORMULA, *contributions]).encode("utf-8")
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def server_contribution(secret: str, seat: int) -> str:
    """The value the server contributes for a seat (a bot's, or a person's that timed out or
    sent none): HMAC-SHA256(secret, "seat:<n>"), 32 hex digits. It is fixed by the committed
    secret, so the server cannot grind it after seeing the players' values."""
    return hmac.new(secret.encode("utf-8"), f"seat:{seat}".encode("ascii"), hashlib.sha256).hexdigest()[:32]


#: A seat's contribution is this many lowercase hex digits, at least and at most (the one rule: the API's
#: schema, the pages and the verifier read it from here).
CONTRIBUTION_DIGITS = (16, 128)
CONTRIBUTION_PATTERN = r"^[0-9a-f]{%d,%d}$" % CONTRIBUTION_DIGITS


def is_contribution(value: object) -> bool:
    """A seat's contribution: 16 to 128 hex digits (a browser sends 32, from crypto.getRandomValues)."""
    low, high = CONTRIBUTION_DIGITS
    return type(value) is str and low <= len(value) <= high and all(c in "0123456789abcdef" for c in value)


def shuffled(seed: str, counter: int, items: Sequence[Any]) -> list[Any]:
    """Shorthand: the permutation of ``items`` for random decision number ``counter``."""
    return SeededRandom(seed, counter).shuffled(items)


# --------------------------------------------------------------------------
# Checks at ``start``
# --------------------------------------------------------------------------

def check_seats(seats: int, low: int, high: int, game: str) -> None:
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise ValueError(f"{game} is played by {low}–{high} seats, not {seats!r}")


def check_options(options: dict[str, Any] | None, allowed: dict[str, Any], game: str) -> dict[str, Any]:
    """Merge ``options`` over the defaults.

    ``allowed`` maps each option to ``(default, check)`` where ``check`` is a
    tuple of allowed values or a predicate. Unknown names and bad values raise
    ``ValueError``.
    """
    options = dict(options or {})
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"{game}: unknown option(s) {', '.join(unknown)}")
    merged: dict[str, Any] = {}
    for name, (default, check) in allowed.items():
        value = options.get(name, default)
        ok = value in check if isinstance(check, (tuple, list, set, frozenset)) else check(value)
        if not ok:
            raise ValueError(f"{game}: bad value {value!r} for option {name!r}")
        merged[name] = value
    return merged


def positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def int_between(low: int, high: int, *, none: bool = False) -> Callable[[Any], bool]:
    """A check for an integer option in ``low..high`` (both included; ``none``: or None, the game's own
    default); ``low``/``high``/``none`` are kept on it, for the pages that state the bounds."""
    def check(value: Any) -> bool:
        if value is None:
            return none
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    check.low, check.high, check.none = low, high, none  # type: ignore[attr-defined]
    return check


def non_negative_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_deck(deck: Sequence[str] | None, cards: Sequence[str], game: str) -> list[str] | None:
    """A stacked deck must be a permutation of ``cards`` (docs/engine-contract.md "Stacked decks")."""
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


def rank_by_scores(scores: Sequence[float], *, highest_first: bool = True,
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
    and the calls of docs/engine-contract.md. ``apply`` must never mutate its ``state``
    argument (states are shared by caches); it returns a new state.
    """

    name = ""
    MIN_SEATS = 2
    MAX_SEATS = 2
    MAX_EVENTS = 100_000

    if TYPE_CHECKING:  # every subclass defines it (docs/engine-contract.md); declared here for ``fold``
        def apply(self, state: Any, event: dict[str, Any]) -> Any: ...

    def fold(self, events: Iterable[dict[str, Any]]) -> Any:
        return reduce(self.apply, events, None)

    # Hooks for the protocol test (not part of docs/engine-contract.md's public surface).
    def all_cards(self, state: Any) -> list[str]:
        """Every physical card in the state, wherever it lies (conservation check)."""
        raise NotImplementedError

    def hidden_cards(self, state: Any, seat: int | None) -> list[str]:
        """Card codes (active faces where relevant) that ``seat`` must not see now."""
        raise NotImplementedError


def copies_hidden_everywhere(hidden: Iterable[str], total: Counter[str]) -> set[str]:
    """Codes whose every copy is hidden: such a code must not appear in a view."""
    h = Counter(hidden)
    return {code for code, n in h.items() if n >= total.get(code, 0)}


# --------------------------------------------------------------------------
# Hostile input: one guard for every move, short quotes in messages
# --------------------------------------------------------------------------

MOVE_MAX_DEPTH = 4        # the move is level 1; IOTA's x and Karuselis's group codes are level 4
MOVE_MAX_NODES = 256      # values in the whole move, the move itself included
MOVE_MAX_LIST = 64        # items in one list (Karuselis: the table never holds more)
MOVE_MAX_KEYS = 8         # keys in one object
MOVE_MAX_STRING = 32      # characters in one string or key (card codes, build ids, move types)
MOVE_MAX_INT = 10_000     # |n| for an int (seats, IOTA cells, Karuselis build values)
MOVE_TYPES = (dict, list, str, int, bool, type(None))

MOVE_BOUNDS = {"depth": MOVE_MAX_DEPTH, "nodes": MOVE_MAX_NODES, "list": MOVE_MAX_LIST,
               "keys": MOVE_MAX_KEYS, "string": MOVE_MAX_STRING, "int": MOVE_MAX_INT}


def _malformed(message: str, rule: str | None) -> IllegalMove:
    return IllegalMove("malformed_move", message, rule)


def check_move_bounds(move: Any, rule: str | None = None) -> None:  # noqa: C901 - one walk over a move's fields, a bound per kind of value
    """Refuse (``malformed_move``) any value outside the fixed bounds of a move.

    The bounds, in one place (``MOVE_BOUNDS``), generous for every legal move of
    every game (the largest is a Karuselis capture of the whole table: about
    120 values, 56 groups, 4 levels):

    - only JSON types: ``dict`` (with ``str`` keys), ``list``, ``str``, ``int``,
      ``bool`` and ``None``, exactly (no float, tuple, set, bytes, subclass or
      other object);
    - nesting at most ``MOVE_MAX_DEPTH`` levels (the move itself is level 1);
    - at most ``MOVE_MAX_NODES`` values in all, ``MOVE_MAX_LIST`` items in a
      list, ``MOVE_MAX_KEYS`` keys in an object;
    - strings and keys at most ``MOVE_MAX_STRING`` characters;
    - ints within ±``MOVE_MAX_INT``.

    The walk is iterative (no recursion: a list nested 100,000 levels deep is
    refused at level 5) and stops at the first violation; sizes are checked with
    ``len`` before a container's items are visited, so the cost is bounded by
    the node budget, never by the input's size."""
    if type(move) is dict and len(move) <= MOVE_MAX_KEYS:
        # The usual move, an object of plain values, checked in one pass; anything
        # else (a list, a nested object, a value out of bounds) takes the walk below,
        # which gives the reason.
        for key, value in move.items():
            kind = type(value)
            if type(key) is not str or len(key) > MOVE_MAX_STRING:
                break
            if kind is str:
                if len(value) > MOVE_MAX_STRING:
                    break
            elif kind is int:
                if not -MOVE_MAX_INT <= value <= MOVE_MAX_INT:
                    break
            elif kind is not bool and value is not None:
                break
        else:
            return
    nodes = 1
    stack: list[tuple[Any, int]] = [(move, 1)]
    while stack:
        value, depth = stack.pop()
        kind = type(value)
        if kind not in MOVE_TYPES:
            raise _malformed(f"a move holds only objects, lists, strings, ints, booleans and null, "
                             f"not {kind.__name__[:MOVE_MAX_STRING]}", rule)
        if depth > MOVE_MAX_DEPTH:
            raise _malformed(f"a move is nested at most {MOVE_MAX_DEPTH} levels deep", rule)
        if kind is str:
            if len(value) > MOVE_MAX_STRING:
                raise _malformed(f"a move's strings are at most {MOVE_MAX_STRING} characters", rule)
        elif kind is int:
            if not -MOVE_MAX_INT <= value <= MOVE_MAX_INT:
                raise _malformed(f"a move's numbers lie within ±{MOVE_MAX_INT}", rule)
        elif kind is list:
            if len(value) > MOVE_MAX_LIST:
                raise _malformed(f"a move's lists hold at most {MOVE_MAX_LIST} items", rule)
            nodes += len(value)
            if nodes > MOVE_MAX_NODES:
                raise _malformed(f"a move holds at most {MOVE_MAX_NODES} values", rule)
            stack.extend((item, depth + 1) for item in value)
        elif kind is dict:
            if len(value) > MOVE_MAX_KEYS:
                raise _malformed(f"a move's objects hold at most {MOVE_MAX_KEYS} fields", rule)
            nodes += len(value)
            if nodes > MOVE_MAX_NODES:
                raise _malformed(f"a move holds at most {MOVE_MAX_NODES} values", rule)
            for key in value:
                if type(key) is not str or len(key) > MOVE_MAX_STRING:
                    raise _malformed(f"a move's field names are strings of at most {MOVE_MAX_STRING} "
                                     "characters", rule)
            stack.extend((item, depth + 1) for item in value.values())


def guard_move(move: Any, move_keys: Mapping[str, frozenset[str]], rule: str | None = None) -> str:
    """The first check of every ``play``: a move is an object within ``MOVE_BOUNDS``
    (``check_move_bounds``) whose ``"type"`` is a string naming one of the game's
    moves, with no field outside that move's allow-list ``move_keys[type]``.
    Returns the move's type; anything else is ``malformed_move`` (with ``rule``)."""
    if type(move) is not dict:
        raise _malformed("a move is a JSON object with a 'type'", rule)
    check_move_bounds(move, rule)
    kind = move.get("type")
    if type(kind) is not str:
        raise _malformed("a move is a JSON object with a 'type'", rule)
    allowed = move_keys.get(kind)
    if allowed is None:
        raise _malformed(f"unknown move type {short(kind)}; known: {', '.join(move_keys)}", rule)
    if not allowed.issuperset(move):
        extra = move.keys() - allowed
        raise _malformed(f"unexpected field(s) {short(sorted(extra))} in a {kind} move", rule)
    return kind


def is_seat(seat: object, seats: int) -> bool:
    """A seat number of a table of ``seats``: an int (not a bool) in ``0..seats-1``."""
    return type(seat) is int and 0 <= seat < seats


class _ShortRepr(reprlib.Repr):
    """``reprlib`` with tight limits that never calls an unknown ``__repr__``, never
    sorts a whole container and never prints a huge int in full."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxstring = self.maxother = self.maxlong = 24
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = 4

    def repr1(self, x: Any, level: int) -> str:
        kind = type(x)
        if kind in (bool, float, type(None)):
            return repr(x)
        if kind is int:
            return repr(x) if x.bit_length() <= 64 else f"<{x.bit_length()}-bit int>"
        if kind in (str, list, tuple, dict):
            return super().repr1(x, level)
        if kind in (set, frozenset):  # reprlib would sort the whole set first
            return "{" + self.repr_list(_first(x, self.maxset + 1), level)[1:-1] + "}"
        return f"<{kind.__name__[:24]}>"

    def repr_dict(self, x: Any, level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        items = [f"{self.repr1(k, level - 1)}: {self.repr1(v, level - 1)}"
                 for k, v in _first(x.items(), self.maxdict)]
        if len(x) > self.maxdict:
            items.append("...")
        return "{" + ", ".join(items) + "}"


def _first(items: Iterable[Any], n: int) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if len(out) >= n:
            break
        out.append(item)
    return out


_SHORT = _ShortRepr()


def short(value: object) -> str:
    """A short, bounded ``repr`` of a client value for an error message (``reprlib``:
    at most 24 characters of a string, 4 items of a container, 2 levels)."""
    return _SHORT.repr(value)


# --------------------------------------------------------------------------
# Resigning (docs/engine-contract.md "Resigning (every game)")
# --------------------------------------------------------------------------

RESIGN = "resign"
RESIGN_KEYS = frozenset({"type"})


def may_resign(seat: Any, seats: int, resigned: Sequence[int]) -> None:
    """docs/engine-contract.md: ``{"type":"resign"}`` is legal for any seat that has not resigned, at
    any time before the end, in or out of turn. (The game checks "before the end":
    ``match_over``.) A seat out of range is ``malformed_move``; a seat that resigned
    already, ``already_resigned``."""
    if not is_seat(seat, seats):
        raise IllegalMove("malformed_move", f"no seat {short(seat)} at this table")
    if seat in resigned:
        raise IllegalMove("already_resigned", f"seat {seat} has already resigned")


def seat_resigned(seat: int) -> dict[str, Any]:
    """docs/engine-contract.md: it emits ``seat_resigned`` (``seat``)."""
    return {"type": "seat_resigned", "seat": seat}


def last_standing(contenders: Iterable[Any], resigned: Iterable[Any]) -> bool:
    """docs/engine-contract.md: when resigning leaves one seat (or one side in Karuselis partnerships)
    not resigned, the match ends at once with it first. ``contenders`` are the seats
    (or sides) still in the running; true when at most one of them has not resigned."""
    gone = set(resigned)
    return sum(1 for c in contenders if c not in gone) <= 1


def rank_with_resignations(ranking: Sequence[Sequence[int]],
                           resigned_order: Sequence[int]) -> list[list[int]]:
    """docs/engine-contract.md: ``outcome`` ranks resigned seats below all others, the latest to resign
    best among them, and the rest as the game ranks them.

    ``ranking`` is the game's own ranking (places best first; a place may be shared),
    ``resigned_order`` the seats (or sides) in the order they resigned. Without
    resignations the ranking comes back unchanged.

    >>> rank_with_resignations([[2], [0, 1], [3]], [0, 2])
    [[1], [3], [2], [0]]
    """
    gone = set(resigned_order)
    rest = [[s for s in place if s not in gone] for place in ranking]
    return [place for place in rest if place] + [[s] for s in reversed(resigned_order)]
