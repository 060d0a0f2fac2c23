"""A continuous format's players (an arena): pausing, coming back, and joining while its window is open.

Each change seats whoever is free at once (``league.services.rounds.round_extend``)."""
from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction

from league.models import Entrant, Round, Standing, Tournament
from league.services.errors import AlreadyEntered, NotContinuous, NotEntered, NotTakingEntries
from league.services.rounds import round_extend, seating_open
from league.services.tournaments import entrant_add


def _running_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.filter(status=Round.Status.RUNNING).order_by("-number").first()


@transaction.atomic
def entrant_pause(*, entrant_id: int, paused: bool = True, now: datetime | None = None) -> Entrant:
    """Pause an entrant of a continuous format (not seated again until they come back: a table in play is
    finished), or bring them back (``paused=False``: seated at once if someone is free)."""
    entrant = Entrant.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=entrant_id)
    tournament = entrant.tournament
    if not tournament.format_rules.continuous:
        raise NotContinuous()
    if tournament.status == Tournament.Status.FINISHED:
        raise NotTakingEntries()
    if entrant.paused != paused:
        entrant.paused = paused
        entrant.save(update_fields=["paused"])
    rnd = _running_round(tournament)
    if not paused and rnd is not None:
        round_extend(round_id=rnd.pk, now=now)
    return entrant


@transaction.atomic
def arena_join(*, tournament_id: int, player_id: int, now: datetime | None = None) -> Entrant:
    """Enter a continuous format's tournament: before it starts as any entry, while its window is open as a
    late entry, seated at once if someone is free."""
    # the tournament row is not locked here: closing the round locks the round, then the tournament, and a
    # late entry locks the round (``round_extend``); the unique (tournament, player) keeps entries single
    tournament = Tournament.objects.get(pk=tournament_id)
    if not tournament.format_rules.continuous:
        raise NotContinuous()
    if tournament.status == Tournament.Status.DRAFT:
        return entrant_add(tournament_id=tournament_id, player_id=player_id)
    if tournament.status != Tournament.Status.RUNNING or not seating_open(tournament, now):
        raise NotTakingEntries()
    if tournament.entrants.filter(player_id=player_id).exists():
        raise AlreadyEntered()
    try:
        with transaction.atomic():
            entrant = Entrant.objects.create(tournament=tournament, player_id=player_id,
                                             seed=tournament.entrants.count() + 1)
    except IntegrityError:
        raise AlreadyEntered() from None
    Standing.objects.get_or_create(tournament=tournament, entrant=entrant)
    rnd = _running_round(tournament)
    if rnd is not None:
        round_extend(round_id=rnd.pk, now=now)
    return entrant


def tournament_pause(*, tournament_id: int, user, paused: bool = True, now: datetime | None = None) -> Entrant:
    """Pause (or bring back) the signed-in person's own entry in a continuous format's tournament."""
    entrant = Entrant.objects.filter(tournament_id=tournament_id, player__user=user).first()
    if entrant is None:
        raise NotEntered()
    return entrant_pause(entrant_id=entrant.pk, paused=paused, now=now)
