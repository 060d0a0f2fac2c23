"""A partnership team event's draw: the game plays partnerships at the tournament's table size (Karuselis
at four: seats 0 and 2 against 1 and 3) and every entrant is in a team of one side's size (a pair). Its format
then draws the teams as if each were one player at a table of as many places as there are sides
(``PartnerUnits``), and each team's players sit on one side: team-mates are always partners, never opponents.
Any format does this unchanged: it is handed the teams instead of the players. Pure, like the formats (this
module is no format: the registry does not list it)."""
from __future__ import annotations

from collections import Counter, defaultdict

from league.formats.base import Field, Seating, Setup
from league.rules.pairing import Contender


def _side_seats(sides: tuple[int, ...]) -> list[list[int]]:
    """The seats of each side, sides in order of their first seat."""
    out: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        out.setdefault(side, []).append(seat)
    return list(out.values())


def unit_setup(setup: Setup, teams: list[list[int]], starters: list[int]) -> Setup | None:
    """The setup a partnership team event's format draws its teams with (a place per side), or None when
    this is none: the game plays no partnerships at this table size, a team is not one side's size, or
    someone plays without a team."""
    sides = dict(setup.sides).get(setup.seats)
    if sides is None:
        return None
    seats_of = _side_seats(sides)
    if any(len(s) != len(seats_of[0]) for s in seats_of):
        return None
    if not teams or any(len(t) != len(seats_of[0]) for t in teams):
        return None
    if {e for t in teams for e in t} != set(starters):
        return None
    return Setup(seats=len(seats_of), min_seats=2, sides=(), rounds=setup.rounds, options=setup.options)


def partner_units(setup: Setup, field: Field) -> PartnerUnits | None:
    """The teams as units, when this is a partnership team event (else None: the players are drawn)."""
    teams = field.teams()
    units = unit_setup(setup, teams, field.starters())
    if units is None:
        return None
    return PartnerUnits(units, field, teams, _side_seats(dict(setup.sides)[setup.seats]))


class PartnerUnits:
    """A partnership team event's field as its format draws it: each team one contender (named by its
    first member), at a table of as many places as there are sides; ``expand`` seats the teams' players."""

    def __init__(self, setup: Setup, field: Field, teams: list[list[int]], seats_of: list[list[int]]):
        self.setup, self.inner, self.teams_, self.seats_of = setup, field, teams, seats_of
        self.unit = {e: t[0] for t in teams for e in t}
        self.members = {t[0]: t for t in teams}

    def starters(self) -> list[int]:
        return [t[0] for t in self.teams_]

    def teams(self) -> list[list[int]]:
        return self.inner.teams()

    def contenders(self) -> list[Contender]:
        out: dict[int, Contender] = {}
        for c in self.inner.contenders():
            rep = self.unit[c.id]
            if rep in out:
                continue
            opponents = [self.unit.get(o, o) for o in c.opponents]
            # each table lists the other team's players one after the other: one meeting per table
            met, counted = [], Counter[int]()
            for o in opponents:
                counted[o] += 1
                if counted[o] % len(self.seats_of[0]) == 1 or len(self.seats_of[0]) == 1:
                    met.append(o)
            side = {seat: i for i, seats in enumerate(self.seats_of) for seat in seats}
            out[rep] = Contender(rep, c.score, tuple(met), c.byes, tuple(side.get(s, 0) for s in c.seats))
        return list(out.values())

    def winners(self, number: int) -> list[int | None]:
        return [self.unit.get(w, w) if w is not None else None for w in self.inner.winners(number)]

    def last_rounds(self) -> dict[int, int]:
        out: dict[int, int] = defaultdict(int)
        for e, last in self.inner.last_rounds().items():
            rep = self.unit.get(e, e)
            out[rep] = max(out[rep], last)
        return dict(out)

    def expand(self, seatings: list[Seating] | None) -> list[Seating] | None:
        """The players' tables: each team's players on one side, in the order of its sides' seats; a team's
        bye is a bye for each of its players."""
        if seatings is None:
            return None
        tables: list[tuple[tuple[int, ...], bool]] = []
        for s in seatings:
            if s.bye:
                tables += [((e,), True) for rep in s.entrants for e in self.members[rep]]
                continue
            seated: dict[int, int] = {}
            for side, rep in enumerate(s.entrants):
                for seat, member in zip(self.seats_of[side], self.members[rep]):
                    seated[seat] = member
            tables.append((tuple(seated[k] for k in sorted(seated)), False))
        tables.sort(key=lambda t: t[1])
        return [Seating(n, entrants, bye) for n, (entrants, bye) in enumerate(tables, start=1)]
