"""Start-up checks (Django's system checks): every game of ``engine.registry`` has what the site needs to
show and play it, so that a missing piece stops ``manage.py check`` (and ``migrate``, ``runserver`` and every
other command that runs the checks) with the game and the file named, not a ``KeyError`` on the first page
that needs it.

- ``games.E001`` (an error: the site cannot show the game): per game, its engine module, a kit
  (``games.kits``: its label, form, schemas, board, cards…), words for every event type its engine module
  declares in ``EVENTS`` (unless its words mark it ``SILENT``), seats a new match can start with, the
  stylesheet and script its kit declares (``static_files``), and a rules page template.
- ``games.W001`` (a warning: the game plays, with fewer bots than it could have): a game that has no
  searching bots, because its game object has no ``sample_state`` method (one defined in its engine or bots
  module instead is named) or it has no ``greedy`` bot. The contract makes searching bots optional, so this
  does not stop the start; a game meant to have none silences it (``SILENCED_SYSTEM_CHECKS``).
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core import checks
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from engine import registry
from engine.bots import SEARCH_LEVELS, bots_module
from games import kits
from games.words import said_by

HINT = ("Every game of engine.registry needs a kit (games.kits), its words and a rules page: see "
        "docs/architecture.md, \"Adding a game\".")


def module_exists(module_name: str) -> bool:
    if module_name in sys.modules:
        return True
    try:
        return importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError:  # its package is missing too
        return False


def module_file(module_name: str) -> str:
    """Where a module is or would be, from the project's root when it lies under it (``games.kits.tally`` →
    ``games/kits/tally.py``)."""
    spec = importlib.util.find_spec(module_name) if module_exists(module_name) else None
    path = Path(spec.origin) if spec is not None and spec.origin else \
        Path(settings.BASE_DIR, *module_name.split(".")).with_suffix(".py")
    try:
        return str(path.resolve().relative_to(Path(settings.BASE_DIR).resolve()))
    except ValueError:
        return str(path)


def kit_problem(game: str) -> str | None:
    """Why ``game`` has no kit, naming the file to create or fix (None: it has one)."""
    if kits.find(game) is not None:
        return None
    name = kits.module_name(game)
    path = module_file(name)
    named = f" (settings.GAME_KITS names {name} for it)" if name != f"games.kits.{game}" else ""
    example = f"KIT = games.kits.Kit(game={game!r}, …)"
    if not module_exists(name):
        return f"no kit: create {path}{named} with {example}"
    found = getattr(importlib.import_module(name), "KIT", None)
    if found is None:
        return f"no kit: {path}{named} declares no KIT; add {example}"
    if not isinstance(found, kits.Kit):
        return f"no kit: the KIT of {path} is not a games.kits.Kit"
    return f"no kit: the KIT of {path} is the kit of {found.game!r}; its game must be {game!r}"


def game_problems(game: str) -> list[str]:
    """What the site lacks for ``game`` (empty: nothing)."""
    problems = []
    engine_module = registry.module_path(game)
    if not module_exists(engine_module):
        problems.append(f"no engine module: create {module_file(engine_module)} with GAME = {game!r} and its game "
                        "object as game (docs/engine-contract.md)")
    missing_kit = kit_problem(game)
    if missing_kit is not None:
        problems.append(missing_kit)
    found = kits.find(game)
    if found is not None and module_exists(engine_module):
        silent = frozenset(getattr(found.words, "SILENT", ()))
        unsaid = sorted(set(getattr(registry.module(game), "EVENTS", {})) - said_by(found.words) - silent)
        if unsaid:
            problems.append(f"no words for its events {', '.join(unsaid)} ({found.words.__name__}.WORDS, or "
                            "SILENT for an event that gets no line on purpose)")
        engine_game = registry.get(game)
        if not engine_game.MIN_SEATS <= found.default_seats <= engine_game.MAX_SEATS:
            problems.append(f"a kit whose default_seats {found.default_seats} is outside its engine's "
                            f"{engine_game.MIN_SEATS}..{engine_game.MAX_SEATS}")
        unfound = [path for path in found.assets().values() if path is not None and finders.find(path) is None]
        if unfound:
            problems.append(f"no {' and no '.join(f'static/{path}' for path in unfound)}: create "
                            f"{'them' if len(unfound) > 1 else 'it'}, or set static_files=False in its kit")
    try:
        get_template(f"rules/{game}.html")
    except TemplateDoesNotExist:
        problems.append(f"no rules page: create templates/rules/{game}.html")
    return problems


@checks.register()
def every_game_has_a_kit(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """games.E001: a registered game the site lacks a piece for."""
    return [checks.Error(f"The game {game!r} has {problem}.", obj=game, id="games.E001", hint=HINT)
            for game in registry.names() for problem in game_problems(game)]


def search_problem(game: str) -> str | None:
    """Why ``game`` has no searching bots, what is missing and where (None: it has them, or it has no engine
    module, which ``games.E001`` names)."""
    if not module_exists(registry.module_path(game)):
        return None
    module = registry.module(game)
    bots = bots_module(game)
    method = callable(getattr(registry.get(game), "sample_state", None))
    greedy = "greedy" in getattr(bots, "POLICIES", {})
    if method and greedy:
        return None
    missing = []
    if not method:
        missing.append(f"its game object ({module.__name__}.game) has no sample_state method")
        misplaced = [owner.__name__ for owner in (module, bots)
                     if owner is not None and callable(getattr(owner, "sample_state", None))]
        if misplaced:
            missing[-1] += (f" ({' and '.join(misplaced)} {'define' if len(misplaced) > 1 else 'defines'} "
                            "sample_state as a function; it must be a method of the game object)")
    if not greedy:
        missing.append(f"it has no greedy bot (POLICIES[\"greedy\"] in {module_of_bots(game)})")
    return (f"gets only {'random and greedy' if greedy else 'random'} bots, none of the searching levels "
            f"({', '.join(SEARCH_LEVELS)}): {'; '.join(missing)}")


def module_of_bots(game: str) -> str:
    """Where a game's bots module would be: the module its engine module names as ``BOTS``, else
    ``engine.bots.<game>``."""
    return getattr(registry.module(game), "BOTS", None) or f"engine.bots.{game}"


@checks.register()
def every_game_has_searching_bots(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """games.W001: a registered game without searching bots (a warning: they are optional)."""
    messages = []
    for game in registry.names():
        problem = search_problem(game)
        if problem is not None:
            messages.append(checks.Warning(
                f"The game {game!r} {problem}.", obj=game, id="games.W001",
                hint="The searching bots need sample_state(view, seat, rng, legal) as a method of the game "
                     "object and a greedy policy (docs/engine-contract.md). A game meant to have none: add "
                     "games.W001 to SILENCED_SYSTEM_CHECKS."))
    return messages
