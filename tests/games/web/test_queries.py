"""The database work of the hot paths, pinned: a move through the API, a board poll that finds nothing new
(one indexed query for the match, besides the signed-in user), a board poll with news, the play page.
A change that adds a query to any of them fails here (and says where: the captured SQL is printed)."""
from __future__ import annotations

import hashlib
import json
import secrets

import pytest
from django.test import Client

from games.models import ApiToken
from games.services import SeatSpec, match_create
from tests.games.conftest import first_actor


@pytest.fixture
def match(people):
    return match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="queries")


def _browser(user) -> Client:
    client = Client()
    client.force_login(user)
    client.get("/")  # the session settles (the person's language is remembered in it)
    return client


def test_a_board_poll_with_nothing_new_costs_the_user_and_one_query(match, people, django_assert_num_queries):
    client = _browser(people[0])
    with django_assert_num_queries(2):  # the signed-in user; the match by its id (primary key)
        response = client.get(f"/matches/{match.pk}/board/?since={match.last_seq}")
    assert response.status_code == 204


def test_a_board_poll_with_news(match, people, django_assert_num_queries):
    client = _browser(people[0])
    # the user, the match, its seats with their accounts (once for the whole board), the seat's events,
    # where their moves start, where the match belongs (then kept by the process for a minute)
    with django_assert_num_queries(6):
        assert client.get(f"/matches/{match.pk}/board/?since=1").status_code == 200


def test_the_play_page(match, people, django_assert_num_queries):
    client = _browser(people[0])
    with django_assert_num_queries(6):  # as the board with news
        assert client.get(f"/matches/{match.pk}/").status_code == 200


def test_a_move_through_the_api_with_a_token(match, people, django_assert_num_queries):
    seat, legal = first_actor(match)
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=people[seat], name="q", key_hash=hashlib.sha256(key.encode()).hexdigest())
    client = Client()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    client.get(f"/api/matches/{match.pk}", **auth)  # the token's last use is recorded (once a minute)
    body = json.dumps({"game": match.game, "seat": seat, "move": legal[0], "expected_seq": match.last_seq})
    # the token; the match and the seat (access); the lock, the seats, the insert, the update (the
    # move, in a savepoint here); the match's new position
    with django_assert_num_queries(10):
        response = client.post(f"/api/matches/{match.pk}/moves", body, content_type="application/json", **auth)
    assert response.status_code == 200
