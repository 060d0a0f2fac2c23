"""How a table's outcome turns into points (pure: no database).

Points are exact fractions (``Fraction``): players who tie share the mean of the places they cover,
and three players sharing 5 + 3 + 2 points take 10/3 each, which add up to 10 again.

A table is scored by *sides*: a player alone, or a partnership (Karuselis with four seats: seats 0
and 2 against 1 and 3). Partners take their side's place, points and result.

- A two-seat tournament: win, draw and loss points.
- A tournament of three or more seats a table, without the league's own list: at a table of n sides,
  first scores the points for a win, last the points for a loss, the places between evenly spaced
  (3, 2, 1, 0 at four; 3, 1.5, 0 at three; 3, 0 at two), so a win is worth the same at every table
  size; the two sides of a table of two who tie score a draw.
- With the league's own list (points for 1st, 2nd, … at a full table): a table of n sides gives
  place p the list's points at the same fraction of the way from first to last, (p − 1) / (n − 1),
  on the straight line between the two nearest places of the list.
- Tied sides share the mean of the points of the places they cover.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine import registry
from league.rules.tiebreaks import exact

if TYPE_CHECKING:  # the model is read, never imported: this module is pure
    from league.models import Tournament

#: A bye's table kind (``Table.Kind.BYE``): one player, no match.
BYE = "bye"


def sides_of(game: str, seats: int) -> tuple[int, ...]:
    """The side of each seat of a match of ``game`` with ``seats`` seats: partners share one. Karuselis
    with four seats plays two partnerships (seats 0 and 2 against 1 and 3, rule K1); everyone else
    plays alone."""
    try:
        module = registry.module(game)
    except KeyError:
        return tuple(range(seats))
    side_of = getattr(module, "side_of", None)
    if side_of is None:
        return tuple(range(seats))
    return tuple(side_of(seat, seats) for seat in range(seats))


def has_partners(game: str, seats: int) -> bool:
    """Whether a full table of ``game`` at ``seats`` seats plays partnerships."""
    return len(set(sides_of(game, seats))) < seats


@dataclass(frozen=True)
class Rules:
    """How a table's outcome turns into points, from the league and the tournament."""
    two_seat: bool = True
    win: Fraction = Fraction(3)
    draw: Fraction = Fraction(1)
    loss: Fraction = Fraction(0)
    place_points: tuple[Fraction, ...] = ()
    bye_points: Fraction = Fraction(3)
    forfeit_rule: str = "award"

    def __post_init__(self) -> None:
        # the league's numbers (Decimals, ints, strings) as exact fractions
        for name in ("win", "draw", "loss", "bye_points"):
            object.__setattr__(self, name, exact(getattr(self, name)))
        object.__setattr__(self, "place_points", tuple(exact(v) for v in self.place_points))

    @classmethod
    def of(cls, tournament: Tournament) -> Rules:
        league = tournament.league
        return cls(two_seat=tournament.seats_per_table == 2, win=league.win_points, draw=league.draw_points,
                   loss=league.loss_points, place_points=tuple(league.place_points or ()),
                   bye_points=tournament.format_rules.bye_points(exact(league.bye_points)),
                   forfeit_rule=league.forfeit_rule)

    @property
    def uses_list(self) -> bool:
        """The league's own list of points by place applies (tournaments of three or more seats)."""
        return not self.two_seat and len(self.place_points) >= 2

    def by_place(self, n: int) -> list[Fraction]:
        """Points for places 1..n at a table of ``n`` sides."""
        if n <= 1:
            return [self.place_points[0] if self.uses_list else self.win][:n]
        if self.uses_list:
            points, m = self.place_points, len(self.place_points)
            out = []
            for p in range(n):
                at = Fraction(p * (m - 1), n - 1)      # the same fraction of the way along the list
                low = math.floor(at)
                out.append(points[low] if at == low else points[low] + (points[low + 1] - points[low]) * (at - low))
            return out
        return [self.loss + (self.win - self.loss) * Fraction(n - 1 - p, n - 1) for p in range(n)]

    def shared(self, n: int, place: int, size: int) -> Fraction:
        """Points for ``size`` sides tied at ``place`` (1-based) of ``n``: the mean of the places they
        cover, exactly. The two sides of a table of two who tie score a draw (without the league's list)."""
        if n == 2 and size == 2 and not self.uses_list:
            return self.draw
        covered = self.by_place(n)[place - 1:place - 1 + size]
        return sum(covered, Fraction(0)) / len(covered)


@dataclass(frozen=True)
class SeatScore:
    entrant_id: int
    place: int | None
    points: Fraction
    game_points: int | None = None
    result: str | None = None      # "win" | "draw" | "loss" | None (not played)
    bye: bool = False
    forfeited: bool = False        # a match missed (counted as a forfeit)
    side: int | None = None        # partners at a played match share it


@dataclass(frozen=True)
class SeatIn:
    entrant_id: int
    match_seat: int | None
    forfeited: bool
    side: int | None = None        # the side of ``match_seat`` (None: the seat plays alone)


def table_scores(*, kind: str, seats: Sequence[SeatIn], result: dict[str, Any] | None,
                 rules: Rules) -> list[SeatScore]:
    """Score one decided table.

    - a bye: the bye points (Swiss) or nothing (a rest); a bye or rest paired for a player who has
      withdrawn since scores nothing and is no forfeit (no match was missed, and everyone else in the
      round has a table already);
    - a finished match: places by side from its ranking (partners share theirs), tied sides sharing
      the points of the places they cover; a forfeited seat (withdrawn before the match) comes
      last under the ``award`` rule, and scores nothing under ``void``;
    - no match (or an aborted one): under ``award`` the players left share the places above the
      forfeited ones; under ``void`` (or with nobody forfeited) nobody scores.

    A side alone in first place wins; sides sharing first place draw; every other side loses.
    """
    if kind == BYE:
        return [SeatScore(s.entrant_id, None, Fraction(0)) if s.forfeited else
                SeatScore(s.entrant_id, None, rules.bye_points, bye=True) for s in seats]
    by_seat = {s.match_seat: s for s in seats if s.match_seat is not None}
    # who forfeited this table: withdrawn and not ranked by a finished match
    forfeiters = [s.entrant_id for s in seats if s.forfeited and (result is None or s.match_seat is None)]
    award = rules.forfeit_rule == "award"

    def unit(s: SeatIn) -> tuple[str, int]:
        """A side's key: partners at the match share one, everyone else is a side alone."""
        return ("side", s.side) if s.side is not None and s.match_seat is not None else ("entrant", s.entrant_id)

    # groups of sides, best first; a side is a list of entrant ids
    groups: list[list[list[int]]] = []
    if result is not None:
        for group in result["ranking"]:
            sides: dict[tuple[str, int], list[int]] = {}
            for seat in group:
                sides.setdefault(unit(by_seat[seat]), []).append(by_seat[seat].entrant_id)
            groups.append(list(sides.values()))
        game_points = {by_seat[seat].entrant_id: score for seat, score in enumerate(result.get("scores") or [])
                       if seat in by_seat}
        if award and forfeiters:
            groups.append([[e] for e in forfeiters])
    else:
        # no result: a side with a forfeited seat forfeits (a partner who leaves forfeits for the pair)
        seated: dict[tuple[str, int], list[SeatIn]] = {}
        for s in seats:
            seated.setdefault(unit(s), []).append(s)
        losing = [[s.entrant_id for s in side] for side in seated.values() if any(s.forfeited for s in side)]
        playing = [[s.entrant_id for s in side] for side in seated.values() if not any(s.forfeited for s in side)]
        if award and losing and playing:
            groups = [playing, losing]
        game_points = {}
    side_of = {s.entrant_id: s.side for s in seats if s.match_seat is not None}
    n = sum(len(g) for g in groups)
    out: dict[int, SeatScore] = {}
    place = 1
    for group in groups:
        points = rules.shared(n, place, len(group))
        for side in group:
            for e in side:
                outcome = "loss" if (place > 1 or e in forfeiters) else ("win" if len(group) == 1 else "draw")
                out[e] = SeatScore(e, place, points, game_points.get(e), outcome, forfeited=e in forfeiters,
                                   side=side_of.get(e))
        place += len(group)
    for s in seats:
        if s.entrant_id not in out:
            out[s.entrant_id] = SeatScore(s.entrant_id, None, Fraction(0), forfeited=s.forfeited)
    return [out[s.entrant_id] for s in seats]
