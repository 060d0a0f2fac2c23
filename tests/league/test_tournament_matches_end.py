"""A tournament's match plays on when its people gave up (the bots stop for nobody, except
where the result counts)."""
from __future__ import annotations

from games.models import Event, Match


def test_a_tournament_match_plays_on_when_its_people_gave_up(league):
    # given a tournament's four-seat table of two people and two bots, both people resigned
    from django.contrib.auth import get_user_model

    from games.services import match_resign
    from league import services
    from league.models import Table

    User = get_user_model()
    league.options = {"target": 30}
    league.save()
    tournament = services.tournament_create(league_id=league.pk, name="Plays on", format="swiss", seats_per_table=4,
                                            rounds=1)
    for name in ("anna", "janis"):
        services.entrant_add(tournament_id=tournament.pk,
                             player_id=services.player_for_user(user=User.objects.create_user(username=name)).pk)
    services.bots_add(tournament_id=tournament.pk, count=2, policy="greedy")
    rnd = services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=rnd.pk)
    match = Table.objects.get(round__tournament=tournament).match
    for seat in match.seats.filter(user__isnull=False):
        match.refresh_from_db()
        if match.is_running:
            match_resign(match_id=match.pk, seat=seat.index)
    match.refresh_from_db()
    # then it is not stopped for want of people: its result counts for the standings
    assert match.status != Match.Status.ABORTED
    assert not Event.objects.filter(match=match, type="match_aborted").exists()
