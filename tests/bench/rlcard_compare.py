"""LIVOL's engine against RLCard's UNO game, side by side, same policy, same process.

    python -m tests.bench.rlcard_compare [--seconds S] [--seats 2,4]

Needs the ``bench`` extra for the RLCard side (``.venv/bin/pip install -e '.[bench]'``);
without it only LIVOL's figures are printed. Prints figures; it passes or fails nothing.

The policy is the same on both sides: a random legal card play (uniform over the
plays listed, so a Wild counts once per colour on both sides), else draw; no LIVOL
calls, catches or challenges (a Wild +4 is accepted, a Wild starter's colour is
picked at random: RLCard has neither choice).

A step is one move of the seat to act, done the way this project's game loop does
it (``games/services/bots.py``): ``to_act``, the view of each seat to act until the one
holding the turn (the others may only catch, which this policy lets go), ``legal_moves``,
the policy, ``play``, and ``apply`` for each event; on the RLCard
side one ``game.step`` (which applies the action and builds the next player's state,
legal actions included). A LIVOL round is a deal (its match goes on to 500 points);
an RLCard UNO game is one deal, so rounds/s compares deals with deals.

The two rules differ a little, so their rounds differ in length: in LIVOL a ``draw``
move draws until a playable card turns up and that card is then played as a second
move (RLCard draws one card and plays it at once if it matches), and LIVOL lets a
Wild +4 be played as a bluff (RLCard lists it only when nothing else fits).
"""
from __future__ import annotations

import argparse
import random
import time

from engine import registry

INSTALL_HINT = "RLCard is not installed: `.venv/bin/pip install -e '.[bench]'` adds it (the `bench` extra)."


def livol_move(legal: list[dict], rng: random.Random) -> dict:
    """A random card play (without the LIVOL call), else draw, else the other turn move
    (a Wild +4 accepted, a Wild starter's colour at random)."""
    plays = [m for m in legal if m["type"] == "play" and "call" not in m]
    if plays:
        return rng.choice(plays)
    for m in legal:
        if m["type"] == "draw" or m["type"] == "accept":
            return m
    return rng.choice([m for m in legal if m["type"] == "color"])


def run_livol(seats: int, seconds: float, first_match: int = 0) -> dict:
    game = registry.get("livol")
    rng = random.Random(f"rlcard-compare-livol-{seats}-{first_match}")
    steps = rounds = matches = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        state = None
        for event in game.start(seats, f"bench-{first_match + matches}"):
            state = game.apply(state, event)
        while True:
            acting = game.to_act(state)
            if not acting:
                break
            for seat in acting:  # as the bots' loop asks: each seat to act, from its own view
                if game.view(state, seat)["turn"] == seat:
                    break
            else:
                raise RuntimeError("seats may act but none holds the turn")
            move = livol_move(game.legal_moves(state, seat), rng)
            for event in game.play(state, seat, move):
                state = game.apply(state, event)
            steps += 1
        rounds += game.view(state, None)["round"]  # the match ends with a scored round (no resignations here)
        matches += 1
        elapsed = time.perf_counter() - started
    return {"steps": steps, "rounds": rounds, "matches": matches, "seconds": elapsed}


def rlcard_available() -> bool:
    try:
        import rlcard.games.uno.game  # noqa: F401
    except ImportError:
        return False
    return True


def run_rlcard(seats: int, seconds: float, first_game: int = 0) -> dict:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=seats)
    game.np_random = np.random.RandomState(first_game)
    rng = random.Random(f"rlcard-compare-rlcard-{seats}-{first_game}")
    steps = rounds = failed = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        state, _ = game.init_game()
        try:
            while not game.is_over():
                # the legal actions are card plays (a Wild once per colour) or ["draw"]
                state, _ = game.step(rng.choice(state["legal_actions"]))
                steps += 1
            rounds += 1
        except IndexError:  # RLCard's draw pile can run dry (every card held): a lost game
            failed += 1
        elapsed = time.perf_counter() - started
    return {"steps": steps, "rounds": rounds, "failed": failed, "seconds": elapsed}


def _add(total: dict, part: dict) -> None:
    for k, v in part.items():
        total[k] = total.get(k, 0) + v


def compare(seats: int, seconds: float, slices: int = 4) -> dict:
    """Both loops in alternating slices (so a busy neighbour on the machine slows both alike)."""
    with_rlcard = rlcard_available()
    livol: dict = {}
    uno: dict = {}
    for i in range(slices):
        _add(livol, run_livol(seats, seconds / slices, first_match=10_000 * i))
        if with_rlcard:
            _add(uno, run_rlcard(seats, seconds / slices, first_game=i))
    return {"livol": livol, "rlcard": uno or None}


def rates(r: dict) -> tuple[float, float]:
    return r["steps"] / r["seconds"], r["rounds"] / r["seconds"]


def report(seats: int, seconds: float) -> dict:
    r = compare(seats, seconds)
    ls, lr = rates(r["livol"])
    print(f"{seats} seats, {seconds:.0f} s each, random card play else draw, no calls")
    print(f"  {'':<12} {'steps/s':>10} {'rounds/s':>10} {'steps/round':>12}")
    print(f"  {'LIVOL':<12} {ls:>10,.0f} {lr:>10,.1f} {ls / lr if lr else 0:>12.1f}")
    out = {"seats": seats, "livol_steps": ls, "livol_rounds": lr}
    if r["rlcard"] is None:
        print(f"  {INSTALL_HINT}")
        return out
    us, ur = rates(r["rlcard"])
    print(f"  {'RLCard UNO':<12} {us:>10,.0f} {ur:>10,.1f} {us / ur if ur else 0:>12.1f}"
          + (f"  ({r['rlcard']['failed']} games ran out of cards)" if r["rlcard"]["failed"] else ""))
    print(f"  {'LIVOL/RLCard':<12} {ls / us:>9.2f}× {lr / ur:>9.2f}×")
    out.update(rlcard_steps=us, rlcard_rounds=ur, step_ratio=ls / us, round_ratio=lr / ur)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=6.0, help="time per side and seat count")
    parser.add_argument("--seats", default="2,4")
    args = parser.parse_args()
    print("LIVOL engine vs RLCard's UNO game loop (same policy, same process)")
    for seats in (int(s) for s in args.seats.split(",")):
        report(seats, args.seconds)


if __name__ == "__main__":
    main()
