"""Who may act, and how often (``games/web/auth.py``, ``games/web/access.py``): a token client plays without
CSRF, a signed-out or CSRF-less move is refused, guessed tokens are throttled per address, and moves and
resignations count toward a budget on the pages and the API together."""
from __future__ import annotations

import hashlib
import json
import secrets

import pytest
from django.test import Client

from engine import registry
from games import store
from games.models import Match
from games.records import match_verify
from games.services import SeatSpec, match_create
from tests.games.conftest import first_actor
from tests.games.conftest import recorded_events as _events

pytestmark = pytest.mark.usefixtures("fresh_rate_counters")


def _token(user) -> str:
    from games.models import ApiToken

    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name="bot", key_hash=hashlib.sha256(key.encode()).hexdigest())
    return key


# -- moves with an API token ---------------------------------------------------------------------

def test_a_token_client_plays_a_whole_match_with_csrf_enforced(people):
    # given a match of two token clients, and clients that enforce CSRF as production does
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])],
                         seed="token-match", options={"target": 30})
    clients = {seat: (Client(enforce_csrf_checks=True), _token(people[seat])) for seat in (0, 1)}
    game = registry.get("livol")
    moves = 0
    # when each seat asks for its legal moves and posts the first, until the match ends
    while True:
        match.refresh_from_db()
        if not match.is_running:
            break
        state = store.load_state(match)
        seat = game.view(state, None)["to_act"][0]
        client, key = clients[seat]
        auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
        legal = client.get(f"/api/matches/{match.pk}/legal?seat={seat}", **auth).json()["moves"]
        response = client.post(f"/api/matches/{match.pk}/moves", json.dumps(
            {"game": match.game, "seat": seat, "move": legal[0], "expected_seq": match.last_seq}), content_type="application/json", **auth)
        # then every move is accepted without a CSRF token or a cookie
        assert response.status_code == 200, response.content
        moves += 1
        assert moves < 5000
    assert match.status == Match.Status.FINISHED and match_verify(match).ok


def test_an_anonymous_move_is_401_and_a_session_move_without_csrf_is_403(livol_match, people):
    seat, legal = first_actor(livol_match)
    body = json.dumps({"game": "livol", "seat": seat, "move": legal[0], "expected_seq": livol_match.last_seq})
    url = f"/api/matches/{livol_match.pk}/moves"
    before = _events(livol_match)
    # when nobody signed in posts: 401, not a CSRF 403
    anonymous = Client(enforce_csrf_checks=True).post(url, body, content_type="application/json")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_signed_in"
    # when a wrong token is sent: 401
    wrong = Client(enforce_csrf_checks=True).post(url, body, content_type="application/json",
                                                  HTTP_AUTHORIZATION="Bearer not-a-token")
    assert wrong.status_code == 401
    # when a signed-in browser posts without its CSRF token: 403; with it: recorded
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(people[seat])
    assert browser.post(url, body, content_type="application/json").status_code == 403
    assert _events(livol_match) == before
    browser.get("/")  # the page sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value
    assert browser.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf).status_code == 200


# -- guessing and flooding -----------------------------------------------------------------------

def test_guessed_tokens_are_throttled_per_address(livol_match, one_rate_window):
    client = Client()
    statuses = [client.get(f"/api/matches/{livol_match.pk}", HTTP_AUTHORIZATION=f"Bearer guess-{i}").status_code
                for i in range(25)]
    assert set(statuses[:20]) == {401}
    assert statuses[20:] == [429] * 5


def test_moves_beyond_the_per_user_rate_are_refused_and_record_nothing(livol_match, people, settings, one_rate_window):
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "moves": "3/m"}
    seat, legal = first_actor(livol_match)
    client = Client()
    client.force_login(people[1 - seat])  # out of turn: refused by the engine, but each try counts
    url = f"/api/matches/{livol_match.pk}/moves"
    body = json.dumps({"game": "livol", "move": {"type": "draw"}})
    assert [client.post(url, body, content_type="application/json").status_code for _ in range(3)] == [422] * 3
    before = _events(livol_match)
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 429 and response.json()["code"] == "rate_limited"
    page = client.post(f"/matches/{livol_match.pk}/move/", {"move": json.dumps({"type": "draw"})})
    assert page.status_code == 429
    assert _events(livol_match) == before


@pytest.mark.parametrize("path", ["move", "resign"])
def test_moves_and_resignations_without_a_seat_count_toward_the_budget_on_pages_and_the_api(
        livol_match, django_user_model, settings, one_rate_window, path):
    """One entry for moves and resignations (``games.web.access.access_play``): every attempt counts first,
    through the pages and the API together, so someone without a seat ends in 429s, not endless 403s."""
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "moves": "4/m"}
    client = Client()
    client.force_login(django_user_model.objects.create_user(username="stranger", password="pw"))
    before = _events(livol_match)
    page = f"/matches/{livol_match.pk}/{path}/"
    api = f"/api/matches/{livol_match.pk}/{'moves' if path == 'move' else 'resign'}"
    form = {"move": json.dumps({"type": "draw"})} if path == "move" else {"confirm": "yes"}
    body = json.dumps({"game": "livol", "move": {"type": "draw"}} if path == "move" else {})
    statuses = [client.post(page, form).status_code, client.post(api, body, content_type="application/json").status_code,
                client.post(page, form).status_code, client.post(api, body, content_type="application/json").status_code,
                client.post(page, form).status_code, client.post(api, body, content_type="application/json").status_code]
    assert statuses == [403, 403, 403, 403, 429, 429]
    assert _events(livol_match) == before
