"""Bot policies: ``choose(game, policy, view, legal, rng, must_act) -> move | None``.

A policy is a function ``(view, legal_moves, rng, must_act) -> move | None``.
``must_act`` is true when the seat holds the turn (``view["turn"] == seat``);
otherwise only optional out-of-turn moves are on offer (a LIVOL catch or call)
and the policy may return ``None`` to let them go.
Per-game policies live in ``engine/bots/<game>.py`` as ``POLICIES``; the
generic random policy works for every game, and the searching levels
(``engine/bots/search.py``: information-set Monte Carlo tree search over sampled
worlds, budgets in iterations) work for every game with a ``greedy`` policy and a
``sample_state`` call: from the contract alone, or from what the game's bots module declares as
``SEARCH`` (the horizon, the reward, the candidates, the budgets).

The levels, weakest first (``POLICY_NAMES``): ``random``, ``greedy``,
``search-easy``, ``search`` (normal) and ``search-strong``.
"""
from __future__ import annotations

import hashlib
import hmac
import random as _random
from typing import Any, cast

from engine import registry
from engine.bots import search

# the search stands on these too, so they live below both (engine.bots.base)
from engine.bots.base import Policy as Policy
from engine.bots.base import bots_module as bots_module
from engine.bots.random_policy import random_policy

POLICY_NAMES = ("random", "greedy", "search-easy", "search", "search-strong")
#: The search levels (a subset of ``POLICY_NAMES``).
SEARCH_LEVELS = ("search-easy", "search", "search-strong")


def policy_of(game: str, level: str) -> Policy | None:
    """The bot of one level of a game, or None when the game has none at that level: its bots module's
    ``POLICIES`` first, then ``random`` (every game), then a searching level for a game that has a greedy
    bot and deals samples (``search.searchable``). A move asks for one level, so only that one is built."""
    declared = getattr(bots_module(game), "POLICIES", {})
    if level in declared:
        return cast(Policy, declared[level])
    if level == "random":
        return random_policy
    if level not in SEARCH_LEVELS:
        return None
    if not search.searchable(game) or level not in search.spec_of(game).budgets:
        return None
    return search.policy_for(game, level)


def policies_for(game: str) -> dict[str, Policy]:
    """Every bot of a game by level (``policy_of`` for each level the game has, its bots module's own
    levels beyond ``POLICY_NAMES`` included)."""
    levels = [*getattr(bots_module(game), "POLICIES", {}), *POLICY_NAMES]
    found = {level: policy_of(game, level) for level in dict.fromkeys(levels)}
    return {level: policy for level, policy in found.items() if policy is not None}


def levels_for(game: str) -> tuple[str, ...]:
    """The levels of ``POLICY_NAMES`` that ``game`` has bots for, weakest first: ``random`` for every game,
    ``greedy`` where the game's bots module declares it, the searching levels where ``search`` knows the
    game. Whoever offers or seats a bot offers only these: a level a game lacks is refused, never played
    as another level under its name."""
    have = policies_for(game)
    return tuple(level for level in POLICY_NAMES if level in have)


def choose(game: str, policy: str, view: dict[str, Any], legal: list[dict[str, Any]],
           rng: _random.Random, must_act: bool) -> dict[str, Any] | None:
    if not legal:
        return None
    bot = policy_of(game, policy)
    if bot is None:
        raise KeyError(f"no {policy!r} bot for {game}")
    return bot(view, legal, rng, must_act)


#: The opening event's mark (``match_opened``: ``"bots_keyed_by": "secret"``) of a match whose bots'
#: randomness is keyed by ``bot_key(secret)``; a match opened without it keys them by its id.
BOTS_KEYED_BY_SECRET = "secret"
BOT_KEY_FORMULA = "cardleague-bots-v1"


def bot_key(secret: str) -> str:
    """The key of a match's bots' randomness: HMAC-SHA256(key = the match's secret, message =
    "cardleague-bots-v1"), 64 hex digits. Derived from the secret, not the match's id: two matches with
    the same secret (a seeded tournament's, run twice) play alike, and nobody at the table can foresee
    a bot's draws before the secret is revealed. Matches opened before this key its bots by their id."""
    return hmac.new(secret.encode("utf-8"), BOT_KEY_FORMULA.encode("ascii"), hashlib.sha256).hexdigest()


def bot_rng(key: int | str, position: int, seat: int) -> _random.Random:
    """A bot's randomness at a position: keyed by (the match's bot key, position, seat), nothing else, so a
    repeated task decides the same and an auditor can derive the same move again. ``key``: ``bot_key``
    of the secret, or the match's id for a match opened before that (and the engine-only ladder)."""
    return _random.Random(f"{key}:{position}:{seat}")


def bot_move(game: str, key: int | str, position: int, state: Any, seat: int, policy: str) -> dict[str, Any] | None:
    """The move ``policy`` makes for ``seat`` at ``position`` of the match whose bot key is ``key``
    (``bot_rng``), from the seat's own view and legal moves only; None when it lets optional moves go
    (a seat holding the turn always moves)."""
    engine_game = registry.get(game)
    view = engine_game.view(state, seat)
    legal = engine_game.legal_moves(state, seat)
    return choose(game, policy, view, legal, bot_rng(key, position, seat), must_act=view.get("turn") == seat)
