"""Challenges and matches a bot manages: withdrawing a challenge, "me", the matches one is in, and
the move rate counting refused moves too."""
from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client

from engine.verify import verify_record
from games import records
from games.models import Event, Match
from league import services
from tests.games.conftest import first_actor


@pytest.fixture(autouse=True)
def _fresh_rate_counters():
    cache.clear()


@pytest.fixture
def challenge(django_user_model):
    """anna challenges olga's bot account ``olga-bot`` (a token client) to KARUSELIS (not a bot of her own:
    a person never sits at one table with their own bot)."""
    anna = django_user_model.objects.create_user(username="anna", password="pw")
    olga = django_user_model.objects.create_user(username="olga", password="pw")
    _, key = services.bot_account_create(owner=olga, name="olga-bot")
    client = Client()
    client.force_login(anna)
    response = client.post("/api/challenges", json.dumps({"game": "karuselis", "opponents": ["olga-bot"],
                                                          "options": {"deck": "small"}}),
                           content_type="application/json")
    assert response.status_code == 201, response.content
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
    return Match.objects.get(pk=response.json()["id"]), client, bot


def _events(match):
    return list(Event.objects.filter(match=match).order_by("seq").values_list("seq", "type", "hash"))


def test_the_challenger_withdraws_a_waiting_challenge_and_it_leaves_the_invited_list(challenge):
    match, anna, bot = challenge
    assert [i["match"] for i in bot.get("/api/invitations").json()] == [match.pk]
    before = _events(match)
    response = anna.post(f"/api/matches/{match.pk}/withdraw", "{}", content_type="application/json")
    assert response.status_code == 200 and response.json()["status"] == "aborted"
    after = _events(match)
    assert after[:len(before)] == before and after[len(before)][1] == "match_aborted"
    assert Event.objects.get(match=match, seq=after[len(before)][0]).payload["reason"] == "withdrawn"
    assert bot.get("/api/invitations").json() == []
    assert bot.get("/api/account/matches").json() == []


def test_a_withdrawn_challenge_record_verifies_offline(challenge):
    match, anna, _ = challenge
    anna.post(f"/api/matches/{match.pk}/withdraw", "{}", content_type="application/json")
    match.refresh_from_db()
    assert verify_record(records.match_record(match)).ok


def test_only_the_challenger_can_withdraw(challenge):
    match, _, bot = challenge
    before = _events(match)
    response = bot.post(f"/api/matches/{match.pk}/withdraw", "{}", content_type="application/json")
    assert response.status_code == 403 and response.json()["code"] == "not_your_seat"
    assert _events(match) == before


def test_a_started_match_cannot_be_withdrawn(challenge):
    match, anna, bot = challenge
    assert bot.post(f"/api/matches/{match.pk}/join", "{}", content_type="application/json").json()["status"] == "running"
    response = anna.post(f"/api/matches/{match.pk}/withdraw", "{}", content_type="application/json")
    assert response.status_code == 409 and response.json()["code"] == "invitation_closed"


def test_me_names_the_account_its_bot_flag_and_owner(challenge):
    _, anna, bot = challenge
    assert bot.get("/api/account").json() == {"username": "olga-bot", "is_bot": True, "owner": "olga",
                                              "auth": "token"}
    assert anna.get("/api/account").json() == {"username": "anna", "is_bot": False, "owner": None,
                                               "auth": "session"}
    assert Client().get("/api/account").status_code == 401


def test_my_matches_list_waiting_and_running_matches_with_my_move_first(challenge):
    match, anna, bot = challenge
    assert [(m["match"], m["state"]) for m in bot.get("/api/account/matches").json()] == [(match.pk, "invited")]
    assert [(m["match"], m["state"]) for m in anna.get("/api/account/matches").json()] == [(match.pk, "waiting")]
    bot.post(f"/api/matches/{match.pk}/join", "{}", content_type="application/json")
    match.refresh_from_db()
    seat, _ = first_actor(match)
    mover, other = (anna, bot) if seat == 0 else (bot, anna)
    assert mover.get("/api/account/matches").json()[0]["state"] == "your_turn"
    assert other.get("/api/account/matches").json()[0]["state"] == "playing"


def test_moves_without_a_seat_count_toward_the_rate_limit(livol_match, django_user_model, settings, one_rate_window):
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "moves": "3/m"}
    client = Client()
    client.force_login(django_user_model.objects.create_user(username="stranger", password="pw"))
    url = f"/api/matches/{livol_match.pk}/moves"
    body = json.dumps({"game": "livol", "move": {"type": "draw"}})
    statuses = [client.post(url, body, content_type="application/json").status_code for _ in range(5)]
    assert statuses[:3] == [403] * 3 and statuses[3:] == [429] * 2


def test_challenges_list_incoming_for_the_invited_and_outgoing_for_the_challenger(challenge):
    match, anna, bot = challenge
    assert [(c["match"], c["direction"]) for c in bot.get("/api/challenges?direction=incoming").json()] == [
        (match.pk, "incoming")]
    assert bot.get("/api/challenges?direction=outgoing").json() == []
    assert [c["match"] for c in anna.get("/api/challenges?direction=outgoing").json()] == [match.pk]
    assert anna.get("/api/challenges?direction=incoming").json() == []
    anna.post(f"/api/matches/{match.pk}/withdraw", "{}", content_type="application/json")
    assert anna.get("/api/challenges?direction=outgoing").json() == []
    assert bot.get("/api/challenges?direction=sideways").status_code == 400


def test_a_decline_reason_is_recorded_and_the_challenger_reads_it(challenge):
    match, anna, bot = challenge
    response = bot.post(f"/api/matches/{match.pk}/decline", json.dumps({"reason": "busy until Friday"}),
                        content_type="application/json")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    events = anna.get(f"/api/matches/{match.pk}/events").json()["events"]
    stop = next(e for e in events if e["type"] == "match_aborted")
    assert stop["payload"]["reason"] == "declined" and stop["payload"]["message"] == "busy until Friday"
    match.refresh_from_db()
    assert verify_record(records.match_record(match)).ok


def test_a_decline_without_a_body_still_works(challenge):
    match, _, bot = challenge
    assert bot.post(f"/api/matches/{match.pk}/decline", content_type="application/json").status_code == 200


def test_a_decline_reason_longer_than_200_characters_is_refused(challenge):
    match, _, bot = challenge
    response = bot.post(f"/api/matches/{match.pk}/decline", json.dumps({"reason": "x" * 201}),
                        content_type="application/json")
    assert response.status_code == 400
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING


def test_the_new_answers_are_typed_in_the_schema(db):
    schema = Client().get("/api/openapi.json").json()
    components = schema["components"]["schemas"]
    for name in ("AccountOut", "AccountMatchOut", "ChallengeOut"):
        properties = components[name]["properties"]
        assert all(p.get("type") != "object" or "properties" in p for p in properties.values()), name
    assert components["AccountMatchOut"]["properties"]["state"]["enum"] == [
        "your_turn", "playing", "invited", "seated", "waiting"]
    assert "/api/matches/{match_id}/withdraw" in schema["paths"]
    assert "/api/account/matches" in schema["paths"]
