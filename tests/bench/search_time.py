"""The searching bot's time per decision, normal level (``search``), in every game: mean, p95 and worst.

    python -m tests.bench.search_time [--decisions 40] [--level search] [--games livol,uno_flip] [--seats 4]

Prints figures; it passes or fails nothing. Positions come from seeded two-seat matches (Cardavia: three)
played by the greedy bot; the decisions timed are the turn-holder's where it has more than one move, taken
at every third such turn from the start of the match (so the first turns of rounds, the slowest, are among
them). Beside the times: the iterations and rollout plies of the worst decision (the budget is in
iterations and plies, never in time: a decision depends on nothing but the view, the moves and the seed).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import registry
from engine.bots import policies_for, search

SEATS = {"cardavia": 3}


def positions(name: str, wanted: int, seats: int | None = None):
    """(view, legal, seat) of every third turn-holder's decision with a choice, over seeded greedy matches."""
    game = registry.get(name)
    greedy = policies_for(name)["greedy"]
    found, match = [], 0
    while len(found) < wanted and match < 50:
        state = game.fold(game.start(seats or SEATS.get(name, 2), f"search-time-{match}"))
        turns = 0
        while game.outcome(state) is None and len(found) < wanted:
            acting = game.to_act(state)
            seat = next((s for s in acting if game.view(state, s)["turn"] == s), acting[0])
            view, legal = game.view(state, seat), game.legal_moves(state, seat)
            if len(legal) > 1 and view["turn"] == seat:
                turns += 1
                if turns % 3 == 1:
                    found.append((view, legal, seat))
            move = greedy(view, legal, random.Random(turns), view["turn"] == seat) or legal[0]
            for event in game.play(state, seat, move):
                state = game.apply(state, event)
        match += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=40, help="decisions timed per game")
    parser.add_argument("--level", default="search")
    parser.add_argument("--games", default=",".join(registry.names()))
    parser.add_argument("--seats", type=int, default=None, help="seats at every table (default: 2, Cardavia 3)")
    args = parser.parse_args()
    print(f"{args.level}: time per decision ({args.decisions} decisions a game)")
    print(f"{'game':<10} {'mean ms':>8} {'p95 ms':>8} {'worst ms':>9} {'worst: iterations':>18} {'plies':>7}")
    for name in args.games.split(","):
        budget = search.spec_of(name).budgets[args.level]
        times, worst = [], (0.0, 0, 0)
        for k, (view, legal, seat) in enumerate(positions(name, args.decisions, args.seats)):
            decider = search.Search(name, budget, random.Random(k))
            began = time.perf_counter()
            decider.decide(view, legal, seat)
            took = (time.perf_counter() - began) * 1000
            times.append(took)
            if took > worst[0]:
                worst = (took, decider.stats["iterations"], decider.stats["plies"])
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{name:<10} {statistics.mean(times):>8.0f} {p95:>8.0f} {worst[0]:>9.0f} {worst[1]:>18} {worst[2]:>7}")


if __name__ == "__main__":
    main()
