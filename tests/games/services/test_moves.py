"""every match ends. A match whose record reaches the game's MAX_EVENTS ends as aborted,
recorded as a ``match_aborted`` event, and its record still verifies."""
from __future__ import annotations

from engine import registry
from engine.verify import verify_record
from games import records
from games.models import MATCH_ABORTED, Event, Match
from games.services import SeatSpec, bots_advance, match_create


def test_a_match_reaching_max_events_ends_aborted_as_an_event_and_verifies(people, monkeypatch):
    # given a bot match with a 10,000-point target and a ceiling of a few hundred events
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")],
                         seed="ceiling", options={"target": 10_000})
    monkeypatch.setattr(type(registry.get("livol")), "MAX_EVENTS", match.last_seq + 300)
    # when the bots play on
    bots_advance(match_id=match.pk, budget=100_000)
    match.refresh_from_db()
    # then the match ended as aborted, with the reason recorded, and nothing runs on
    assert match.status == Match.Status.ABORTED and not match.bots_to_act
    stopped = Event.objects.get(match=match, type=MATCH_ABORTED)
    assert stopped.payload["reason"] == "event_limit"
    assert match.last_seq < registry.get("livol").MAX_EVENTS + 100
    assert verify_record(records.match_record(match)).ok


def test_when_every_person_at_the_table_gave_up_the_bots_stop_and_the_match_ends(db, django_user_model):
    # given a four-seat LIVOL match of two people and two server bots
    from engine.verify import verify_record
    from games.records import match_record
    from games.services import SeatSpec, match_create, match_resign

    anna = django_user_model.objects.create_user(username="anna", password="x")
    janis = django_user_model.objects.create_user(username="janis", password="x")
    match = match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(user=janis), SeatSpec(bot="greedy"),
                                              SeatSpec(bot="random")],
                         seed="nobody-left", options={"target": 10_000}, wake_bots=False)
    # when one person resigns, the match goes on (a bot plays the seat: a person is still there)
    match_resign(match_id=match.pk, seat=0)
    match.refresh_from_db()
    assert match.is_running
    # and when the other resigns too
    match_resign(match_id=match.pk, seat=1)
    match.refresh_from_db()
    # then the two server bots do not play on for nobody: the match ends as aborted, said in its record
    assert match.status == Match.Status.ABORTED and not match.bots_to_act
    aborted = Event.objects.filter(match=match, type="match_aborted").get()
    assert aborted.payload["reason"] == "no_people_left"
    assert verify_record(match_record(match)).ok
