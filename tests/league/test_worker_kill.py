"""A worker killed mid-tournament (``kill -9``, pool and all) does not stall the tournament: after a new
worker starts, the sweepers (Celery beat) re-queue the matches and tables whose tasks died with the
old one, and the tournament finishes with every match played once and verifiable.

The worker runs on its own queue, so the suite's shared worker cannot help it along."""
from __future__ import annotations

import os
import signal

import pytest

from games.models import Event, Match
from games.records import match_verify
from league import services
from league.models import Folded, RatingHistory, Round, Table, Tournament
from tests.conftest import start_worker, stop_worker
from tests.league.conftest import make_tournament
from tests.league.test_services import assert_standings_match_the_match_results
from tests.waiting import wait_until

QUEUE = "cardleague-kill-test"
# small bot batches: the killed worker dies with work in flight; quick sweeps: the test stays short
WORKER_ENV = {"CARDLEAGUE_BOT_MOVES_PER_TASK": "15", "CARDLEAGUE_SWEEP_EVERY": "2", "CARDLEAGUE_STALL_SECONDS": "4",
              "CELERY_VISIBILITY_TIMEOUT": "20"}


@pytest.fixture
def own_queue():
    from cardleague.celery import app

    before = app.conf.task_default_queue, app.conf.task_always_eager
    app.conf.task_default_queue, app.conf.task_always_eager = QUEUE, False
    yield
    app.conf.task_default_queue, app.conf.task_always_eager = before


def _kill_group(proc) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


@pytest.mark.slow
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_tournament_finishes_after_its_worker_is_killed_mid_round(own_queue, django_db_blocker):
    # given an eight-bot Swiss of LIVOL to 100 points running on a worker
    club = services.club_create(name="Kill Club", slug="kill")
    league = services.league_create(club_id=club.pk, name="LIVOL", game="livol", options={"target": 100})
    tournament = make_tournament(league, format="swiss", players=8, rounds=3)
    first = start_worker(queue=QUEUE, env=WORKER_ENV, name="doomed")
    services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)
    # when the worker is killed while matches are under way
    wait_until(lambda: Event.objects.filter(match__league_table__round__tournament=tournament).count() >= 300,
               within=120, every=0.1, why="the first worker never got going")
    _kill_group(first)
    running = Match.objects.filter(league_table__round__tournament=tournament, status=Match.Status.RUNNING).count()
    assert running, "the worker should die with matches in progress"
    # and a new worker (with its beat) starts
    second = start_worker(queue=QUEUE, env=WORKER_ENV, beat=True, name="survivor")
    try:
        wait_until(lambda: Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED,
                   within=300, every=0.5,
                   why=lambda: (f"stalled: rounds {list(tournament.round_set.values_list('number', 'status'))}\n"
                                + "".join(second.log[-30:])))
    finally:
        stop_worker(second, django_db_blocker)
    # then every table was played once, every match verifies, and the projections folded once each
    tables = list(Table.objects.filter(round__tournament=tournament, kind=Table.Kind.MATCH).select_related("match"))
    assert len(tables) == 12
    assert list(tournament.round_set.values_list("status", flat=True)) == [Round.Status.CLOSED] * 3
    assert Match.objects.filter(league_table__round__tournament=tournament).count() == 12
    for table in tables:
        assert table.match.status == Match.Status.FINISHED and match_verify(table.match).ok
    assert Folded.objects.filter(table__in=tables, projection=Folded.Projection.STANDINGS).count() == 12
    assert RatingHistory.objects.filter(table__in=tables).count() == 24
    assert_standings_match_the_match_results(tournament)
