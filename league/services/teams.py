"""Teams: creating them and putting entrants in them (a partnership team event's draw:
``league.formats.partners``)."""
from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction

from league.models import Club, Entrant, Team, Tournament
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
