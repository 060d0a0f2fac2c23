"""Engine benchmark: random-play throughput per game and the worst ``legal_moves`` time.

    python -m tests.bench.engine_throughput [--seconds S] [--games livol,uno_flip]

Prints figures; it passes or fails nothing. Rounds are counted with the view's
``round`` key (deals in Karuselis, games in IOTA).
"""
from __future__ import annotations

import argparse
import random
import time

from engine import registry

SEATS = {"livol": (2, 4), "uno_flip": (2, 4), "karuselis": (2, 4), "iota": (2, 4), "cardavia": (4, 6)}


def run(name: str, seats: int, seconds: float) -> dict:
    game = registry.get(name)
    rng = random.Random(f"bench-{name}-{seats}")
    matches = rounds = moves = 0
    worst_legal = 0.0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.fold(game.start(seats, f"bench-{matches}"))
        while game.outcome(state) is None:
            actors = game.view(state, None)["to_act"]
            seat = rng.choice(actors)
            t = time.perf_counter()
            legal = game.legal_moves(state, seat)
            worst_legal = max(worst_legal, time.perf_counter() - t)
            for event in game.play(state, seat, rng.choice(legal)):
                state = game.apply(state, event)
            moves += 1
        rounds += game.view(state, None).get("round", 1) or 1
        matches += 1
    elapsed = time.perf_counter() - started
    return {"game": name, "seats": seats, "matches/s": matches / elapsed, "rounds/s": rounds / elapsed,
            "moves/s": moves / elapsed, "worst legal_moves ms": worst_legal * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game and seat count")
    parser.add_argument("--games", default=",".join(registry.names()))
    args = parser.parse_args()
    print(f"{'game':<10} {'seats':>5} {'matches/s':>10} {'rounds/s':>10} {'moves/s':>10} {'worst legal_moves':>18}")
    for name in args.games.split(","):
        for seats in SEATS[name]:
            try:
                r = run(name, seats, args.seconds)
            except Exception as exc:  # a game still being written must not hide the others' figures
                print(f"{name:<10} {seats:>5}  failed: {exc!r}")
                continue
            print(f"{r['game']:<10} {r['seats']:>5} {r['matches/s']:>10.2f} {r['rounds/s']:>10.1f} "
                  f"{r['moves/s']:>10.0f} {r['worst legal_moves ms']:>15.2f} ms")


if __name__ == "__main__":
    main()
