"""Bot policies: ``choose(game, policy, view, legal, rng, must_act) -> move | None``.

A policy is a function ``(view, legal_moves, rng, must_act) -> move | None``.
``must_act`` is true when the seat holds the turn (``view["turn"] == seat``);
otherwise only optional out-of-turn moves are on offer (a LIVOL catch or call)
and the policy may return ``None`` to let them go.
Per-game policies live in ``engine/bots/<game>.py`` as ``POLICIES``; the
generic random policy works for every game, and the searching levels
(``engine/bots/search.py``: information-set Monte Carlo tree search over sampled
worlds, budgets in iterations) work for every game with a ``greedy`` policy and a
``sample_state`` hook.

The levels, weakest first (``POLICY_NAMES``): ``random``, ``greedy``,
``search-easy``, ``search`` (normal) and ``search-strong``.
"""
from __future__ import annotations

import importlib
import random as _random

from engine.bots.random_policy import random_policy

POLICY_NAMES = ("random", "greedy", "search-easy", "search", "search-strong")
#: The search levels (a subset of ``POLICY_NAMES``).
SEARCH_LEVELS = ("search-easy", "search", "search-strong")


def policies_for(game: str) -> dict:
    try:
        module = importlib.import_module(f"engine.bots.{game}")
        found = dict(getattr(module, "POLICIES", {}))
    except ModuleNotFoundError:
        found = {}
    found.setdefault("random", random_policy)
    if "greedy" in found:
        from engine.bots import search

        if game in search.SPECS:
            for level, policy in search.policies(game).items():
                found.setdefault(level, policy)
    return found


def choose(game: str, policy: str, view: dict, legal: list[dict],
           rng: _random.Random, must_act: bool) -> dict | None:
    if not legal:
        return None
    table = policies_for(game)
    if policy not in table:
        raise KeyError(f"no {policy!r} bot for {game}")
    return table[policy](view, legal, rng, must_act)


def bot_rng(match_id: int, position: int, seat: int) -> _random.Random:
    """A bot's randomness at a position: keyed by (match, position, seat), nothing else, so a
    repeated task decides the same and an auditor can derive the same move again."""
    return _random.Random(f"{match_id}:{position}:{seat}")


def bot_move(game: str, match_id: int, position: int, state, seat: int, policy: str) -> dict | None:
    """The move ``policy`` makes for ``seat`` at ``position`` of match ``match_id``, from the seat's
    own view and legal moves only; None when it lets optional moves go (a seat holding the turn
    always moves)."""
    from engine import registry

    engine_game = registry.get(game)
    view = engine_game.view(state, seat)
    legal = engine_game.legal_moves(state, seat)
    return choose(game, policy, view, legal, bot_rng(match_id, position, seat), must_act=view.get("turn") == seat)
