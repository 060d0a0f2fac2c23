"""IOTA bots. ``greedy``: recycle a wild when it can (giving up the lowest card), then
make the highest-scoring play (``kids``: the play that sheds most cards); with no play,
pass returning every card but the wilds (none of them fits anywhere now)."""
from __future__ import annotations

import random
from typing import Any

from engine.iota import INDEX, WILDS, face_value, view_scorer


def _wilds(move: dict[str, Any]) -> int:
    return sum(p["card"] in WILDS for p in move["cards"])


def greedy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
    if not legal:
        return None
    recycles = [m for m in legal if m["type"] == "recycle"]
    if recycles:
        low = min(face_value(INDEX[m["card"]]) for m in recycles)
        return rng.choice([m for m in recycles if face_value(INDEX[m["card"]]) == low])
    plays = [m for m in legal if m["type"] == "play"]
    if plays:
        score = view_scorer(view)
        if view.get("variant") == "kids":
            def key(m: dict[str, Any]) -> tuple[int, int]:
                return (len(m["cards"]), -_wilds(m))
        else:
            def key(m: dict[str, Any]) -> tuple[int, int]:
                return (score(m["cards"]), -_wilds(m))
        keyed = [(key(m), m) for m in plays]
        best = max(k for k, _ in keyed)
        return rng.choice([m for k, m in keyed if k == best])
    passes = [m for m in legal if m["type"] == "pass"]
    plain = [m for m in passes if not any(c in WILDS for c in m["return"])]
    most = max(len(m["return"]) for m in plain)
    return next(m for m in plain if len(m["return"]) == most)


POLICIES = {"greedy": greedy}
