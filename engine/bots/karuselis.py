"""Karuselis bots (``POLICIES``): they see only the seat's view and legal moves.

greedy: the capture (or sweep) worth most — K13 card points, then spades, then
cards; otherwise the build gathering most (points, cards) for its owner's next
turn; otherwise the least valuable trail. A sweep is kept for a table worth it
(at least 2 points or 4 cards) unless nothing else is worth playing.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from engine.bots.search import Spec, squash
from engine.karuselis import CARD_POINTS, card_value, side_of, spade_count

SWEEP_WORTH = (2, 4)  # (points, cards) that make a sweep worth the broom


def worth(cards: Iterable[str]) -> tuple[int, int, int]:
    """(K13 card points, spades, cards) of a bunch of codes."""
    cards = list(cards)
    return (sum(CARD_POINTS.get(c, 0) for c in cards), sum(1 for c in cards if c.endswith("S")), len(cards))


def _taken(move: dict[str, Any], builds: dict[str, Any]) -> list[str]:
    items = [x for g in move.get("groups") or move.get("onto") or [] for x in (g if isinstance(g, list) else [g])]
    return [c for x in items for c in builds.get(x, [x])]


def greedy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
    if not legal:
        return None
    builds = {b["id"]: b["cards"] for b in view["table"]["builds"]}
    table = list(view["table"]["cards"]) + [c for cards in builds.values() for c in cards]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for move in legal:
        by_type.setdefault(move["type"], []).append(move)
    options = [(worth([m["card"], *_taken(m, builds)]), m) for m in by_type.get("capture", [])]
    sweep = by_type.get("sweep")
    if sweep and table:
        gain = worth(table)
        if gain[0] >= SWEEP_WORTH[0] or gain[2] >= SWEEP_WORTH[1] or not options:
            options.append((worth(["BR", *table]), sweep[0]))
    if options:
        return max(options, key=lambda o: o[0])[1]
    if "build" in by_type:
        return max(by_type["build"], key=lambda m: worth([m["card"], *_taken(m, builds)]))
    if "trail" in by_type:
        return min(by_type["trail"], key=lambda m: (*worth([m["card"]]), card_value(m["card"]) or 0))
    return legal[0]


POLICIES = {"greedy": greedy}


# ---- the search (engine/bots/search.py) ------------------------------------------------

def _pile_value(piles: Sequence[Sequence[str]], side: int) -> float:
    """What a side's pile is worth mid-deal: K13 card points, and the most-spades and
    most-cards bonuses as smooth chances of the leads so far."""
    spades = [spade_count(p) for p in piles]
    counts = [len(p) for p in piles]
    lead_s = spades[side] - max(n for i, n in enumerate(spades) if i != side)
    lead_c = counts[side] - max(n for i, n in enumerate(counts) if i != side)
    return (sum(CARD_POINTS.get(c, 0) for c in piles[side])
            + 2 * squash(lead_s / 2) + 2 * squash(lead_c / 4))


def _deal_reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
    """At the end of the deal, 0.5 + 0.5·tanh(d / 6), d = what my side gained in K13 points since the root
    (card points captured, plus the most-spades and most-cards bonuses, whose counts are public) minus the
    best other side's gain."""
    mine = side_of(me, start.seats)
    sides = range(len(start.piles))
    before = [_pile_value(start.piles, side) for side in sides]
    for e in closing:
        if e["type"] == "round_scored":
            # the deal's points (K13, exact: per seat, and seat k < sides sits on side k) less
            # what the (sampled) piles were worth at the root
            gains = [e["points"][side] - before[side] for side in sides]
            break
    else:
        gains = [_pile_value(end.piles, side) - b for side, b in zip(sides, before)]
    others = [g for side, g in enumerate(gains) if side != mine]
    return squash((gains[mine] - max(others)) / 6)


#: The search plays to the end of the deal.
SEARCH = Spec("karuselis", frozenset({"round_scored", "match_ended"}), 8, _deal_reward)
