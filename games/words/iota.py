"""IOTA in words: card names, event sentences, move labels, the final score table.

Card codes (rules I1): colour, number, shape (``B4S`` is the blue square 4,
"Blue square 4"); the wilds ``W1`` ``W2`` are both "Wild" (the same face).
Every colour × shape has its own full pattern. Cells are written "(x, y)", x to
the right and y downward from the starter at (0, 0).
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.words.common import (
    as_int,
    cell,
    first_place,
    join_list,
    match_winners,
    name_of,
    row,
    sentences,
    summary,
)

GAME = "iota"

#: Every IOTA event says something a player may want to read.
SILENT: frozenset = frozenset()

_FACE = {
    "RC": pgettext_lazy("iota card", "Red circle %(number)s"),
    "RS": pgettext_lazy("iota card", "Red square %(number)s"),
    "RT": pgettext_lazy("iota card", "Red triangle %(number)s"),
    "RX": pgettext_lazy("iota card", "Red cross %(number)s"),
    "YC": pgettext_lazy("iota card", "Yellow circle %(number)s"),
    "YS": pgettext_lazy("iota card", "Yellow square %(number)s"),
    "YT": pgettext_lazy("iota card", "Yellow triangle %(number)s"),
    "YX": pgettext_lazy("iota card", "Yellow cross %(number)s"),
    "GC": pgettext_lazy("iota card", "Green circle %(number)s"),
    "GS": pgettext_lazy("iota card", "Green square %(number)s"),
    "GT": pgettext_lazy("iota card", "Green triangle %(number)s"),
    "GX": pgettext_lazy("iota card", "Green cross %(number)s"),
    "BC": pgettext_lazy("iota card", "Blue circle %(number)s"),
    "BS": pgettext_lazy("iota card", "Blue square %(number)s"),
    "BT": pgettext_lazy("iota card", "Blue triangle %(number)s"),
    "BX": pgettext_lazy("iota card", "Blue cross %(number)s"),
}
_WILD = pgettext_lazy("iota card", "Wild")
WILDS = ("W1", "W2")
_COLOUR = {
    "R": pgettext_lazy("iota colour", "Red"),
    "Y": pgettext_lazy("iota colour", "Yellow"),
    "G": pgettext_lazy("iota colour", "Green"),
    "B": pgettext_lazy("iota colour", "Blue"),
}
_SHAPE_SYMBOL = {"C": "●", "S": "■", "T": "▲", "X": "✚"}


def _parts(code: str):
    if len(code) == 3 and code[0] + code[2] in _FACE and code[1] in "1234":
        return code[0], code[1], code[2]
    return None


def card_name(code: str) -> str:
    if code in WILDS:
        return str(_WILD)
    parts = _parts(code)
    if parts is None:
        return code
    colour, number, shape = parts
    return str(_FACE[colour + shape]) % {"number": number}


def card_short(code: str) -> str:
    if code in WILDS:
        return "★"
    parts = _parts(code)
    return parts[1] + _SHAPE_SYMBOL[parts[2]] if parts else code


def colour_name(letter) -> str:
    return str(_COLOUR[letter]) if letter in _COLOUR else str(letter or "")


def placed(p: dict) -> str:
    """One placed card: "Blue square 4 at (1, 0)"."""
    return pgettext("iota", "%(card)s at %(cell)s") % {
        "card": card_name(str(p.get("card", ""))), "cell": cell(as_int(p.get("x")), as_int(p.get("y")))}


def placements(cards) -> str:
    return join_list(placed(p) for p in cards or [] if isinstance(p, dict))


def _list(codes) -> str:
    return join_list(card_name(c) for c in codes)


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------

def _match_started(e, names):
    variant = (e.get("options") or {}).get("variant")
    if variant == "short":
        return pgettext("iota", "The match begins, with a short deck of 32 cards and the two wild cards")
    if variant == "kids":
        return pgettext("iota", "The match begins, without scores: the first to play out all cards wins")
    return pgettext("iota", "The match begins")


def _cards_dealt(e, names):
    starter = None
    if e.get("starter"):
        starter = pgettext("iota", "The starter is %(card)s") % {"card": card_name(e["starter"])}
    hand = pgettext("iota", "Your cards: %(cards)s") % {
        "cards": ", ".join(card_name(c) for c in e["hand"])} if e.get("hand") else None
    return sentences(starter, hand)


def _wild_recycled(e, names):
    return pgettext("iota", "%(player)s took back the %(wild)s at %(cell)s and put %(card)s in its place") % {
        "player": name_of(names, e.get("seat")), "wild": card_name(e.get("wild", "W1")),
        "cell": cell(as_int(e.get("x")), as_int(e.get("y"))), "card": card_name(e.get("card", ""))}


def _cards_played(e, names):
    score = as_int(e.get("score"))
    args = {"player": name_of(names, e.get("seat")), "cards": placements(e.get("cards")), "score": score}
    if score:
        first = npgettext("iota", "%(player)s played %(cards)s for %(score)d point",
                          "%(player)s played %(cards)s for %(score)d points", score) % args
    else:
        first = pgettext("iota", "%(player)s played %(cards)s") % args
    lots = as_int(e.get("lots"))
    lot = None
    if lots:
        lot = npgettext("iota", "%(count)d lot completed", "%(count)d lots completed", lots) % {"count": lots}
    last = pgettext("iota", "That was the last card: the match ends") if e.get("final") else None
    return sentences(first, lot, last)


def _passed(e, names):
    player = name_of(names, e.get("seat"))
    returned = e.get("returned")
    n = len(returned) if isinstance(returned, list) else as_int(e.get("count"))
    if not n:
        return pgettext("iota", "%(player)s passed") % {"player": player}
    if isinstance(returned, list):
        return pgettext("iota", "%(player)s passed and exchanged %(cards)s") % {
            "player": player, "cards": _list(returned)}
    return npgettext("iota", "%(player)s passed and exchanged %(count)d card",
                     "%(player)s passed and exchanged %(count)d cards", n) % {"player": player, "count": n}


def _cards_drawn(e, names):
    player = name_of(names, e.get("seat"))
    cards = e.get("cards")
    if isinstance(cards, list):
        return pgettext("iota", "%(player)s drew %(cards)s") % {"player": player, "cards": _list(cards)}
    n = as_int(e.get("count"))
    return npgettext("iota", "%(player)s drew %(count)d card", "%(player)s drew %(count)d cards", n) % {
        "player": player, "count": n}


def _match_ended(e, names):
    reason = None
    if e.get("reason") == "all_passed":
        reason = pgettext("iota", "Everyone passed twice in a row")
    return sentences(reason, match_winners(e, names))


WORDS = {
    "match_started": _match_started,
    "cards_dealt": _cards_dealt,
    "wild_recycled": _wild_recycled,
    "cards_played": _cards_played,
    "passed": _passed,
    "cards_drawn": _cards_drawn,
    "match_ended": _match_ended,
}


# --------------------------------------------------------------------------
# The final score table (IOTA is one deal)
# --------------------------------------------------------------------------

def _counts_cards_left(e, options) -> bool:
    """The ``kids`` variant ranks by cards left (fewest first). The event does not say which
    variant was played: the match's options do; without them, a first place holding the
    lowest score that is not also the highest tells."""
    if isinstance(options, dict) and options.get("variant"):
        return options["variant"] == "kids"
    scores, first = e.get("scores") or [], first_place(e.get("ranking"))
    if not scores or not first:
        return False
    mine = scores[first[0]]
    return mine == min(scores) and mine != max(scores)


def round_summary(e, names, options=None):
    if e.get("type") != "match_ended":
        return None
    scores = e.get("scores") or []
    first = set(first_place(e.get("ranking")))
    kids = _counts_cards_left(e, options)
    rows = [row(seats=[s], name=name_of(names, s), total=scores[s], highlight=s in first) for s in range(len(scores))]
    total = pgettext("iota", "Cards left") if kids else pgettext("iota", "Points")
    return summary(game=GAME, event=e, round_no=None, headline=_match_ended(e, names), rows=rows, target=None,
                   gain_header="", total_header=total)


# --------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------

def _pass(m, names):
    returned = m.get("return") or []
    if not returned:
        return pgettext("iota move", "Pass")
    return pgettext("iota move", "Pass, return %(cards)s") % {"cards": _list(returned)}


MOVES = {
    "play": lambda m, names: pgettext("iota move", "Play %(cards)s") % {"cards": placements(m.get("cards"))},
    "pass": _pass,
    "recycle": lambda m, names: pgettext("iota move", "Recycle the Wild at %(cell)s with %(card)s") % {
        "cell": cell(as_int(m.get("x")), as_int(m.get("y"))), "card": card_name(str(m.get("card", "")))},
}

# --------------------------------------------------------------------------
# Refused moves
# --------------------------------------------------------------------------

#: A sentence for each refusal code IOTA raises beyond the shared ones (``games.words.SHARED_REFUSALS``).
REFUSALS = {
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
