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
- ``illegal_move_message(code, rule=None, href=None)`` — a sentence for an ``IllegalMove`` code
  (with ``href``: HTML, the rule's id a link to its paragraph).
"""
from __future__ import annotations

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

#: A sentence for every stable ``IllegalMove`` code the engine raises (the engine's
#: own messages stay English, for logs and bot authors).
ILLEGAL_MOVE_MESSAGES = {
    # every game
    "not_your_turn": gettext_lazy("It is not your turn."),
    "match_over": gettext_lazy("The match is over."),
    "malformed_move": gettext_lazy("That move could not be understood."),
    "unknown_card": gettext_lazy("There is no such card in this game."),
    "card_not_in_hand": gettext_lazy("You do not hold that card."),
    "already_resigned": gettext_lazy("You have already resigned."),
    # LIVOL and UNO FLIP
    "card_does_not_match": gettext_lazy("That card does not match the top card or the colour in force."),
    "must_name_color": gettext_lazy("Name the colour for the Wild that starts the round first."),
    "must_respond": gettext_lazy("Accept or challenge the Wild Draw Four first."),
    "must_answer_challenge": gettext_lazy("Challenge or accept the wild draw card first."),
    "must_play_drawn_card": gettext_lazy("You must play the card you drew."),
    "only_drawn_card": gettext_lazy("After drawing, you may only play the card you drew, or pass."),
    "color_required": gettext_lazy("Name a colour for this card."),
    "bad_color": gettext_lazy("That colour does not belong to the side in play."),
    "color_not_allowed": gettext_lazy("This card does not name a colour."),
    "no_color_to_name": gettext_lazy("There is no colour to name now."),
    "playable_card_held": gettext_lazy("You hold a card you can play, so you may not draw."),
    "cannot_call": gettext_lazy("You may call only when you hold exactly one card and have not called yet."),
    "nothing_to_catch": gettext_lazy("Nobody can be caught now."),
    "nothing_to_accept": gettext_lazy("There is nothing to accept."),
    "nothing_to_challenge": gettext_lazy("There is nothing to challenge."),
    "already_drawn": gettext_lazy("You have already drawn: play the card you drew, or pass."),
    "nothing_to_draw": gettext_lazy("There are no cards left to draw."),
    "cannot_pass": gettext_lazy("You cannot pass now: play or draw a card."),
    "ambiguous_card": gettext_lazy("You hold two such cards with different backs: choose which one to play."),
    # Karuselis
    "groups_overlap": gettext_lazy("A card cannot be taken twice in one capture."),
    "not_on_table": gettext_lazy("That card is not on the table."),
    "broom_sweeps": gettext_lazy("The Broom does not capture: it sweeps the table."),
    "must_take_build": gettext_lazy("You own a build: you must take it this turn."),
    "court_takes_its_pair": gettext_lazy(
        "A court card takes one card of its rank, or all three when exactly three lie on the table."),
    "bad_group": gettext_lazy("Those cards do not add up to the value of your card."),
    "no_value": gettext_lazy("Court cards and the Broom have no value: they cannot be part of a build."),
    "bad_build": gettext_lazy("Build on loose cards, or on exactly one build."),
    "own_build": gettext_lazy("You cannot raise your own build."),
    "wrong_build_value": gettext_lazy("The build does not add up to that value."),
    "build_too_high": gettext_lazy("A build is worth at most 20."),
    "no_card_for_build": gettext_lazy("You need another card of the build's value in your hand."),
    "broom_never_trailed": gettext_lazy("The Broom is never put on the table: it sweeps."),
    "must_capture_or_build": gettext_lazy("You can capture or build, so you may not put a card on the table."),
    "sweep_needs_broom": gettext_lazy("Only the Broom sweeps the table."),
    # IOTA
    "already_recycled": gettext_lazy("A wild card can be recycled only once per turn."),
    "no_wild_there": gettext_lazy("There is no wild card on that cell."),
    "card_does_not_fit": gettext_lazy("That card does not fit in place of the wild card."),
    "stock_too_small": gettext_lazy("You cannot return more cards than the stock holds."),
    "cell_taken": gettext_lazy("A card already lies on that cell."),
    "not_in_one_line": gettext_lazy("The cards must lie in one row or one column."),
    "gap_in_line": gettext_lazy("The cards must form one unbroken line."),
    "not_connected": gettext_lazy("The cards must touch the cards already on the table."),
    "line_too_long": gettext_lazy("No line may be longer than four cards."),
    "invalid_line": gettext_lazy(
        "In a line, each of colour, shape and number must be the same on every card or different on every card."),
    "wild_without_identity": gettext_lazy("Every wild card must still be able to stand for some card."),
}

GENERIC_ILLEGAL_MOVE = gettext_lazy("That move is not allowed now.")


def illegal_move_message(code: str, rule: str | None = None, href: str | None = None) -> str:
    """A player-facing sentence for an ``IllegalMove`` code (unknown codes: a generic one),
    with the rule's id when given ("… (rule L4)"). With ``href`` (the rule's paragraph on its
    game's rules page) the sentence is safe HTML, the same words with the id a link."""
    message = str(ILLEGAL_MOVE_MESSAGES.get(code, GENERIC_ILLEGAL_MOVE))
    if not rule:
        return message
    if href is None:
        return gettext("%(message)s (rule %(rule)s)") % {"message": message, "rule": rule}
    from django.utils.html import conditional_escape, format_html
    from django.utils.safestring import mark_safe

    return mark_safe(conditional_escape(gettext("%(message)s (rule %(rule)s)")) % {
        "message": conditional_escape(message), "rule": format_html('<a href="{}">{}</a>', href, rule)})


__all__ = [
    "EventContext", "GAMES", "SILENT", "STORE_EVENTS", "ILLEGAL_MOVE_MESSAGES", "card_name", "card_short",
    "colour_name", "event_types", "said_by", "event_words", "round_summary", "move_words", "illegal_move_message",
]
