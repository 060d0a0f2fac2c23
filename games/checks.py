"""Start-up checks (Django's system checks): every game of ``engine.registry`` has what the site needs to
show and play it, so that a missing piece stops ``manage.py check`` (and every server start) with the
game and the place named, not a ``KeyError`` on the first page that needs it.

Per game: a kit (``games.kits``: its label, form, schemas, board, cards…), words for every event type its
engine module declares in ``EVENTS`` (unless its words mark it ``SILENT``), seats a new match can start
with, and a rules page template.
"""
from __future__ import annotations

from django.core import checks
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from engine import registry
from games import kits
from games.words import said_by


def game_problems(game: str) -> list[str]:
    """What the site lacks for ``game`` (empty: nothing)."""
    found = kits.find(game)
    if found is None:
        return [f"no kit ({kits.module_name(game)}.KIT, a games.kits.Kit; settings.GAME_KITS names another module)"]
    problems = []
    silent = frozenset(getattr(found.words, "SILENT", ()))
    unsaid = sorted(set(getattr(registry.module(game), "EVENTS", {})) - said_by(found.words) - silent)
    if unsaid:
        problems.append(f"no words for its events {', '.join(unsaid)} ({found.words.__name__}.WORDS, or "
                        "SILENT for an event that gets no line on purpose)")
    engine_game = registry.get(game)
    if not engine_game.MIN_SEATS <= found.default_seats <= engine_game.MAX_SEATS:
        problems.append(f"a kit whose default_seats {found.default_seats} is outside its engine's "
                        f"{engine_game.MIN_SEATS}..{engine_game.MAX_SEATS}")
    try:
        get_template(f"rules/{game}.html")
    except TemplateDoesNotExist:
        problems.append(f"no rules page (templates/rules/{game}.html)")
    return problems


@checks.register()
def every_game_has_a_kit(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """games.E001: a registered game the site lacks a piece for."""
    return [checks.Error(f"The game {game!r} has {problem}.", obj=game, id="games.E001",
                         hint="Every game of engine.registry needs a kit (games.kits), its words and a rules page.")
            for game in registry.names() for problem in game_problems(game)]
