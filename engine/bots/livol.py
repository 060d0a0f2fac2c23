"""LIVOL bots. ``greedy`` sees only its view and its legal moves.

Greedy, in order:
- out of turn: catch whenever a catch is on offer, call whenever it may; else let go;
- on its turn: catch / call first (they are free); a Wild +4 is challenged when a
  failed challenge costs nothing extra (accepting and losing a challenge both draw 4)
  or when the Wild +4 player still holds many cards; a colour is named after the
  colour it holds most;
- a play: attack the next seat when it is close to going out (+2, Skip, Reverse,
  Wild +4), otherwise shed the most points among coloured cards, keeping the Wilds
  (Wild before Wild +4) for when nothing else fits; always with the LIVOL call when
  the play leaves one card.
"""
from __future__ import annotations

import random
from typing import Any

from engine.bots.search import Spec
from engine.bots.shedding import PLIES_PER_ITERATION, catch_or_call, grouped, round_candidates, round_reward
from engine.livol import card_points

COLORS = ("R", "Y", "G", "B")


def _points(card: str) -> int:
    if card in ("W", "W+4"):
        return 50
    sym = card[1:]
    return int(sym) if sym.isdigit() else 20


def _best_color(hand: list[str], rng: random.Random) -> str:
    count = {c: 0 for c in COLORS}
    for card in hand:
        if card[0] in count:
            count[card[0]] += _points(card) + 10
    top = max(count.values())
    return next(c for c in COLORS if count[c] == top) if top else rng.choice(COLORS)


def _with_call(move: dict[str, Any], legal: list[dict[str, Any]], calling: bool) -> dict[str, Any]:
    if calling:
        called = {**move, "call": True}
        if called in legal:
            return called
    return move


def _score_play(card: str, view: dict[str, Any], pressure: bool) -> float:
    """Higher is better."""
    if card == "W+4":
        return 90 if pressure else -100
    if card == "W":
        return -50
    sym = card[1:]
    score = _points(card)
    if pressure and sym in ("+2", "skip", "rev"):
        score += 100
    if card[0] == view.get("color"):
        score += 1  # keep the colour when equal
    return score


def greedy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
    if not legal:
        return None
    by_type = grouped(legal)
    urgent = catch_or_call(by_type)
    if urgent is not None or not must_act:
        return urgent
    hand = list(view.get("hand") or [])
    if "color" in by_type:
        return {"type": "color", "color": _best_color(hand, rng)}
    if "challenge" in by_type:
        seats, turn, direction = view["seats"], view["turn"], view["direction"]
        player = (turn - direction) % seats
        extra = (view.get("options") or {}).get("challenge_extra_penalty", 0)
        if extra == 0 or view["hand_sizes"][player] >= 4:
            return by_type["challenge"][0]
        return by_type["accept"][0]
    if "accept" in by_type:
        return by_type["accept"][0]
    if "play" in by_type:
        seats, turn, direction = view["seats"], view["turn"], view["direction"]
        nxt = (turn + direction) % seats
        pressure = view["hand_sizes"][nxt] <= 2
        calling = len(hand) == 2
        cards = list(dict.fromkeys(m["card"] for m in by_type["play"]))
        best = max(cards, key=lambda c: (_score_play(c, view, pressure), -cards.index(c)))
        if best in ("W", "W+4"):
            rest = list(hand)
            rest.remove(best)
            move = {"type": "play", "card": best, "color": _best_color(rest, rng)}
        else:
            move = {"type": "play", "card": best}
        return _with_call(move, legal, calling)
    if "draw" in by_type:
        return by_type["draw"][0]
    return legal[0]


POLICIES = {"greedy": greedy}


# ---- the search (engine/bots/search.py) ------------------------------------------------

def _points_held(state: Any) -> list[int]:
    return [sum(card_points(c) for c in h) for h in state.hands]


#: The search plays to the end of the round (the reward: ``shedding.round_reward``), at most
#: ``shedding.PLIES_PER_ITERATION`` plies a decision on average per iteration.
SEARCH = Spec("livol", frozenset({"round_scored", "match_ended"}), 120,
              round_reward(_points_held, lambda s: s.options.get("variant") == "own_hand"),
              candidates=round_candidates, urgent=frozenset({"catch", "call"}), plies_per_iteration=PLIES_PER_ITERATION)
