"""IOTA bots. ``greedy``: recycle a wild when it can (giving up the lowest card), then
make the highest-scoring play (``kids``: the play that sheds most cards); with no play,
pass returning every card but the wilds (none of them fits anywhere now)."""
from __future__ import annotations

import random
from typing import Any

from engine.bots.search import Spec, squash
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


# ---- the search (engine/bots/search.py) ------------------------------------------------

def _two_turns_reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
    """After two turns of every seat (or the end), 0.5 + 0.5·tanh(d / 25), d = my points gained minus the
    best gain of another seat (``kids``: cards shed, /2); at the end of the match the final score
    difference counts."""
    kids = start.options.get("variant") == "kids"
    if kids:
        shed = [len(a) - len(b) for a, b in zip(start.hands, end.hands)]
        if end.over:
            return 1.0 if [me] == end.result["ranking"][0] else squash(
                (min(len(h) for s, h in enumerate(end.hands) if s != me) - len(end.hands[me])) / 2)
        others = [g for s, g in enumerate(shed) if s != me]
        return squash((shed[me] - max(others)) / 2)
    if end.over:
        scores = end.result["scores"]
        return squash((scores[me] - max(p for s, p in enumerate(scores) if s != me)) / 25)
    gains = [b - a for a, b in zip(start.scores, end.scores)]
    return squash((gains[me] - max(g for s, g in enumerate(gains) if s != me)) / 25)


def _best_plays(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, keep: int = 6) -> list[dict[str, Any]]:
    """The ``keep`` best plays by the greedy measure (score, then fewer wilds spent), every
    recycle, and the passes greedy would consider (returning nothing, or every card but the
    wilds)."""
    plays = [m for m in legal if m["type"] == "play"]
    others = [m for m in legal if m["type"] == "recycle"]
    if plays:
        if view.get("variant") == "kids":
            def key(m: dict[str, Any]) -> tuple[int, int]:
                return (len(m["cards"]), -sum(p["card"] in WILDS for p in m["cards"]))
        else:
            score = view_scorer(view)

            def key(m: dict[str, Any]) -> tuple[int, int]:
                return (score(m["cards"]), -sum(p["card"] in WILDS for p in m["cards"]))
        ranked = sorted(range(len(plays)), key=lambda i: key(plays[i]), reverse=True)
        others += [plays[i] for i in sorted(ranked[:keep])]
    passes = [m for m in legal if m["type"] == "pass"]
    plain = [m for m in passes if not any(c in WILDS for c in m["return"])]
    if plain:
        most = max(plain, key=lambda m: len(m["return"]))
        others += [m for m in (plain[0], most) if m not in others]
    return others or legal


#: A decision plays at most this many plies per iteration of its budget, on average: a rollout is the
#: decision and two turns of every seat (5 plies at two seats, 9 at four), and each greedy ply scores every
#: legal play (hundreds with wilds in hand, ~35 µs each): at four seats a decision of 48 full iterations
#: took up to 1.6 s on an idle core (``tests.bench.search_time --seats 4``); bounded, 0.7 s. The bound
#: binds at three and four seats only.
PLIES_PER_ITERATION = 5

#: The search looks one decision deep, then every seat plays two turns greedily.
SEARCH = Spec("iota", frozenset({"match_ended"}), lambda start: 2 * start.seats, _two_turns_reward, max_depth=1,
              candidates=_best_plays, budgets={"search-easy": 16, "search": 48, "search-strong": 192},
              plies_per_iteration=PLIES_PER_ITERATION)
