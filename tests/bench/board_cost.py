"""The live board's cost at event ~50 and at event ~2,500 of one match.

    python -m tests.bench.board_cost            (DATABASE_URL=postgres://… for PostgreSQL)

One three-seat LIVOL match (a person in seat 0, two bots; a target of 10,000 so it runs long), in a
throw-away test database. At each position it times, median of 15: the board partial a seated player's
page fetches after a move (``GET /matches/{id}/board/?since=<the page's position>``: the board, and only
the log lines after the page's position, appended by the page), a watcher's cost per move (the seat's new
events for the stream plus that board), and for reference the page's first board (``/board/`` without
``since``: the log's window of the newest rounds) and the board built from the whole log (``window=False``).
Prints figures; it passes or fails nothing.
"""
from __future__ import annotations

import os
import random
import statistics
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")

import django

django.setup()

from django.db import connection  # noqa: E402  (after django.setup())
from django.test.utils import setup_test_environment  # noqa: E402

RUNS = 15


def median_ms(fn) -> float:
    fn()  # warm: the first board of a round builds its folded rounds once
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from engine import registry
    from games import store
    from games.models import Match
    from games.selectors.feeds import events_for_seat
    from games.selectors.log_tail import _board_log
    from games.selectors.people import players
    from games.services import SeatSpec, bots_advance, match_create, move_submit

    setup_test_environment()
    connection.settings_dict.setdefault("TEST", {})["NAME"] = (
        str(connection.settings_dict["NAME"]) + "-board-bench" if connection.vendor == "sqlite"
        else "cardleague_board_bench")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        person = get_user_model().objects.create_user(username="watcher", password="x")
        match = match_create(game="livol", seats=[SeatSpec(user=person), SeatSpec(bot="random"),
                                                  SeatSpec(bot="random")],
                             seed="board-bench", options={"target": 10_000}, wake_bots=False)
        client = Client()
        client.force_login(person)

        rng = random.Random("board-bench")
        game = registry.get("livol")

        def advance_to(position: int) -> Match:
            while True:
                m = Match.objects.get(pk=match.pk)
                if m.last_seq >= position or not m.is_running:
                    return m
                state = store.load_state(m)
                if 0 in game.view(state, None)["to_act"]:  # the person's turn: a random legal move
                    move = rng.choice(game.legal_moves(state, 0))
                    move_submit(match_id=m.pk, seat=0, move=move, expected_seq=m.last_seq, wake_bots=False)
                else:
                    bots_advance(match_id=m.pk, budget=20)

        print(f"database: {connection.vendor}")
        print(f"{'at event':>9} {'board ms':>9} {'watcher per move ms':>20} {'first board ms':>15}"
              f" {'whole-log board ms':>19} {'rounds':>7} {'window events':>14}")
        rows = []
        for position in (50, 2500):
            m = advance_to(position)
            since = m.last_seq
            client.get(f"/matches/{m.pk}/board/")  # the page at its position: the log's tail is kept
            m = advance_to(since + 1)
            url = f"/matches/{m.pk}/board/?since={since}"
            assert b"log-append" in client.get(url).content
            board = median_ms(lambda url=url: client.get(url))
            watcher = median_ms(lambda m=m, url=url, since=since: (
                events_for_seat(m, 0, after=since), client.get(url)))
            first = median_ms(lambda m=m: client.get(f"/matches/{m.pk}/board/"))
            names = players(m)
            whole = median_ms(lambda m=m, names=names: _board_log(m, 0, names, window=False))
            window = median_ms(lambda m=m, names=names: _board_log(m, 0, names))
            log, groups = _board_log(m, 0, names)
            rounds, span = len(log["rounds"]), m.last_seq - groups[0]["start"] + 1
            rows.append((m.last_seq, board, watcher))
            print(f"{m.last_seq:>9} {board:>9.1f} {watcher:>20.1f} {first:>15.1f} {whole - window + first:>19.1f}"
                  f" {rounds:>7} {span:>14}")
        print(f"board at event {rows[1][0]} / at event {rows[0][0]}: {rows[1][1] / rows[0][1]:.2f}x; "
              f"a watcher's move: {rows[1][2] / rows[0][2]:.2f}x")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
