"""A person's own API tokens with chosen scopes: made and revoked on the settings page,
every token reads, and a token does only what its scopes say."""
from __future__ import annotations

import io
import re

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from games.models import ApiToken, Match
from games.services import SeatSpec, match_create


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()


@pytest.fixture
def anna(db, django_user_model):
    django_user_model.objects.create_user(username="janis", password="x")
    return django_user_model.objects.create_user(username="anna", password="x")


def make_token(user, name, scopes) -> str:
    page = Client()
    page.force_login(user)
    response = page.post("/accounts/tokens/new/", {"name": name, "scopes": scopes})
    assert response.status_code == 200
    return re.search(r'<code class="token" id="token">([^<]+)</code>', response.content.decode()).group(1)


def bearer(key) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_the_settings_page_makes_a_token_with_the_scopes_ticked_and_lists_it(anna):
    key = make_token(anna, "results script", ["play"])
    token = ApiToken.objects.get(user=anna)
    assert token.name == "results script" and token.scopes == ["play"] and key not in str(token.key_hash)
    page = Client()
    page.force_login(anna)
    settings_page = page.get("/accounts/settings/").content.decode()
    assert "results script" in settings_page and "play my matches" in settings_page
    assert key not in settings_page  # shown once, on the page that made it


def test_a_token_reads_and_plays_but_does_not_challenge_without_the_scope(anna):
    key = make_token(anna, "player", ["play"])
    api = Client()
    assert api.get("/api/account", **bearer(key)).json()["username"] == "anna"
    refused = api.post("/api/challenges", {"game": "livol", "opponents": ["janis"]}, content_type="application/json",
                       **bearer(key))
    assert refused.status_code == 403 and refused.json()["code"] == "token_scope"
    assert not Match.objects.exists()
    match = match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(bot="greedy")], seed="scopes")
    legal = api.get(f"/api/matches/{match.pk}/legal", **bearer(key)).json()
    if legal["moves"]:
        moved = api.post(f"/api/matches/{match.pk}/moves", {"game": "livol", "move": legal["moves"][0],
                                                            "expected_seq": legal["seq"]},
                         content_type="application/json", **bearer(key))
        assert moved.status_code == 200


def test_a_token_with_no_scope_only_reads(anna):
    key = make_token(anna, "reader", [])
    match = match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(bot="greedy")], seed="reader")
    api = Client()
    assert api.get(f"/api/matches/{match.pk}", **bearer(key)).status_code == 200
    before = Match.objects.get(pk=match.pk).last_seq
    refused = api.post(f"/api/matches/{match.pk}/resign", {}, content_type="application/json", **bearer(key))
    assert refused.status_code == 403 and refused.json()["code"] == "token_scope"
    rules = api.put("/api/account/challenge-rules", {"challenges_from": "nobody"}, content_type="application/json",
                    **bearer(key))
    assert rules.status_code == 403 and rules.json()["code"] == "token_scope"
    assert Match.objects.get(pk=match.pk).last_seq == before


def test_a_revoked_token_is_refused(anna):
    key = make_token(anna, "old", ["play", "challenge"])
    page = Client()
    page.force_login(anna)
    page.post(f"/accounts/tokens/{ApiToken.objects.get(user=anna).pk}/revoke/")
    assert Client().get("/api/account", **bearer(key)).status_code == 401


def test_the_command_takes_scopes(anna):
    out = io.StringIO()
    call_command("api_token_create", "anna", "cron", "--scope", "play", stdout=out)
    assert ApiToken.objects.get(user=anna, name="cron").scopes == ["play"]
    assert "may read, play" in out.getvalue()
