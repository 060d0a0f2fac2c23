"""A tournament of people with a move clock finishes on its own even though one person never plays: the
clocks (Celery beat in a real worker) record the absent person's timeouts, and everyone else sees what
waits for them."""
from __future__ import annotations

import contextlib

import pytest
from django.test import Client

from engine import registry
from games import services as games
from games import store
from games.models import Event, Match, Seat
from games.records import match_verify
from games.selectors.people import waits_for
from league import services
from league.models import Tournament
from tests.conftest import start_worker, stop_worker
from tests.waiting import wait_until

QUEUE = "cardleague-clock-test"
WORKER_ENV = {"CARDLEAGUE_CLOCKS_EVERY": "1", "CARDLEAGUE_SWEEP_EVERY": "2", "CARDLEAGUE_STALL_SECONDS": "3"}


@pytest.fixture
def own_queue():
    from cardleague.celery import app

    before = app.conf.task_default_queue, app.conf.task_always_eager
    app.conf.task_default_queue, app.conf.task_always_eager = QUEUE, False
    yield
    app.conf.task_default_queue, app.conf.task_always_eager = before


@pytest.mark.slow
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_four_person_swiss_with_a_clock_finishes_though_one_person_never_plays(own_queue, django_user_model,
                                                                                  django_db_blocker):
    # given a LIVOL league with a move clock (short, for the test: 5 s a move, 10 s to take a seat)
    club = services.club_create(name="Clock Club", slug="clock")
    league = services.league_create(club_id=club.pk, name="LIVOL blitz", game="livol", options={"target": 25})
    league.clock = {"move_seconds": 5, "join_seconds": 10}
    league.save()
    tournament = services.tournament_create(league_id=league.pk, name="Tuesday Swiss", format="swiss", rounds=2,
                                            seeding="entry")
    people = [django_user_model.objects.create_user(username=n, password="pw") for n in ("anna", "janis", "ruta",
                                                                                         "absent")]
    for person in people:
        services.entrant_add(tournament_id=tournament.pk, player_id=services.player_for_user(user=person).pk)
    absent = people[3]
    worker = start_worker(queue=QUEUE, env=WORKER_ENV, beat=True, name="clocks")
    try:
        services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)
        # when the three present people take their seats and play (the first legal move, calling
        # LIVOL! when they may), and the fourth never comes
        game = registry.get("livol")
        saw_waiting = False

        def people_move_until_finished() -> bool:
            """The people present take their seats and move when it is their turn; True once it is over."""
            nonlocal saw_waiting
            if Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED:
                return True
            for seat in Seat.objects.filter(match__league_table__round__tournament=tournament,
                                            match__status__in=[Match.Status.WAITING, Match.Status.RUNNING]) \
                    .exclude(user=absent).select_related("match", "user"):
                if seat.status == Seat.Status.SEATED:
                    # everyone sees what waits for them: the seat to take is on their home page
                    saw_waiting |= seat.match_id in [i["match"].pk for i in
                                                     waits_for(seat.user)["invitations"]]
                    games.seat_join(match_id=seat.match_id, user=seat.user, entropy="ab" * 16)
                    continue
                match = Match.objects.get(pk=seat.match_id)
                if not match.is_running or seat.stand_in:
                    continue
                state = store.load_state(match)
                legal = game.legal_moves(state, seat.index)
                if not legal or game.view(state, None)["turn"] != seat.index:
                    continue
                move = next((m for m in legal if m.get("call")), None) or legal[0]
                with contextlib.suppress(Exception):  # a timeout or a bot got there first: look again
                    games.move_submit(match_id=match.pk, seat=seat.index, move=move, expected_seq=match.last_seq)
            return False

        wait_until(people_move_until_finished, within=240, why=lambda: "".join(worker.log[-30:]))
    finally:
        stop_worker(worker, django_db_blocker)
    # then the tournament finished; the absent person never took a seat, timed out and ranked last
    assert saw_waiting
    tables = Match.objects.filter(league_table__round__tournament=tournament)
    assert tables.count() == 4 and all(m.status == Match.Status.FINISHED and match_verify(m).ok for m in tables)
    theirs = tables.filter(seats__user=absent)
    assert theirs.count() == 2
    for match in theirs:
        seat = match.seats.get(user=absent)
        assert Event.objects.filter(match=match, type="seat_timed_out", seat=seat.index).exists()
        assert match.result["ranking"][-1] == [seat.index]
    # and anna's home page shows her results
    client = Client()
    client.force_login(people[0])
    assert "Your recent results" in client.get("/").content.decode()


@pytest.mark.slow
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_two_sweepers_in_two_workers_record_each_timeout_once(own_queue, django_user_model, django_db_blocker):
    """Two workers, each with its own beat, sweep the clocks every second: every due deadline is
    recorded once (the match row is locked and the deadline read again under the lock)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services import SeatSpec, match_create

    people = [django_user_model.objects.create_user(username=f"p{i}", password="pw") for i in range(2)]
    workers = [start_worker(queue=QUEUE, env=WORKER_ENV, beat=True, name=f"sweeper{i}") for i in range(2)]
    try:
        matches = [match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])],
                                seed=f"two-sweepers-{i}", clock={"move_seconds": 60},
                                timeout_rule=Match.TimeoutRule.FORFEIT) for i in range(8)]
        Seat.objects.filter(match__in=matches, deadline__isnull=False).update(
            deadline=timezone.now() - timedelta(seconds=1))
        wait_until(lambda: not Match.objects.filter(pk__in=[m.pk for m in matches],
                                                    status=Match.Status.RUNNING).exists(),
                   within=60, why=lambda: "".join(workers[0].log[-20:]))
    finally:
        for worker in workers:
            stop_worker(worker, django_db_blocker)
    for match in matches:
        assert Event.objects.filter(match=match, type="seat_timed_out").count() == 1
        assert match_verify(match).ok
