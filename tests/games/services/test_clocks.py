"""The clocks (``games/services/clocks.py``): the seat to act has a deadline, a timeout is recorded and a bot
moves or the seat is given up, the time bank pays for a slow move, a seated person who never comes forfeits,
and two sweepers record each timeout once."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from engine import registry
from games import services
from games.models import Event, Match, Seat
from games.records import match_verify
from games.services import SeatSpec, bots_advance, match_create, move_submit
from tests.games.conftest import first_actor
from tests.games.services.test_matches import ENTROPY, person_to_act

LIVE = {"move_seconds": 60}


def _expire(match):
    Seat.objects.filter(match=match, deadline__isnull=False).update(deadline=timezone.now() - timedelta(seconds=1))


def test_the_seat_to_act_has_a_deadline_and_the_others_none(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="clock",
                         clock=LIVE)
    turn, _ = person_to_act(match)
    seats = {s.index: s for s in match.seats.all()}
    assert seats[1 - turn].deadline is None
    assert timedelta(seconds=55) < seats[turn].deadline - timezone.now() <= timedelta(seconds=60)
    body = Client(), None
    client = body[0]
    client.force_login(people[0])
    detail = client.get(f"/api/matches/{match.pk}").json()
    assert detail["clock"] == LIVE
    assert [s["deadline"] is not None for s in detail["seats"]] == [i == turn for i in range(2)]


@pytest.mark.parametrize("clock", [{"move_seconds": 1}, {"move_seconds": 60, "move_days": 1}, {"hours": 2},
                                   {"move_days": 0}, {"move_seconds": "60"}, [60]])
def test_a_bad_clock_is_refused(people, clock):
    with pytest.raises(ValueError):
        match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], clock=clock)


def test_a_timeout_is_recorded_and_a_bot_makes_the_move(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="late",
                         clock=LIVE)
    turn, _ = person_to_act(match)
    _expire(match)
    # when the clocks run
    assert services.clocks_run() == 1
    # then the timeout is an event, followed by the stand-in bot's move for that seat, and the turn moved on
    events = list(Event.objects.filter(match=match).order_by("seq"))
    timeout = next(e for e in events if e.type == "seat_timed_out")
    assert timeout.payload["seat"] == turn and timeout.payload["then"] == "bot_move"
    after = next(e for e in events if e.seq == timeout.seq + 1)
    assert after.seat == turn and after.move is not None
    assert Seat.objects.get(match=match, index=turn).timeouts == 1
    # and running the clocks again records nothing more
    assert services.clocks_run() == 0
    assert match_verify(match).ok


def test_three_timeouts_in_a_row_abandon_the_seat(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1]),
                                              SeatSpec(bot="greedy")], seed="away", clock=LIVE)
    away = None
    for _ in range(200):
        match.refresh_from_db()
        if not match.is_running or (away is not None and Seat.objects.get(match=match, index=away).stand_in):
            break
        turn, state = person_to_act(match)
        if turn == 2:
            bots_advance(match_id=match.pk, budget=20)
            continue
        away = turn if away is None else away
        if turn == away:
            _expire(match)
            services.clocks_run()
        else:
            legal = registry.get("livol").legal_moves(state, turn)
            move_submit(match_id=match.pk, seat=turn, move=legal[0], expected_seq=match.last_seq)
    seat = Seat.objects.get(match=match, index=away)
    assert seat.timeouts == 3 and seat.stand_in == "greedy"
    thens = [e.payload["then"] for e in Event.objects.filter(match=match, type="seat_timed_out").order_by("seq")]
    assert thens == ["bot_move", "bot_move", "resign"]
    assert match_verify(match).ok


def test_under_the_forfeit_rule_a_timeout_resigns_the_seat(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="forfeit",
                         clock=LIVE, timeout_rule=Match.TimeoutRule.FORFEIT)
    turn, _ = person_to_act(match)
    _expire(match)
    services.clocks_run()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"][-1] == [turn]
    assert match_verify(match).ok


def test_a_person_who_moves_in_time_has_no_timeout(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="ontime",
                         clock=LIVE)
    seat, legal = first_actor(match)
    move_submit(match_id=match.pk, seat=seat, move=legal[0], expected_seq=match.last_seq)
    assert services.clocks_run(now=timezone.now() + timedelta(seconds=30)) == 0
    assert not Event.objects.filter(match=match, type="seat_timed_out").exists()


def test_the_time_bank_pays_for_a_slow_move(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="bank",
                         clock={"move_seconds": 30, "bank_seconds": 120})
    seat, legal = first_actor(match)
    row = Seat.objects.get(match=match, index=seat)
    assert timedelta(seconds=145) < row.deadline - timezone.now() <= timedelta(seconds=150)
    # the move took 50 seconds: 20 over its allowance come out of the bank
    Seat.objects.filter(pk=row.pk).update(turn_started_at=timezone.now() - timedelta(seconds=50))
    move_submit(match_id=match.pk, seat=seat, move=legal[0], expected_seq=match.last_seq)
    assert Seat.objects.get(pk=row.pk).bank_left == pytest.approx(100, abs=1)


def test_a_seated_person_who_never_comes_forfeits_when_the_join_time_is_over(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], seated=True),
                                              SeatSpec(user=people[1], seated=True)],
                         clock={"move_seconds": 30, "join_seconds": 60})
    services.seat_join(match_id=match.pk, user=people[0], entropy=ENTROPY)
    assert Match.objects.get(pk=match.pk).is_waiting
    _expire(match)
    assert services.clocks_run() == 1
    match.refresh_from_db()
    # the absent seat's value came from the server's secret; the match started and it resigned at once
    assert match.status == Match.Status.FINISHED and match.result["ranking"] == [[0], [1]]
    timed_out = Event.objects.get(match=match, type="seat_timed_out")
    assert timed_out.payload["phase"] == "join"
    assert match_verify(match).ok


def test_a_match_of_two_people_who_never_come_ends_and_its_record_verifies(people):
    # given a Swiss paired two absentees: neither takes the seat before the join time is over
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], seated=True),
                                              SeatSpec(user=people[1], seated=True)],
                         clock={"move_seconds": 30, "join_seconds": 60})
    _expire(match)
    # when the clocks record both timeouts at once
    assert services.clocks_run() == 2
    # then the match starts and ends with the first resignation (the second seat is left first), and
    # the record verifies though the second timeout has no move of its own
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"] == [[1], [0]]
    assert Event.objects.filter(match=match, type="seat_timed_out").count() == 2
    report = match_verify(match)
    assert report.ok, report


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_sweepers_record_each_timeout_once(people):
    from concurrent.futures import ThreadPoolExecutor

    from tests.conftest import need

    need(connection.vendor == "postgresql", "row locks with SKIP LOCKED are PostgreSQL's")
    matches = [match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])],
                            seed=f"race-{i}", clock=LIVE) for i in range(6)]
    for match in matches:
        _expire(match)

    def sweep(_):
        from django.db import connections

        try:
            return services.clocks_run()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(2) as pool:
        recorded = sum(pool.map(sweep, range(2)))
    assert recorded == 6
    for match in matches:
        assert Event.objects.filter(match=match, type="seat_timed_out").count() == 1
        assert match_verify(match).ok
