"""UNO FLIP bots. A policy sees only its view and its legal moves (never the state).

``greedy``: catches and calls whenever it may; challenges a wild draw from a
hand that is unlikely to have been fair; otherwise plays rather than draws,
shedding expensive cards first, hurting a next player who is close to going
out, keeping its Wilds for later, never bluffing a wild draw it could be
caught with, naming the colour it holds most of, and flipping the table when
its own backs are the cheaper hand.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.bots.search import Spec
from engine.bots.shedding import PLIES_PER_ITERATION, catch_or_call, grouped, round_candidates, round_reward
from engine.uno_flip import FACE_ON

POINTS = {"+1": 10, "rev": 20, "skip": 20, "flip": 20, "W": 40, "W+2": 50,
          "+5": 20, "skipall": 30, "DW": 40, "DW+C": 60}
WILDS = ("W", "W+2", "DW", "DW+C")
ATTACKS = ("+1", "+5", "skip", "skipall", "W+2", "DW+C")


def _kind(face: str) -> str:
    return face if face in WILDS else face[1:]


def _colour(face: str) -> str | None:
    return None if face in WILDS else face[0]


def _points(face: str) -> int:
    kind = _kind(face)
    return int(kind) if kind.isdigit() else POINTS[kind]


def _face(code: str, side: int) -> str:
    """The active face of a move's card: a bare face, or a ``light/dark`` code."""
    return code.split("/")[side] if "/" in code else code


def _best_colour(faces: list[str], fallback: str) -> str:
    counts = Counter(c for c in map(_colour, faces) if c)
    return counts.most_common(1)[0][0] if counts else fallback


def greedy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
    by_type = grouped(legal)
    urgent = catch_or_call(by_type)
    if urgent is not None or not must_act:
        return urgent
    side = 0 if view["side"] == "light" else 1
    if "challenge" in by_type:
        player = (view["turn"] - view["direction"]) % view["seats"]
        return {"type": "challenge"} if view["hand_sizes"][player] >= 4 else {"type": "accept"}
    if "color" in by_type:
        colour = _best_colour([c.split("/")[side] for c in view["hand"]], by_type["color"][0]["color"])
        return next((m for m in by_type["color"] if m["color"] == colour), by_type["color"][0])
    plays = by_type.get("play", [])
    if plays:
        return max(plays, key=lambda m: _score(m, view, side) + rng.random() * 1e-3)
    return by_type.get("draw", by_type.get("pass", legal))[0]


def _rest(hand: list[str], code: str, side: int) -> list[str]:
    """The physical cards left after playing ``code`` (a face or a physical code)."""
    rest = list(hand)
    if "/" in code:
        rest.remove(code)
    else:
        rest.remove(next(c for c in rest if c.split("/")[side] == code))
    return rest


def _score(move: dict[str, Any], view: dict[str, Any], side: int) -> float:
    face = _face(move["card"], side)
    kind = _kind(face)
    rest = _rest(view["hand"], move["card"], side)
    fronts = [c.split("/")[side] for c in rest]
    backs = [c.split("/")[1 - side] for c in rest]
    nxt = (view["turn"] + view["direction"]) % view["seats"]
    score = float(_points(face))
    if move.get("call"):
        score += 1000
    if kind in ATTACKS and view["hand_sizes"][nxt] <= 2:
        score += 60
    if kind in WILDS and len(rest) > 2:
        score -= 45
    if kind in ("W+2", "DW+C") and any(_colour(f) == view["color"] for f in fronts):
        score -= 200  # a bluff that a challenge would punish
    if kind == "flip" and rest:
        score += (sum(map(_points, fronts)) - sum(map(_points, backs))) / 5
    colour = move.get("color")
    if colour is not None:
        pool = fronts if kind in WILDS else backs  # after a Flip the backs are the hand
        score += 5 if colour == _best_colour(pool, colour) else 0
    return score


POLICIES = {"greedy": greedy}


# ---- the search (engine/bots/search.py) ------------------------------------------------

def _points_held(state: Any) -> list[int]:
    faces = FACE_ON[state.side]
    return [sum(faces[c].points for c in h) for h in state.hands]


#: The search plays to the end of the round (the reward: ``shedding.round_reward``), at most
#: ``shedding.PLIES_PER_ITERATION`` plies a decision on average per iteration.
SEARCH = Spec("uno_flip", frozenset({"round_scored", "match_ended"}), 120,
              round_reward(_points_held, lambda s: False),
              candidates=round_candidates, urgent=frozenset({"catch", "call"}), plies_per_iteration=PLIES_PER_ITERATION)
