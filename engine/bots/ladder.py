"""The bots' ladder: each level against the one below it, engine only (no database).

``ladder(game, levels, matches, seed)`` plays, for each pair of neighbouring levels
(``search`` against ``search-easy``, ``greedy`` against ``random``...), ``matches``
matches of the game and returns one row per pair: first places, their share with a
Wilson 95% interval, and the time per move of each level. Seats alternate: in a match
of n seats the two levels sit in turn round the table (A B A B...), and every other
match starts with the other level, so both sit in every position equally often over
two matches. A first place shared by both levels counts half to each.

Bots decide exactly as they do in the league: from the seat's view and legal moves,
through ``engine.bots.choose``, with the randomness keyed by (match, position, seat)
(``bot_rng``: here the ladder's match number; the league's matches key it by ``bot_key`` of their
secret); out of turn they are offered their optional moves first.
``manage.py bot_ladder`` and ``tests/bench/bot_ladder.py`` print the table.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.bots import POLICY_NAMES, bot_rng, choose


@dataclass
class Timing:
    """Time spent choosing moves that held the turn, per policy."""
    moves: int = 0
    seconds: float = 0.0
    worst: float = 0.0

    def add(self, seconds: float) -> None:
        self.moves += 1
        self.seconds += seconds
        self.worst = max(self.worst, seconds)

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.seconds / self.moves if self.moves else 0.0


@dataclass
class Row:
    game: str
    level: str
    opponent: str
    matches: int
    first: float                      # first places of ``level`` (a shared one counts half)
    opponent_first: float
    timing: dict[str, Timing] = field(default_factory=dict)   # policy -> Timing

    @property
    def share(self) -> float:
        return self.first / self.matches if self.matches else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.first, self.matches)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def seating(levels: tuple[str, str], seats: int, match: int) -> list[str]:
    """The policy of each seat: the two levels alternating round the table, the first seat
    swapped every other match."""
    first = match % 2
    return [levels[(first + s) % 2] for s in range(seats)]


def play_match(game_name: str, policies: list[str], seed: str, match_id: str, options: dict[str, Any] | None = None,
               timing: dict[str, Timing] | None = None, max_steps: int = 200_000) -> dict[str, Any]:
    """One match to the end, every seat moved by its policy; returns the outcome."""
    game = registry.get(game_name)
    events = game.start(len(policies), seed, options=options)
    state = game.fold(events)
    position = len(events)
    steps = 0
    while game.outcome(state) is None:
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"{game_name} match {match_id} did not end in {max_steps} moves")
        acting = game.to_act(state)
        mover, move = None, None
        # out of turn first: a seat that may catch or call is offered it
        for seat in acting:
            view = game.view(state, seat)
            if view.get("turn") == seat:
                continue
            legal = game.legal_moves(state, seat)
            move = choose(game_name, policies[seat], view, legal, bot_rng(match_id, position, seat), False)
            if move is not None:
                mover = seat
                break
        if mover is None:
            seat = next((s for s in acting if game.view(state, s).get("turn") == s), acting[0])
            view = game.view(state, seat)
            legal = game.legal_moves(state, seat)
            began = time.perf_counter()
            move = choose(game_name, policies[seat], view, legal, bot_rng(match_id, position, seat), True)
            if timing is not None and len(legal) > 1:
                timing.setdefault(policies[seat], Timing()).add(time.perf_counter() - began)
            mover = seat
        new = game.play(state, mover, move)  # type: ignore[arg-type]  # a seat that must act moves
        for e in new:
            state = game.apply(state, e)
        position += len(new)
    return game.outcome(state)  # type: ignore[return-value]  # the loop ends with an outcome


def pairs(levels: list[str]) -> list[tuple[str, str]]:
    """Each level against the one below it, strongest first."""
    ordered = [p for p in POLICY_NAMES if p in levels]
    return [(ordered[i], ordered[i - 1]) for i in range(len(ordered) - 1, 0, -1)]


def duel(game_name: str, level: str, opponent: str, matches: int, seed: str = "ladder",
         seats: int | None = None, options: dict[str, Any] | None = None,
         progress: Callable[[Row], object] | None = None) -> Row:
    """``matches`` matches of ``level`` against ``opponent``; the row of the table."""
    game = registry.get(game_name)
    seats = seats or max(2, game.MIN_SEATS)
    timing: dict[str, Timing] = {}
    row = Row(game_name, level, opponent, 0, 0.0, 0.0, timing)
    for i in range(matches):
        policies = seating((level, opponent), seats, i)
        match_id = f"{seed}:{game_name}:{level}:{opponent}:{i}"
        outcome = play_match(game_name, policies, match_id, match_id, options, timing)
        firsts = {policies[s] for s in outcome["ranking"][0]}
        share = 1.0 / len(firsts)
        row.first += share if level in firsts else 0.0
        row.opponent_first += share if opponent in firsts else 0.0
        row.matches += 1
        if progress is not None:
            progress(row)
    return row


def ladder(game_name: str, levels: list[str] | None = None, matches: int = 40, seed: str = "ladder",
           seats: int | None = None, options: dict[str, Any] | None = None,
           progress: Callable[[Row], object] | None = None) -> list[Row]:
    """The ladder's rows: each level of ``levels`` (default: all) against the one below it."""
    return [duel(game_name, a, b, matches, seed, seats, options, progress)
            for a, b in pairs(list(levels or POLICY_NAMES))]


def table(rows: list[Row]) -> str:
    """The ladder as a text table."""
    head = f"{'game':<10} {'level':<14} {'opponent':<14} {'matches':>7} {'first':>6} {'share':>6} " \
           f"{'95% CI':>13} {'ms/move':>8} {'opp ms/move':>11} {'max ms':>7}"
    lines = [head, "-" * len(head)]
    for r in rows:
        low, high = r.interval
        mine = r.timing.get(r.level, Timing())
        theirs = r.timing.get(r.opponent, Timing())
        lines.append(f"{r.game:<10} {r.level:<14} {r.opponent:<14} {r.matches:>7} {r.first:>6g} "
                     f"{r.share:>6.0%} {f'{low:.0%}–{high:.0%}':>13} {mine.ms_per_move:>8.1f} "
                     f"{theirs.ms_per_move:>11.1f} {1000 * mine.worst:>7.0f}")
    return "\n".join(lines)
