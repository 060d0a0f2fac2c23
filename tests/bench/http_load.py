"""Move submits and board polls under load, through a real server.

    DATABASE_URL=postgres://… python -m tests.bench.http_load [--rates 50 100 200] [--seconds 20]
        [--boards 50] [--matches 60] [--server asgi|wsgi] [--workers 4]

Starts gunicorn (uvicorn workers: the production shape; or sync workers with --server wsgi) with
DEBUG=0 on the given database, opens ``--matches`` LIVOL matches between two people who play through
the API with tokens, and for each rate submits moves at that many per second (each move: the
seat's legal moves, then the move, as a client does) while ``--boards`` open play pages poll their
board every 2 s (as the page does, with its last position: "nothing new" is a 204). Prints p50/p99
of the submits and the polls, the rate reached and the errors. It passes or fails nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setup() -> None:
    if "DATABASE_URL" not in os.environ:
        var = ROOT / "var" / "bench-http"
        var.mkdir(parents=True, exist_ok=True)
        os.environ["CARDLEAGUE_VAR"] = str(var)
        print("note: no DATABASE_URL: SQLite (one writer at a time) — set DATABASE_URL=postgres://… to measure")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("SESSION_COOKIE_SECURE", "0")
    os.environ.setdefault("CSRF_COOKIE_SECURE", "0")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    # the load is the point: no rate limits while measuring
    for name in ("RATE_API_USER", "RATE_MOVES", "RATE_API_ANON"):
        os.environ.setdefault(name, "1000000/s")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _people_and_matches(count: int):
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from games.models import ApiToken
    from games.services import SeatSpec, match_create

    User = get_user_model()
    tag = secrets.token_hex(3)
    people = [User.objects.create_user(username=f"load-{tag}-{i}", password=secrets.token_urlsafe(12))
              for i in range(2)]
    keys = []
    for user in people:
        key = secrets.token_urlsafe(32)
        ApiToken.objects.create(user=user, name="load", key_hash=hashlib.sha256(key.encode()).hexdigest())
        keys.append(key)
    session = SessionStore()
    session["_auth_user_id"], session["_auth_user_backend"] = str(people[0].pk), \
        "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = people[0].get_session_auth_hash()
    session.create()
    matches = [match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])],
                            options={"target": 2000}).pk for _ in range(count)]
    return keys, session.session_key, matches


def _start_server(kind: str, workers: int, port: int) -> subprocess.Popen:
    app = "cardleague.asgi:application" if kind == "asgi" else "cardleague.wsgi:application"
    args = [sys.executable, "-m", "gunicorn", app, "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
            "--log-level", "warning", "--timeout", "60",
            # gunicorn closes an idle connection after 2 s by default: the boards poll every 2 s, and the bench's
            # client (unlike a browser) does not ask again on a connection the server closed as it was reused
            # (a 'poll ReadError' or 'RemoteProtocolError' at 60 matches + 50 boards, none with a longer keep-alive)
            "--keep-alive", "5"]
    if kind == "asgi":
        args += ["-k", "uvicorn_worker.UvicornWorker"]
    # the production shape's connections: a pool per ASGI process (docker/compose.yaml), persistent
    # connections for sync workers
    tuning = {"DB_POOL": "1"} if kind == "asgi" else {"DB_CONN_MAX_AGE": "60"}
    proc = subprocess.Popen(args, cwd=ROOT, env={**tuning, **os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost"})
    import urllib.request

    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/openapi.json", timeout=1)
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def _run(base: str, keys, session_key: str, matches: list[int], rate: float, seconds: float, boards: int):  # noqa: C901 - one load run, step by step
    import httpx

    submit_ms: list[float] = []
    poll_ms: list[float] = []
    errors: dict[str, int] = {}
    deadline = time.monotonic() + seconds
    interval = 1.0 / rate
    next_slot = [time.monotonic()]
    seqs = {m: 0 for m in matches}

    def count(kind: str) -> None:
        errors[kind] = errors.get(kind, 0) + 1

    async def slot():
        now = time.monotonic()
        at = max(now, next_slot[0])
        next_slot[0] = at + interval
        if at > now:
            await asyncio.sleep(at - now)

    async def player(client, match_id):
        auth = [{"Authorization": f"Bearer {k}"} for k in keys]
        while time.monotonic() < deadline:
            await slot()
            if time.monotonic() >= deadline:
                return
            moved = False
            for seat in (0, 1):
                try:
                    r = await client.get(f"/api/matches/{match_id}/legal", params={"seat": seat}, headers=auth[seat])
                except httpx.TransportError as exc:
                    count(f"legal {type(exc).__name__}")
                    continue
                body = r.json()
                if r.status_code != 200:
                    errors[f"legal {r.status_code}"] = errors.get(f"legal {r.status_code}", 0) + 1
                    continue
                moves = [m for m in body["moves"] if m["type"] not in ("catch",)]
                if not moves:
                    continue
                started = time.perf_counter()
                try:
                    r = await client.post(f"/api/matches/{match_id}/moves", headers=auth[seat],
                                          json={"game": body["game"], "seat": seat, "move": moves[0], "expected_seq": body["seq"]})
                except httpx.TransportError as exc:
                    count(f"move {type(exc).__name__}")
                    moved = True
                    break
                elapsed = (time.perf_counter() - started) * 1000
                if r.status_code == 200:
                    submit_ms.append(elapsed)
                    seqs[match_id] = r.json()["seq"]
                else:
                    errors[f"move {r.status_code}"] = errors.get(f"move {r.status_code}", 0) + 1
                moved = True
                break
            if not moved:
                await asyncio.sleep(0.05)

    async def board(client, match_id):
        cookies = {"sessionid": session_key}
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                r = await client.get(f"/matches/{match_id}/board/", params={"since": seqs[match_id], "seat": 0},
                                     cookies=cookies)
            except httpx.TransportError as exc:
                count(f"poll {type(exc).__name__}")
                await asyncio.sleep(2.0)
                continue
            poll_ms.append((time.perf_counter() - started) * 1000)
            if r.status_code not in (200, 204):
                errors[f"poll {r.status_code}"] = errors.get(f"poll {r.status_code}", 0) + 1
            await asyncio.sleep(2.0)

    limits = httpx.Limits(max_connections=len(matches) + boards + 10)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        started = time.monotonic()
        await asyncio.gather(*[player(client, m) for m in matches],
                             *[board(client, matches[i % len(matches)]) for i in range(boards)])
        elapsed = time.monotonic() - started
    return submit_ms, poll_ms, errors, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", type=float, nargs="+", default=[50, 100, 200])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--server", choices=["asgi", "wsgi"], default="asgi")
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    _setup()
    from django.conf import settings

    print(f"server: gunicorn {args.server} × {args.workers} workers, DEBUG=0, database "
          f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}; {args.matches} matches of two people, "
          f"{args.boards} boards polling every 2 s")
    keys, session_key, matches = _people_and_matches(args.matches)
    port = 8700 + os.getpid() % 200
    server = _start_server(args.server, args.workers, port)
    try:
        for rate in args.rates:
            submit, polls, errors, elapsed = asyncio.run(_run(f"http://127.0.0.1:{port}", keys, session_key,
                                                              matches, rate, args.seconds, args.boards))
            print(f"  {rate:>5.0f} moves/s asked: {len(submit) / elapsed:6.1f} reached; submit p50 "
                  f"{_pct(submit, 50):5.1f} ms, p99 {_pct(submit, 99):6.1f} ms; poll p50 {_pct(polls, 50):5.1f} ms, "
                  f"p99 {_pct(polls, 99):6.1f} ms ({len(polls)} polls); errors {errors or 'none'}")
    finally:
        server.terminate()
        server.wait(20)


if __name__ == "__main__":
    main()
