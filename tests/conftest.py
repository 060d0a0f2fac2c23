"""Test set-up shared by every suite.

- Celery runs eagerly in the test process unless a test asks for the real
  worker (``celery_worker_process``), which runs against the same test database.
- Tests that need PostgreSQL, a real worker or Chromium skip with a reason
  locally, and fail instead when ``CARDLEAGUE_REQUIRE_SERVICES=1`` (CI).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator

import pytest  # noqa: E402

REQUIRE = os.environ.get("CARDLEAGUE_REQUIRE_SERVICES") == "1"


def need(condition: bool, reason: str) -> None:
    """Skip locally when a service is missing; in CI the missing service is a failure."""
    if not condition:
        if REQUIRE:
            pytest.fail(f"required in CI: {reason}")
        pytest.skip(reason)


def sse_frames(lines: Iterable[str]) -> Iterator[dict]:
    """The frames of a server-sent event stream (``{"id", "event", "data"}``, ``data`` parsed as JSON), one
    at a time as their closing blank line arrives."""
    current: dict = {}
    for line in lines:
        if line.startswith("id: "):
            current["id"] = int(line[4:])
        elif line.startswith("event: "):
            current["event"] = line[7:]
        elif line.startswith("data: "):
            current["data"] = json.loads(line[6:])
        elif line == "" and current:
            yield current
            current = {}


@pytest.fixture(scope="session", autouse=True)
def _celery_eager():
    """Tasks run in the test process unless a test asks for the real worker."""
    from cardleague.celery import app

    app.conf.task_always_eager = True
    yield


@pytest.fixture(scope="session", autouse=True)
def _compiled_catalogues():
    """The translation catalogues compiled (``make install`` does it; a bare ``pytest`` too)."""
    from pathlib import Path

    stale = [po for po in Path(__file__).resolve().parents[1].glob("locale/**/LC_MESSAGES/*.po")
             if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime]
    if stale:
        from django.core.management import call_command

        call_command("messages_compile", verbosity=0)


@pytest.fixture(scope="session", autouse=True)
def _flush_between_transactional_tests_may_truncate_events():
    """Transactional tests end with Django's ``flush`` (a TRUNCATE of every table); the events table
    refuses TRUNCATE (a trigger: production's ``manage.py flush`` is refused too), so the test
    harness's flush runs with that one trigger ignored."""
    import pgtrigger
    from django.core.management.commands import flush

    handle = flush.Command.handle

    def handle_ignoring_the_truncate_guard(self, *args, **options):
        with pgtrigger.ignore("games.Event:event_no_truncate"):
            return handle(self, *args, **options)

    flush.Command.handle = handle_ignoring_the_truncate_guard
    yield
    flush.Command.handle = handle


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A page requested in another language leaves it active in the thread (LocaleMiddleware does
    not deactivate it): the next test starts in the default language again."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    from games import store

    store.forget_cache()
    yield
    store.forget_cache()


@pytest.fixture
def one_rate_window(monkeypatch):
    """The rate limits count in fixed windows (django-ratelimit): a test that counts N requests
    against a limit holds the clock the limits read still, so a window that ends mid-test cannot
    reset the count (a real CI failure: 200, 200, 200, 200, 429 for a limit of 3)."""
    import time
    from types import SimpleNamespace

    import django_ratelimit.core

    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture
def fresh_rate_counters():
    """The rate limits' counts start from nothing and are gone afterwards: they live in the cache, which
    locally is a file kept between tests and between runs."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def _database_url(db: dict) -> str:
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def start_worker(*, queue: str | None = None, beat: bool = False, env: dict | None = None, name: str = "test"):
    """A real Celery worker process on the configured broker and the test database (its own
    process group, so a test can kill it with its pool). Returns the process once it is ready."""
    import subprocess
    import sys
    import threading

    from django.conf import settings

    root = os.path.dirname(os.path.dirname(__file__))
    queue = queue or settings.CELERY_TASK_DEFAULT_QUEUE
    env = dict(os.environ, CELERY_TASK_ALWAYS_EAGER="0", DATABASE_URL=_database_url(settings.DATABASES["default"]),
               CELERY_BROKER_URL=settings.CELERY_BROKER_URL, CELERY_QUEUE=queue, **(env or {}))
    args = [sys.executable, "-m", "celery", "-A", "cardleague", "worker", "-l", "info", "--concurrency", "2",
            "-n", f"{name}-{os.getpid()}@%h", "-Q", queue, "--without-gossip", "--without-mingle",
            "--without-heartbeat"]
    if beat:
        args.append("-B")
    proc = subprocess.Popen(args, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    ready = threading.Event()
    lines: list[str] = []

    def read():
        for line in proc.stdout:
            lines.append(line)
            if " ready." in line:
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    proc.log = lines
    if not ready.wait(60):
        proc.kill()
        pytest.fail("the Celery worker did not start:\n" + "".join(lines[-40:]))
    return proc


def stop_worker(proc, django_db_blocker=None) -> None:
    import subprocess

    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
    from django.db import connection

    if connection.vendor == "postgresql" and django_db_blocker is not None:
        # the worker's pool processes may still hold a session; the test database must drop cleanly
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real Celery worker process on the configured broker and the test database."""
    proc = start_worker()
    yield proc
    stop_worker(proc, django_db_blocker)


@pytest.fixture
def real_celery(celery_worker_process):
    """Send tasks to the broker (not eagerly) for the duration of a test."""
    from cardleague.celery import app

    app.conf.task_always_eager = False
    yield celery_worker_process
    app.conf.task_always_eager = True


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerURL(str):
    """A server's base URL, knowing its process id (``pid``) for tests that count its threads."""
    pid: int = 0


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, django_db_blocker):
    """The project served by uvicorn (ASGI: the live streams need it) on the test database, with
    Redis pub/sub for the streams. Yields its base URL. Tests using it need a transactional database."""
    from django.conf import settings

    need(bool(settings.CARDLEAGUE_STREAMS_URL), "the live streams need Redis (STREAMS_URL, CACHE_URL or "
                                                 "CELERY_BROKER_URL redis://…)")
    yield from _uvicorn(django_db_blocker, STREAMS_URL=settings.CARDLEAGUE_STREAMS_URL, CARDLEAGUE_STREAM_HEARTBEAT="1")


@pytest.fixture(scope="session")
def pooled_asgi_server(django_db_setup, django_db_blocker):
    """``asgi_server`` with psycopg's connection pool (``DB_POOL``, as docker/compose.yaml serves it) of two
    connections, as few as the streams' own threads: a stream's thread that kept a connection between reads
    would leave no connection for a request."""
    from django.conf import settings
    from django.db import connection

    need(connection.vendor == "postgresql", "the connection pool is psycopg's (PostgreSQL)")
    need(bool(settings.CARDLEAGUE_STREAMS_URL), "the live streams need Redis")
    yield from _uvicorn(django_db_blocker, STREAMS_URL=settings.CARDLEAGUE_STREAMS_URL, CARDLEAGUE_STREAM_HEARTBEAT="1",
                        DB_POOL="1", DB_POOL_MAX="2", CARDLEAGUE_STREAM_DB_READS="4")


EMBEDDED_PREFIX = "cardleague-embedded-test"


@pytest.fixture(scope="session")
def _embedded_uvicorn(django_db_setup, django_db_blocker):
    yield from _uvicorn(django_db_blocker, STREAMS_URL="", STREAMS_PREFIX=EMBEDDED_PREFIX, CACHE_URL="",
                        CELERY_BROKER_URL="memory://", CARDLEAGUE_STREAM_POLL="0.1", CARDLEAGUE_CALL_GRACE_SECONDS="0",
                        RATE_API_USER="100000/m", RATE_MOVES="100000/m")


@pytest.fixture
def embedded_asgi_server(_embedded_uvicorn, settings):
    """The project served by uvicorn as ``make run`` serves it: no Redis anywhere (the streams hear the
    database's notices), bots without a call's grace and no rate a whole match could reach; what the test
    records is noticed through the database too (as the worker's is under ``make run``). Yields its base
    URL. A test using it needs a transactional database."""
    settings.CARDLEAGUE_STREAMS_URL = ""
    settings.CARDLEAGUE_STREAMS_PREFIX = EMBEDDED_PREFIX
    return _embedded_uvicorn


def _uvicorn(django_db_blocker, **environment):
    """uvicorn serving the project on the test database with ``environment``; yields its base URL."""
    import subprocess
    import sys
    import threading
    import urllib.request

    from django.conf import settings

    from tests.waiting import wait_until

    port = _free_port()
    root = os.path.dirname(os.path.dirname(__file__))
    env = dict(os.environ, DATABASE_URL=_database_url(settings.DATABASES["default"]), DEBUG="1",
               CELERY_TASK_ALWAYS_EAGER="1", DJANGO_SETTINGS_MODULE="tests.settings", **environment)
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "cardleague.asgi:application", "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning"], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    url = ServerURL(f"http://127.0.0.1:{port}")
    url.pid = proc.pid

    def answers() -> bool:
        if proc.poll() is not None:
            pytest.fail("uvicorn stopped:\n" + "".join(lines[-40:]))
        with urllib.request.urlopen(f"{url}/api/openapi.json", timeout=1) as answer:
            return answer.status == 200

    try:
        wait_until(answers, within=60, why=lambda: "uvicorn did not start:\n" + "".join(lines[-40:]))
    except BaseException:
        proc.kill()
        raise
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    from django.db import connection

    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture
def hung_port():
    """A port that accepts every connection and never says a word (a hung Redis or broker); yields (port,
    accepted connections)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except (TimeoutError, OSError):
                continue
            accepted.append(conn)
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join(2)
    for conn in accepted:
        conn.close()
    server.close()
