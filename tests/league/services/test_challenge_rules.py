"""Whom a person takes challenges from: refusing someone, only clubmates, nobody; declining
every challenge at once from the home page."""
from __future__ import annotations

import hashlib
import re
import secrets

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import ApiToken, Match, Seat
from league.models import Club, PlayerProfile
from league.services import bot_account_create
from league.services.challenge_rules import challenge_rules_set


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()


@pytest.fixture
def people(db, django_user_model):
    return {name: django_user_model.objects.create_user(username=name, password="pw-" + name)
            for name in ("anna", "janis", "olga")}


def token_for(user) -> dict:
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name="t", key_hash=hashlib.sha256(key.encode()).hexdigest())
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def challenge(challenger, *opponents):
    return Client().post("/api/challenges", {"game": "livol", "opponents": list(opponents)},
                         content_type="application/json", **token_for(challenger))


def test_a_refused_person_cannot_challenge_and_nothing_is_written(people):
    challenge_rules_set(user=people["janis"], refuse=["anna"])
    refused = challenge(people["anna"], "janis")
    assert refused.status_code == 403 and refused.json()["code"] == "challenge_refused"
    assert not Match.objects.exists()
    assert challenge(people["olga"], "janis").status_code == 201  # others still may


def test_refusing_a_person_refuses_their_outside_bots(people):
    bot, _key = bot_account_create(owner=people["anna"], name="annabot")
    challenge_rules_set(user=people["janis"], refuse=["anna"])
    assert challenge(bot, "janis").json()["code"] == "challenge_refused"


def test_clubmates_only_takes_challenges_from_people_who_share_a_club(people):
    club = Club.objects.create(name="Riga", slug="riga")
    club.members.add(people["janis"])
    challenge_rules_set(user=people["janis"], challenges_from="clubmates")
    stranger = challenge(people["anna"], "janis")
    assert stranger.status_code == 403 and stranger.json()["code"] == "challenge_refused"
    assert "share a club" in stranger.json()["message"]
    club.organisers.add(people["anna"])  # an organiser of the club is a clubmate
    assert challenge(people["anna"], "janis").status_code == 201
    PlayerProfile.objects.update_or_create(user=people["olga"], defaults={"name": "olga", "club": club})
    assert challenge(people["olga"], "janis").status_code == 201  # a home club counts


def test_nobody_takes_no_challenges_but_tournaments_still_seat(people):
    from games.services import SeatSpec, match_create

    challenge_rules_set(user=people["janis"], challenges_from="nobody")
    assert challenge(people["anna"], "janis").json()["code"] == "challenge_refused"
    seated = match_create(game="livol", seats=[SeatSpec(user=people["janis"], seated=True),
                                               SeatSpec(user=people["anna"], seated=True)])
    assert seated.is_waiting  # a tournament's table is no challenge


def test_the_new_match_form_is_refused_too(people):
    challenge_rules_set(user=people["janis"], refuse=["anna"])
    client = Client()
    client.force_login(people["anna"])
    response = client.post("/matches/new/", {"game": "livol", "livol-seats": 2, "livol-variant": "winner_scores",
                                             "people": "janis", "bot": "greedy"})
    assert response.status_code == 403
    assert "does not take challenges from you" in response.content.decode()
    assert not Match.objects.exists()


def test_refusing_someone_declines_their_waiting_challenges_and_no_one_elses(people):
    from_anna = challenge(people["anna"], "janis").json()["id"]
    from_olga = challenge(people["olga"], "janis").json()["id"]
    challenge_rules_set(user=people["janis"], refuse=["anna"])
    assert Match.objects.get(pk=from_anna).status == Match.Status.CANCELLED
    assert Match.objects.get(pk=from_olga).status == Match.Status.WAITING


def test_the_api_reads_and_changes_the_rules(people):
    auth = token_for(people["janis"])
    client = Client()
    assert client.get("/api/account/challenge-rules", **auth).json() == {"challenges_from": "everyone",
                                                                          "refused": []}
    changed = client.put("/api/account/challenge-rules", {"challenges_from": "clubmates", "refuse": ["anna", "olga"]},
                         content_type="application/json", **auth)
    assert changed.status_code == 200
    assert changed.json() == {"challenges_from": "clubmates", "refused": ["anna", "olga"]}
    allowed = client.put("/api/account/challenge-rules", {"allow": ["olga"]}, content_type="application/json", **auth)
    assert allowed.json()["refused"] == ["anna"]
    unknown = client.put("/api/account/challenge-rules", {"refuse": ["nobody-here"]},
                         content_type="application/json", **auth)
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_player"
    bad = client.put("/api/account/challenge-rules", {"challenges_from": "friends"},
                     content_type="application/json", **auth)
    assert bad.status_code == 400
    assert client.get("/api/account/challenge-rules", **auth).json()["refused"] == ["anna"]  # nothing changed


def test_the_settings_page_refuses_and_allows_again(people):
    client = Client()
    client.force_login(people["janis"])
    saved = client.post("/accounts/challenges/", {"challenges_from": "everyone", "refuse": "anna"}, follow=True)
    page = saved.content.decode()
    assert saved.status_code == 200 and "You refuse challenges from" in page and ">anna <" in page.replace("\n", "")
    unknown = client.post("/accounts/challenges/", {"challenges_from": "everyone", "refuse": "nobody-here"})
    assert unknown.status_code == 400 and "No such player." in unknown.content.decode()
    client.post("/accounts/challenges/", {"allow": "anna"})
    assert challenge(people["anna"], "janis").status_code == 201


def test_an_invitation_can_be_declined_and_its_challenger_refused_from_the_home_page(people):
    match_id = challenge(people["anna"], "janis").json()["id"]
    client = Client()
    client.force_login(people["janis"])
    home = client.get("/").content.decode()
    assert f'action="/accounts/challenges/{match_id}/refuse/"' in home
    client.post(f"/accounts/challenges/{match_id}/refuse/")
    assert Match.objects.get(pk=match_id).status == Match.Status.CANCELLED
    assert challenge(people["anna"], "janis").json()["code"] == "challenge_refused"


def test_the_home_page_declines_every_challenge_at_once_and_keeps_tournament_seats(people):
    from games.services import SeatSpec, match_create

    ids = [challenge(people[name], "janis").json()["id"] for name in ("anna", "olga")]
    seated = match_create(game="livol", seats=[SeatSpec(user=people["janis"], seated=True),
                                               SeatSpec(user=people["anna"], seated=True)])
    client = Client()
    client.force_login(people["janis"])
    home = client.get("/").content.decode()
    assert re.search(r"Decline all 2 challenges", home)
    done = client.post("/challenges/decline-all/", follow=True)
    assert "2 challenges declined." in done.content.decode()
    assert set(Match.objects.filter(pk__in=ids).values_list("status", flat=True)) == {Match.Status.CANCELLED}
    assert Seat.objects.get(match=seated, user=people["janis"]).status == Seat.Status.SEATED
