"""A client generated from the live schema (issue 26): ``openapi-python-client`` builds it from
``/api/openapi.json`` the way an outside developer does, and with it, with no hand-written table of moves,
every legal move of every game round-trips unchanged, a match of every game is played to its end against a
server bot (one stale ``expected_seq`` on the way), a challenge is withdrawn, and a "restarted" client finds
its running match."""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
import secrets
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.test import Client

from engine import registry
from games.models import ApiToken, Match
from games.services import SeatSpec, match_create

PACKAGE = "cardleague_generated"


@pytest.fixture(scope="module")
def generated(tmp_path_factory, django_db_blocker):
    """The generated client package, imported."""
    with django_db_blocker.unblock():
        schema = Client().get("/api/openapi.json").json()
    where = tmp_path_factory.mktemp("generated")
    (where / "openapi.json").write_text(json.dumps(schema))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([str(Path(sys.executable).parent / "openapi-python-client"), "generate",
                           "--path", str(where / "openapi.json"), "--meta", "none",
                           "--output-path", str(where / PACKAGE)],
                          cwd=where, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert (where / PACKAGE / "client.py").exists(), done.stdout + done.stderr
    # nothing of the schema was skipped ("Warning(s) encountered … some pieces may be missing")
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def module(generated, name):
    return importlib.import_module(f"{PACKAGE}.{name}")


def models_named(generated, suffix: str) -> list[type]:
    models = module(generated, "models")
    return [getattr(models, n) for n in dir(models) if n.endswith(suffix) and isinstance(getattr(models, n), type)]


def _django_transport() -> httpx.MockTransport:
    """httpx requests answered by Django in this process (its test client: the test's database)."""
    django = Client()

    def handle(request: httpx.Request) -> httpx.Response:
        answer = django.generic(request.method, request.url.raw_path.decode("ascii"), data=request.content,
                                content_type=request.headers.get("content-type", "application/octet-stream"),
                                headers={k: v for k, v in request.headers.items()
                                         if k.lower() in ("authorization", "last-event-id", "accept")})
        return httpx.Response(answer.status_code, headers=dict(answer.items()), content=answer.content)
    return httpx.MockTransport(handle)


def api_client(generated, user):
    """A client of the generated package for ``user``'s new token, talking to Django in this process."""
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name="generated", key_hash=hashlib.sha256(key.encode()).hexdigest())
    client = generated.AuthenticatedClient(base_url="http://testserver", token=key, raise_on_unexpected_status=True)
    client.set_httpx_client(httpx.Client(base_url="http://testserver", headers={"Authorization": f"Bearer {key}"},
                                         transport=_django_transport()))
    return client


def typed_move(generated, game: str, move, **fields):
    """The move request for ``game``: the generated ``…MoveIn`` model whose ``game`` is the match's (found
    by the schema's discriminator, not by a table of ours)."""
    for model in models_named(generated, "MoveIn"):
        try:
            return model.from_dict({"game": game, "move": move.to_dict(), **fields})
        except (TypeError, ValueError, KeyError):
            continue
    raise AssertionError(f"no generated move request takes {game}")


@pytest.mark.parametrize("name", registry.names())
def test_every_legal_move_round_trips_through_the_generated_models(generated, name):
    from tests.games.test_api_typed import legal_moves_of_random_play

    legal_models = models_named(generated, "LegalOut")
    for move in legal_moves_of_random_play(name, f"generated-{name}"):
        parsed = [m.from_dict({"game": name, "seat": 0, "seq": 1, "moves": [move]})
                  for m in legal_models if _parses(m, name, move)]
        assert len(parsed) == 1, (name, move)  # exactly one game's answer takes it
        (item,) = parsed[0].moves
        assert item.to_dict() == move  # no key dropped or added
        assert type(item).from_dict(move).to_dict() == move


def _parses(model, name, move) -> bool:
    try:
        model.from_dict({"game": name, "seat": 0, "seq": 1, "moves": [move]})
        return True
    except (TypeError, ValueError, KeyError):
        return False


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    """A whole match in a few seconds is far beyond a person's pace: the rates are not under test here."""
    from django.core.cache import cache

    cache.clear()
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "moves": "100000/m", "api_user": "100000/m"}


@pytest.fixture
def person(db, django_user_model):
    return django_user_model.objects.create_user(username="outsider", password="x")


@pytest.mark.parametrize("name", registry.names())
def test_a_match_of_every_game_is_played_to_its_end_through_the_generated_client(generated, person, name):
    match_detail = module(generated, "api.matches.match_detail")
    match_legal = module(generated, "api.matches.match_legal")
    match_move = module(generated, "api.matches.match_move")
    error_out = module(generated, "models").ErrorOut
    seats = max(registry.get(name).MIN_SEATS, 2)
    # a short match: a target of points at its lowest bound (1), where the game has one
    short = {option: check.low for option, (_default, check) in registry.options(name).items()
             if option == "target"}
    match = match_create(game=name, seats=[SeatSpec(user=person)] + [SeatSpec(bot="random")] * (seats - 1),
                         seed=f"generated-{name}", options=short)
    client = api_client(generated, person)
    seen = module(generated, "api.matches.match_view").sync(match.pk, client=client)
    assert seen.game == name and seen.view.to_act is not None  # the view is the game's typed view
    rng = random.Random(name)
    stale_sent = False
    for _ in range(3000):
        detail = match_detail.sync(match.pk, client=client)
        if detail.status != "running":
            break
        legal = match_legal.sync(match.pk, client=client)
        if not legal.moves:
            from games.services import bots_advance

            bots_advance(match_id=match.pk)  # the bots' turn: what the worker would do
            continue
        assert legal.game == name
        choice = rng.choice(legal.moves)
        if not stale_sent and legal.seq > 1:
            refused = match_move.sync(match.pk, client=client,
                                      body=typed_move(generated, name, choice, expected_seq=legal.seq - 1))
            assert isinstance(refused, error_out) and refused.code.value == "stale_seq"
            stale_sent = True
            continue
        answer = match_move.sync(match.pk, client=client, body=typed_move(generated, name, choice,
                                                                             expected_seq=legal.seq))
        assert not isinstance(answer, error_out), answer
    match.refresh_from_db()
    assert match.has_ended and stale_sent
    ended = match_detail.sync(match.pk, client=client)
    assert ended.result.ranking == match.result["ranking"]
    from engine.verify import verify_record

    record = module(generated, "api.matches.match_record").sync(match.pk, client=client)
    assert verify_record(record.to_dict()).ok  # the typed record, back to JSON, verifies offline


def test_a_challenge_is_withdrawn_and_a_restarted_client_finds_its_running_match(generated, person,
                                                                                 django_user_model):
    from games.services import seat_join

    models = module(generated, "models")
    challenge = module(generated, "api.matches.challenge")
    withdraw = module(generated, "api.matches.match_withdraw")
    account_matches = module(generated, "api.account.account_matches")
    django_user_model.objects.create_user(username="rival", password="x")
    client = api_client(generated, person)
    body = models.ChallengeIn.from_dict({"game": "iota", "opponents": ["rival"]})
    first = challenge.sync(client=client, body=body)
    withdrawn = withdraw.sync(first.id, client=client)
    assert withdrawn.status == "aborted"
    second = challenge.sync(client=client, body=body)
    seat_join(match_id=second.id, user=django_user_model.objects.get(username="rival"))
    restarted = api_client(generated, person)  # a new token, nothing remembered
    found = account_matches.sync(client=restarted)
    assert [(m.match, m.status.value) for m in found] == [(second.id, "running")]
    assert Match.objects.get(pk=first.id).status == Match.Status.ABORTED


def test_the_schema_is_valid_and_names_every_error_code_and_stream(db):
    from openapi_spec_validator import validate

    from games import error_codes

    schema = Client().get("/api/openapi.json").json()
    validate(schema)
    assert schema["components"]["schemas"]["ErrorOut"]["properties"]["code"]["enum"] == error_codes.codes()
    record = schema["paths"]["/api/matches/{match_id}/record"]["get"]["responses"]["200"]["content"]
    assert record["application/json"]["schema"]["$ref"] == "#/components/schemas/MatchRecord"
    for path in ("/api/stream", "/api/matches/{match_id}/stream", "/api/tournaments/{tournament_id}/stream"):
        assert "text/event-stream" in schema["paths"][path]["get"]["responses"]["200"]["content"]
    events = schema["paths"]["/api/stream"]["get"]["responses"]["200"]["x-sse-events"]
    assert {"invited", "challenge_declined", "challenge_withdrawn", "match_started", "match_finished",
            "your_turn"} <= set(events)


def test_the_readme_lists_every_error_code_from_the_one_table():
    from games import error_codes

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert error_codes.markdown() in readme


def test_every_error_code_written_in_the_code_is_in_the_table():
    """A scan of the source for codes (a ``code = "…"`` of an error class, a ``"code": "…"`` of a JSON answer,
    an engine's ``IllegalMove``/``_illegal`` code): each is in the one table."""
    import re

    from games import error_codes

    root = Path(__file__).resolve().parents[2]
    patterns = [r'^\s+code = "([a-z_]+)"', r'"code": "([a-z_]+)"', r'_illegal\(\s*"([a-z_]+)"',
                r'IllegalMove\(\s*"([a-z_]+)"']
    found = set()
    for folder in ("games", "league", "engine"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text()
            for pattern in patterns:
                found |= set(re.findall(pattern, text, flags=re.MULTILINE))
    missing = found - set(error_codes.codes()) - error_codes.ABSTRACT
    assert not missing, sorted(missing)
