"""The account stream's news a bot's loop is built around: a challenge received, declined
or withdrawn; a match started, finished; your turn."""
from __future__ import annotations

import json

import pytest

from games import publish
from games.services import SeatSpec, match_create, match_resign, seat_decline, seat_join
from games.services.challenges import challenge_withdraw


@pytest.fixture
def news(monkeypatch):
    """Every account notice published, as (user id, message)."""
    sent = []
    monkeypatch.setattr(publish, "_publish", lambda channel, message: sent.append((channel, json.loads(message))))

    def of(user, kind=None):
        return [m for c, m in sent if c.endswith(f":user:{user.pk}") and (kind is None or m["kind"] == kind)]
    return of


@pytest.fixture
def people(db, django_user_model):
    return [django_user_model.objects.create_user(username=f"p{i}", password="x") for i in range(2)]


def challenge(people):
    return match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                        created_by=people[0])


def test_the_challenger_hears_a_decline_with_its_message(people, news, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge(people)
        seat_decline(match_id=match.pk, user=people[1], reason="busy tonight")
    assert news(people[1], "invited")[0]["match"] == match.pk
    declined = news(people[0], "challenge_declined")
    assert declined == [{"kind": "challenge_declined", "match": match.pk, "game": "livol", "seat": 0, "by_seat": 1,
                         "message": "busy tonight"}]
    assert not news(people[1], "challenge_declined")


def test_the_invited_hear_a_withdrawal(people, news, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge(people)
        challenge_withdraw(match_id=match.pk, user=people[0])
    assert [m["match"] for m in news(people[1], "challenge_withdrawn")] == [match.pk]
    assert not news(people[0], "challenge_withdrawn")


def test_everyone_at_the_table_hears_the_start_their_turn_and_the_end(people, news,
                                                                       django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge(people)
        seat_join(match_id=match.pk, user=people[1])
    assert news(people[0], "match_started") and news(people[1], "match_started")
    assert news(people[0], "your_turn") or news(people[1], "your_turn")
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(match_id=match.pk, seat=1)
    for person in people:
        (finished,) = news(person, "match_finished")
        assert finished["status"] == "finished" and finished["ranking"] == [[0], [1]]
