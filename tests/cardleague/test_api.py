"""What every API client reads the same way: a 401 says how to authenticate, a 429 when
to come back, a body that is not JSON is a 415, a body over the limit a 413 in the JSON error shape, and the
refusals' words are in the caller's language (``cardleague/api.py`` and its middleware)."""
from __future__ import annotations

import hashlib
import json
import secrets

import pytest
from django.test import Client

from games.models import ApiToken


@pytest.fixture
def token(db, django_user_model):
    user = django_user_model.objects.create_user(username="edgebot", password="x")
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name="edge", key_hash=hashlib.sha256(key.encode()).hexdigest())
    return key


def test_a_401_says_how_to_authenticate(db):
    response = Client().get("/api/invitations")
    assert response.status_code == 401 and response.json()["code"] == "not_signed_in"
    assert response["WWW-Authenticate"] == 'Bearer realm="cardleague"'


@pytest.mark.parametrize("content_type,body", [("application/x-www-form-urlencoded", "game=livol"),
                                                ("text/plain", '{"game": "livol"}'),
                                                ("application/xml", "<challenge/>")])
def test_a_body_that_is_not_json_is_a_415(token, content_type, body):
    response = Client().post("/api/challenges", body, content_type=content_type,
                             HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"
    assert response["Accept-Post"] == "application/json"


def test_a_json_body_is_read_as_before(token):
    response = Client().post("/api/challenges", {"game": "livol"}, content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code != 415


def test_refusals_speak_the_callers_language(db):
    response = Client().get("/api/invitations", HTTP_ACCEPT_LANGUAGE="lv")
    assert response.status_code == 401 and response.json()["message"] != "sign in first"


def test_every_429_says_when_to_come_back(token, settings, one_rate_window):
    from django.core.cache import cache

    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "api_user": "2/m"}
    cache.clear()
    responses = [Client().get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer {token}") for _ in range(3)]
    assert [r.status_code for r in responses] == [200, 200, 429]
    assert 1 <= int(responses[-1]["Retry-After"]) <= 60
    assert responses[-1].json()["code"] == "rate_limited"


def test_wrong_tokens_from_an_address_never_lock_out_a_right_one(token, one_rate_window):
    # given an address that sent more wrong tokens than it may (a club's shared network)
    from django.core.cache import cache

    cache.clear()
    client = Client()
    statuses = [client.get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer guess-{i}").status_code for i in range(25)]
    assert statuses[-1] == 429
    # then a right token from it still works, and the next wrong one is still refused
    assert client.get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200
    assert client.get("/api/invitations", HTTP_AUTHORIZATION="Bearer guess-x").status_code == 429


def test_a_move_that_arrives_after_its_deadline_is_refused_and_records_nothing(db, django_user_model):
    # given a clocked match whose seat to act let its deadline pass, the sweep not run yet
    from datetime import timedelta

    from django.utils import timezone

    from engine import registry
    from games import store
    from games.errors import DeadlinePassed
    from games.models import Seat
    from games.services import SeatSpec, match_create, move_submit

    anna = django_user_model.objects.create_user(username="anna", password="x")
    janis = django_user_model.objects.create_user(username="janis", password="x")
    match = match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(user=janis)], seed="late",
                         clock={"move_seconds": 60}, wake_bots=False)
    match.refresh_from_db()
    state = store.load_state(match)
    seat = registry.get("livol").to_act(state)[0]
    Seat.objects.filter(match=match, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    before = match.last_seq
    # when its move comes
    with pytest.raises(DeadlinePassed):
        move_submit(match_id=match.pk, seat=seat, move=registry.get("livol").legal_moves(state, seat)[0],
                    expected_seq=before)
    # then it is refused and nothing is written: the clock's rule decides the move
    match.refresh_from_db()
    assert match.last_seq == before


@pytest.mark.parametrize("query", ["seat=%C2%B2", "seat=" + "9" * 5000, "since=%C2%B2", "since=" + "9" * 5000])
def test_a_count_in_a_page_request_is_never_a_500(db, django_user_model, query):
    from games.services import SeatSpec, match_create

    anna = django_user_model.objects.create_user(username="anna", password="x")
    match = match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(bot="random")], seed="counts",
                         wake_bots=False)
    client = Client()
    client.force_login(anna)
    for path in (f"/matches/{match.pk}/?{query}", f"/matches/{match.pk}/board/?{query}",
                 f"/matches/{match.pk}/replay/?step=%C2%B2", f"/matches/{match.pk}/log/?round=%C2%B2"):
        assert client.get(path).status_code < 500, path
    response = client.post(f"/matches/{match.pk}/move/?{query}", {"move": "{}", "expected_seq": "²"})
    assert response.status_code < 500


@pytest.mark.usefixtures("fresh_rate_counters")
def test_a_body_over_the_limit_gets_the_json_error_shape(livol_match, people, settings):
    client = Client()
    client.force_login(people[0])
    body = json.dumps({"game": "livol", "seat": 0, "move": {"type": "draw"}, "pad": "x" * (settings.CARDLEAGUE_MAX_BODY + 10)})
    response = client.post(f"/api/matches/{livol_match.pk}/moves", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {"code": "request_too_large", "rule": None, "message": "The request is too large."}


@pytest.mark.usefixtures("fresh_rate_counters")
def test_api_requests_beyond_the_per_account_rate_get_429(livol_match, people, settings, one_rate_window):
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "api_user": "5/m", "api_anon": "3/m"}
    client = Client()
    client.force_login(people[0])
    statuses = [client.get(f"/api/matches/{livol_match.pk}").status_code for _ in range(7)]
    assert statuses == [200] * 5 + [429] * 2
    anonymous = [Client().get("/api/league/tournaments").status_code for _ in range(5)]
    assert anonymous == [200] * 3 + [429] * 2
