"""Teams: creating them and putting entrants in them; and the draw of a partnership team event.

A partnership team event: the game plays partnerships at the tournament's table size (Karuselis at four:
seats 0 and 2 against 1 and 3) and every entrant is in a team of one side's size (a pair). Its format then
draws the teams as if each were one player at a table of as many places as there are sides
(``PartnerUnits``), and each team's players sit on one side: team-mates are always partners, never
opponents. Any format does this, unchanged: it is handed the teams instead of the players.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from django.db import IntegrityError, transaction

from league.formats.base import Field, Seating, Setup
from league.models import Club, Entrant, Team, Tournament
from league.rules.pairing import Contender
from league.services.errors import InvalidTournament


@transaction.atomic
def team_create(*, tournament_id: int, name: str, entrant_ids: Sequence[int] = (), club_id: int | None = None,
                seed: int | None = None) -> Team:
    """A team of a tournament (before it starts), with the entrants given as its members, in that order
    (their seeds within the team follow it)."""
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
    if tournament.status != Tournament.Status.DRAFT:
        raise InvalidTournament("teams are made before the tournament starts")
    club = Club.objects.filter(pk=club_id).first() if club_id else None
    try:
        with transaction.atomic():
            team = Team.objects.create(tournament=tournament, name=name, club=club,
                                       seed=seed if seed is not None else tournament.teams.count() + 1)
    except IntegrityError:
        raise InvalidTournament(f"a team named {name!r} exists already") from None
    team_members_set(team_id=team.pk, entrant_ids=entrant_ids)
    return team


@transaction.atomic
def team_members_set(*, team_id: int, entrant_ids: Sequence[int]) -> Team:
    """Put these entrants of the team's tournament in the team (taking them out of any other), in order:
    the first given plays board 1 of a team match."""
    team = Team.objects.select_related("tournament").get(pk=team_id)
    if team.tournament.status != Tournament.Status.DRAFT:
        raise InvalidTournament("teams are made before the tournament starts")
    entrants = {e.pk: e for e in Entrant.objects.filter(tournament=team.tournament, pk__in=entrant_ids)}
    if len(entrants) != len(set(entrant_ids)):
        raise InvalidTournament("every member must be an entrant of the team's tournament")
    order = sorted(e.seed for e in entrants.values())
    for seed, entrant_id in zip(order, entrant_ids):
        entrant = entrants[entrant_id]
        entrant.team, entrant.seed = team, seed
        entrant.save(update_fields=["team", "seed"])
    return team


def _side_seats(sides: tuple[int, ...]) -> list[list[int]]:
    """The seats of each side, sides in order of their first seat."""
    out: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        out.setdefault(side, []).append(seat)
    return list(out.values())


def partner_units(setup: Setup, field: Field) -> PartnerUnits | None:
    """The teams as units, when this is a partnership team event (else None: the players are drawn)."""
    sides = dict(setup.sides).get(setup.seats)
    if sides is None:
        return None
    seats_of = _side_seats(sides)
    size = len(seats_of[0])
    if any(len(s) != size for s in seats_of):
        return None
    teams = field.teams()
    if not teams or any(len(t) != size for t in teams):
        return None
    if {e for t in teams for e in t} != set(field.starters()):
        return None     # someone plays without a team: the players are drawn one by one
    return PartnerUnits(setup, field, teams, seats_of)


class PartnerUnits:
    """A partnership team event's field as its format draws it: each team one contender (named by its
    first member), at a table of as many places as there are sides; ``expand`` seats the teams' players."""

    def __init__(self, setup: Setup, field: Field, teams: list[list[int]], seats_of: list[list[int]]):
        self.inner, self.teams_, self.seats_of = field, teams, seats_of
        self.setup = Setup(seats=len(seats_of), min_seats=2, sides=(), rounds=setup.rounds, options=setup.options)
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
