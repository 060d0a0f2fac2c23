"""The settings (``cardleague/settings.py``) as a local copy and production read them: ``make install``'s
private settings file, the README's commands working as written with nothing exported, production refusing
to start without a secret, the Docker image never reading a local file, a quiet ``make run`` console, the
database's notices standing in for Redis; sign-in lockouts and password rules, ``DEBUG`` off unless asked
for, ``check --deploy`` clean, the connection pool, the content security policy, and one Redis shared by
two deployments."""
from __future__ import annotations

import logging
import os
import re
import secrets
import shutil
import socket
import stat
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client, RequestFactory

from cardleague.settings import streams_prefix
from tests.conftest import need
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
#: What a fresh shell after `make run` does not have: nothing exported, no services.
NOT_IN_A_FRESH_SHELL = ("DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CACHE_URL",
                        "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CELERY_TASK_ALWAYS_EAGER", "STREAMS_URL",
                        "CARDLEAGUE_ENV_FILE", "DJANGO_ALLOW_ASYNC_UNSAFE")


def manage(env: dict, *args: str, timeout: int = 180) -> subprocess.CompletedProcess:
    """``python manage.py …`` as the README writes it, from the project's folder."""
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def make_env_file(home: Path) -> subprocess.CompletedProcess:
    """The Makefile's rule for the local settings file, run in ``home`` (not under a parent make's flags)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), ".env"], cwd=home, env=env,
                          capture_output=True, text=True, timeout=60)


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, f"{done.args}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def fresh_copy(tmp_path_factory):
    """A copy as ``make run`` leaves it: its own settings file written by the Makefile's rule (what
    ``make install`` runs), a throwaway ``CARDLEAGUE_VAR`` with a migrated SQLite database and the demo
    data, no Redis, and a shell where nothing is exported. (The local file is named with
    ``CARDLEAGUE_ENV_FILE``: this checkout's own ``.env`` stays out of the tests.)"""
    need(shutil.which("make") is not None, "GNU make runs the Makefile's rule")
    home = tmp_path_factory.mktemp("copy")
    made = make_env_file(home)
    assert made.returncode == 0, made.stdout + made.stderr
    env = {k: v for k, v in os.environ.items() if k not in NOT_IN_A_FRESH_SHELL}
    env.update(CARDLEAGUE_ENV_FILE=str(home / ".env"), CARDLEAGUE_VAR=str(home / "var"))
    ok(manage(env, "migrate", "--noinput", "-v", "0"))
    ok(manage(env, "demo_data"))
    return home, env


# -- the README's commands in a local copy --------------------------------------------------------------------

@pytest.mark.slow
def test_make_install_writes_a_private_local_settings_file_kept_between_runs(fresh_copy):
    # given the file `make install` wrote
    home, _ = fresh_copy
    local = home / ".env"
    text = local.read_text()
    # when the rule runs again
    again = make_env_file(home)
    # then: DEBUG on and a long generated secret, readable by its owner only, and kept (not regenerated)
    assert again.returncode == 0 and local.read_text() == text
    assert "DEBUG=1" in text.splitlines()
    secret = re.search(r"^SECRET_KEY=(\S+)$", text, re.M).group(1)
    assert len(secret) >= 50
    assert stat.S_IMODE(local.stat().st_mode) == 0o600
    # and git leaves it out
    assert "/.env" in (ROOT / ".gitignore").read_text().splitlines()


@pytest.mark.slow
def test_the_readme_commands_run_in_a_fresh_shell_after_make_install(fresh_copy):
    # given a copy after `make run` and a shell with no DEBUG and no SECRET_KEY
    home, env = fresh_copy
    assert "DEBUG" not in env and "SECRET_KEY" not in env
    # when the README's commands run as written (Writing an outside bot, Running a club, auditable offline)
    token = ok(manage(env, "bot_token_create", "annabot", "main", "--owner", "anna"))
    standings = ok(manage(env, "bot_tournament", "--game", "livol", "--format", "swiss", "--players", "4",
                          "--rounds", "1", "--option", "target=50", "--sync"))
    tournament, match = ok(manage(env, "shell", "-v", "0", "-c", (
        "from league.models import Tournament; from games.models import Match; "
        "print(Tournament.objects.latest('pk').pk, Match.objects.filter(status='finished').latest('pk').pk)"
    ))).split()
    shown = ok(manage(env, "tournament_show", "--tournament", tournament))
    text = ok(manage(env, "match_export", match, "--text"))
    ok(manage(env, "match_export", match, "-o", str(home / "record.json")))
    verified = ok(manage(env, "verify_match", match))
    offline = subprocess.run([sys.executable, "-m", "engine.verify", str(home / "record.json")], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    # then every one of them did its work
    assert "token:" in token
    assert "Final standings" in standings and "Final standings" not in shown and "Pts" in shown
    assert '[Game "LIVOL"]' in text
    assert f"match {match}: OK" in verified
    assert ok(offline).strip().splitlines()[-1].startswith("verified")  # after the summary to compare


@pytest.mark.slow
def test_a_production_shaped_start_without_a_secret_is_still_refused(fresh_copy):
    # given a production-shaped environment: no local settings file, no SECRET_KEY
    home, env = fresh_copy
    production = dict(env, CARDLEAGUE_ENV_FILE=str(home / "no-such-file.env"))
    # when the settings load with DEBUG=0, or with DEBUG not set at all
    for extra in ({"DEBUG": "0"}, {}):
        refused = manage(dict(production, **extra), "check")
        # then they refuse to start, and say why
        assert refused.returncode != 0 and "SECRET_KEY must be set" in refused.stderr
    # and the environment wins over a local file: DEBUG=0 there means off
    debug = manage(dict(env, DEBUG="0"), "shell", "-v", "0", "-c",
                   "from django.conf import settings; print(settings.DEBUG)")
    assert ok(debug).strip() == "False"


def test_the_image_never_contains_nor_reads_a_local_settings_file():
    # given the Docker build's context rules and the image's recipe
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    compose = (ROOT / "docker" / "compose.yaml").read_text()
    # then the local file is out of the build context, never read in the image, and compose still
    # requires a secret with DEBUG off
    assert ".env" in ignored
    assert 'CARDLEAGUE_ENV_FILE=""' in dockerfile
    assert "COPY . " not in dockerfile
    assert "SECRET_KEY: ${SECRET_KEY:?" in compose and 'DEBUG: "0"' in compose


# -- the `make run` console ------------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def make_run_server(env: dict):
    """The web server as `make run` starts it (uvicorn, ASGI, DEBUG from the local file, no Redis), once
    it answers; yields (its base URL, its console: one text, added when the block ends)."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "cardleague.asgi:application", "--host", "127.0.0.1",
                               "--port", str(port), "--log-level", "warning"], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base, console = f"http://127.0.0.1:{port}", []
    try:
        wait_until(lambda: httpx.get(f"{base}/accounts/login/", timeout=2), within=60,
                   why="the server did not answer", not_yet=(httpx.TransportError,))
        yield base, console
    finally:
        server.terminate()
        console.append(server.communicate(timeout=30)[0])


@pytest.mark.slow
def test_the_make_run_server_says_nothing_about_streams_or_synchronous_iterators(fresh_copy):
    # given the web server as `make run` starts it (uvicorn, ASGI, DEBUG from the local file, no Redis)
    home, env = fresh_copy
    with make_run_server(env) as (base, output):
        # when people open pages (static files and all), signed in too, and clients try the streams, as the
        # reference client does
        with httpx.Client(base_url=base, timeout=30) as http:
            pages = {path: http.get(path) for path in ("/", "/accounts/login/", "/tournaments/1/", "/leagues/1/",
                                                       "/rules/livol/", "/admin/login/")}
            signed_in = http.post("/accounts/login/", data={
                "username": "anna", "password": "cardleague-demo", "next": "/",
                "csrfmiddlewaretoken": http.cookies["csrftoken"]})
            pages.update({f"{path} (anna)": http.get(path) for path in ("/", "/accounts/settings/",
                                                                         "/matches/1/replay/", "/matches/1/audit/")})
            statics = [http.get(path) for path in ("/static/css/app.css", "/static/js/live.js", "/static/js/tz.js",
                                                   "/static/admin/css/base.css", "/static/favicon.svg")]
            hellos = {}
            for path in ("/api/stream", "/api/matches/1/stream", "/api/tournaments/1/stream"):
                with http.stream("GET", path) as stream:
                    hellos[path] = stream.status_code
                    for line in stream.iter_lines():
                        if line.startswith("event: "):
                            hellos[path] = (stream.status_code, line)
                            break
    console = output[0]
    # then pages and files are served, and the streams too, without Redis (through the database) ...
    assert signed_in.status_code == 302 and signed_in.headers["location"] == "/"
    assert all(r.status_code == 200 for r in pages.values()), {p: r.status_code for p, r in pages.items()}
    assert all(r.status_code == 200 and r.content for r in statics)
    assert all(v == (200, "event: hello") for v in hellos.values()), hellos
    # ... and the console has neither line
    assert "synchronous iterators" not in console, console
    assert "Service Unavailable" not in console, console
    assert "Traceback" not in console, console


@pytest.mark.django_db
def test_a_stream_refused_by_a_server_without_streams_is_not_logged_as_an_error(settings, caplog):
    # given a server that cannot hold streams (WSGI: it would read a stream to its end before answering)
    settings.CARDLEAGUE_STREAMS_URL = ""
    # when a client asks for its account's stream
    with caplog.at_level(logging.INFO):
        response = Client().get("/api/stream")
    # then it is told to poll, and the server's log says nothing of it
    assert response.status_code == 503 and response.json()["code"] == "streams_unavailable"
    assert [r.getMessage() for r in caplog.records if r.name.startswith("django")] == []


@pytest.mark.django_db
def test_an_unexpected_server_error_is_still_logged(caplog):
    # given a server error that nobody expected (the filter keeps only the streams' refusals quiet)
    from django.http import HttpResponseServerError
    from django.utils.log import log_response

    request = RequestFactory().get("/somewhere")
    # when Django logs it
    with caplog.at_level(logging.ERROR):
        log_response("Internal Server Error: %s", request.path, response=HttpResponseServerError(), request=request)
    # then it is in the log
    assert [r.getMessage() for r in caplog.records] == ["Internal Server Error: /somewhere"]


@pytest.mark.slow
def test_without_redis_a_stream_hears_what_another_process_recorded(fresh_copy):
    # given the web server as `make run` starts it (no Redis), and anna following her account's stream
    home, env = fresh_copy
    frames: list[str] = []
    with make_run_server(env) as (base, _), httpx.Client(base_url=base, timeout=60) as http:
        http.get("/accounts/login/")
        http.post("/accounts/login/", data={"username": "anna", "password": "cardleague-demo", "next": "/",
                                             "csrfmiddlewaretoken": http.cookies["csrftoken"]})
        with http.stream("GET", "/api/stream") as stream:
            lines = stream.iter_lines()
            for line in lines:
                if line == "event: hello":
                    break
            # when another process (as the worker is) invites her to a match
            created = ok(manage(env, "shell", "-c",
                                "from django.contrib.auth import get_user_model as u; "
                                "from games.services import SeatSpec, match_create; U = u(); "
                                "print(match_create(game='livol', seats=[SeatSpec(user=U.objects.get(username="
                                "'janis')), SeatSpec(user=U.objects.get(username='anna'), invite=True)], "
                                "created_by=U.objects.get(username='janis')).pk)"))
            match_id = int(created.strip().splitlines()[-1])
            # then her stream says so (after what already waited for her), with no Redis anywhere
            for line in lines:
                frames.append(line)
                if line.startswith("data: ") and f'"match":{match_id},' in line and frames[-2] == "event: invited":
                    break
    assert any(f'"match":{match_id},' in line for line in frames), frames


# -- production: sign-in, passwords, DEBUG, check --deploy, the pool, the CSP, a shared Redis ----------------

@pytest.mark.usefixtures("fresh_rate_counters")
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


def test_common_and_numeric_passwords_are_refused():
    for weak in ("password123", "qwertyuiop", "48213579460"):
        with pytest.raises(ValidationError):
            validate_password(weak)
    validate_password("tram-line-riga-7")


def test_the_project_hashes_passwords_with_djangos_strong_default():
    # the tests hash with MD5 for speed (tests/settings.py); the project's own settings must not
    from django.conf import global_settings

    import cardleague.settings as project

    hashers = getattr(project, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert hashers[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert "django.contrib.auth.hashers.MD5PasswordHasher" not in hashers


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


@pytest.mark.postgres
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


@pytest.mark.usefixtures("fresh_rate_counters")
def test_pages_carry_a_content_security_policy(livol_match, people):
    client = Client()
    client.force_login(people[0])
    policy = client.get(f"/matches/{livol_match.pk}/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    assert "script-src 'self' 'unsafe-inline'" not in policy


@pytest.mark.parametrize("url,given,expected", [
    ("redis://127.0.0.1:6379/2", None, "cardleague:2"),
    ("redis://127.0.0.1:6379", None, "cardleague:0"),
    ("redis://127.0.0.1:6379/5", "club-a", "club-a"),
    ("", None, "cardleague:0"),
])
def test_two_deployments_on_one_redis_do_not_hear_each_other(url, given, expected):
    assert streams_prefix(url, given) == expected
