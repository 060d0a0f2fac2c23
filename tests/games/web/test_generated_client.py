"""A client generated from the live schema: ``openapi-python-client`` builds it from
``/api/openapi.json`` the way an outside developer does, and with it, with no hand-written table of moves,
every legal move of every game round-trips unchanged, a match of every game is played to its end against a
server bot (one stale ``expected_seq`` on the way), a challenge is withdrawn, and a "restarted" client finds
its running match."""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import queue
import random
import secrets
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from django.test import Client

from engine import registry
from games.models import ApiToken, Match
from games.services import SeatSpec, match_create
from games.web.schemas import title
from tests.conftest import sse_frames

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
    from tests.games.web.test_schemas import legal_moves_of_random_play

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


@pytest.mark.slow
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

    every = module(generated, "api.matches.match_events").sync_detailed(match.pk, client=client)
    assert every.parsed.game == name
    assert every.parsed.to_dict() == json.loads(every.content)  # every event typed, no key dropped or changed
    record = module(generated, "api.matches.match_record").sync(match.pk, client=client)
    assert verify_record(record.to_dict()).ok  # the typed record, back to JSON, verifies offline


class Following:
    """A live stream (Server-Sent Events) read in its own thread, each frame (``{"event", "data", "id"}``)
    put on a queue, as an outside bot follows one."""

    def __init__(self, url: str, key: str):
        self.http = httpx.Client(timeout=httpx.Timeout(60, read=60))
        self.frames: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(url, key), daemon=True).start()

    def _read(self, url: str, key: str) -> None:
        try:
            with self.http.stream("GET", url, headers={"Authorization": f"Bearer {key}"}) as response:
                if response.status_code != 200:
                    self.frames.put({"event": "refused", "data": response.read().decode()})
                    return
                for frame in sse_frames(response.iter_lines()):
                    self.frames.put(frame)
        except (httpx.HTTPError, RuntimeError) as exc:  # closed by the test, or the server went away
            self.frames.put({"event": "closed", "data": str(exc)})

    def next(self) -> dict:
        """The next frame (a minute at most: a stream that says nothing for that long has failed)."""
        try:
            frame = self.frames.get(timeout=60)
        except queue.Empty:
            raise AssertionError("the stream said nothing for a minute") from None
        assert frame["event"] not in ("refused", "closed"), frame
        return frame

    def until(self, wanted) -> dict:
        """The first frame from now on for which ``wanted(frame)`` is true."""
        while not wanted(frame := self.next()):
            pass
        return frame

    def close(self) -> None:
        self.http.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", registry.names())
def test_an_outside_bot_plays_every_game_from_the_streams_alone_on_the_embedded_default(
        generated, embedded_asgi_server, django_user_model, name):
    """The loop an outside bot is built around, with no polling: its account stream says a match started;
    it follows the match's stream; it reads its legal moves only when it has just moved or the stream
    brought an event, and every event the stream brings parses as its game's typed event unchanged."""
    from games.web.schemas import title

    models = module(generated, "models")
    match_legal = module(generated, "api.matches.match_legal")
    match_move = module(generated, "api.matches.match_move")
    person = django_user_model.objects.create_user(username=f"outsider-{name}", password="x")
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=person, name="bot", key_hash=hashlib.sha256(key.encode()).hexdigest())
    client = generated.AuthenticatedClient(base_url=embedded_asgi_server, token=key, raise_on_unexpected_status=True)
    account = Following(f"{embedded_asgi_server}/api/stream", key)
    account.until(lambda frame: frame["event"] == "hello")
    short = {option: check.low for option, (_default, check) in registry.options(name).items() if option == "target"}
    seats = max(registry.get(name).MIN_SEATS, 2)
    match = match_create(game=name, seats=[SeatSpec(user=person)] + [SeatSpec(bot="random")] * (seats - 1),
                         seed=f"streams-{name}", options=short)
    # the account stream says the match started (or that it is the bot's turn in it)
    account.until(lambda frame: frame["event"] in ("match_started", "your_turn")
                  and frame["data"].get("match") == match.pk)
    feed = Following(f"{embedded_asgi_server}/api/matches/{match.pk}/stream?seat=0", key)
    assert feed.until(lambda frame: frame["event"] == "hello")["data"]["game"] == name
    typed_event = getattr(models, f"{title(name)}Event")
    rng, stale_sent, events_seen, reads = random.Random(name), False, 0, 0
    try:
        while True:
            legal = match_legal.sync(match.pk, client=client)
            reads += 1
            if legal.moves:
                # as a simple bot plays: a card onto the table when it can (a random walk of draws is long)
                playing = [m for m in legal.moves if m.to_dict()["type"] in ("play", "capture", "build", "sweep")]
                choice = rng.choice(playing or legal.moves)
                if not stale_sent and legal.seq > 1:
                    refused = match_move.sync(match.pk, client=client,
                                              body=typed_move(generated, name, choice, expected_seq=legal.seq - 1))
                    assert isinstance(refused, models.ErrorOut) and refused.code.value == "stale_seq"
                    stale_sent = True
                    continue
                answer = match_move.sync(match.pk, client=client,
                                         body=typed_move(generated, name, choice, expected_seq=legal.seq))
                assert not isinstance(answer, models.ErrorOut), answer
                continue
            # nothing to do: wait for the stream's next frame (never a poll)
            frame = feed.next()
            if frame["event"] == "end":
                break
            if frame["event"] == "match_event":
                assert typed_event.from_dict(frame["data"]).to_dict() == frame["data"]  # typed, nothing dropped
                events_seen += 1
        finished = account.until(lambda frame: frame["event"] == "match_finished"
                                 and frame["data"].get("match") == match.pk)
    finally:
        feed.close()
        account.close()
    match.refresh_from_db()
    assert match.has_ended and stale_sent and events_seen > 0
    print(f"{name}: {reads} reads of the legal moves, {events_seen} events from the stream")
    assert finished["data"]["ranking"] == match.result["ranking"]


def test_a_challenge_is_withdrawn_and_a_restarted_client_finds_its_running_match(generated, person,
                                                                                 django_user_model):
    from games.services import seat_join

    models = module(generated, "models")
    challenge = module(generated, "api.matches.challenge")
    withdraw = module(generated, "api.matches.match_withdraw")
    account_matches = module(generated, "api.account.account_matches")
    django_user_model.objects.create_user(username="rival", password="x")
    client = api_client(generated, person)
    body = models.IotaChallengeIn.from_dict({"game": "iota", "opponents": ["rival"], "options": {"variant": "short"}})
    first = challenge.sync(client=client, body=body)
    assert isinstance(first.options, models.IotaOptions) and first.options.variant.value == "short"
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


def _untyped(node, where: str = "") -> list[str]:
    """The places in a schema that answer an object with nothing said of its keys."""
    found = []
    if isinstance(node, dict):
        if (node.get("type") == "object" and not node.get("properties")
                and not isinstance(node.get("additionalProperties"), dict)):
            found.append(where)
        for key, value in node.items():
            found += _untyped(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _untyped(value, f"{where}[{i}]")
    return found


def test_no_answer_is_an_untyped_object_where_a_game_schema_exists(db):
    """Options, views, legal moves, events and their payloads are typed per game; the one exception is the
    portable record's own schema (``engine/match-record.schema.json``, the offline verifier's): a record's
    moves and payloads are checked by replaying them, and ``events`` answers each typed."""
    schema = Client().get("/api/openapi.json").json()
    untyped = _untyped(schema)
    assert [where for where in untyped if not where.startswith("/components/schemas/MatchRecord/")] == []
    components = schema["components"]["schemas"]
    for name in registry.names():
        prefix = title(name)
        for typed in (f"{prefix}Options", f"{prefix}View", f"{prefix}Event", f"{prefix}EventPayload",
                      f"{prefix}MoveIn", f"{prefix}LegalOut", f"{prefix}MatchOut", f"{prefix}EventsOut"):
            assert typed in components, typed
    assert components["LivolOptions"]["properties"]["target"]["maximum"] == registry.options("livol")["target"][1].high


def test_every_error_code_written_in_the_code_is_in_the_table():
    """A scan of the source for codes (a ``code = "…"`` of an error class, a ``"code": "…"`` of a JSON answer,
    an engine's ``IllegalMove``/``_illegal`` code): each is in the one table."""
    import re

    from games import error_codes

    root = Path(__file__).resolve().parents[3]
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
