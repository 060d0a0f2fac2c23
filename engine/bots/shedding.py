"""What the bots of the UNO-family games (LIVOL, UNO FLIP) share: the greedy rule out of turn, and the
search's reward and candidates.

Out of turn, the only moves on offer are a catch of a seat that forgot to call
and one's own call (L10 / F12): both are always worth making, a catch first.
"""
from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

from engine.bots.search import Reward


def grouped(legal: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The legal moves by their ``type``, each list in legal-move order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for m in legal:
        groups.setdefault(m["type"], []).append(m)
    return groups


def catch_or_call(groups: dict[str, list[dict[str, Any]]]) -> dict[str, Any] | None:
    """A catch if one is on offer, else a call, else None."""
    for kind in ("catch", "call"):
        if kind in groups:
            return groups[kind][0]
    return None


# ---- the search (``SEARCH`` in engine/bots/livol.py and uno_flip.py) ---------------------

#: A decision plays at most this many plies per iteration of its budget, on average: a round's first turns
#: roll out ~65-120 plies each, and at 160 iterations UNO FLIP's took up to 0.85 s on an idle core
#: (``tests.bench.search_time``); later in the round, rollouts are shorter and the bound does not bind.
PLIES_PER_ITERATION = 50

def round_value(me: int, winner: int, points: list[int], own_hand: bool) -> float:
    """The reward of a round that ``winner`` won with every seat holding ``points``."""
    if own_hand:
        others = [p for s, p in enumerate(points) if s != me]
        gained = (sum(others) / len(others) if others else 0) - points[me]
    else:
        gained = sum(points) if winner == me else -sum(points)
    return 0.5 + (0.25 if winner == me else -0.25) + 0.25 * math.tanh(gained / 100)


def round_reward(points_of: Callable[[Any], list[int]], own_hand_of: Callable[[Any], bool]) -> Reward:
    """The search's reward at the end of a round (LIVOL, UNO FLIP): 0.5 ± 0.25 for winning or losing it plus
    0.25·tanh(points / 100) for the points won (``winner_scores``: what the winner scores; LIVOL
    ``own_hand``: the others' mean hand minus mine); a rollout cut by the ply cap is scored by the same rule,
    in expectation over who goes out first (each seat's chance ∝ e^(−0.8·cards held))."""
    def reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
        own_hand = own_hand_of(start)
        for e in closing:
            if e["type"] == "round_scored":
                winner = e.get("winner", e.get("seat"))
                return round_value(me, winner, list(e["points"]), own_hand)  # type: ignore[arg-type]
        # cut by the ply cap (or the match ended otherwise): in expectation over who goes out
        sizes = [len(h) for h in end.hands]
        points = points_of(end)
        weights = [math.exp(-0.8 * n) for n in sizes]
        total = sum(weights)
        return sum(w / total * round_value(me, s, [0 if t == s else p for t, p in enumerate(points)],
                                               own_hand)
                   for s, w in enumerate(weights))
    return reward


def round_candidates(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """A play carries the call exactly when it leaves one card (L10: a call counts only then; the
    greedy rule, and a log that says "called LIVOL!" only when it meant something);
    a Wild names a colour the hand still holds (all of them when it holds none)."""
    hand = view.get("hand") or []
    leaves_one = len(hand) == 2      # a play leaves one card: call with it; otherwise the call counts for nothing

    def bare(m: dict[str, Any]) -> str:
        return json.dumps({k: v for k, v in m.items() if k != "call"}, sort_keys=True)

    both = {bare(m) for m in legal if m.get("call")} & {bare(m) for m in legal if not m.get("call")}
    out = [m for m in legal if bare(m) not in both or bool(m.get("call")) == leaves_one]
    side = {"light": 0, "dark": 1}.get(view.get("side"))  # type: ignore[arg-type]

    def colour(code: str) -> str | None:
        face = code.split("/")[side] if side is not None and "/" in code else code
        return None if face in ("W", "W+4", "W+2", "DW", "DW+C") else face[0]

    held = {colour(c) for c in hand} - {None}
    wild_plays = [m for m in out if m["type"] == "play" and "color" in m]
    if held and wild_plays:
        keep = [m for m in wild_plays if m["color"] in held]
        if keep:
            dropped = {id(m) for m in wild_plays if m not in keep}
            out = [m for m in out if id(m) not in dropped]
    return out
