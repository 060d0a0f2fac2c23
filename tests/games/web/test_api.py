"""The match API: seats are guarded, bad input gets a 4xx with a stable code, nothing recorded changes."""
import json

import pytest
from django.test import Client

from engine import registry
from games import store
from games.models import Event
from tests.games.conftest import first_actor


@pytest.fixture
def client_for():
    def make(user):
        c = Client()
        c.force_login(user)
        return c
    return make


def post_move(client, match, body, raw=None):
    if isinstance(body, dict) and "move" in body:
        body = {"game": match.game, **body}  # every move names its match's game
    return client.post(f"/api/matches/{match.pk}/moves", data=raw if raw is not None else json.dumps(body),
                       content_type="application/json")


def events_of(match):
    return list(Event.objects.filter(match=match).order_by("seq").values_list("seq", "hash"))


def test_a_seat_sees_its_own_hand_and_only_counts_of_others(livol_match, people, client_for):
    response = client_for(people[0]).get(f"/api/matches/{livol_match.pk}/view")
    assert response.status_code == 200
    body = response.json()
    state = store.load_state(livol_match)
    game = registry.get("livol")
    assert body["view"]["hand"] == game.view(state, 0)["hand"]
    assert body["view"]["hand_sizes"] == [7, 7]
    other_hand = game.view(state, 1)["hand"]
    assert "hand" in body["view"] and body["view"] == game.view(state, 0)
    assert other_hand != body["view"]["hand"]


def test_a_player_cannot_act_for_another_seat(livol_match, people, client_for):
    seat, legal = first_actor(livol_match)
    other_user = people[1 - seat]
    before = events_of(livol_match)
    # when the user at the other seat submits for this seat
    response = post_move(client_for(other_user), livol_match, {"seat": seat, "move": legal[0],
                                                               "expected_seq": livol_match.last_seq})
    # then
    assert response.status_code == 403 and response.json()["code"] == "not_your_seat"
    assert events_of(livol_match) == before
    # and a stranger cannot read a seat's view either
    assert client_for(people[2]).get(f"/api/matches/{livol_match.pk}/view?seat={seat}").status_code == 403


def test_malformed_json_is_a_400_and_changes_nothing(livol_match, people, client_for):
    before = events_of(livol_match)
    response = post_move(client_for(people[0]), livol_match, None, raw="{not json")
    assert response.status_code == 400
    assert response.json()["code"] in {"malformed_request", "malformed_move"}
    response = post_move(client_for(people[0]), livol_match, {"seat": 0, "move": "draw"})
    assert response.status_code == 400 and response.json()["code"] == "malformed_move"
    assert events_of(livol_match) == before


def test_an_unknown_card_is_a_4xx_with_its_code_and_changes_nothing(livol_match, people, client_for):
    seat, _ = first_actor(livol_match)
    before = events_of(livol_match)
    response = post_move(client_for(people[seat]), livol_match,
                         {"seat": seat, "move": {"type": "play", "card": "Q9"}, "expected_seq": livol_match.last_seq})
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_card" and response.json()["rule"] == "L1"
    assert events_of(livol_match) == before


def test_a_move_out_of_turn_is_refused_with_the_rule_code(livol_match, people, client_for):
    seat, legal = first_actor(livol_match)
    idle = 1 - seat
    state = store.load_state(livol_match)
    assert registry.get("livol").legal_moves(state, idle) == []
    before = events_of(livol_match)
    response = post_move(client_for(people[idle]), livol_match,
                         {"seat": idle, "move": {"type": "draw"}, "expected_seq": livol_match.last_seq})
    assert response.status_code == 422
    assert response.json()["code"] == "not_your_turn" and response.json()["rule"] == "L2"
    assert events_of(livol_match) == before


def test_a_stale_expected_seq_is_409(livol_match, people, client_for):
    seat, legal = first_actor(livol_match)
    response = post_move(client_for(people[seat]), livol_match,
                         {"seat": seat, "move": legal[0], "expected_seq": livol_match.last_seq - 1})
    assert response.status_code == 409 and response.json()["code"] == "stale_seq"


def test_an_unknown_match_is_404(people, client_for, db):
    response = client_for(people[0]).get("/api/matches/424242/view")
    assert response.status_code == 404 and response.json()["code"] == "match_not_found"


def test_signed_out_requests_are_401(livol_match):
    assert Client().get(f"/api/matches/{livol_match.pk}/view").status_code == 401


def test_a_legal_move_is_recorded_and_its_events_come_back_redacted(livol_match, people, client_for):
    seat, legal = first_actor(livol_match)
    response = post_move(client_for(people[seat]), livol_match,
                         {"seat": seat, "move": legal[0], "expected_seq": livol_match.last_seq})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["seq"] > livol_match.last_seq and body["events"]
    legal_now = client_for(people[seat]).get(f"/api/matches/{livol_match.pk}/legal?seat={seat}").json()
    assert legal_now["seq"] == body["seq"]


def test_the_event_feed_hides_another_seats_drawn_cards(livol_match, people, client_for):
    seat, legal = first_actor(livol_match)
    game = registry.get("livol")
    # the deal event carries both hands; each seat's feed must only carry its own
    feed0 = client_for(people[0]).get(f"/api/matches/{livol_match.pk}/events?seat=0").json()["events"]
    hand1 = game.view(store.load_state(livol_match), 1)["hand"]
    hand0 = game.view(store.load_state(livol_match), 0)["hand"]
    text = json.dumps(feed0)
    assert "store-test" not in text  # the seed
    only_in_1 = [c for c in set(hand1) if c not in hand0]
    state = store.load_state(livol_match)
    visible_elsewhere = {game.view(state, None)["top"]}
    leaked = [c for c in only_in_1 if f'"{c}"' in text and c not in visible_elsewhere]
    assert leaked == []


def test_a_token_lets_an_outside_bot_use_the_api(livol_match, people):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("api_token_create", people[0].username, "my bot", stdout=out)
    token = out.getvalue().strip().split()[-1]
    response = Client().get(f"/api/matches/{livol_match.pk}/view", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200 and response.json()["seat"] == 0
    assert Client().get(f"/api/matches/{livol_match.pk}/view",
                        HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
