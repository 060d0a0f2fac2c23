"""Bots move through Celery: ids in, idempotent, and a real worker finishes a match."""

import pytest

from games.models import Event, Match
from games.records import match_verify
from games.services import SeatSpec, bots_advance, match_create
from games.tasks import bots_play
from tests.waiting import wait_until


def test_a_bot_moves_when_it_is_its_turn_after_a_person(people, django_capture_on_commit_callbacks):
    # given a person against a bot, with the bot's tasks run eagerly on commit
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="b1")
    match.refresh_from_db()
    from engine import registry
    from games import store

    view = registry.get("livol").view(store.load_state(match), None)
    # then the bot has played until it is the person's turn (or the person may act)
    assert 0 in view["to_act"]
    assert view["turn"] == 0


def test_a_repeated_bot_task_does_nothing_twice(people):
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], seed="idem")
    seq = match.last_seq
    # when the same task (same match, same position) runs twice
    made_first = bots_play.apply(args=(match.pk, seq)).get()
    count = Event.objects.filter(match=match).count()
    made_again = bots_play.apply(args=(match.pk, seq)).get()
    # then the second run finds the match moved on and records nothing
    assert made_first > 0 and made_again == 0
    assert Event.objects.filter(match=match).count() == count


def test_bots_finish_a_match_and_it_verifies(people):
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random"), SeatSpec(bot="greedy")],
                         seed="finish", options={"target": 100})
    bots_advance(match_id=match.pk, budget=100000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match_verify(match).ok


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_plays_a_bot_match_to_the_end(real_celery):
    # given a bot match created outside any test transaction; its first task goes to the broker
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")],
                         seed="worker", options={"target": 100})
    # when the worker picks it up
    def finished() -> bool:
        match.refresh_from_db()
        return match.status == Match.Status.FINISHED

    wait_until(finished, within=120, every=0.5, why=lambda: f"still at event {match.last_seq}")
    # then the match ended, recorded once, and verifies
    assert match.status == Match.Status.FINISHED, f"still at event {match.last_seq}"
    seqs = list(Event.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert match_verify(match).ok
