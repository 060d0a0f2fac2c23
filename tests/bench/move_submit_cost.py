"""Event-store benchmark: the cost of ``move_submit`` at event ~50 and at event ~5,000.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardleague python -m tests.bench.move_submit_cost

Runs in a throw-away test database (created and dropped here). For each position
it times moves with a warm in-process cache (the usual path) and with the cache
dropped before every move (a fresh process: latest snapshot + the events after
it). Prints figures; it passes or fails nothing.
"""
from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402


def time_moves(match_id: int, n: int, cold: bool) -> list[float]:
    from games import store
    from games.models import Match
    from games.services import bot_choice, move_submit

    out = []
    for _ in range(n):
        match = Match.objects.get(pk=match_id)
        if cold:
            store.forget_cache()
        t = time.perf_counter()
        match = Match.objects.get(pk=match_id)
        seat, move = bot_choice(match, store.load_state(match))
        move_submit(match_id=match_id, seat=seat, move=move, expected_seq=match.last_seq, wake_bots=False)
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    from games.models import Match
    from games.services import SeatSpec, bots_advance, match_create

    setup_test_environment()
    # its own throw-away database, so it never collides with a test run's
    connection.settings_dict.setdefault("TEST", {})["NAME"] = (
        str(connection.settings_dict["NAME"]) + "-bench" if connection.vendor == "sqlite" else "cardleague_bench")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        def match_at(position: int) -> int:
            match = match_create(game="livol", seats=[SeatSpec(bot="random") for _ in range(4)],
                                 seed=f"bench-{position}", options={"target": 10_000}, wake_bots=False)
            while Match.objects.get(pk=match.pk).last_seq < position:
                bots_advance(match_id=match.pk, budget=50)
            return match.pk

        print(f"database: {connection.vendor}")
        rows = []
        for position in (50, 5000):
            t = time.perf_counter()
            match_id = match_at(position)
            built = time.perf_counter() - t
            warm = time_moves(match_id, 40, cold=False)
            cold = time_moves(match_id, 40, cold=True)
            rows.append((position, Match.objects.get(pk=match_id).last_seq, warm, cold, built))
        print(f"{'at event':>9} {'warm median ms':>15} {'cold median ms':>15}  (built in)")
        for position, last, warm, cold, built in rows:
            print(f"{position:>9} {statistics.median(warm) * 1000:>15.2f} {statistics.median(cold) * 1000:>15.2f}"
                  f"  ({built:.1f} s to reach event {last})")
        ratio = statistics.median(rows[1][3]) / statistics.median(rows[0][3])
        print(f"cold cost at 5,000 / at 50: {ratio:.2f}x")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
