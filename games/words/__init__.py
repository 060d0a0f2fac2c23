"""Words for events, cards and moves: one place, shared by the play page's move log,
the replay page and e-mails (ARCHITECTURE.md "Words for events").

Pure functions over the engine's JSON values (no database). Every string is
English marked for translation and evaluated when the function runs, so a
caller gets it in whatever language is active (``translation.override``).

- ``card_name(game, code)`` — "R7" → "Red 7", "Pskipall" → "Pink Skip Everyone",
  "R7/P+5" → "Red 7 / Pink Draw Five", "10D" → "10♦", "B4S" → "Blue square 4",
  "12" → "XII".
- ``card_short(game, code)`` — what a card face shows ("7", "⊘", "⇄", "+2").
- ``colour_name(game, letter)`` — "R" → "Red" (a colour named after a Wild).
- ``event_words(game, event, names, context=None)`` — one line for one event *as a seat
  received it* (after ``engine.redact``; after the match, the raw event), or None for the
  events listed in ``SILENT[game]``. ``names[seat]`` are the seats' display names.
  The store's own events (``store.WORDS``) and ``seat_resigned`` work for every game.
  ``context`` (an ``EventContext``, fed the seat's events in order) lets a line say what
  the events before it mean: a resignation after timeouts is not a Resign pressed, and a
  Karuselis build is named by its cards.
- ``round_summary(game, event, names, options=None)`` — a small score table for a
  scoring event (``options``: the match's options from ``match_started``, for the
  target and IOTA's variant, which the scoring events do not carry).
- ``move_words(game, move, names, context=None)`` — the label of a legal move ("Play Red 7";
  ``context``: the builds a Karuselis move takes or raises, ``EventContext.from_view``).
- ``illegal_move_message(code, rule=None, href=None, game=None)`` — a sentence for an ``IllegalMove``
  code (with ``href``: HTML, the rule's id a link to its paragraph): the shared codes' from
  ``SHARED_REFUSALS``, a game's own from its words' ``REFUSALS``.
"""
from __future__ import annotations

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy

from engine import record
from games.kits import KitTable
from games.words import common, store
from games.words.context import EventContext

#: Each game's words module (its kit's ``words``: ``games/words/<game>.py``).
GAMES = KitTable("words")

#: Per game, the event types that get no line on purpose (purely technical).
SILENT = KitTable(lambda kit: kit.words.SILENT)

#: The store's own events (not engine events), the same in every game (``engine.record``'s one list; their
#: words are ``words.store``'s).
STORE_EVENTS = record.STORE_EVENTS


def _game(game: str):
    try:
        return GAMES[game]
    except KeyError:
        raise KeyError(f"no words for the game {game!r}; known: {', '.join(sorted(GAMES))}") from None


def event_types(game: str) -> frozenset:
    """Every event type that has words in ``game`` (its own, ``seat_resigned``, the store's)."""
    return said_by(_game(game))


def said_by(module) -> frozenset:
    """Every event type a game's words module (a kit's ``words``) gives words: its own ``WORDS``,
    ``seat_resigned`` and the store's events."""
    return frozenset(getattr(module, "WORDS", {})) | frozenset(common.COMMON_WORDS) | STORE_EVENTS


def card_name(game: str, code: str) -> str:
    return _game(game).card_name(str(code))


def card_short(game: str, code: str) -> str:
    return _game(game).card_short(str(code))


def colour_name(game: str, letter) -> str:
    return _game(game).colour_name(letter)


def event_words(game: str, event: dict, names, context: EventContext | None = None) -> str | None:
    """One sentence (or a few, " · " between them) for one event as a seat received it;
    None for the game's ``SILENT`` events and for an event type nobody has words for.
    With a ``context`` the sentence may use the events before it, and the event is noted in it."""
    if not isinstance(event, dict):
        return None
    try:
        return _event_words(game, event, names, context)
    finally:
        if context is not None:
            context.see(event)


def _event_words(game: str, event: dict, names, context: EventContext | None) -> str | None:
    kind = event.get("type")
    module = GAMES.get(game)
    if module is not None:
        if kind in module.SILENT:
            return None
        fn = getattr(module, "WORDS_IN_CONTEXT", {}).get(kind) if context is not None else None
        if fn is not None:
            return fn(event, names, context)
        fn = module.WORDS.get(kind)
        if fn is not None:
            return fn(event, names)
    if context is not None and kind in common.COMMON_WORDS_IN_CONTEXT:
        return common.COMMON_WORDS_IN_CONTEXT[kind](event, names, context)
    fn = common.COMMON_WORDS.get(kind) or store.WORDS.get(kind)
    return fn(event, names) if fn is not None else None


def round_summary(game: str, event: dict, names, options: dict | None = None) -> dict | None:
    """For a scoring event: ``{"game", "type", "round", "headline", "target", "headers":
    {"name", "gain", "total"}, "rows": [{"seats", "name", "gain", "total", "note",
    "highlight", …}]}``; None for any other event.

    Scoring events: LIVOL and UNO FLIP ``round_scored``; Karuselis ``round_scored`` (one
    row per side); IOTA ``match_ended``; Cardavia ``deal_settled`` and ``life_lost``."""
    if not isinstance(event, dict):
        return None
    return _game(game).round_summary(event, names, options)


def move_words(game: str, move: dict, names, context: EventContext | None = None) -> str:
    """The label of a move for buttons and the replay ("Play Wild Draw Four, name Green");
    ``context``: what the table holds (Karuselis builds, named by their cards)."""
    if not isinstance(move, dict):
        return common.unknown_move(move, names)
    kind = move.get("type")
    module = _game(game)
    fn = getattr(module, "MOVES_IN_CONTEXT", {}).get(kind)
    if fn is not None:
        return fn(move, names, context)
    fn = module.MOVES.get(kind) or common.COMMON_MOVES.get(kind)
    return fn(move, names) if fn is not None else common.unknown_move(move, names)


# --------------------------------------------------------------------------
# Refused moves
# --------------------------------------------------------------------------

#: The sentences of the refusal codes every game may raise (the engine contract's four, and two any game with
#: cards in hand may: ``unknown_card``, ``card_not_in_hand``). A game's own codes have their sentences in its
#: words (``REFUSALS``, beside ``WORDS``). The engine's own messages stay English, for logs and bot authors.
SHARED_REFUSALS = {
    "not_your_turn": gettext_lazy("It is not your turn."),
    "match_over": gettext_lazy("The match is over."),
    "malformed_move": gettext_lazy("That move could not be understood."),
    "already_resigned": gettext_lazy("You have already resigned."),
    "unknown_card": gettext_lazy("There is no such card in this game."),
    "card_not_in_hand": gettext_lazy("You do not hold that card."),
}

GENERIC_ILLEGAL_MOVE = gettext_lazy("That move is not allowed now.")


def refusal(code: str, game: str | None = None):
    """The sentence (lazy) for a refusal code: a shared one, else ``game``'s own (its words' ``REFUSALS``; with
    no game or an unknown one, any game's: a code means one thing in every game that raises it); None for a
    code no game has a sentence for."""
    if code in SHARED_REFUSALS:
        return SHARED_REFUSALS[code]
    for module in [GAMES[game]] if game in GAMES else GAMES.values():
        sentence = getattr(module, "REFUSALS", {}).get(code)
        if sentence is not None:
            return sentence
    return None


def refusals() -> dict:
    """Every refusal code with its sentence (lazy): the shared ones and every game's own."""
    found = dict(SHARED_REFUSALS)
    for module in GAMES.values():
        for code, sentence in getattr(module, "REFUSALS", {}).items():
            found.setdefault(code, sentence)
    return found


def illegal_move_message(code: str, rule: str | None = None, href: str | None = None,
                         game: str | None = None) -> str:
    """A player-facing sentence for an ``IllegalMove`` code (``game``: the game that refused, else any game's
    sentence for it; unknown codes: a generic one), with the rule's id when given ("… (rule L4)"). With
    ``href`` (the rule's paragraph on its game's rules page) the sentence is safe HTML, the same words with
    the id a link."""
    message = str(refusal(code, game) or GENERIC_ILLEGAL_MOVE)
    if not rule:
        return message
    if href is None:
        return gettext("%(message)s (rule %(rule)s)") % {"message": message, "rule": rule}
    return mark_safe(conditional_escape(gettext("%(message)s (rule %(rule)s)")) % {
        "message": conditional_escape(message), "rule": format_html('<a href="{}">{}</a>', href, rule)})


__all__ = [
    "EventContext", "GAMES", "SILENT", "STORE_EVENTS", "SHARED_REFUSALS", "refusal", "refusals", "card_name", "card_short",
    "colour_name", "event_types", "said_by", "event_words", "round_summary", "move_words", "illegal_move_message",
]
