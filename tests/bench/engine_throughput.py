"""Engine benchmark: random-play throughput per game and the cost of ``legal_moves``.

    python -m tests.bench.engine_throughput [--seconds S | --matches N] [--games livol,iota]

Prints figures; it passes or fails nothing. Each game and seat count plays seeded
matches with random legal moves (the seat to act picked from the spectator view's
``to_act``), for ``--seconds`` or exactly ``--matches`` matches (the same matches
every run: use it to compare two versions), and times every ``legal_moves`` call
of the seat that moves: the 99th percentile and the worst. Rounds are counted
with the view's ``round`` key (deals in Karuselis, games in IOTA).

At the end it runs LIVOL against RLCard's UNO game loop (``rlcard_compare``: same
policy, same process, steps/s and rounds/s and their ratio) when the ``bench`` extra
is installed, and says how to install it when not (``--no-rlcard`` skips it).
"""
from __future__ import annotations

import argparse
import random
import time

from engine import registry

SEATS = {"livol": (2, 4), "uno_flip": (2, 4), "karuselis": (2, 4), "iota": (2, 4), "cardavia": (4, 6)}


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(p / 100 * len(sorted_values)))]


def run(name: str, seats: int, seconds: float | None, matches_wanted: int | None = None) -> dict:
    game = registry.get(name)
    rng = random.Random(f"bench-{name}-{seats}")
    matches = rounds = moves = 0
    timings: list[float] = []
    clock = time.perf_counter
    started = clock()
    while (clock() - started < seconds) if matches_wanted is None else matches < matches_wanted:
        state = game.fold(game.start(seats, f"bench-{matches}"))
        while game.outcome(state) is None:
            actors = game.view(state, None)["to_act"]
            seat = rng.choice(actors)
            t = clock()
            legal = game.legal_moves(state, seat)
            timings.append(clock() - t)
            for event in game.play(state, seat, rng.choice(legal)):
                state = game.apply(state, event)
            moves += 1
        rounds += game.view(state, None).get("round", 1) or 1
        matches += 1
    elapsed = clock() - started
    timings.sort()
    return {"game": name, "seats": seats, "matches": matches, "matches/s": matches / elapsed,
            "rounds/s": rounds / elapsed, "moves/s": moves / elapsed,
            "p99 legal_moves ms": percentile(timings, 99) * 1000,
            "worst legal_moves ms": (timings[-1] if timings else 0.0) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game and seat count")
    parser.add_argument("--matches", type=int, default=None,
                        help="play exactly this many seeded matches per game and seat count instead")
    parser.add_argument("--games", default=",".join(registry.names()))
    parser.add_argument("--no-rlcard", action="store_true", help="skip the LIVOL vs RLCard comparison")
    args = parser.parse_args()
    print(f"{'game':<10} {'seats':>5} {'matches':>8} {'matches/s':>10} {'rounds/s':>10} {'moves/s':>10} "
          f"{'p99 legal_moves':>16} {'worst legal_moves':>18}")
    for name in args.games.split(","):
        for seats in SEATS[name]:
            try:
                r = run(name, seats, args.seconds, args.matches)
            except Exception as exc:  # a game still being written must not hide the others' figures
                print(f"{name:<10} {seats:>5}  failed: {exc!r}")
                continue
            print(f"{r['game']:<10} {r['seats']:>5} {r['matches']:>8} {r['matches/s']:>10.2f} "
                  f"{r['rounds/s']:>10.1f} {r['moves/s']:>10.0f} {r['p99 legal_moves ms']:>13.2f} ms "
                  f"{r['worst legal_moves ms']:>15.2f} ms")
    if not args.no_rlcard and "livol" in args.games.split(","):
        from tests.bench import rlcard_compare

        print()
        print("LIVOL engine vs RLCard's UNO game loop (same policy, same process)")
        for seats in (2, 4):
            rlcard_compare.report(seats, max(args.seconds, 2.0))


if __name__ == "__main__":
    main()
