"""Outside bots: a person creates a bot account and its token (page or command); it is marked as a bot;
accounts challenge each other; organisers enter outside bots in tournaments like people."""
from __future__ import annotations

import io
import json

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from games.models import ApiToken, Match, Seat
from league import services
from league.models import PlayerProfile
from league.selectors import accounts, standings


@pytest.fixture(autouse=True)
def _fresh_rate_counters():
    cache.clear()


def test_a_person_creates_an_outside_bot_and_its_token_on_the_settings_page(django_user_model):
    anna = django_user_model.objects.create_user(username="anna", password="pw-anna-1234")
    client = Client()
    client.force_login(anna)
    response = client.post("/accounts/bots/new/", {"name": "anna-bot"})
    assert response.status_code == 200
    key = response.context["key"]
    bot = PlayerProfile.objects.get(name="anna-bot")
    assert bot.is_bot_account and bot.owner == anna and bot.shows_as_bot and not bot.is_bot
    assert not bot.user.has_usable_password()
    # the token works for the API
    me = Client().get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert me.status_code == 200
    # a new token, shown once; another person cannot make one
    assert client.post(f"/accounts/bots/{bot.user_id}/token/").status_code == 200
    assert ApiToken.objects.filter(user=bot.user).count() == 2
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user(username="eve", password="pw-eve-12345"))
    assert stranger.post(f"/accounts/bots/{bot.user_id}/token/").status_code == 404
    assert accounts.bot_accounts(anna)[0]["name"] == "anna-bot"


def test_the_command_creates_an_outside_bot_account_with_a_token(django_user_model):
    django_user_model.objects.create_user(username="janis", password="pw")
    out = io.StringIO()
    call_command("bot_token_create", "janis-bot", "laptop", "--owner", "janis", stdout=out)
    assert "outside bot janis-bot created for janis; token: " in out.getvalue()
    assert PlayerProfile.objects.get(name="janis-bot").is_bot_account


def test_an_account_challenges_another_which_accepts_through_the_api(django_user_model):
    anna = django_user_model.objects.create_user(username="anna", password="pw")
    janis = django_user_model.objects.create_user(username="janis", password="pw")
    bot, key = services.bot_account_create(owner=anna, name="anna-bot")
    client = Client()
    client.force_login(janis)  # not anna: a person never sits at one table with their own bot
    response = client.post("/api/challenges", json.dumps({"game": "karuselis", "opponents": ["anna-bot"],
                                                          "options": {"deck": "small"}, "entropy": "ab" * 16}),
                           content_type="application/json")
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert match.status == Match.Status.WAITING
    assert list(Seat.objects.filter(match=match).values_list("status", flat=True)) == ["joined", "invited"]
    # the bot's program sees the invitation and accepts it
    program = Client()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    assert [i["match"] for i in program.get("/api/invitations", **auth).json()] == [match.pk]
    joined = program.post(f"/api/matches/{match.pk}/join", json.dumps({"entropy": "cd" * 16}),
                          content_type="application/json", **auth)
    assert joined.status_code == 200 and joined.json()["status"] == "running"


@pytest.mark.parametrize("body, code", [
    ({"game": "karuselis", "opponents": ["nobody"]}, "unknown_player"),
    ({"game": "karuselis", "opponents": ["janis"], "options": {"lives": 3}}, "bad_match_settings"),
    ({"game": "karuselis", "opponents": ["janis"], "seats": 9}, "bad_match_settings"),
    ({"game": "karuselis", "opponents": ["anna"]}, "seated_twice"),
    ({"game": "karuselis", "opponents": ["janis"], "clock": {"move_seconds": 1}}, "bad_match_settings"),
])
def test_a_bad_challenge_is_refused_with_its_code(django_user_model, body, code):
    anna = django_user_model.objects.create_user(username="anna", password="pw")
    django_user_model.objects.create_user(username="janis", password="pw")
    client = Client()
    client.force_login(anna)
    response = client.post("/api/challenges", json.dumps(body), content_type="application/json")
    assert response.status_code in (400, 404) and response.json()["code"] == code
    assert not Match.objects.exists()


def test_an_organiser_enters_an_outside_bot_in_a_tournament_like_a_person(league, django_user_model):
    owner = django_user_model.objects.create_user(username="owner", password="pw")
    bot, _ = services.bot_account_create(owner=owner, name="club-bot")
    tournament = services.tournament_create(league_id=league.pk, name="with an outside bot", format="round_robin",
                                            seats_per_table=2, seeding="entry")
    services.entrant_add(tournament_id=tournament.pk, player_id=bot.player_profile.pk)
    services.bots_add(tournament_id=tournament.pk, count=1, policy="greedy")
    rnd = services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=rnd.pk)
    seat = Seat.objects.get(user=bot)
    # seated without asking (it entered), to take its seat through the API; shown as a bot
    assert seat.status == Seat.Status.SEATED and seat.match.is_waiting
    rows = standings.standings(tournament)["rows"]
    assert all(r["is_bot"] for r in rows)
