"""How many open streams one ASGI worker holds: N seats' event streams open on one uvicorn process (two
seats of N/2 matches, as people's pages are), then moves in some of the matches, and how long each
takes from its commit to the frames on its match's streams.

    STREAMS_URL=redis://127.0.0.1:6379/9 [DATABASE_URL=postgres://…] python -m tests.bench.stream_load
        [--streams 100 500 1000 2000] [--moves 5]

Prints, per count: the worker's memory (RSS) with the streams open, and p50/p99/max of the time from
a move's commit to its frame arriving on each stream. It passes or fails nothing.
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
        var = ROOT / "var" / "bench-streams"
        var.mkdir(parents=True, exist_ok=True)
        os.environ["CARDLEAGUE_VAR"] = str(var)
    if not os.environ.get("STREAMS_URL"):
        raise SystemExit("set STREAMS_URL=redis://…: streams fan out through Redis")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    for name in ("RATE_API_USER", "RATE_MOVES", "RATE_API_ANON"):
        os.environ.setdefault(name, "1000000/s")
    # the bench's two people hold every stream, from one address: lift those caps (not the process's)
    os.environ.setdefault("CARDLEAGUE_STREAMS_PER_ACCOUNT", "1000000")
    os.environ.setdefault("CARDLEAGUE_STREAMS_PER_ADDRESS", "1000000")
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server (a child) inherits it
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _threads_fds(pid: int) -> tuple[int, int]:
    """The server's threads and open files (each open stream holds one socket)."""
    threads = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                   if line.startswith("Threads:"))
    return threads, len(os.listdir(f"/proc/{pid}/fd"))


def _rss_mib(pid: int) -> float:
    total = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total = int(line.split()[1])
    return total / 1024


async def _measure(base: str, keys, positions: dict[int, int], moves: int, server_pid: int):
    import httpx

    from engine import registry
    from games import store
    from games.models import Match
    from games.services import move_submit

    match_ids = list(positions)
    count = 2 * len(match_ids)
    arrivals: list[float] = []
    sent: dict[tuple[int, int], float] = {}
    opened = asyncio.Event()
    ready = [0]

    async def follow(client, match_id, seat):
        url = f"{base}/api/matches/{match_id}/stream?seat={seat}"
        async with client.stream("GET", url, headers={"Authorization": f"Bearer {keys[seat]}",
                                                      "Last-Event-ID": str(positions[match_id])}) as response:
            async for line in response.aiter_lines():
                if line.startswith("event: hello"):
                    ready[0] += 1
                    if ready[0] == count:
                        opened.set()
                elif line.startswith("id: "):
                    key = (match_id, int(line[4:]))
                    if key in sent:
                        arrivals.append(time.perf_counter() - sent[key])

    limits = httpx.Limits(max_connections=count + 10, max_keepalive_connections=count + 10)
    async with httpx.AsyncClient(timeout=httpx.Timeout(60, read=None), limits=limits) as client:
        tasks = [asyncio.create_task(follow(client, m, seat)) for m in match_ids for seat in (0, 1)]
        waiter = asyncio.create_task(opened.wait())
        done, _ = await asyncio.wait([waiter, *tasks], timeout=300, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task is not waiter and task.exception() is not None:
                raise task.exception()
        if waiter not in done:
            raise SystemExit(f"only {ready[0]} of {count} streams opened")
        # every stream reads its match once when it opens: let those reads finish before measuring
        await asyncio.sleep(2 + count / 200)
        rss = _rss_mib(server_pid)
        threads, fds = _threads_fds(server_pid)
        game = registry.get("livol")
        for i in range(moves):
            match_id = match_ids[i * 7 % len(match_ids)]

            def move(match_id=match_id):
                match = Match.objects.get(pk=match_id)
                state = store.load_state(match)
                turn = game.view(state, None)["turn"]
                return move_submit(match_id=match_id, seat=turn, move=game.legal_moves(state, turn)[0],
                                   expected_seq=match.last_seq)

            started = time.perf_counter()
            for row in await asyncio.to_thread(move):
                sent[(match_id, row.seq)] = started
            await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return rss, threads, fds, sorted(arrivals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    _setup()
    from django.contrib.auth import get_user_model

    from games.models import ApiToken
    from games.services import SeatSpec, match_create

    User = get_user_model()
    people = [User.objects.create_user(username=f"stream-{secrets.token_hex(3)}-{i}") for i in range(2)]
    keys = []
    for person in people:
        keys.append(secrets.token_urlsafe(32))
        ApiToken.objects.create(user=person, name="bench", key_hash=hashlib.sha256(keys[-1].encode()).hexdigest())
    port = 8900 + os.getpid() % 90
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "cardleague.asgi:application", "--port", str(port),
                               "--log-level", "warning", "--limit-concurrency", "100000", "--backlog", "4096"],
                              cwd=ROOT, env=dict(os.environ))
    time.sleep(3)
    print(f"one uvicorn worker (pid {server.pid}); N streams open (two seats of N/2 matches); then {args.moves} "
          "moves, each in one of the matches")
    try:
        base_rss = _rss_mib(server.pid)
        print(f"  idle worker: {base_rss:.0f} MiB, threads and open files {_threads_fds(server.pid)}")
        for count in args.streams:
            matches = [match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])],
                                    options={"target": 2000}) for _ in range(count // 2)]
            positions = {m.pk: m.last_seq for m in matches}
            rss, threads, fds, arrivals = asyncio.run(_measure(f"http://127.0.0.1:{port}", keys, positions, args.moves, server.pid))
            if not arrivals:
                print(f"  {count:>5} streams: no frame arrived")
                continue
            pick = lambda p, arrivals=arrivals: arrivals[min(len(arrivals) - 1, int(p / 100 * len(arrivals)))] * 1000  # noqa: E731
            print(f"  {count:>5} streams: {threads} threads, {fds} open files; "
                  f"worker {rss:.0f} MiB (+{(rss - base_rss) / count * 1024:.0f} KiB a stream); "
                  f"move → frame p50 {pick(50):.0f} ms, p99 {pick(99):.0f} ms, max {arrivals[-1] * 1000:.0f} ms "
                  f"({len(arrivals)} frames)")
    finally:
        server.terminate()
        server.wait(20)


if __name__ == "__main__":
    main()
