"""The list of games (ENGINE.md "Registry").

Each game lives in ``engine/<name>.py`` and exposes its game object as
``game`` (and its name as ``GAME``). Modules are imported on first use so that importing the registry
stays cheap.
"""
from __future__ import annotations

import importlib

GAME_NAMES = ("cardavia", "iota", "karuselis", "livol", "uno_flip")


def names() -> list[str]:
    """Every registered game, sorted by name."""
    return sorted(GAME_NAMES)


def get(name: str):
    """The game object for ``name``; ``KeyError`` for an unknown game."""
    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(names())}")
    return importlib.import_module(f"engine.{name}").game


def module(name: str):
    """The module of ``name`` (its declarations: ``OPTIONS``, ``EVENTS``, …); ``KeyError`` for an unknown game."""
    get(name)
    return importlib.import_module(f"engine.{name}")


def options(name: str) -> dict:
    """The options ``name`` takes (its module's ``OPTIONS``): each name maps to ``(default, check)``, the
    check a tuple of the allowed values or a predicate (``core.int_between`` keeps its ``low``/``high``)."""
    return module(name).OPTIONS
