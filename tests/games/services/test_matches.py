"""People at the table: invitations, taking a seat with one's own randomness, resigning, the clocks and
their timeouts, the organiser's abort and award, and the grace before a bot catches a missed call."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from engine import registry
from engine.core import match_seed, server_contribution
from games import services, store
from games.records import match_verify
from games.errors import InvitationClosed, MatchWaiting, SeatForbidden
from games.models import Event, Match, Seat
from games.services import SeatSpec, bots_advance, match_create, move_submit
from tests.games.conftest import first_actor

ENTROPY = "0123456789abcdef" * 2


def types(match) -> list[str]:
    return list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))


def person_to_act(match):
    match.refresh_from_db()
    state = store.load_state(match)
    game = registry.get(match.game)
    return game.view(state, None)["turn"], state


# -- invitations and joining -------------------------------------------------------------------------

def test_a_match_with_an_open_invitation_waits_and_starts_when_it_is_accepted(people):
    # given anna invites janis; a bot fills the third seat
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], entropy=ENTROPY),
                                              SeatSpec(user=people[1], invite=True), SeatSpec(bot="greedy")])
    # then nothing is dealt while the invitation is open
    assert match.status == Match.Status.WAITING
    assert types(match) == ["match_opened", "entropy_contributed", "entropy_contributed"]
    with pytest.raises(MatchWaiting):
        move_submit(match_id=match.pk, seat=0, move={"type": "draw"})
    # when janis accepts with the value his browser drew
    services.seat_join(match_id=match.pk, user=people[1], entropy="fe" * 16)
    match.refresh_from_db()
    # then the match starts, dealt from the secret together with every seat's value
    assert match.status == Match.Status.RUNNING
    values = [ENTROPY, "fe" * 16, server_contribution(match.seed, 2)]
    started = Event.objects.get(match=match, type="match_started")
    assert started.payload["seed"] == match_seed(match.seed, values)
    assert match_verify(match).ok


def test_declining_an_invitation_cancels_the_match(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    services.seat_decline(match_id=match.pk, user=people[1])
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    assert types(match)[-2:] == ["match_aborted", "seed_revealed"]
    with pytest.raises(InvitationClosed):
        services.seat_join(match_id=match.pk, user=people[1])
    assert match_verify(match).ok


def test_only_the_invited_person_can_accept_or_decline(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    with pytest.raises(SeatForbidden):
        services.seat_join(match_id=match.pk, user=people[2])
    with pytest.raises(InvitationClosed):
        services.seat_decline(match_id=match.pk, user=people[0])  # already at the table


def test_joining_twice_changes_nothing(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    services.seat_join(match_id=match.pk, user=people[1], entropy=ENTROPY)
    before = types(match)
    services.seat_join(match_id=match.pk, user=people[1], entropy="ab" * 16)
    assert types(match) == before


def test_a_contribution_is_hidden_from_other_seats_until_the_match_starts(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], entropy=ENTROPY),
                                              SeatSpec(user=people[1], invite=True)])
    event = Event.objects.get(match=match, type="entropy_contributed", seat=0)
    assert store.redact_event(match, event.payload, 1) == {"type": "entropy_contributed", "seat": 0, "by": "player"}
    assert store.redact_event(match, event.payload, 0)["value"] == ENTROPY
    services.seat_join(match_id=match.pk, user=people[1])
    match.refresh_from_db()
    assert store.redact_event(match, event.payload, 1)["value"] == ENTROPY


def test_the_invitations_api_lists_and_answers_invitations(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         created_by=people[0])
    client = Client()
    client.force_login(people[1])
    listed = client.get("/api/invitations").json()
    assert [(i["match"], i["seat"], i["status"], i["invited_by"]) for i in listed] == \
        [(match.pk, 1, "invited", "player0")]
    bad = client.post(f"/api/matches/{match.pk}/join", {"entropy": "not hex"}, content_type="application/json")
    assert bad.status_code == 400
    joined = client.post(f"/api/matches/{match.pk}/join", {"entropy": ENTROPY}, content_type="application/json")
    assert joined.status_code == 200 and joined.json()["status"] == "running"
    assert client.get("/api/invitations").json() == []


# -- resigning ------------------------------------------------------------------------------------------

def test_a_resigning_person_ranks_last_and_a_bot_plays_their_seat_on(people, django_capture_on_commit_callbacks):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1]),
                                              SeatSpec(bot="greedy")], seed="resign", options={"target": 40})
    services.match_resign(match_id=match.pk, seat=0)
    seat = Seat.objects.get(match=match, index=0)
    assert seat.stand_in == "greedy"
    assert types(match)[-2:] == ["seat_resigned", "bot_took_seat"]
    # the others play on to the end; the resigned seat is played by its stand-in
    for _ in range(5000):
        match.refresh_from_db()
        if not match.is_running:
            break
        turn, state = person_to_act(match)
        if turn == 1:
            legal = registry.get("livol").legal_moves(state, 1)
            move_submit(match_id=match.pk, seat=1, move=legal[0], expected_seq=match.last_seq)
        else:
            bots_advance(match_id=match.pk, budget=50)
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"][-1] == [0]
    assert match_verify(match).ok


def test_resigning_with_two_seats_ends_the_match_at_once(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="two")
    client = Client()
    client.force_login(people[1])
    response = client.post(f"/api/matches/{match.pk}/resign", {}, content_type="application/json")
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"] == [[0], [1]]
    assert types(match)[-1] == "seed_revealed" and match_verify(match).ok


# -- the organiser ------------------------------------------------------------------------------------------

def test_the_organiser_awards_a_match_and_the_award_is_an_event(people, django_user_model):
    organiser = django_user_model.objects.create_user(username="org", password="pw", is_staff=True)
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="award")
    services.match_award(match_id=match.pk, ranking=[[1], [0]], by=organiser, reason="anna left the club")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"] == [[1], [0]] and match.result["awarded"] is True
    assert types(match)[-2:] == ["match_awarded", "seed_revealed"]
    assert match_verify(match).ok


def test_an_award_must_rank_every_seat_once(people):
    from games.errors import MalformedRequest

    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="bad")
    for ranking in ([[1]], [[0], [0, 1]], [[0], [2]], "01", [[True], [0]]):
        with pytest.raises(MalformedRequest):
            services.match_award(match_id=match.pk, ranking=ranking)
    assert Match.objects.get(pk=match.pk).is_running


def test_an_abort_is_an_event_and_reveals_the_secret(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="abort")
    services.match_abort(match_id=match.pk, reason="power cut")
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and types(match)[-2:] == ["match_aborted", "seed_revealed"]
    assert match_verify(match).ok


# -- clocks ---------------------------------------------------------------------------------------------------

LIVE = {"move_seconds": 60}


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


def _expire(match):
    Seat.objects.filter(match=match, deadline__isnull=False).update(deadline=timezone.now() - timedelta(seconds=1))


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


# -- the grace before bots catch a person ----------------------------------------------------------------------

def _leave_one_card_uncalled(match, person):
    """Play the person's moves (never calling) and the bot's until the person holds one card uncalled."""
    game = registry.get("livol")
    for _ in range(3000):
        match.refresh_from_db()
        state = store.load_state(match)
        view = game.view(state, None)
        if view["catchable"] == person:
            return
        assert match.is_running, "the round ended before the person was left with one card"
        if view["turn"] == person:
            legal = [m for m in game.legal_moves(state, person) if not m.get("call") and m["type"] != "call"]
            move_submit(match_id=match.pk, seat=person, move=legal[0], expected_seq=match.last_seq)
        else:
            bots_advance(match_id=match.pk, budget=1)
    raise AssertionError("never catchable")


def test_no_bot_catches_a_person_within_the_grace_and_the_persons_call_wins(people, settings):
    settings.CARDLEAGUE_CALL_GRACE_SECONDS = 3
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="grace-1",
                         options={"target": 500})
    _leave_one_card_uncalled(match, 0)
    # when the bot looks within the grace, it waits and says for how long
    run = bots_advance(match_id=match.pk)
    assert run.made == 0 and run.more and 0 < run.wait <= 3
    # and the person's own call lands first
    match.refresh_from_db()
    move_submit(match_id=match.pk, seat=0, move={"type": "call"}, expected_seq=match.last_seq)
    assert not Event.objects.filter(match=match, type="seat_caught").exists()


def test_after_the_grace_the_bot_may_catch(people, settings):
    settings.CARDLEAGUE_CALL_GRACE_SECONDS = 3
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="grace-1",
                         options={"target": 500})
    _leave_one_card_uncalled(match, 0)
    Match.objects.filter(pk=match.pk).update(moved_at=timezone.now() - timedelta(seconds=4))
    bots_advance(match_id=match.pk, budget=1)
    assert Event.objects.filter(match=match, type="seat_caught", payload__target=0).exists()


def test_a_match_waiting_for_its_players_shows_a_short_board_that_says_so(people):
    # no deal yet: the page says who it waits for, and the board is a one-line banner, not an empty table
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    client = Client()
    client.force_login(people[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'class="board live is-waiting"' in page
    assert "Waiting for the players to take their seats" in page
    assert f"Waiting for {people[1].username}" in page
