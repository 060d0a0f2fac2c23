"""Bot policies: ``choose(game, policy, view, legal, rng, must_act) -> move | None``.

A policy is a function ``(view, legal_moves, rng, must_act) -> move | None``.
``must_act`` is true when the seat holds the turn (``view["turn"] == seat``);
otherwise only optional out-of-turn moves are on offer (a LIVOL catch or call)
and the policy may return ``None`` to let them go.
Per-game policies live in ``engine/bots/<game>.py`` as ``POLICIES``; the
generic random policy works for every game.
"""
from __future__ import annotations

import importlib
import random as _random

from engine.bots.random_policy import random_policy

POLICY_NAMES = ("random", "greedy")


def policies_for(game: str) -> dict:
    try:
        module = importlib.import_module(f"engine.bots.{game}")
        found = dict(getattr(module, "POLICIES", {}))
    except ModuleNotFoundError:
        found = {}
    found.setdefault("random", random_policy)
    return found


def choose(game: str, policy: str, view: dict, legal: list[dict],
           rng: _random.Random, must_act: bool) -> dict | None:
    if not legal:
        return None
    table = policies_for(game)
    if policy not in table:
        raise KeyError(f"no {policy!r} bot for {game}")
    return table[policy](view, legal, rng, must_act)
