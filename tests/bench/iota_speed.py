"""IOTA benchmark: random-play moves/s and the cost of ``legal_moves``, typical and worst.

    python -m tests.bench.iota_speed [--matches N] [--before PATH] [--module PATH]

Prints figures; it passes or fails nothing. For 2 and 4 seats it plays ``--matches``
seeded matches with random legal moves (the seat to act from the game's ``to_act``, as
``engine_throughput`` but without building a view) and reports moves/s, and the mean,
99th percentile and worst ``legal_moves`` time over every position seen. Then the worst
case on purpose: a hand of both wilds and two faces over the widest grids those
matches reached (positions with no wild on the grid, the hand swapped in, the two faces
from the stock), the ``--wide`` positions with the most frontier cells, each timed
three times on a fresh copy of the state (nothing worked out before: as a state loaded
from the store), the best counts, and the worst of them reported with its number of
legal moves.

Beside each figure, **the contract's floor**: what building the very same ``legal_moves``
list costs by the cheapest plain-Python means (``build_floor``: the dicts made again from
tuples decoded beforehand, nothing worked out), and the time of ``start``, ``outcome``,
``to_act``, ``play`` and ``apply``. Those two stay with any enumeration however fast, so
they bound the moves/s and the worst ``legal_moves`` that pure Python can reach under the
contract (a ``list[dict]`` of every legal move, docs/engine-contract.md).

Times are CPU time of this process (``time.process_time``): the figures stay comparable
on a busy machine. Moves/s counts the engine's calls only (``start``, ``outcome``,
``to_act``, ``legal_moves``, ``play``, ``apply``), not the bench's own bookkeeping. ``--before PATH`` loads another copy of ``engine/iota.py`` (say the
version before a change) and prints its figures first, on the same matches and
positions, and checks that both give the same legal moves there. ``--module PATH``
measures that copy instead of ``engine.iota``.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import heapq
import importlib.util
import json
import random
import sys
import time
from types import ModuleType
from typing import Any

from tests.bench.engine_throughput import SEATS, percentile

CLOCK = time.process_time


def load(path: str | None) -> ModuleType:
    """``engine.iota``, or the copy of it at ``path``."""
    if path is None:
        from engine import iota

        return iota
    name = f"iota_bench_{abs(hash(path))}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def random_play(module: ModuleType, seats: int, matches: int, wide: int) -> dict[str, Any]:
    """Seeded matches with random legal moves: moves/s (the engine's calls only), every
    ``legal_moves`` time, and the ``wide`` positions for the worst case on purpose
    (``wild_hand``: the most frontier cells first)."""
    game = module.game
    rng = random.Random(f"iota-speed-{seats}")
    moves = 0
    engine = 0.0
    floor = 0.0   # the contract's output, built again by the cheapest means
    timings: list[float] = []
    widest: list[tuple[int, int, Any]] = []   # a heap: the narrowest kept grid on top
    for m in range(matches):
        t = CLOCK()
        state = game.fold(game.start(seats, f"iota-speed-{m}"))
        engine += CLOCK() - t
        while True:
            t = CLOCK()
            if game.outcome(state) is not None:
                engine += CLOCK() - t
                break
            seat = rng.choice(game.to_act(state))
            t1 = CLOCK()
            legal = game.legal_moves(state, seat)
            t2 = CLOCK()
            for event in game.play(state, seat, rng.choice(legal)):
                state = game.apply(state, event)
            t3 = CLOCK()
            timings.append(t2 - t1)
            engine += t3 - t
            floor += build_floor(legal)
            moves += 1
            candidate = wild_hand(module, state)
            if candidate is not None:
                heapq.heappush(widest, (candidate[0], len(timings), candidate[1]))
                if len(widest) > wide:
                    heapq.heappop(widest)
    rest = engine - sum(timings)  # start, outcome, to_act, play, apply: everything but legal_moves
    timings.sort()
    return {"seats": seats, "matches": matches, "moves": moves, "moves/s": moves / engine,
            "floor us": floor / moves * 1e6, "rest us": rest / moves * 1e6, "engine us": engine / moves * 1e6,
            "mean ms": sum(timings) / len(timings) * 1000, "p99 ms": percentile(timings, 99) * 1000,
            "worst ms": timings[-1] * 1000, "widest": widest}


def build_floor(legal: list[dict[str, Any]]) -> float:
    """The CPU time to build ``legal`` again by the cheapest plain-Python means: its moves
    decoded to tuples beforehand (not timed), then the same dicts and lists made from them
    (timed). Whatever enumerates the plays, the contract's list costs at least this."""
    plain = [(m["type"], [(c["card"], c["x"], c["y"]) for c in m["cards"]] if m["type"] == "play" else m)
             for m in legal]
    t = CLOCK()
    out = []
    add = out.append
    for kind, body in plain:
        if kind == "play":
            add({"type": "play", "cards": [{"card": card, "x": x, "y": y} for card, x, y in body]})
        else:
            add(dict(body))
    took = CLOCK() - t
    assert out == legal
    return took


def wild_hand(module: ModuleType, state: Any) -> tuple[int, Any] | None:
    """The worst case on purpose: the seat to act holds both wilds and two faces from the
    stock, on a grid with no wild (and no wild in another hand); with the grid's number
    of frontier cells. None when the position does not allow it."""
    if state.over:
        return None
    grid = state.grid
    stock = [c for c in state.stock if c not in module.WILDS]
    if len(stock) < 2 or any(i >= module.FACES for i in grid.values()):
        return None
    if any(w in h for s, h in enumerate(state.hands) if s != state.turn for w in module.WILDS):
        return None
    hands = list(state.hands)
    hands[state.turn] = ("W1", "W2", stock[0], stock[1])
    frontier = {(x + dx, y + dy) for x, y in grid for dx, dy in module.NEIGHBOURS} - grid.keys()
    return len(frontier), dataclasses.replace(state, hands=tuple(hands))  # without the work kept with it


def time_legal(module: ModuleType, states: list[Any]) -> tuple[float, int, list[str]]:
    """The worst ``legal_moves`` time (best of three per position, each on a fresh copy)
    in ms, the number of legal moves there, the contract's floor there in ms (best of
    three), and a digest of every position's list."""
    game = module.game
    worst, size, floor, digests = 0.0, 0, 0.0, []
    for state in states:
        best = float("inf")
        for _ in range(3):
            fresh = dataclasses.replace(state)  # no work remembered from the last call
            t = CLOCK()
            legal = game.legal_moves(fresh, fresh.turn)
            best = min(best, CLOCK() - t)
        digests.append(hashlib.sha256(json.dumps(legal).encode()).hexdigest())
        if best > worst:
            worst, size = best, len(legal)
            floor = min(build_floor(legal) for _ in range(3))
    return worst * 1000, size, floor * 1000, digests


def report(label: str, module: ModuleType, matches: int, wide: int) -> list[str]:
    print(f"{label}: {module.__file__}")
    print(f"  {'seats':>5} {'matches':>7} {'moves':>6} {'moves/s':>8} {'mean legal_moves':>17} "
          f"{'p99':>9} {'worst':>9}   per move: engine, the list's floor, the rest -> moves/s if enumerating cost 0")
    widest: list[tuple[int, int, Any]] = []
    for seats in SEATS["iota"]:
        r = random_play(module, seats, matches, wide)
        widest = heapq.nlargest(wide, widest + r["widest"], key=lambda w: w[:2])
        print(f"  {r['seats']:>5} {r['matches']:>7} {r['moves']:>6} {r['moves/s']:>8.0f} {r['mean ms']:>14.3f} ms "
              f"{r['p99 ms']:>6.2f} ms {r['worst ms']:>6.2f} ms   {r['engine us']:.0f} us, "
              f"{r['floor us']:.0f} us ({r['floor us'] / r['engine us']:.0%}), {r['rest us']:.0f} us "
              f"({r['rest us'] / r['engine us']:.0%}) -> {1e6 / (r['floor us'] + r['rest us']):.0f}/s "
              f"({r['engine us'] / (r['floor us'] + r['rest us']):.1f}x now)")
    states = [state for _, _, state in widest]
    worst, size, floor, digests = time_legal(module, states)
    print(f"  worst case on purpose (both wilds and two faces in hand, the {len(states)} widest grids): "
          f"worst legal_moves {worst:.2f} ms ({size} legal moves; building that list alone: {floor:.2f} ms, "
          f"{floor / worst:.0%})")
    return digests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=40, help="seeded matches per seat count")
    parser.add_argument("--wide", type=int, default=40, help="grids for the worst case on purpose")
    parser.add_argument("--before", default=None, help="another copy of engine/iota.py to measure first")
    parser.add_argument("--module", default=None, help="measure this copy of engine/iota.py instead")
    args = parser.parse_args()
    before = None
    if args.before:
        before = report("before", load(args.before), args.matches, args.wide)
    after = report("after" if args.before else "now", load(args.module), args.matches, args.wide)
    if before is not None:
        same = sum(a == b for a, b in zip(before, after))
        print(f"same legal moves (by digest) in {same} of {len(after)} worst-case positions")


if __name__ == "__main__":
    main()
