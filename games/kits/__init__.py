"""One kit per game: everything the site needs to know about a game, in one object.

The engine knows a game's rules (``engine/<game>.py``); its kit knows how the site shows and offers it:
its name and tagline, the seats a new match starts with, the options form, the API's move and view
schemas, its words (``games/words/<game>.py``), how its cards are drawn, its board, what the board marks
of the last move, the events that open a round, its rulebook's languages and the cards its rules page
draws. Every per-game table the site used to keep (``GAME_LABELS``, ``GAME_FORMS``, ``words.GAMES``…)
is a view of the kits (``KitTable``), so a game is added in its own files, not in fifteen lists.

Discovery: every game of ``engine.registry`` has a kit, the ``KIT`` of the module
``settings.GAME_KITS[game]`` (default ``games.kits.<game>``). ``games.checks`` (``games.E001``) stops
``manage.py check`` and every server start when a game lacks one, or its words, or its rules page.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

from django.conf import settings

from engine import registry


def _plays_card(move: dict[str, Any], code: str, side: str) -> bool:
    """Whether a legal move plays the hand card ``code`` (its ``card`` is the code)."""
    return move.get("card") == code


@dataclass(frozen=True)
class Kit:
    """What the site knows of one game (``games.kits.<game>.KIT``)."""

    #: The engine's name of the game (``engine.registry``).
    game: str
    #: Its name as a person reads it (translatable: a language may name a game its own way).
    label: Any
    #: One line under its name in the new-match form.
    tagline: Any
    #: The seats a new match starts with (within the engine's ``MIN_SEATS``..``MAX_SEATS``).
    default_seats: int
    #: The new-match form's fieldset for its options (a ``games.web.forms.GameOptionsForm``).
    form: type
    #: The API's move schema: a union of ``games.kits.base.Move`` models discriminated by ``type``.
    moves: Any
    #: The API's view schema (a ``games.kits.base.View``).
    view: type
    #: Its words: a module with ``WORDS``, ``SILENT``, ``MOVES``, ``card_name``, ``card_short``,
    #: ``colour_name``, ``round_summary`` and ``REFUSALS`` (a sentence per refusal code of its own; the
    #: shared codes' are ``games.words.SHARED_REFUSALS``) (``games.words``). A small game's kit may be its words.
    words: ModuleType
    #: The options a match plays (the engine's, defaults filled in), in words, the most telling first.
    option_words: Callable[[dict[str, Any]], list[str]]
    #: One card as the templates draw it: ``card(code, side="light")`` → a dict with at least ``code``
    #: and ``name`` (``side``: the face up of a two-sided card).
    card: Callable[..., dict[str, Any]]
    #: The board: ``board(view, seat, legal, names, marks, hands, turn_seat)`` → what the game's play
    #: template draws (``games.selectors.board.board_for``).
    board: Callable[..., dict[str, Any]]
    #: The events that open a round of the move log.
    round_starts: frozenset[str]
    #: The languages its rulebook came in, its seed's language first (``tests/fixtures/rules/``).
    rulebook_languages: tuple[str, ...]
    #: Cards its rules page draws, by a name a template can spell (``{"r7": "R7"}``).
    rule_examples: dict[str, str] = field(default_factory=dict)
    #: More for its rules page's template (Cardavia: the order of its cards).
    rule_extras: Callable[[], dict[str, Any]] | None = None
    #: What the board marks of one event of the last move: ``mark(marks, kind, payload)`` updates ``marks``.
    mark: Callable[[dict[str, Any], str, dict[str, Any]], None] | None = None
    #: The move that would play hand card ``code`` alone (to ask the engine why it may not), or None.
    probe: Callable[[str], dict[str, Any] | None] | None = None
    #: Whether a legal move plays hand card ``code`` (``side``: the face up).
    plays_card: Callable[[dict[str, Any], str, str], bool] = _plays_card
    #: A preview of a move's score (``play_scores(view)`` → ``score(move)`` or None where it has none).
    play_scores: Callable[[dict[str, Any]], Callable[[dict[str, Any]], Any] | None] | None = None
    #: A deal's table built from the events after it (Cardavia: lives lost); ``deal_table(names)``.
    deal_table: type | None = None
    #: The game is one deal: its log's one round is "The deal".
    one_deal: bool = False
    #: A multi-round game whose board builds its log from a window of its newest rounds.
    windowed_log: bool = False
    #: Its own stylesheet and script, ``static/games/<game>.css`` and ``.js`` (else the pages' own only).
    static_files: bool = True

    def assets(self) -> dict[str, Any]:
        """The play, replay and rules pages' ``game_css`` and ``game_js`` (None: the game has none)."""
        own = self.static_files
        return {"game_css": f"games/{self.game}.css" if own else None,
                "game_js": f"games/{self.game}.js" if own else None}


def module_name(game: str) -> str:
    """Where ``game``'s kit lives: ``settings.GAME_KITS[game]``, or ``games.kits.<game>``."""
    name: str = getattr(settings, "GAME_KITS", {}).get(game, f"games.kits.{game}")
    return name


def find(game: str) -> Kit | None:
    """``game``'s kit, or None when its module is missing or declares no ``KIT`` (``games.checks``)."""
    name = module_name(game)
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None
        raise
    found = getattr(module, "KIT", None)
    return found if isinstance(found, Kit) and found.game == game else None


@cache
def kit(game: str) -> Kit:
    """The kit of ``game``; ``KeyError`` for a game that is not registered or has no kit."""
    if game not in registry.names():
        raise KeyError(f"unknown game {game!r}; known: {', '.join(registry.names())}")
    found = find(game)
    if found is None:
        raise KeyError(f"the game {game!r} has no kit ({module_name(game)}.KIT)")
    return found


def kits() -> list[Kit]:
    """Every registered game's kit, by name."""
    return [kit(game) for game in registry.names()]


def with_kits() -> list[str]:
    """The registered games that have a kit, by name: those the site builds its tables and the API its schemas
    for at import. A registered game without one is left out of them, so that the URLs still import and
    ``manage.py`` stops with ``games.E001`` naming the file to create, not with a ``KeyError``."""
    return [game for game in registry.names() if find(game) is not None]


class KitTable(Mapping[str, Any]):
    """A per-game table read from the kits: ``KitTable("label")["livol"]`` is ``kit("livol").label``
    (``attribute``: a kit's attribute, or a function of the kit). Keyed by the registered games that have a
    kit (``with_kits``), looked up when read, so that a module may build one at import."""

    def __init__(self, attribute: str | Callable[[Kit], Any]):
        self.attribute = attribute

    def __getitem__(self, game: str) -> Any:
        found = kit(game)  # KeyError: not a registered game, or one without a kit
        return self.attribute(found) if callable(self.attribute) else getattr(found, self.attribute)

    def __iter__(self) -> Iterator[str]:
        return iter(with_kits())

    def __len__(self) -> int:
        return len(with_kits())

    def __repr__(self) -> str:
        return f"KitTable({self.attribute!r})"


# The games' names, translatable where a language names a game its own way (Karuselė in Lithuanian): each
# game's kit's ``label``.
GAME_LABELS = KitTable("label")


def game_choices() -> list[tuple[str, str]]:
    """Every registered game, for a model field's ``choices`` (a callable: the migrations name this
    function, not the list, so a new game needs no migration)."""
    return [(name, GAME_LABELS.get(name, name)) for name in registry.names()]
