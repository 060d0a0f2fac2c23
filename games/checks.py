"""Start-up checks (Django's system checks): every game of ``engine.registry`` has what the site needs to
show and play it, so that a missing piece stops ``manage.py check`` (and every server start) with the
game and the place named, not a ``KeyError`` on the first page that needs it.

Per game: a label, an options form, words (for every event type its module declares in ``EVENTS``, unless
the game marks it ``SILENT``), the words for its options, a board builder, a card drawer, the events that
open its rounds, the languages of its rulebook and a rules page template.
"""
from __future__ import annotations

from django.core import checks
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from engine import registry


def _places() -> list[tuple[str, str, object]]:
    """(what, where, the per-game table): the site's per-game tables that every game needs an entry in."""
    from games import forms, selectors, words
    from games.models import GAME_LABELS
    from games.words.terms import OPTION_WORDS

    return [
        ("a label", "games.models.GAME_LABELS", GAME_LABELS),
        ("an options form", "games.forms.GAME_FORMS", forms.GAME_FORMS),
        ("words", "games.words.GAMES", words.GAMES),
        ("words for its options", "games.words.terms.OPTION_WORDS", OPTION_WORDS),
        ("a board builder", "games.selectors.BOARDS", selectors.BOARDS),
        ("a card drawer", "games.selectors.CARD_MAKERS", selectors.CARD_MAKERS),
        ("the events that open a round", "games.selectors.ROUND_STARTS", selectors.ROUND_STARTS),
        ("its rulebook's languages", "games.selectors.RULEBOOK_LANGUAGES", selectors.RULEBOOK_LANGUAGES),
    ]


def game_problems(game: str) -> list[str]:
    """What the site lacks for ``game`` (empty: nothing)."""
    from games import words

    problems = [f"no {what} ({where})" for what, where, table in _places() if game not in table]
    if game in words.GAMES:
        silent = words.SILENT.get(game, frozenset())
        unsaid = sorted(set(getattr(registry.module(game), "EVENTS", {})) - words.event_types(game) - silent)
        if unsaid:
            problems.append(f"no words for its events {', '.join(unsaid)} (games/words/{game}.py WORDS, or "
                            "SILENT for an event that gets no line on purpose)")
    try:
        get_template(f"rules/{game}.html")
    except TemplateDoesNotExist:
        problems.append(f"no rules page (templates/rules/{game}.html)")
    return problems


@checks.register()
def every_game_has_a_kit(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """games.E001: a registered game the site lacks a piece for."""
    return [checks.Error(f"The game {game!r} has {problem}.", obj=game, id="games.E001",
                         hint="Every game of engine.registry needs each per-game piece of the site.")
            for game in registry.names() for problem in game_problems(game)]
