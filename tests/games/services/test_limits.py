"""What one account may start and hold."""
from __future__ import annotations

import hashlib
import secrets

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import ApiToken, Match


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()


def token_for(user) -> dict:
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name="t", key_hash=hashlib.sha256(key.encode()).hexdigest())
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def challenge(auth, **body):
    return Client().post("/api/challenges", {"game": "livol", **body},
                         content_type="application/json", **auth)


def test_an_account_holds_at_most_its_open_matches(db, django_user_model, settings):
    settings.CARDLEAGUE_MAX_OPEN_MATCHES = 2
    anna = django_user_model.objects.create_user(username="anna", password="x")
    django_user_model.objects.create_user(username="janis", password="x")
    auth = token_for(anna)
    assert [challenge(auth, opponents=["janis"]).status_code for _ in range(2)] == [201, 201]
    third = challenge(auth, opponents=["janis"])
    assert third.status_code == 429 and third.json()["code"] == "too_many_matches" and third["Retry-After"]
    assert Match.objects.filter(created_by=anna).count() == 2


def test_an_account_starts_at_most_its_hourly_matches_refused_attempts_included(db, django_user_model, settings, one_rate_window):
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "new_matches": "3/h"}
    anna = django_user_model.objects.create_user(username="anna", password="x")
    django_user_model.objects.create_user(username="janis", password="x")
    auth = token_for(anna)
    # two attempts naming nobody (refused), one match: the allowance is spent
    assert challenge(auth, opponents=["nobody1"]).status_code == 404
    assert challenge(auth, opponents=["nobody2"]).status_code == 404
    assert challenge(auth, opponents=["janis"]).status_code == 201
    refused = challenge(auth, opponents=["janis"])
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_new_matches"


def test_a_challenge_to_unknown_names_does_not_say_which(db, django_user_model):
    anna = django_user_model.objects.create_user(username="anna", password="x")
    django_user_model.objects.create_user(username="janis", password="x")
    response = challenge(token_for(anna), opponents=["janis", "nobody"])
    assert response.status_code == 404 and response.json()["code"] == "unknown_player"
    assert "janis" not in response.content.decode() and "nobody" not in response.content.decode()


def test_an_account_has_at_most_its_challenges_waiting(db, django_user_model, settings):
    settings.CARDLEAGUE_MAX_INCOMING_CHALLENGES = 2
    target = django_user_model.objects.create_user(username="target", password="x")
    senders = [django_user_model.objects.create_user(username=f"sender{i}", password="x") for i in range(3)]
    statuses = [challenge(token_for(s), opponents=["target"]).status_code for s in senders]
    assert statuses == [201, 201, 429]
    assert Match.objects.filter(seats__user=target).count() == 2


def test_a_person_cannot_sit_at_one_table_with_their_own_bot(db, django_user_model):
    from league import services

    owner = django_user_model.objects.create_user(username="owner", password="x")
    bot, key = services.bot_account_create(owner=owner, name="ownbot")
    # the owner challenging their bot, and the bot challenging its owner: refused
    refused = challenge(token_for(owner), opponents=["ownbot"])
    assert refused.status_code == 400 and refused.json()["code"] == "own_bot_at_table"
    assert challenge({"HTTP_AUTHORIZATION": f"Bearer {key}"}, opponents=["owner"]).status_code == 400
    # and on the page
    client = Client()
    client.force_login(owner)
    page = client.post("/matches/new/", {"game": "livol", "livol-seats": 2, "livol-variant": "winner_scores",
                                         "livol-target": 500, "bot": "greedy", "people": "ownbot"})
    assert page.status_code == 400 and "own outside bot" in page.content.decode()
    assert not Match.objects.filter(seats__user=bot).exists()


def test_an_account_declines_every_waiting_challenge_at_once(db, django_user_model):
    target = django_user_model.objects.create_user(username="target", password="x")
    senders = [django_user_model.objects.create_user(username=f"sender{i}", password="x") for i in range(3)]
    for sender in senders:
        assert challenge(token_for(sender), opponents=["target"]).status_code == 201
    auth = token_for(target)
    response = Client().post("/api/challenges/decline-all", {"reason": "too many"}, content_type="application/json",
                             **auth)
    assert response.status_code == 200 and len(response.json()["declined"]) == 3
    assert Client().get("/api/challenges?direction=incoming", **auth).json() == []
    assert set(Match.objects.filter(seats__user=target).values_list("status", flat=True)) == {"cancelled"}
