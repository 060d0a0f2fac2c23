"""The API's moves a client can tell apart: every request's move names its game,
each game's moves are discriminated by ``type``, and the legal moves are typed as the same moves; a move
with an unknown key or text holding U+0000 is refused before it is stored."""
from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from pydantic import TypeAdapter

from engine import registry
from games.models import Event, Match
from games.services import SeatSpec, match_create
from games.web.schemas import GAME_MOVES, title
from tests.games.conftest import first_actor
from tests.games.conftest import recorded_events as _events

STEPS = 400


def random_play(name: str, seed: str):
    """The engine and each position of one random match (at most ``STEPS`` moves), with its seat count."""
    game = registry.get(name)
    seats = max(game.MIN_SEATS, 2)
    state = game.fold(game.start(seats, seed))
    rng = random.Random(seed)
    for _ in range(STEPS):
        yield game, state, seats
        if game.outcome(state) is not None:
            return
        seat = rng.choice(game.view(state, None)["to_act"])
        for event in game.play(state, seat, rng.choice(game.legal_moves(state, seat))):
            state = game.apply(state, event)


def legal_moves_of_random_play(name: str, seed: str):
    """Every legal move of every seat to act, along one random match."""
    for game, state, _seats in random_play(name, seed):
        for seat in game.view(state, None)["to_act"]:
            yield from game.legal_moves(state, seat)


@pytest.mark.parametrize("name", registry.names())
def test_every_legal_move_round_trips_through_its_games_schema_unchanged(name):
    adapter = TypeAdapter(GAME_MOVES[name])
    seen = set()
    for move in legal_moves_of_random_play(name, f"typed-{name}"):
        model = adapter.validate_python(move)
        assert adapter.dump_python(model, by_alias=True, exclude_unset=True) == move
        again = adapter.validate_json(json.dumps(move))
        assert type(again) is type(model) and again == model
        seen.add(move["type"])
    assert len(seen) >= 2  # the match went beyond its first kind of move


def test_no_two_move_schemas_of_one_game_share_their_type():
    for name, union in GAME_MOVES.items():
        members = union.__origin__.__args__ if hasattr(union, "__origin__") else ()
        types = [m.model_fields["type"].annotation.__args__[0] for m in members]
        assert len(types) == len(set(types)), name


def test_the_move_request_schema_is_one_per_game_by_type_or_one_without_game(db):
    schema = Client().get("/api/openapi.json").json()
    body = schema["paths"]["/api/matches/{match_id}/moves"]["post"]["requestBody"]["content"]["application/json"]
    components = schema["components"]["schemas"]
    names = [ref["$ref"].rsplit("/", 1)[1] for ref in body["schema"]["oneOf"]]
    assert sorted(names) == sorted([f"{title(game)}MoveIn" for game in registry.names()] + ["MoveWithoutGame"])
    for name in names[:-1]:
        wrapper = components[name]
        assert "game" in wrapper["required"] and "move" in wrapper["required"]
        assert wrapper["properties"]["move"]["discriminator"]["propertyName"] == "type"
    # a request without game (as clients written before it existed send) takes a move of any game's shape
    without = components["MoveWithoutGame"]
    assert "game" not in without["properties"] and without["additionalProperties"] is False
    assert len(without["properties"]["move"]["anyOf"]) == len(registry.names())
    legal = schema["paths"]["/api/matches/{match_id}/legal"]["get"]["responses"]["200"]["content"]
    assert legal["application/json"]["schema"]["discriminator"]["propertyName"] == "game"


@pytest.fixture
def iota_match(db, django_user_model):
    person = django_user_model.objects.create_user(username="anna", password="x")
    match = match_create(game="iota", seats=[SeatSpec(user=person), SeatSpec(bot="greedy")], seed="typed-iota",
                         wake_bots=False)
    client = Client()
    client.force_login(person)
    return match, client


def test_an_iota_pass_keeps_the_cards_it_returns(iota_match):
    """The outside developer's case: an IOTA ``pass`` with ``return`` was read as UNO FLIP's ``pass`` by a
    generated client and the cards were lost. With the game named, the server records what was sent."""
    match, client = iota_match
    legal = client.get(f"/api/matches/{match.pk}/legal").json()
    assert legal["game"] == "iota"
    returning = next(m for m in legal["moves"] if m["type"] == "pass" and m["return"])
    response = client.post(f"/api/matches/{match.pk}/moves",
                           {"game": "iota", "move": returning, "expected_seq": legal["seq"]},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    recorded = Event.objects.get(match=match, type="passed")
    assert sorted(recorded.payload["returned"]) == sorted(returning["return"])


def test_a_move_that_names_another_game_or_none_that_exists_is_refused_and_nothing_is_written(iota_match):
    match, client = iota_match
    before = Match.objects.get(pk=match.pk).last_seq
    other = client.post(f"/api/matches/{match.pk}/moves", {"game": "cardavia", "move": {"type": "keep"}},
                        content_type="application/json")
    assert other.status_code == 400 and other.json()["code"] == "wrong_game"
    unknown = client.post(f"/api/matches/{match.pk}/moves", {"game": "chess", "move": {"type": "pass"}},
                          content_type="application/json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "malformed_move"
    assert '"game"' in unknown.json()["message"] and "iota" in unknown.json()["message"]
    assert Match.objects.get(pk=match.pk).last_seq == before


def test_a_move_without_game_is_read_as_a_move_of_the_matchs_game(iota_match):
    """A client written before ``game`` existed still plays: the server takes the game from the match. An IOTA
    ``pass`` keeps its ``return`` (it is read as IOTA's pass, not UNO FLIP's), and a move of another shape is
    refused as the schema would refuse it, with nothing written."""
    match, client = iota_match
    legal = client.get(f"/api/matches/{match.pk}/legal").json()
    before = legal["seq"]
    foreign = client.post(f"/api/matches/{match.pk}/moves", {"move": {"type": "keep"}, "expected_seq": before},
                          content_type="application/json")
    assert foreign.status_code == 400 and foreign.json()["code"] == "malformed_move"
    assert foreign.json()["errors"][0]["loc"][:4] == ["body", "payload", "without_game", "move"]
    assert Match.objects.get(pk=match.pk).last_seq == before
    returning = next(m for m in legal["moves"] if m["type"] == "pass" and m["return"])
    response = client.post(f"/api/matches/{match.pk}/moves", {"move": returning, "expected_seq": before},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["game"] == "iota"
    recorded = Event.objects.get(match=match, type="passed")
    assert sorted(recorded.payload["returned"]) == sorted(returning["return"])


def views_of_random_play(name: str, seed: str):
    """Every seat's and a spectator's view at each position of one random match."""
    for game, state, seats in random_play(name, seed):
        for seat in [None, *range(seats)]:
            yield game.view(state, seat)


@pytest.mark.parametrize("name", registry.names())
def test_every_view_fits_its_games_schema(name):
    """The views are answered as the engine builds them, and documented per game: every seat's and a
    spectator's view along a whole random match fits its game's schema."""
    from games.web.schemas import GAME_VIEWS

    adapter = TypeAdapter(GAME_VIEWS[name])
    for view in views_of_random_play(name, f"views-{name}"):
        adapter.validate_json(json.dumps(view))


def test_the_view_answer_names_its_game(iota_match):
    match, client = iota_match
    answer = client.get(f"/api/matches/{match.pk}/view").json()
    assert answer["game"] == "iota" and answer["view"]["hand"] and "grid" in answer["view"]
    spectator = client.get(f"/api/matches/{match.pk}/spectate").json()
    assert spectator["game"] == "iota" and spectator["view"]["hand"] == []


@pytest.mark.parametrize("options", [{"target": 10**30}, {"target": "500"}, {"colour": "R"}])
def test_a_challenges_options_outside_the_games_declaration_are_refused_naming_the_option(db, django_user_model,
                                                                                          options):
    challenger = django_user_model.objects.create_user(username="challenger", password="x")
    django_user_model.objects.create_user(username="rival", password="x")
    client = Client()
    client.force_login(challenger)
    response = client.post("/api/challenges", {"game": "livol", "opponents": ["rival"], "options": options},
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_match_settings"
    assert response.json()["errors"][0]["loc"] == ["body", "payload", "livol", "options", next(iter(options))]
    assert not Match.objects.exists()


def test_a_challenge_takes_its_games_options_and_answers_them_played(db, django_user_model):
    challenger = django_user_model.objects.create_user(username="challenger", password="x")
    django_user_model.objects.create_user(username="rival", password="x")
    client = Client()
    client.force_login(challenger)
    response = client.post("/api/challenges", {"game": "karuselis", "opponents": ["rival"],
                                               "options": {"deck": "small"}}, content_type="application/json")
    assert response.status_code == 201, response.json()
    assert response.json()["game"] == "karuselis" and response.json()["options"]["deck"] == "small"
    unknown = client.post("/api/challenges", {"game": "chess", "opponents": ["rival"]}, content_type="application/json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "malformed_request"
    assert "karuselis" in unknown.json()["message"]


@pytest.mark.usefixtures("fresh_rate_counters")
def test_an_api_move_with_an_unknown_key_is_refused_and_not_stored(people):
    match = match_create(game="karuselis", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="junk")
    seat, legal = first_actor(match)
    client = Client()
    client.force_login(people[seat])
    before = _events(match)
    move = {**legal[0], "junk": "x" * 10000}
    response = client.post(f"/api/matches/{match.pk}/moves", json.dumps({"game": match.game, "seat": seat, "move": move}),
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "malformed_move"
    assert _events(match) == before


@pytest.mark.usefixtures("fresh_rate_counters")
def test_text_holding_a_nul_character_is_a_400_not_a_server_error(people):
    # PostgreSQL stores no U+0000 in text or jsonb: such a body is refused before it reaches the database
    client = Client()
    client.force_login(people[0])
    for body in ({"game": "livol", "opponents": ["player1\u0000"]},
                 {"game": "livol", "opponents": ["player1"], "options": {"target\u0000": 100}},
                 {"game": "livol", "opponents": ["player1"], "clock": {"move_seconds": "\u0000"}}):
        response = client.post("/api/challenges", json.dumps(body), content_type="application/json")
        assert response.status_code == 400, body
        assert response.json()["code"] == "malformed_request"
    assert not Match.objects.exists()
