"""A club night, measured with locust: the production shape on this machine under people who play.

    .venv/bin/python -m tests.bench.club_night [--people 200] [--tables 50] [--duration 180] [--think 3]
        [--web-processes 1] [--workers 1] [--spawn-rate 20] [--port 8765] [--pool 10]
        [--database cardleague_club_night]

Needs the ``bench`` extra (``.venv/bin/pip install -e '.[bench]'``), PostgreSQL at ``PGURL``
(``postgres://postgres@127.0.0.1:5432``) and Redis at ``REDIS_URL`` (``redis://127.0.0.1:6379/12``).
It drops and migrates its own database (``--database``: a name starting ``cardleague_club_night``),
empties its Redis database, starts uvicorn (``cardleague.asgi:application``, ``DB_POOL=1``,
``DB_POOL_MAX`` = ``--pool``, ``--web-processes`` processes) and a Celery worker (``--workers``
processes; it plays the bots' seats and the tournament), DEBUG=0 with a fresh
SECRET_KEY, sets the people and tables up (``var/club-night/people.json``), runs locust headless
(``tests/bench/locustfile.py``) for ``--duration`` seconds, prints the figures and stops everything.
A locust still running 25 s past ``--duration`` (or on Ctrl-C) is stopped with SIGTERM, then killed 20 s
later; the figures printed are then locust's last snapshot (it writes one every 5 s). It passes or
fails nothing.

The tables: LIVOL and UNO FLIP at four seats and IOTA at two, in turn; every fourth table has a bot in
one of its seats (``greedy``). People fill the seats table by table; one person in ten (and whoever
finds no seat) watches the tournament page of an 8-bot Swiss tournament that the worker plays meanwhile.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.bench.cpu import named_cpu, process_cpu
from tests.bench.http_load import _pct

ROOT = Path(__file__).resolve().parents[2]
VAR = ROOT / "var" / "club-night"
VENV_BIN = Path(sys.executable).parent
KINDS = [("livol", 4, {"target": 500}), ("uno_flip", 4, {}), ("iota", 2, {})]
STOP_TIMEOUT = 5  # seconds locust gives its users to finish a task once -t is up
GRACE = 20  # seconds past -t and STOP_TIMEOUT before the runner stops locust itself


def _env(args) -> dict:
    pg = os.environ.get("PGURL", "postgres://postgres@127.0.0.1:5432").rstrip("/")
    redis = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/12")
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env.update({
        "DJANGO_SETTINGS_MODULE": "cardleague.settings",
        "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"{pg}/{args.database}",
        "CELERY_BROKER_URL": redis, "CACHE_URL": redis, "STREAMS_URL": redis,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        # plain HTTP on the loopback: no HTTPS redirect, cookies sent without TLS
        "SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0",
        "LOG_LEVEL": "ERROR",
        # a club's people come from many addresses; here they all come from 127.0.0.1
        "CARDLEAGUE_STREAMS_PER_ADDRESS": "100000",
        "CLUB_NIGHT_FILE": str(VAR / "people.json"), "CLUB_NIGHT_RESULTS": str(VAR / "results.json"),
        "CLUB_NIGHT_THINK": str(args.think),
        # the server, the worker and locust run the code beside this file, whatever the venv's editable
        # install points at
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    })
    return env


def _fresh_database(env: dict, name: str) -> None:
    import psycopg
    import redis

    base = env["DATABASE_URL"].rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(env["STREAMS_URL"]).flushdb()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


SETUP_CODE = r"""
import json, sys
from django.conf import settings
from django.contrib.auth import get_user_model
from importlib import import_module
from games.services import SeatSpec, api_token_create, match_create
from league import services as league
from league.models import Tournament

people_count, tables, kinds, out = json.loads(sys.argv[-1])
User = get_user_model()
SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
users = [User.objects.create_user(username=f"p{i:04d}", password="club-night-1") for i in range(people_count)]
people = []
for u in users:
    s = SessionStore()
    s["_auth_user_id"], s["_auth_user_backend"] = str(u.pk), "django.contrib.auth.backends.ModelBackend"
    s["_auth_user_hash"] = u.get_session_auth_hash()
    s.create()
    people.append({"user": u.username, "token": api_token_create(user=u, name="club night"),
                   "session": s.session_key})
club = league.club_create(name="Club night", slug="club-night")
lg = league.league_create(club_id=club.pk, name="Club night", game="livol", options={"target": 200})
t = league.tournament_create(league_id=lg.pk, name="Club night Swiss", rounds=3, seeding=Tournament.Seeding.ENTRY)
league.bots_add(tournament_id=t.pk, count=8, policy="greedy")
spectators = max(1, people_count // 10) if people_count > 1 else 0
seated_wanted = people_count - spectators
plan, nxt, layout = [], 0, []
for i in range(tables):
    game, seats, options = kinds[i % len(kinds)]
    bot_seat = (seats - 1) if i % 4 == 3 else None
    specs, humans = [], []
    for s_ in range(seats):
        if s_ != bot_seat and nxt < seated_wanted:
            specs.append(SeatSpec(user=users[nxt])); humans.append((nxt, s_)); nxt += 1
        else:
            specs.append(SeatSpec(bot="greedy"))
    if not humans:
        break
    m = match_create(game=game, seats=specs, options=options)
    layout.append({"match": m.pk, "game": game, "seats": seats, "people": len(humans)})
    for who, seat in humans:
        people[who].update(kind="player", match=m.pk, seat=seat)
for p in people:
    p.setdefault("kind", "spectator")
    p["tournament"] = t.pk
rnd = league.round_pair(tournament_id=t.pk)
league.round_start(round_id=rnd.pk)  # queued: the worker plays it while the people play
json.dump({"people": people, "tables": layout, "tournament": t.pk, "round": rnd.pk,
           "session_cookie": settings.SESSION_COOKIE_NAME}, open(out, "w"))
"""


def _setup(env: dict, args) -> dict:
    VAR.mkdir(parents=True, exist_ok=True)
    out = VAR / "people.json"
    spec = json.dumps([args.people, args.tables, KINDS, str(out)])
    subprocess.run([sys.executable, "-c", "import django; django.setup(); exec(open(0).read())", spec],
                   cwd=ROOT, env=env, check=True, input=SETUP_CODE, text=True)
    return json.loads(out.read_text())


def _start(cmd: list[str], env: dict, log: Path) -> subprocess.Popen:
    def limits():
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(65536, hard), hard))

    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=limits)


def _wait_ready(port: int, proc: subprocess.Popen) -> None:
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited ({proc.returncode}): see {VAR / 'uvicorn.log'}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=int, default=180, help="seconds of locust, ramp-up included")
    parser.add_argument("--think", type=float, default=3.0, help="a person's think time before a move, seconds")
    parser.add_argument("--web-processes", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--spawn-rate", type=float, default=20)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--database", default="cardleague_club_night")
    parser.add_argument("--pool", type=int, default=10,
                        help="DB_POOL_MAX per web process (the product's default: 10)")
    args = parser.parse_args()
    if not args.database.startswith("cardleague_club_night"):
        raise SystemExit("--database: a throwaway name starting with cardleague_club_night (it is dropped)")
    env = _env(args)
    VAR.mkdir(parents=True, exist_ok=True)
    procs: list[subprocess.Popen] = []

    def stop_all(*_):
        for p in procs:
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        print(f"fresh database {args.database}, Redis {env['STREAMS_URL']}; migrating…", flush=True)
        _fresh_database(env, args.database)
        setup = _setup(env, args)
        tables = setup["tables"]
        seated = sum(t["people"] for t in tables)
        games = {}
        for t in tables:
            games[t["game"]] = games.get(t["game"], 0) + 1
        bots = sum(t["seats"] - t["people"] for t in tables)
        print(f"{args.people} people: {seated} at {len(tables)} tables "
              f"({', '.join(f'{n} {g}' for g, n in games.items())}; {bots} bot seats), "
              f"{args.people - seated} watching a tournament page", flush=True)
        web_env = {**env, "DB_POOL": "1", "DB_POOL_MAX": str(args.pool)}
        web = _start([str(VENV_BIN / "uvicorn"), "cardleague.asgi:application", "--host", "127.0.0.1",
                      "--port", str(args.port), "--workers", str(args.web_processes), "--log-level", "warning",
                      "--no-access-log", "--timeout-graceful-shutdown", "3"], web_env, VAR / "uvicorn.log")
        procs.append(web)
        worker = _start([str(VENV_BIN / "celery"), "-A", "cardleague", "worker", "-l", "warning",
                         "--concurrency", str(args.workers), "--prefetch-multiplier", "1"], env, VAR / "celery.log")
        procs.append(worker)
        _wait_ready(args.port, web)
        (VAR / "results.json").unlink(missing_ok=True)
        load = os.getloadavg()
        cpu0 = (process_cpu(web.pid), process_cpu(worker.pid), named_cpu("postgres"))
        t0 = time.monotonic()
        locust = _start([str(VENV_BIN / "locust"), "-f", str(ROOT / "tests/bench/locustfile.py"), "--headless",
                         "-u", str(args.people), "-r", str(args.spawn_rate), "-t", f"{args.duration}s",
                         "--host", f"http://127.0.0.1:{args.port}", "--only-summary",
                         "--stop-timeout", str(STOP_TIMEOUT), "--csv", str(VAR / "locust")], env, VAR / "locust.log")
        procs.append(locust)
        children0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        ended = _run_until(locust, t0 + args.duration + STOP_TIMEOUT + GRACE, env, args.database)
        elapsed = time.monotonic() - t0
        cpu1 = (process_cpu(web.pid), process_cpu(worker.pid), named_cpu("postgres"))
        children1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # locust's, now that it was waited for
        ended["locust_cpu"] = (children1.ru_utime + children1.ru_stime) - (children0.ru_utime + children0.ru_stime)
        rows = _rows(args, tables, seated, elapsed, cpu0, cpu1, load, ended)
        width = max(len(k) for k, _ in rows)
        print()
        for k, v in rows:
            print(f"  {k:<{width}}  {v}")
        print(f"\nlocust's own table: {VAR / 'locust_stats.csv'}; logs: {VAR}/*.log")
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
    finally:
        stop_all()


def _run_until(locust: subprocess.Popen, deadline: float, env: dict, database: str) -> dict:
    """Wait for locust to end on its own (``-t``, then ``--stop-timeout``); past ``deadline`` (or on
    Ctrl-C) stop it with SIGTERM (locust stops its users and writes its figures), and SIGKILL it
    ``GRACE`` seconds later. Meanwhile sample the load average and the database connections. Returns
    how it ended and the peaks: the figures are printed in every case."""
    seen = {"load": os.getloadavg()[0], "connections": 0, "how": "ended on time"}
    stopped_at = None

    def stop(how: str) -> float:
        seen["how"] = how
        os.killpg(locust.pid, signal.SIGTERM)
        return time.monotonic()

    while locust.poll() is None:
        try:
            time.sleep(2)
            seen["load"] = max(seen["load"], os.getloadavg()[0])
            seen["connections"] = max(seen["connections"], _connections(env, database))
        except KeyboardInterrupt:
            if stopped_at is None:
                stopped_at = stop("interrupted (Ctrl-C): stopped with SIGTERM")
            continue
        now = time.monotonic()
        if stopped_at is None and now > deadline:
            stopped_at = stop("past its deadline: stopped with SIGTERM")
        elif stopped_at is not None and now > stopped_at + GRACE:
            seen["how"] += ", then killed (SIGKILL): the figures are its last snapshot"
            os.killpg(locust.pid, signal.SIGKILL)
            locust.wait()
    return seen


def _connections(env: dict, database: str) -> int:
    """The open connections to the bench's database now (web, worker and the sampler's own)."""
    import psycopg

    base = env["DATABASE_URL"].rsplit("/", 1)[0]
    try:
        with psycopg.connect(f"{base}/postgres", autocommit=True, connect_timeout=2) as conn:
            return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]).fetchone()[0]
    except psycopg.Error:
        return 0


def _server_errors() -> dict[str, int]:
    """What the server and the worker logged as failures: pool timeouts, other tracebacks."""
    found = {}
    for name in ("uvicorn", "celery"):
        text = (VAR / f"{name}.log").read_text(errors="replace") if (VAR / f"{name}.log").exists() else ""
        for what in ("PoolTimeout", "Traceback"):
            if text.count(what):
                found[f"{name} log: {what}"] = text.count(what)
    return found


def _rows(args, tables, seated, elapsed, cpu0, cpu1, load, ended) -> list[tuple[str, str]]:
    path = VAR / "results.json"
    if not path.exists():
        return [("people", str(args.people)), ("figures", f"none: locust wrote no results ({ended['how']}); "
                                                        f"see {VAR / 'locust.log'}")]
    results = json.loads(path.read_text())
    moves = results["moves"]
    per = [(cpu1[i] - cpu0[i]) / moves * 1000 if moves else float("nan") for i in range(3)]
    errors = {**results["errors"], **_server_errors()}
    crashed = (VAR / "locust.log").read_text(errors="replace").count("Traceback")
    if crashed:
        errors["locust tracebacks (see locust.log)"] = crashed
    seconds = _seconds(results, elapsed)
    return [
        ("people", f"{args.people} ({seated} seated at {len(tables)} tables, {args.people - seated} watching)"),
        ("duration", f"{elapsed:.0f} s, locust {ended['how']} (ramp {args.people / args.spawn_rate:.0f} s), "
                     f"think {args.think} s" + ("" if results.get("final") else "; figures: last snapshot")),
        ("moves", f"{moves} ({moves / seconds:.1f}/s by people; {results['conflicts']} stale: 409)"),
        ("move POST p50/p95/p99", " / ".join(f"{_pct(results['move_ms'], p):.0f}" for p in (50, 95, 99)) + " ms"),
        ("move → other boards p50/p95/p99",
         " / ".join(f"{_pct(results['to_board_ms'], p):.0f}" for p in (50, 95, 99))
         + f" ms ({len(results['to_board_ms'])} boards)"),
        ("errors", ", ".join(f"{k}: {v}" for k, v in sorted(errors.items())) or "none"),
        ("server CPU / move", f"{sum(per):.1f} ms: web {per[0]:.1f} ms, worker {per[1]:.1f} ms, "
                              f"PostgreSQL {per[2]:.1f} ms"),
        ("board fetches, stream events", f"{results['board_fetches']}, {results['stream_events']}"),
        ("matches over", str(results["matches_over"])),
        ("load average", f"{load[0]:.2f} before, {ended['load']:.2f} peak (1 min); locust's own CPU "
                         f"{ended['locust_cpu']:.0f} s ({ended['locust_cpu'] / elapsed:.2f} of a core)"),
        ("database connections", f"{ended['connections']} at most"),
        ("server", f"uvicorn × {args.web_processes} (DB_POOL=1, DB_POOL_MAX={args.pool}), "
                   f"Celery × {args.workers}, DEBUG=0"),
    ]


def _seconds(results: dict, elapsed: float) -> float:
    """The seconds the people played: from the first one's start to the test's stop (or last snapshot)."""
    end = results.get("stopped") or results.get("written")
    if results.get("started") and end:
        return max(1.0, end - results["started"])
    return elapsed


if __name__ == "__main__":
    main()
