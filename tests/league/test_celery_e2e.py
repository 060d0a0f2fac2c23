"""End to end with a real Celery worker: bot tournaments run in the background to the end;
standings and ratings checked against the match results."""

import pytest

from games.models import Match
from games.records import match_verify
from league import services
from league.models import Rating, Round, Table, Tournament
from tests.league.conftest import FAST, make_tournament
from tests.league.test_services import assert_standings_match_the_match_results, expected_ratings
from tests.waiting import wait_until


def _league(slug):
    club = services.club_create(name=f"Club {slug}", slug=slug)
    return services.league_create(club_id=club.pk, name="LIVOL", game="livol", options=dict(FAST))


def _run_in_background(tournament, worker, timeout=240) -> Tournament:
    # the organiser generates round 1 and starts it; the workers do the rest
    services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)

    def finished() -> bool:
        tournament.refresh_from_db()
        return tournament.status == Tournament.Status.FINISHED

    wait_until(finished, within=timeout, every=0.5,
               why=lambda: f"not finished: {list(tournament.round_set.values_list('number', 'status'))}\n"
                           + "".join(worker.log[-30:]))
    return tournament


def _check(tournament, rounds: int, matches: int):
    assert list(tournament.round_set.values_list("number", "status")) == [(n, Round.Status.CLOSED)
                                                                          for n in range(1, rounds + 1)]
    tables = Table.objects.filter(round__tournament=tournament, kind=Table.Kind.MATCH).select_related("match")
    assert tables.count() == matches
    assert Match.objects.filter(league_table__round__tournament=tournament).count() == matches
    for table in tables:
        assert table.match.status == Match.Status.FINISHED
        assert match_verify(table.match).ok
    assert_standings_match_the_match_results(tournament)
    expected = expected_ratings([tournament])
    got = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(player__entries__tournament=tournament)}
    assert got.keys() == expected.keys()
    for player, values in expected.items():
        assert got[player] == pytest.approx(values, abs=1e-9)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_an_eight_bot_swiss_of_livol_runs_three_rounds_in_the_background(real_celery):
    tournament = make_tournament(_league("swiss"), format="swiss", players=8, rounds=3)
    tournament = _run_in_background(tournament, real_celery)
    _check(tournament, rounds=3, matches=12)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_round_robin_at_three_seat_tables_runs_in_the_background(real_celery):
    # six bots at three-seat LIVOL tables: every pair meets, points 2/1/0 by place
    tournament = make_tournament(_league("rr"), format="round_robin", players=6, seats=3)
    tournament = _run_in_background(tournament, real_celery)
    rounds = tournament.rounds
    assert rounds >= 3
    _check(tournament, rounds=rounds, matches=2 * rounds)
    assert set(Table.objects.filter(round__tournament=tournament).values_list("seats__table", flat=True)) and all(
        t.seats.count() == 3 for t in Table.objects.filter(round__tournament=tournament))


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_bot_tournament_through_celery_waits_for_the_workers_and_prints_the_standings(real_celery):
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("bot_tournament", "--game", "livol", "--format", "knockout", "--players", "4", "--policy", "greedy",
                 "--option", "target=30", "--timeout", "180", stdout=out)
    tournament = Tournament.objects.get(league__club__slug="bot-arena")
    assert tournament.status == Tournament.Status.FINISHED
    assert "Final standings" in out.getvalue() and "Winner" in out.getvalue()
