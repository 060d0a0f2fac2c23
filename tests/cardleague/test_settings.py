"""The first hour of a local copy (issue 21: findings 3, 14, 16, 17, 6c and the settings and sign-up
forms' references): the README's commands work as written after ``make install``, with nothing
exported; production still refuses to start without a secret; the token page keeps the token off the
command line; the ``make run`` console is quiet; English dates are day-first on a 24-hour clock; each
reader sees times in their own zone."""
from __future__ import annotations

import logging
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.models import Match
from games.services import SeatSpec, match_create
from cardleague.middleware import TIME_ZONE_COOKIE, ReaderTimeZoneMiddleware, reader_zone
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


# -- finding 3: the README's commands in a local copy ------------------------------------------------------

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


# -- finding 14: the token page ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_token_page_shows_the_token_alone_and_a_command_that_reads_it_from_the_environment():
    # given a signed-in person
    person = get_user_model().objects.create_user(username="anna", password="pw")
    client = Client()
    client.force_login(person)
    # when they create an outside bot on their settings page
    response = client.post("/accounts/bots/new/", {"name": "annabot"})
    html = response.content.decode()
    # then the token is shown on its own, and it works
    key = re.search(r'<code class="token" id="token">([^<]+)</code>', html).group(1)
    assert Client().get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200
    # and the suggested commands read it from CARDLEAGUE_TOKEN: it is on no command line
    commands = re.findall(r"<pre[^>]*>(.*?)</pre>", html, re.S)
    assert commands and all(key not in c and "--token" not in c for c in commands)
    assert any("export CARDLEAGUE_TOKEN=" in c and ".venv/bin/python clients/python/cardleague_client.py" in c
               for c in commands)
    # and the page says the project's .venv already has the client's dependency
    assert "<code>.venv</code> already has the client" in html and "httpx" in html


# -- finding 16: the `make run` console ---------------------------------------------------------------------------

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


# -- finding 17: English dates -----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_english_dates_put_the_day_first_on_a_24_hour_clock(people):
    # given a match that finished on 1 December 2026 at 13:27 in the club's time zone (Riga, UTC+2)
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="dates")
    finished = datetime(2026, 12, 1, 11, 27, tzinfo=UTC)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, finished_at=finished)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people[0])
    # when an English reader opens the home page (recently finished matches)
    html = client.get("/").content.decode()
    # then the date reads day first, on a 24-hour clock
    assert "01.12.2026 13:27" in html
    assert "12/01/2026" not in html and "p.m." not in html
    # and so do the long forms
    with translation.override("en"), timezone.override(ZoneInfo("Europe/Riga")):
        local = timezone.localtime(finished)
        assert date_format(local, "DATETIME_FORMAT") == "1 December 2026, 13:27"
        assert date_format(local, "DATE_FORMAT") == "1 December 2026"
        assert date_format(local, "MONTH_DAY_FORMAT") == "1 December"


# -- finding 6c: each reader's time zone ----------------------------------------------------------------------------

def _offset(zone: str) -> int:
    return int(timezone.now().astimezone(ZoneInfo(zone)).utcoffset().total_seconds())


def test_the_time_zone_middleware_activates_a_known_cookie_zone_and_ignores_others():
    # given requests with a good, a bad and no time zone cookie
    seen = {}

    def view(request):
        seen[request.COOKIES.get(TIME_ZONE_COOKIE)] = timezone.get_current_timezone_name()
        return None

    middleware = ReaderTimeZoneMiddleware(view)
    for value in ("America/New_York", "Mars/Olympus", "../../etc/passwd", "", None):
        request = RequestFactory().get("/")
        if value is not None:
            request.COOKIES[TIME_ZONE_COOKIE] = value
        # when each passes the middleware
        middleware(request)
        # then afterwards the club's zone is back
        assert timezone.get_current_timezone_name() == "Europe/Riga"
    # then the known zone was the request's, the others left the club's
    assert seen == {"America/New_York": "America/New_York", "Mars/Olympus": "Europe/Riga",
                    "../../etc/passwd": "Europe/Riga", "": "Europe/Riga", None: "Europe/Riga"}
    assert reader_zone("Europe/Vilnius") == ZoneInfo("Europe/Vilnius") and reader_zone("x" * 100) is None


@pytest.mark.django_db
def test_the_admin_pages_offset_is_the_readers_own(admin_user):
    # given an organiser whose browser is in New York, and one whose cookie names no zone
    client = Client()
    client.force_login(admin_user)
    # when they open the admin
    client.cookies[TIME_ZONE_COOKIE] = "America/New_York"
    readers = client.get("/admin/").content.decode()
    client.cookies[TIME_ZONE_COOKIE] = "Nowhere/Atall"
    unknown = client.get("/admin/").content.decode()
    # then the page's offset (what the admin's date fields compare with the browser's) is the reader's:
    # no "You are 7 hours behind server time"; an unknown zone gets the club's
    assert f'data-admin-utc-offset="{_offset("America/New_York")}"' in readers
    assert f'data-admin-utc-offset="{_offset("Europe/Riga")}"' in unknown


@pytest.mark.django_db
def test_every_page_loads_the_time_zone_script(admin_user):
    # given an anonymous reader and an organiser
    organiser = Client()
    organiser.force_login(admin_user)
    # when they open the sign-in page, a public page, the admin's login and the admin
    pages = [Client().get("/accounts/login/"), Client().get("/rules/livol/"), Client().get("/admin/login/"),
             organiser.get("/admin/"), organiser.get("/admin/league/season/add/")]
    # then each loads static/js/tz.js
    assert all(p.status_code == 200 and "js/tz.js" in p.content.decode() for p in pages)


# -- accessibility: every aria-describedby points at an element of the page -----------------------------------------

def _broken_references(html: str) -> list[str]:
    ids = set(re.findall(r'\sid="([^"]+)"', html))
    return [ref for refs in re.findall(r'aria-describedby="([^"]*)"', html) for ref in refs.split()
            if ref not in ids]


@pytest.mark.django_db
def test_the_settings_sign_up_and_sign_in_forms_describe_their_fields_with_elements_that_exist():
    # given a signed-in person and an anonymous visitor
    person = get_user_model().objects.create_user(username="anna", password="pw")
    signed_in = Client()
    signed_in.force_login(person)
    # when they open the forms, and post them wrongly (errors are described too)
    pages = {
        "settings": signed_in.get("/accounts/settings/"),
        "settings, a bad bot name": signed_in.post("/accounts/bots/new/", {"name": "not a name!"}),
        "sign up": Client().get("/accounts/signup/"),
        "sign up, passwords differ": Client().post("/accounts/signup/", {
            "username": "new one", "password": "a-long-password-1", "password_again": "another-password-2"}),
        "sign in": Client().get("/accounts/login/"),
    }
    # then every reference names an element of the page
    described = {name: html for name, r in pages.items() if "aria-describedby" in (html := r.content.decode())}
    assert {"settings", "settings, a bad bot name", "sign up", "sign up, passwords differ"} <= set(described)
    assert {name: _broken_references(html) for name, html in described.items()} == {
        name: [] for name in described}


def test_without_redis_a_stream_hears_what_another_process_recorded(fresh_copy):
    # given the web server as `make run` starts it (no Redis), and anna following her account's stream
    home, env = fresh_copy
    frames: list[str] = []
    with make_run_server(env) as (base, _):
        with httpx.Client(base_url=base, timeout=60) as http:
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


def test_the_embedded_brokers_worker_asks_for_work_five_times_a_second(monkeypatch, tmp_path):
    """`make run`'s worker polls its SQLite broker for work: at kombu's default of once a second a bot answered
    a person's move up to a second late, and a bot tournament took 19 s instead of 2 (tournament_bench)."""
    from kombu import Connection
    from kombu.transport import sqlalchemy

    from cardleague.celery import embedded_broker_polled_often

    monkeypatch.setattr(sqlalchemy.Transport, "polling_interval", 1.0)
    url = f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}"
    embedded_broker_polled_often(url)
    with Connection(url) as broker:
        assert broker.transport.polling_interval == 0.2
    # another broker is left as it is
    monkeypatch.setattr(sqlalchemy.Transport, "polling_interval", 1.0)
    embedded_broker_polled_often("redis://127.0.0.1:6379/0")
    with Connection(url) as broker:
        assert broker.transport.polling_interval == 1.0
