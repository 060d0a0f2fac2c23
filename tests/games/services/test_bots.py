"""The bots (``games/services/bots.py``). Stretches: the bots' moves up to a person's turn are played in memory
and recorded in one transaction, and the events are exactly those of one-by-one play. The grace: no bot
catches a person's missed call before it is over."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from engine import registry
from games import store
from games.models import Event, Match
from games.records import match_verify
from games.services import SeatSpec, bots_advance, match_create, move_submit
from games.services.bots import bot_move_alone, bots_stretch

SETUPS = {"livol": ({"target": 40}, 3), "uno_flip": ({"target": 40}, 3), "karuselis": ({"target": 15}, 2),
          "iota": ({}, 2), "cardavia": ({"lives": 1}, 4)}


def recorded(match) -> list[str]:
    """The match's events byte for byte, all but when they were recorded (and so their hashes)."""
    return [json.dumps([e.seq, e.type, e.seat, e.move, e.payload], sort_keys=True)
            for e in Event.objects.filter(match=match).order_by("seq")]


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_a_stretch_records_exactly_what_one_by_one_play_records(game, db):
    """One match, recorded twice from the same position: by stretches and one by one (the second run
    in a savepoint that is rolled back), must give identical event streams."""
    from django.db import transaction

    options, seats = SETUPS[game]
    specs = [SeatSpec(bot=("greedy", "random")[i % 2]) for i in range(seats)]
    match = match_create(game=game, seats=specs, seed=f"twice-{game}", options=options, wake_bots=False)
    start = match.last_seq
    sid = transaction.savepoint()
    while bot_move_alone(match_id=match.pk):
        pass
    alone = recorded(match)
    transaction.savepoint_rollback(sid)
    store.forget_cache()
    assert Match.objects.get(pk=match.pk).last_seq == start
    while bots_advance(match_id=match.pk, budget=10_000).more:
        pass
    assert recorded(match) == alone
    assert match_verify(match).ok


def test_a_stretch_ends_after_its_thinking_time_and_the_next_one_records_the_same_events(db, settings):
    """A searching bot thinks for a while: a stretch stops after ``CARDLEAGUE_BOT_STRETCH_SECONDS``
    (here: after every move), so moves reach the pages as they come, and the stream is unchanged."""
    from django.db import transaction

    specs = [SeatSpec(bot="search-easy"), SeatSpec(bot="greedy")]
    match = match_create(game="karuselis", seats=specs, seed="thinking", options={"deck": "small", "target": 15},
                         wake_bots=False)
    sid = transaction.savepoint()
    bots_advance(match_id=match.pk, budget=12)
    whole = recorded(match)
    transaction.savepoint_rollback(sid)
    store.forget_cache()
    settings.CARDLEAGUE_BOT_STRETCH_SECONDS = 0
    first = bots_stretch(match_id=match.pk, bound=200)
    assert first.made == 1 and first.more
    bots_advance(match_id=match.pk, budget=11)
    assert recorded(match) == whole
    assert match_verify(match).ok


def test_a_stretch_is_one_transaction_with_one_insert_of_its_events(people, monkeypatch):
    match = match_create(game="karuselis", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")], seed="one",
                         options={"target": 15}, wake_bots=False)
    before = match.last_seq
    inserts = []
    real = store._insert
    monkeypatch.setattr(store, "_insert", lambda rows: (inserts.append(len(rows)), real(rows)))
    with CaptureQueriesContext(connection) as queries:
        run = bots_stretch(match_id=match.pk, bound=40)
    after = Match.objects.get(pk=match.pk).last_seq
    assert run.made == 40 and inserts == [after - before]
    commits = [q for q in queries.captured_queries if q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]
    assert len(commits) == 2  # one transaction (a savepoint inside the test's own)


def test_the_bots_stop_at_a_persons_turn_and_a_persons_move_wakes_them(people, django_capture_on_commit_callbacks):
    match = match_create(game="karuselis", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="wake",
                         options={"target": 15}, wake_bots=False)
    game = registry.get("karuselis")
    for _ in range(200):
        match.refresh_from_db()
        if not match.is_running:
            break
        state = store.load_state(match)
        if game.view(state, None)["turn"] == 0:
            with django_capture_on_commit_callbacks(execute=True):  # the commit wakes the bots (eagerly here)
                move_submit(match_id=match.pk, seat=0, move=game.legal_moves(state, 0)[0],
                            expected_seq=match.last_seq)
            match.refresh_from_db()
            # the bot answered at once: it is the person's turn again, or the match ended
            assert not match.is_running or game.view(store.load_state(match), None)["turn"] == 0
        else:
            bots_advance(match_id=match.pk)
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
