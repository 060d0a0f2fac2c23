"""Findings of the outside security and reliability probe, each with the test that would have caught it
(issue "Hardening"). The engine's own bounds are in tests/engine/test_hostile_moves.py, the admin's in
tests/games/test_admin.py and tests/league/test_admin.py, the API schema in test_api_schema.py and the
killed worker in tests/league/test_worker_kill.py."""
from __future__ import annotations

import hashlib
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.test import Client

from engine import registry
from games import store
from games.records import match_verify
from games.errors import SeatedTwice
from games.models import Event, Match
from games.services import SeatSpec, bots_advance, match_create
from tests.conftest import need
from tests.games.conftest import first_actor

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _fresh_rate_counters():
    cache.clear()
    yield
    cache.clear()


def _token(user) -> str:
    from games.models import ApiToken

    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name="bot", key_hash=hashlib.sha256(key.encode()).hexdigest())
    return key


def _events(match):
    return list(Event.objects.filter(match=match).order_by("seq").values_list("seq", "hash"))


# -- 3. moves with an API token ---------------------------------------------------------------------

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


# -- 6. guessing and flooding -----------------------------------------------------------------------

@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_logins_are_locked_after_five_wrong_passwords(url, django_user_model):
    django_user_model.objects.create_user(username="anna", password="the-right-one-42", is_staff=True)
    client = Client()
    # when five wrong passwords are tried
    for _ in range(5):
        assert client.post(url, {"username": "anna", "password": "wrong"}).status_code in (200, 429)
    # then even the right one is refused for now, with 429
    response = client.post(url, {"username": "anna", "password": "the-right-one-42"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


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


def test_common_and_numeric_passwords_are_refused():
    for weak in ("password123", "qwertyuiop", "48213579460"):
        with pytest.raises(ValidationError):
            validate_password(weak)
    validate_password("tram-line-riga-7")


# -- 7. low findings ----------------------------------------------------------------------------------

def test_a_deeply_nested_page_move_is_a_400_not_a_server_error(livol_match, people):
    seat, _ = first_actor(livol_match)
    client = Client()
    client.force_login(people[seat])
    before = _events(livol_match)
    for text in ["[" * 100000, "{" * 5000, json.dumps({"type": "play", "card": "R1" * 3000})]:
        response = client.post(f"/matches/{livol_match.pk}/move/", {"move": text, "expected_seq": livol_match.last_seq})
        assert response.status_code == 400, text[:20]
    assert _events(livol_match) == before


def test_a_non_numeric_expected_seq_from_the_page_is_refused(livol_match, people):
    seat, legal = first_actor(livol_match)
    client = Client()
    client.force_login(people[seat])
    before = _events(livol_match)
    response = client.post(f"/matches/{livol_match.pk}/move/", {"move": json.dumps(legal[0]), "expected_seq": "4x"})
    assert response.status_code == 400 and b"malformed_move" in response.content
    assert _events(livol_match) == before


@pytest.mark.django_db(transaction=True)
def test_a_body_over_the_limit_sent_whole_to_the_server_gets_its_answer(asgi_server, django_user_model):
    """Through the ASGI server (``cardleague/asgi.py``), a client that sends its whole body before it reads (as
    urllib does) gets the 413 in the JSON error shape for a 5 MB move, not a connection reset, and nothing
    is recorded."""
    import urllib.error
    import urllib.request

    from tests.games.web.test_streams import token_for

    person = django_user_model.objects.create_user(username="ilze", password="x")
    match = match_create(game="livol", seats=[SeatSpec(user=person), SeatSpec(bot="greedy")], seed="big-body",
                         wake_bots=False)
    before = _events(match)
    body = json.dumps({"move": {"type": "draw"}, "expected_seq": 1, "pad": "x" * 5_000_000}).encode()
    request = urllib.request.Request(f"{asgi_server}/api/matches/{match.pk}/moves?seat=0", data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {token_for(person)}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    assert refused.value.code == 413
    assert json.loads(refused.value.read())["code"] == "request_too_large"
    assert _events(match) == before


def test_a_body_over_the_limit_gets_the_json_error_shape(livol_match, people, settings):
    client = Client()
    client.force_login(people[0])
    body = json.dumps({"game": "livol", "seat": 0, "move": {"type": "draw"}, "pad": "x" * (settings.CARDLEAGUE_MAX_BODY + 10)})
    response = client.post(f"/api/matches/{livol_match.pk}/moves", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {"code": "request_too_large", "rule": None, "message": "The request is too large."}


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


def test_ids_beyond_the_database_range_are_404_not_500(people):
    client = Client()
    client.force_login(people[0])
    assert client.get(f"/matches/{2**70}/").status_code == 404
    assert client.get(f"/api/matches/{2**70}").status_code == 400
    assert client.get(f"/api/matches/{2**62}").status_code == 404


def _finished(seed: str) -> Match:
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")], seed=seed,
                         options={"target": 30})
    bots_advance(match_id=match.pk, budget=100000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match_verify(match).ok
    return match


def test_every_event_hash_covers_its_time(people):
    match = _finished("timed")
    event = Event.objects.get(match=match, seq=6)
    # an event moved in time no longer matches its hash
    event.created_at = event.created_at.replace(year=event.created_at.year - 1)
    assert store.event_hash(prev_hash=event.prev_hash, match_id=match.pk, seq=6, payload=event.payload,
                            seat=event.seat, move=event.move, created_at=event.created_at) != event.hash


def test_verify_match_names_an_event_moved_in_time(db):
    need(connection.vendor == "postgresql", "editing a recorded event needs the trigger switched off (PostgreSQL)")
    import pgtrigger

    match = _finished("moved-in-time")
    with pgtrigger.ignore("games.Event:event_append_only"), connection.cursor() as cur:
        cur.execute("UPDATE games_event SET created_at = created_at - interval '1 day' WHERE match_id = %s AND seq = 7",
                    [match.pk])
    report = match_verify(match)
    assert not report.ok and report.first_bad_seq == 7


def test_verify_match_headline_names_the_event_of_a_forged_commitment(db, capsys):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    match = _finished("forged")
    Match.objects.filter(pk=match.pk).update(seed_commitment="0" * 64)
    with pytest.raises(CommandError):
        call_command("verify_match", str(match.pk))
    out = capsys.readouterr().out
    # the opening published the real commitment: the forged one is named at that event
    assert "BAD at event 1:" in out and "commitment" in out and "None" not in out


def test_verify_match_names_the_first_missing_event_after_a_deletion(db):
    need(connection.vendor == "postgresql", "deleting a recorded event needs the trigger switched off (PostgreSQL)")
    import pgtrigger

    match = _finished("deleted")
    with pgtrigger.ignore("games.Event:event_append_only"), connection.cursor() as cur:
        cur.execute("DELETE FROM games_event WHERE match_id = %s AND seq IN (9, 10)", [match.pk])
    report = match_verify(match)
    assert report.first_bad_seq == 9
    assert report.problems[0].startswith("event 9: missing")


def test_truncating_the_events_table_is_refused(livol_match):
    need(connection.vendor == "postgresql", "the append-only triggers are PostgreSQL triggers")
    with pytest.raises(DatabaseError, match="Cannot truncate"), transaction.atomic(), connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's own inserts must not be what refuses it
        cur.execute("TRUNCATE games_event CASCADE")
    assert Event.objects.filter(match=livol_match).exists()


def test_an_application_role_cannot_update_delete_or_truncate_events(livol_match):
    need(connection.vendor == "postgresql", "roles and grants are PostgreSQL's")
    from importlib import import_module

    revoke = import_module("games.migrations.0002_hardening").revoke_event_writes
    role = "cardleague_app_test"
    with connection.cursor() as cur:
        cur.execute(f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{role}') "
                    f"THEN CREATE ROLE {role}; END IF; END $$")
        cur.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON games_event TO {role}")

    class Editor:
        pass

    editor = Editor()
    editor.connection = connection
    from django.test import override_settings

    # when the migration's lockdown runs for the application's role
    with override_settings(CARDLEAGUE_DB_APP_ROLES=[role]):
        revoke(None, editor)
    # then, acting as that role, every rewrite is refused by the database's grants
    for sql in ("UPDATE games_event SET type = 'x'", "DELETE FROM games_event", "TRUNCATE games_event"):
        with pytest.raises(DatabaseError, match="permission denied"), transaction.atomic(), connection.cursor() as cur:
            cur.execute(f"SET LOCAL ROLE {role}")
            cur.execute(sql)
    with connection.cursor() as cur:
        cur.execute(f"REVOKE ALL ON games_event FROM {role}")
    assert Event.objects.filter(match=livol_match).exists()


# -- 9. production settings ----------------------------------------------------------------------------

def _settings_process(code: str, **env) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE",
                                                                 "DJANGO_ALLOW_ASYNC_UNSAFE")}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**base, "DJANGO_SETTINGS_MODULE": "cardleague.settings", **env})


def test_debug_is_off_unless_asked_for():
    done = _settings_process("from django.conf import settings; print(settings.DEBUG)", SECRET_KEY="k" * 60)
    assert done.stdout.strip() == "False", done.stderr
    refused = _settings_process("from django.conf import settings; settings.DEBUG")
    assert refused.returncode != 0 and "SECRET_KEY must be set" in refused.stderr


def test_check_deploy_is_clean_under_the_production_settings():
    done = _settings_process(
        "import django, sys; django.setup(); from django.core.management import call_command; "
        "call_command('check', '--deploy', '--fail-level', 'WARNING')",
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="cards.example.org")
    assert done.returncode == 0, done.stdout + done.stderr


def test_db_pool_gives_each_process_a_pool_of_reused_connections(db):
    # the ASGI web server's setting (docker/compose.yaml): without it every request opens a connection
    from django.db import connection

    from tests.conftest import _database_url

    need(connection.vendor == "postgresql", "the connection pool is psycopg's (PostgreSQL)")
    done = _settings_process(
        "import django; django.setup(); from django.db import connection as c; "
        "c.ensure_connection(); c.close(); c.pool.wait(timeout=10); pids = set()\n"
        "for _ in range(10):\n"
        "    c.ensure_connection(); pids.add(c.connection.info.backend_pid); c.close()\n"
        "print(type(c.pool).__name__, len(pids), c.pool.get_stats()['pool_size'])",
        DEBUG="1", DB_POOL="1", DATABASE_URL=_database_url(connection.settings_dict))
    assert done.returncode == 0, done.stderr
    # ten requests' worth of connections come from the pool's few (min_size 2, grown by at most a
    # request that found none ready at start), not ten new ones
    kind, backends, size = done.stdout.split()
    assert kind == "ConnectionPool" and 1 <= int(backends) <= int(size) <= 3


def test_pages_carry_a_content_security_policy(livol_match, people):
    client = Client()
    client.force_login(people[0])
    policy = client.get(f"/matches/{livol_match.pk}/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    assert "script-src 'self' 'unsafe-inline'" not in policy


# -- 10. seating ----------------------------------------------------------------------------------------

def test_a_person_cannot_hold_two_seats_of_a_match(people):
    with pytest.raises(SeatedTwice):
        match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[0])])
    assert not Match.objects.exists()


def test_the_new_match_form_refuses_the_creators_own_name_and_a_name_twice(people):
    client = Client()
    client.force_login(people[0])
    for names in ("player0", "player1, player1"):
        response = client.post("/matches/new/", {"game": "livol", "seats": 3, "bot": "greedy", "people": names})
        assert response.status_code == 400, names
    assert not Match.objects.exists()


def test_api_requests_beyond_the_per_account_rate_get_429(livol_match, people, settings, one_rate_window):
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "api_user": "5/m", "api_anon": "3/m"}
    client = Client()
    client.force_login(people[0])
    statuses = [client.get(f"/api/matches/{livol_match.pk}").status_code for _ in range(7)]
    assert statuses == [200] * 5 + [429] * 2
    anonymous = [Client().get("/api/league/tournaments").status_code for _ in range(5)]
    assert anonymous == [200] * 3 + [429] * 2
