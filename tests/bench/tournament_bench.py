"""Tournament throughput: a 16-bot, 5-round Swiss of LIVOL through Celery with 1, 2 and 4 workers,
and the same matches played by the raw engine in one process.

    python -m tests.bench.tournament_bench [--players 16] [--rounds 5] [--target 200] [--workers 1 2 4]

Prints figures; it does not pass or fail. By default it uses its own SQLite
database and broker under var/bench/ (fresh each run); set DATABASE_URL and
CELERY_BROKER_URL to measure PostgreSQL and Redis instead (it then adds its
tournaments to that database).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setup_environment() -> None:
    if "DATABASE_URL" not in os.environ:
        var = ROOT / "var" / "bench"
        shutil.rmtree(var, ignore_errors=True)
        os.environ["CARDLEAGUE_VAR"] = str(var)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    # the production shape: a copy's own .env says DEBUG=1, which keeps every query of the worker in memory
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("CELERY_QUEUE", f"bench-{os.getpid()}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _start_worker(concurrency: int) -> subprocess.Popen:
    """A Celery worker on the bench's queue; its output goes to a log file next to the database."""
    from django.conf import settings

    log = Path(os.environ.get("CARDLEAGUE_VAR", ROOT / "var")) / f"bench-worker-{concurrency}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "cardleague", "worker", "-l", "info", "--concurrency", str(concurrency),
         "-n", f"bench-{os.getpid()}-{concurrency}@%h", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--logfile", str(log)],
        cwd=ROOT, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    proc.log = log
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if log.exists() and " ready." in log.read_text(errors="replace"):
            return proc
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the Celery worker did not start; see {log}")


def _stop_worker(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()


def _tournament(players: int, rounds: int, target: int, label: str):
    from league import services
    from league.models import Club, League, Tournament

    club = Club.objects.filter(slug="bench").first() or services.club_create(name="Bench", slug="bench")
    league = League.objects.filter(club=club).first() or services.league_create(
        club_id=club.pk, name="LIVOL bench", game="livol", options={"target": target})
    tournament = services.tournament_create(league_id=league.pk, name=f"bench {label} {time.time():.0f}",
                                            format="swiss", rounds=rounds,
                                            options={"target": target}, seeding=Tournament.Seeding.ENTRY)
    services.bots_add(tournament_id=tournament.pk, count=players, policy="greedy")
    return tournament


def _cpu(worker: subprocess.Popen) -> dict[str, float] | None:
    """CPU seconds so far of the worker (its pool included), PostgreSQL, Redis, this process and the whole
    machine; None without psutil (the ``bench`` extra)."""
    try:
        from tests.bench.cpu import machine_busy, named_cpu, process_cpu

        own = os.times()
        return {"the worker": process_cpu(worker.pid), "PostgreSQL": named_cpu("postgres"),
                "Redis": named_cpu("redis-server"), "this process": own.user + own.system,
                "machine": machine_busy()}
    except ImportError:
        return None


def _cpu_line(before: dict | None, after: dict | None, elapsed: float, matches: int) -> str | None:
    """Where the machine's cores went during the run: a speed-up from more workers can only come from
    cores the others leave free."""
    if before is None or after is None:
        return None
    used = {name: after[name] - before[name] for name in after}
    cores = os.cpu_count() or 1
    parts = ", ".join(f"{name} {used[name] / elapsed:.2f}" for name in used
                      if name != "machine" and used[name] / elapsed >= 0.005)
    return (f"  cores busy: {used['machine'] / elapsed:.2f} of {cores} ({parts}; the rest other processes); "
            f"the worker's CPU per match {used['the worker'] * 1000 / max(1, matches):.0f} ms")


def run_through_celery(workers: int, players: int, rounds: int, target: int) -> dict:
    from cardleague.celery import app
    from league import services
    from league.models import Table, Tournament

    app.conf.task_always_eager = False
    tournament = _tournament(players, rounds, target, f"{workers}w")
    proc = _start_worker(workers)
    try:
        cpu_before = _cpu(proc)
        started = time.perf_counter()
        services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)
        from games.models import Match

        last, last_change = None, time.monotonic()
        while True:
            tournament.refresh_from_db()
            if tournament.status == Tournament.Status.FINISHED:
                break
            position = sum(Match.objects.filter(league_table__round__tournament=tournament)
                           .values_list("last_seq", flat=True))
            if position != last:
                last, last_change = position, time.monotonic()
            elif time.monotonic() - last_change > 120 or proc.poll() is not None:
                raise SystemExit(f"no progress for two minutes (worker exit code {proc.poll()}); see {proc.log}")
            time.sleep(0.1)
        elapsed = time.perf_counter() - started
        cpu_after = _cpu(proc)
    finally:
        _stop_worker(proc)
    matches = list(Table.objects.filter(round__tournament=tournament, match__isnull=False)
                   .values_list("match_id", flat=True))
    return {"tournament": tournament, "elapsed": elapsed, "matches": matches,
            "cpu": _cpu_line(cpu_before, cpu_after, elapsed, len(matches))}


def play_raw(match_ids: list[int]) -> tuple[float, int]:
    """The same matches (same seeds, seats, bot decisions) played by the engine alone, in one process."""
    from engine import registry
    from engine.bots import bot_move
    from games.models import STORE_EVENTS, Event, Match
    from games.services.opening import bots_key, engine_seed

    jobs = []
    for match in Match.objects.filter(pk__in=match_ids).prefetch_related("seats"):
        policies = {s.index: s.bot for s in match.seats.all()}
        # the store's own events before the deal (the opening, the contributions) count in the positions
        before = Event.objects.filter(match=match, type__in=STORE_EVENTS).exclude(type="seed_revealed").count()
        jobs.append((bots_key(match), match.game, engine_seed(match), match.options, policies, before,
                     match.last_seq - 1))
    events_total = 0
    mismatches = 0
    started = time.perf_counter()
    for key, game_name, seed, options, policies, before, expected_events in jobs:
        game = registry.get(game_name)
        events = game.start(len(policies), seed, options=options)
        state = game.fold(events)
        seq = before + len(events)
        while game.outcome(state) is None:
            moved = False
            for seat in game.to_act(state):
                move = bot_move(game_name, key, seq, state, seat, policies[seat])
                if move is None:
                    continue
                for event in game.play(state, seat, move):
                    state = game.apply(state, event)
                    seq += 1
                moved = True
                break
            if not moved:
                raise RuntimeError(f"a match keyed {key}: nobody moves")
        events_total += seq
        mismatches += seq != expected_events
    elapsed = time.perf_counter() - started
    if mismatches:
        print(f"  note: {mismatches} replayed matches differ in length from the recorded ones")
    return elapsed, events_total


def record_floor(match_ids: list[int]) -> tuple[float, float]:
    """What recording alone costs, with no Celery, no bots' choices and no standings: each match's engine
    events (as recorded) hashed in a chain and written by the store in one insert (COPY on PostgreSQL)
    for a copy of the match, one savepoint per match, all rolled back at the end. Returns the seconds
    for the hashing alone and for hashing and writing."""
    from django.db import transaction

    from games import store
    from games.models import STORE_EVENTS, Event, Match

    class Discard(Exception):
        pass

    jobs = []
    for match in Match.objects.filter(pk__in=match_ids):
        payloads = list(Event.objects.filter(match=match).exclude(type__in=STORE_EVENTS)
                        .order_by("seq").values_list("payload", flat=True))
        jobs.append((match, payloads))
    started = time.perf_counter()
    for match, payloads in jobs:
        prev = store.GENESIS_HASH
        for seq, payload in enumerate(payloads, 1):
            prev = store.event_hash(prev_hash=prev, match_id=match.pk, seq=seq, payload=payload, seat=None, move=None,
                                    created_at=match.created_at, chain_version=match.chain_version)
    hashing = time.perf_counter() - started
    try:
        with transaction.atomic():
            started = time.perf_counter()
            for match, payloads in jobs:
                with transaction.atomic():
                    match.pk, match.last_seq, match.last_hash = None, 0, ""
                    match.save()
                    store.append_batches(match, [(payloads, None, None)])
                    match.save(update_fields=["last_seq", "last_hash", "moved_at"])
            writing = time.perf_counter() - started
            raise Discard
    except Discard:
        pass
    return hashing, writing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--target", type=int, default=200, help="LIVOL target score (the game's default is 500)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    _setup_environment()
    from django.conf import settings

    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    broker = settings.CELERY_BROKER_URL.split(":", 1)[0]
    print(f"Swiss of {args.players} greedy LIVOL bots, {args.rounds} rounds, target {args.target}; "
          f"database {db}, broker {broker}")
    results = []
    for workers in args.workers:
        run = run_through_celery(workers, args.players, args.rounds, args.target)
        n = len(run["matches"])
        raw_elapsed, events = play_raw(run["matches"])
        results.append((workers, n, run["elapsed"], raw_elapsed, events))
        print(f"  {workers} worker{'s' if workers > 1 else ''}: {n} matches in {run['elapsed']:.1f} s = "
              f"{n / run['elapsed']:.2f} matches/s ({events} events, {events / run['elapsed']:.0f} events/s)")
        if run["cpu"]:
            print(run["cpu"])
        print(f"  raw engine, same {n} matches in one process: {raw_elapsed:.2f} s = {n / raw_elapsed:.1f} matches/s")
        print(f"  overhead of the event store + Celery per match: {run['elapsed'] / raw_elapsed:.1f}x "
              f"(with {workers} worker{'s' if workers > 1 else ''})")
        hashing, writing = record_floor(run["matches"])
        print(f"  the record alone (the same events hashed: {hashing:.2f} s; hashed and written, one insert a match: "
              f"{writing:.2f} s): the raw engine plus the record is {(raw_elapsed + writing) / raw_elapsed:.1f}x "
              f"the raw engine")
    if len(results) > 1:
        # each run is a new tournament whose matches differ in length: events/s compares the work done
        base_matches, base_events = results[0][1] / results[0][2], results[0][4] / results[0][2]
        for workers, n, elapsed, _, events in results[1:]:
            print(f"  speed-up {results[0][0]} -> {workers} workers: {(events / elapsed) / base_events:.2f}x in "
                  f"events/s ({(n / elapsed) / base_matches:.2f}x in matches/s)")


if __name__ == "__main__":
    main()
