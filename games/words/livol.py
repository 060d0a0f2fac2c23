"""LIVOL in words: card names, event sentences, move labels, the round's score table.

Card codes (rules L1): ``R0``…``R9``, ``Rskip``, ``Rrev``, ``R+2`` (and ``Y G B``),
``W``, ``W+4``. Every colour × kind has its own full pattern so that translators
can inflect it ("Red Skip" is not "Red" + "Skip").
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.words.common import (
    as_int,
    join_list,
    match_winners_with_points,
    name_of,
    row,
    sentences,
    summary,
    target_of,
)

GAME = "livol"

#: Events not worth a line of their own: whose turn it is shows on the board.
SILENT = frozenset({"turn_started"})

_NUMBER = {
    "R": pgettext_lazy("LIVOL card", "Red %(number)s"),
    "Y": pgettext_lazy("LIVOL card", "Yellow %(number)s"),
    "G": pgettext_lazy("LIVOL card", "Green %(number)s"),
    "B": pgettext_lazy("LIVOL card", "Blue %(number)s"),
}
_ACTION = {
    "Rskip": pgettext_lazy("LIVOL card", "Red Skip"),
    "Rrev": pgettext_lazy("LIVOL card", "Red Reverse"),
    "R+2": pgettext_lazy("LIVOL card", "Red Draw Two"),
    "Yskip": pgettext_lazy("LIVOL card", "Yellow Skip"),
    "Yrev": pgettext_lazy("LIVOL card", "Yellow Reverse"),
    "Y+2": pgettext_lazy("LIVOL card", "Yellow Draw Two"),
    "Gskip": pgettext_lazy("LIVOL card", "Green Skip"),
    "Grev": pgettext_lazy("LIVOL card", "Green Reverse"),
    "G+2": pgettext_lazy("LIVOL card", "Green Draw Two"),
    "Bskip": pgettext_lazy("LIVOL card", "Blue Skip"),
    "Brev": pgettext_lazy("LIVOL card", "Blue Reverse"),
    "B+2": pgettext_lazy("LIVOL card", "Blue Draw Two"),
    "W": pgettext_lazy("LIVOL card", "Wild"),
    "W+4": pgettext_lazy("LIVOL card", "Wild Draw Four"),
}
_COLOUR = {
    "R": pgettext_lazy("livol colour", "Red"),
    "Y": pgettext_lazy("livol colour", "Yellow"),
    "G": pgettext_lazy("livol colour", "Green"),
    "B": pgettext_lazy("livol colour", "Blue"),
}
_SHORT = {"skip": "⊘", "rev": "⇄", "+2": "+2", "W": "★", "W+4": "+4"}


def card_name(code: str) -> str:
    if code in _ACTION:
        return str(_ACTION[code])
    if len(code) == 2 and code[0] in _NUMBER and code[1].isdigit():
        return str(_NUMBER[code[0]]) % {"number": code[1]}
    return code


def card_short(code: str) -> str:
    if code in _SHORT:
        return _SHORT[code]
    symbol = code[1:] if code[:1] in _COLOUR else code
    return _SHORT.get(symbol, symbol)


def colour_name(letter) -> str:
    return str(_COLOUR[letter]) if letter in _COLOUR else str(letter or "")


def cards_list(codes) -> str:
    return join_list(card_name(c) for c in codes)


def hand_list(codes) -> str:
    return ", ".join(card_name(c) for c in codes)


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------

def _match_started(e, names):
    options = e.get("options") or {}
    target = as_int(options.get("target"), 500)
    if options.get("variant") == "own_hand":
        first = npgettext("livol", "The match begins: it ends when someone reaches %(target)d point, "
                                   "and the fewest points win",
                          "The match begins: it ends when someone reaches %(target)d points, "
                          "and the fewest points win", target) % {"target": target}
    else:
        first = npgettext("livol", "The match begins: the first to %(target)d point wins",
                          "The match begins: the first to %(target)d points wins", target) % {"target": target}
    extra = as_int(options.get("challenge_extra_penalty"))
    penalty = npgettext("livol", "A failed challenge costs %(count)d extra card",
                        "A failed challenge costs %(count)d extra cards", extra) % {"count": extra} if extra else None
    return sentences(first, penalty)


def _round_dealt(e, names):
    first = pgettext("livol", "Round %(round)d: %(player)s deals") % {
        "round": as_int(e.get("round")), "player": name_of(names, e.get("dealer"))}
    hand = pgettext("livol", "Your cards: %(cards)s") % {"cards": hand_list(e["hand"])} if e.get("hand") else None
    return sentences(first, hand)


def _starter_reshuffled(e, names):
    return pgettext("livol", "The first card turned was a Wild Draw Four: it went back and the draw pile "
                             "was reshuffled")


def _starter_turned(e, names):
    return pgettext("livol", "The first card is %(card)s") % {"card": card_name(e.get("card", ""))}


def _direction_reversed(e, names):
    return pgettext("livol", "The direction of play reverses")


def _color_named(e, names):
    return pgettext("livol", "%(player)s named %(colour)s") % {
        "player": name_of(names, e.get("seat")), "colour": colour_name(e.get("color"))}


def _card_played(e, names):
    args = {"player": name_of(names, e.get("seat")), "card": card_name(e.get("card", "")),
            "colour": colour_name(e.get("color"))}
    coloured = bool(e.get("color"))
    if e.get("final"):
        if coloured:
            return pgettext("livol", "%(player)s played %(card)s, named %(colour)s and went out") % args
        return pgettext("livol", "%(player)s played %(card)s and went out") % args
    if e.get("call"):
        if coloured:
            return pgettext("livol", "%(player)s played %(card)s, named %(colour)s and called LIVOL!") % args
        return pgettext("livol", "%(player)s played %(card)s and called LIVOL!") % args
    if coloured:
        return pgettext("livol", "%(player)s played %(card)s and named %(colour)s") % args
    return pgettext("livol", "%(player)s played %(card)s") % args


def _drawn_cards(reason, args):
    if reason == "plus_two":
        return pgettext("livol", "%(player)s drew %(cards)s (Draw Two)") % args
    if reason == "wild_draw_four":
        return pgettext("livol", "%(player)s drew %(cards)s (Wild Draw Four)") % args
    if reason == "challenge":
        return pgettext("livol", "%(player)s drew %(cards)s (challenge)") % args
    if reason == "catch":
        return pgettext("livol", "%(player)s drew %(cards)s (caught without calling LIVOL!)") % args
    return pgettext("livol", "%(player)s drew %(cards)s") % args


def _drawn_count(reason, n, args):
    if reason == "plus_two":
        return npgettext("livol", "%(player)s drew %(count)d card (Draw Two)",
                         "%(player)s drew %(count)d cards (Draw Two)", n) % args
    if reason == "wild_draw_four":
        return npgettext("livol", "%(player)s drew %(count)d card (Wild Draw Four)",
                         "%(player)s drew %(count)d cards (Wild Draw Four)", n) % args
    if reason == "challenge":
        return npgettext("livol", "%(player)s drew %(count)d card (challenge)",
                         "%(player)s drew %(count)d cards (challenge)", n) % args
    if reason == "catch":
        return npgettext("livol", "%(player)s drew %(count)d card (caught without calling LIVOL!)",
                         "%(player)s drew %(count)d cards (caught without calling LIVOL!)", n) % args
    return npgettext("livol", "%(player)s drew %(count)d card", "%(player)s drew %(count)d cards", n) % args


def _cards_drawn(e, names):
    cards = e.get("cards")
    n = len(cards) if isinstance(cards, list) else as_int(e.get("count"))
    player = name_of(names, e.get("seat"))
    if n == 0:
        return pgettext("livol", "%(player)s could not draw: no cards are left") % {"player": player}
    reason = e.get("reason")
    if isinstance(cards, list):
        return _drawn_cards(reason, {"player": player, "cards": cards_list(cards)})
    return _drawn_count(reason, n, {"player": player, "count": n})


def _pile_reshuffled(e, names):
    n = as_int(e["size"]) if "size" in e else len(e.get("pile") or [])
    return npgettext("livol", "The discards were shuffled into a new draw pile (%(count)d card)",
                     "The discards were shuffled into a new draw pile (%(count)d cards)", n) % {"count": n}


def _livol_called(e, names):
    return pgettext("livol", "%(player)s called LIVOL!") % {"player": name_of(names, e.get("seat"))}


def _seat_caught(e, names):
    return pgettext("livol", "%(player)s caught %(target)s without a LIVOL! call") % {
        "player": name_of(names, e.get("seat")), "target": name_of(names, e.get("target"))}


def _accepted(e, names):
    return pgettext("livol", "%(player)s accepted the Wild Draw Four") % {"player": name_of(names, e.get("seat"))}


def _challenged(e, names):
    args = {"player": name_of(names, e.get("seat")), "target": name_of(names, e.get("target"))}
    if e.get("fair"):
        first = pgettext("livol", "%(player)s challenged the Wild Draw Four of %(target)s: it was fair") % args
    else:
        first = pgettext("livol", "%(player)s challenged the Wild Draw Four of %(target)s: it was a bluff") % args
    shown = None
    if isinstance(e.get("hand"), list):
        shown = pgettext("livol", "Cards of %(player)s: %(cards)s") % {
            "player": args["target"], "cards": hand_list(e["hand"])}
    return sentences(first, shown)


def _own_hand_round(e) -> bool:
    """In the ``own_hand`` variant the winner gains nothing and the others their own hands."""
    gains, winner = e.get("gains") or [], e.get("winner")
    return any(g for s, g in enumerate(gains) if s != winner)


def _round_scored(e, names):
    args = {"round": as_int(e.get("round")), "player": name_of(names, e.get("winner"))}
    if _own_hand_round(e):
        return pgettext("livol", "Round %(round)d to %(player)s: the others score the cards left in "
                                 "their hands") % args
    gains, winner = e.get("gains") or [], e.get("winner")
    args["points"] = gains[winner] if isinstance(winner, int) and 0 <= winner < len(gains) else 0
    return pgettext("livol", "Round %(round)d to %(player)s: +%(points)d") % args


WORDS = {
    "match_started": _match_started,
    "round_dealt": _round_dealt,
    "starter_reshuffled": _starter_reshuffled,
    "starter_turned": _starter_turned,
    "direction_reversed": _direction_reversed,
    "color_named": _color_named,
    "card_played": _card_played,
    "cards_drawn": _cards_drawn,
    "pile_reshuffled": _pile_reshuffled,
    "livol_called": _livol_called,
    "seat_caught": _seat_caught,
    "wild_draw_four_accepted": _accepted,
    "challenged": _challenged,
    "round_scored": _round_scored,
    "match_ended": match_winners_with_points,
}


# --------------------------------------------------------------------------
# The round's score table
# --------------------------------------------------------------------------

def round_summary(e, names, options=None):
    if e.get("type") != "round_scored":
        return None
    winner = e.get("winner")
    gains, scores, points = e.get("gains") or [], e.get("scores") or [], e.get("points") or []
    rows = []
    for s in range(len(scores)):
        left = points[s] if s < len(points) else 0
        note = npgettext("livol", "%(points)d point in hand", "%(points)d points in hand", left) % {
            "points": left} if s != winner else ""
        rows.append(row(seats=[s], name=name_of(names, s), gain=gains[s] if s < len(gains) else 0,
                        total=scores[s], note=note, highlight=s == winner))
    return summary(game=GAME, event=e, round_no=e.get("round"), headline=_round_scored(e, names), rows=rows,
                   target=target_of(options))


# --------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------

def _play_move(m, names):
    args = {"card": card_name(str(m.get("card", ""))), "colour": colour_name(m.get("color"))}
    if m.get("color") and m.get("call"):
        return pgettext("livol move", "Play %(card)s, name %(colour)s and call LIVOL!") % args
    if m.get("color"):
        return pgettext("livol move", "Play %(card)s, name %(colour)s") % args
    if m.get("call"):
        return pgettext("livol move", "Play %(card)s and call LIVOL!") % args
    return pgettext("livol move", "Play %(card)s") % args


MOVES = {
    "play": _play_move,
    "draw": lambda m, names: pgettext("livol move", "Draw"),
    "color": lambda m, names: pgettext("livol move", "Name %(colour)s") % {"colour": colour_name(m.get("color"))},
    "call": lambda m, names: pgettext("livol move", "Call LIVOL!"),
    "catch": lambda m, names: pgettext("livol move", "Catch %(player)s") % {
        "player": name_of(names, m.get("target"))},
    "challenge": lambda m, names: pgettext("livol move", "Challenge"),
    "accept": lambda m, names: pgettext("livol move", "Accept"),
}

# --------------------------------------------------------------------------
# Refused moves
# --------------------------------------------------------------------------

#: A sentence for each refusal code LIVOL raises beyond the shared ones (``games.words.SHARED_REFUSALS``):
#: what a player reads for the engine's ``IllegalMove`` code (UNO FLIP says the codes it shares the same way).
REFUSALS = {
    "card_does_not_match": gettext_lazy("That card does not match the top card or the colour in force."),
    "must_name_color": gettext_lazy("Name the colour for the Wild that starts the round first."),
    "must_respond": gettext_lazy("Accept or challenge the Wild Draw Four first."),
    "must_play_drawn_card": gettext_lazy("You must play the card you drew."),
    "color_required": gettext_lazy("Name a colour for this card."),
    "no_color_to_name": gettext_lazy("There is no colour to name now."),
    "playable_card_held": gettext_lazy("You hold a card you can play, so you may not draw."),
    "cannot_call": gettext_lazy("You may call only when you hold exactly one card and have not called yet."),
    "nothing_to_catch": gettext_lazy("Nobody can be caught now."),
    "nothing_to_accept": gettext_lazy("There is nothing to accept."),
    "nothing_to_challenge": gettext_lazy("There is nothing to challenge."),
}
