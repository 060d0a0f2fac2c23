"""What every bots module shares: the ``Policy`` type, and where a game's bots module is found. Both the
policies (``engine.bots``) and the search (``engine.bots.search``) stand on it."""
from __future__ import annotations

import importlib
import random as _random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from engine import registry

#: A bot: (view, legal moves, rng, must_act) -> its move, or None to let optional moves go.
Policy = Callable[[dict[str, Any], list[dict[str, Any]], _random.Random, bool], dict[str, Any] | None]


def bots_module(game: str) -> ModuleType | None:
    """A game's bots module: the one its engine module names as ``BOTS`` (a dotted path, for a game that lives
    outside ``engine/``), else ``engine/bots/<game>.py``; None when it has none. It declares ``POLICIES``
    (level -> policy) and, if the generic search needs more than the contract says, ``SEARCH``
    (``engine.bots.search.Spec``)."""
    path = getattr(registry.module(game), "BOTS", None) or f"engine.bots.{game}"
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as missing:
        if missing.name != path:
            raise
        return None
