"""The list of games (docs/engine-contract.md "Registry").

Each game lives in a module that exposes its game object as ``game`` (and its name as ``GAME``): the
five of this house in ``engine/<name>.py``; another registered by ``register(name, module)``, or named
in the environment variable ``ENGINE_GAMES`` (``name=dotted.module``, comma-separated; so that a bare
``python -m engine.verify`` knows a game that lives outside ``engine/``). Modules are imported on first
use so that importing the registry stays cheap.
"""
from __future__ import annotations

import importlib
import os
import re
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.protocol import Game

GAME_NAMES: tuple[str, ...] = ("cardavia", "iota", "karuselis", "livol", "uno_flip")
#: Where each game that does not live in ``engine/<name>.py`` lives (``register``).
MODULES: dict[str, str] = {}
#: A game's name: what its events, records and URLs carry.
NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def register(name: str, module_path: str) -> None:
    """Adds the game ``name`` whose module is ``module_path`` (imported when first used). ``ValueError``
    for a name that is not a game's (``NAME``) or is already another module's."""
    global GAME_NAMES
    if not NAME.fullmatch(name):
        raise ValueError(f"not a game's name: {name!r} (a lowercase letter, then lowercase letters, digits, _)")
    registered = MODULES.get(name, f"engine.{name}")
    if name in GAME_NAMES and registered != module_path:
        raise ValueError(f"the game {name!r} is already registered as {registered}")
    MODULES[name] = module_path
    if name not in GAME_NAMES:
        GAME_NAMES = (*GAME_NAMES, name)


def module_path(name: str) -> str:
    """Where the module of ``name`` is (or would be): the path it was registered with, else ``engine.<name>``."""
    return MODULES.get(name, f"engine.{name}")


def names() -> list[str]:
    """Every registered game, sorted by name."""
    return sorted(GAME_NAMES)


def get(name: str) -> Game:
    """The game object for ``name``; ``KeyError`` for an unknown game."""
    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(names())}")
    return importlib.import_module(module_path(name)).game  # type: ignore[no-any-return]  # each module's game


def module(name: str) -> ModuleType:
    """The module of ``name`` (its declarations: ``OPTIONS``, ``EVENTS``, …); ``KeyError`` for an unknown game."""
    get(name)
    return importlib.import_module(module_path(name))


def options(name: str) -> dict[str, Any]:
    """The options ``name`` takes (its module's ``OPTIONS``): each name maps to ``(default, check)``, the
    check a tuple of the allowed values or a predicate (``core.int_between`` keeps its ``low``/``high``)."""
    return module(name).OPTIONS  # type: ignore[no-any-return]  # OPTIONS: dict[str, tuple[default, check]]


for _entry in filter(None, (part.strip() for part in os.environ.get("ENGINE_GAMES", "").split(","))):
    _name, _sep, _module_path = _entry.partition("=")
    register(_name.strip(), _module_path.strip())
