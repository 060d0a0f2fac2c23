"""How a table's outcome turns into points (pure: no database)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Sequence


from league.models import (Table, Tournament)


CENT = Decimal("0.01")


@dataclass(frozen=True)
class Rules:
    """How a table's outcome turns into points, from the league and the tournament."""
    two_seat: bool = True
    win: Decimal = Decimal(3)
    draw: Decimal = Decimal(1)
    loss: Decimal = Decimal(0)
    place_points: tuple[Decimal, ...] = ()
    bye_points: Decimal = Decimal(3)
    forfeit_rule: str = "award"

    @classmethod
    def of(cls, tournament: Tournament) -> "Rules":
        league = tournament.league
        return cls(two_seat=tournament.seats_per_table == 2, win=league.win_points, draw=league.draw_points,
                   loss=league.loss_points, place_points=tuple(Decimal(str(v)) for v in league.place_points),
                   bye_points=league.bye_points if tournament.format == Tournament.Format.SWISS else Decimal(0),
                   forfeit_rule=league.forfeit_rule)

    def by_place(self, n: int) -> list[Decimal]:
        """Points for places 1..n: win/loss for two seats, else the league's list or n-1 … 0."""
        if self.two_seat and n == 2:
            return [self.win, self.loss]
        if len(self.place_points) >= n:
            return list(self.place_points[:n])
        return [Decimal(n - 1 - i) for i in range(n)]

    def shared(self, n: int, place: int, size: int) -> Decimal:
        """Points for ``size`` seats tied at ``place`` (1-based) of ``n``: the mean of the places covered.
        Two seats tied at a two-seat table score a draw."""
        if self.two_seat and n == 2 and size == 2:
            return self.draw
        covered = self.by_place(n)[place - 1:place - 1 + size]
        return (sum(covered, Decimal(0)) / len(covered)).quantize(CENT, ROUND_HALF_UP)


@dataclass(frozen=True)
class SeatScore:
    entrant_id: int
    place: int | None
    points: Decimal
    game_points: int | None = None
    result: str | None = None      # "win" | "draw" | "loss" | None (not played)
    bye: bool = False
    forfeited: bool = False


@dataclass(frozen=True)
class SeatIn:
    entrant_id: int
    match_seat: int | None
    forfeited: bool


def table_scores(*, kind: str, seats: Sequence[SeatIn], result: dict | None, rules: Rules) -> list[SeatScore]:
    """Score one decided table.

    - a bye: the bye points (Swiss) or nothing (a rest);
    - a finished match: places from its ranking, tied seats sharing the points of
      the places they cover; a forfeited seat (withdrawn before the match) comes
      last under the ``award`` rule, and scores nothing under ``void``;
    - no match (or an aborted one): under ``award`` the players left share the
      places above the forfeited ones; under ``void`` (or with nobody forfeited)
      nobody scores.
    """
    if kind == Table.Kind.BYE:
        return [SeatScore(s.entrant_id, None, Decimal(0), forfeited=True) if s.forfeited else
                SeatScore(s.entrant_id, None, rules.bye_points, bye=True) for s in seats]
    by_seat = {s.match_seat: s.entrant_id for s in seats if s.match_seat is not None}
    # who forfeited this table: withdrawn and not ranked by a finished match
    forfeiters = [s.entrant_id for s in seats if s.forfeited and (result is None or s.match_seat is None)]
    award = rules.forfeit_rule == "award"
    if result is not None:
        groups = [[by_seat[seat] for seat in group] for group in result["ranking"]]
        game_points = {by_seat[seat]: score for seat, score in enumerate(result.get("scores") or []) if seat in by_seat}
    else:
        players = [s.entrant_id for s in seats if not s.forfeited]
        groups = [players] if (forfeiters and award and players) else []
        game_points = {}
    if award and forfeiters and groups:
        groups = groups + [forfeiters]
    n = sum(len(g) for g in groups)
    out: dict[int, SeatScore] = {}
    place = 1
    for group in groups:
        points = rules.shared(n, place, len(group))
        for e in group:
            outcome = "loss" if (place > 1 or e in forfeiters) else ("win" if len(group) == 1 else "draw")
            out[e] = SeatScore(e, place, points, game_points.get(e), outcome, forfeited=e in forfeiters)
        place += len(group)
    for s in seats:
        if s.entrant_id not in out:
            out[s.entrant_id] = SeatScore(s.entrant_id, None, Decimal(0), forfeited=s.forfeited)
    return [out[s.entrant_id] for s in seats]
