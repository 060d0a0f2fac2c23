"""UNO FLIP in words: card names, event sentences, move labels, the round's score table.

Face codes (rules F1–F4): light ``R7`` ``R+1`` ``Rrev`` ``Rskip`` ``Rflip`` ``W``
``W+2`` (colours R Y G B); dark ``P7`` ``P+5`` ``Prev`` ``Pskipall`` ``Pflip``
``DW`` ``DW+C`` (colours P T O V: pink, teal, orange, purple). A physical card
is ``light/dark`` and is named "Red 7 / Pink Draw Five". The dark Wild is
"Wild (dark)", so that every face has its own name.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.words import livol
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

GAME = "uno_flip"

#: Every UNO FLIP event says something a player may want to read.
SILENT: frozenset = frozenset()

HAND_SIZE = 7

_NUMBER = {
    "R": pgettext_lazy("UNO FLIP card", "Red %(number)s"),
    "Y": pgettext_lazy("UNO FLIP card", "Yellow %(number)s"),
    "G": pgettext_lazy("UNO FLIP card", "Green %(number)s"),
    "B": pgettext_lazy("UNO FLIP card", "Blue %(number)s"),
    "P": pgettext_lazy("UNO FLIP card", "Pink %(number)s"),
    "T": pgettext_lazy("UNO FLIP card", "Teal %(number)s"),
    "O": pgettext_lazy("UNO FLIP card", "Orange %(number)s"),
    "V": pgettext_lazy("UNO FLIP card", "Purple %(number)s"),
}
_ACTION = {
    # light side
    "R+1": pgettext_lazy("UNO FLIP card", "Red Draw One"),
    "Rrev": pgettext_lazy("UNO FLIP card", "Red Reverse"),
    "Rskip": pgettext_lazy("UNO FLIP card", "Red Skip"),
    "Rflip": pgettext_lazy("UNO FLIP card", "Red Flip"),
    "Y+1": pgettext_lazy("UNO FLIP card", "Yellow Draw One"),
    "Yrev": pgettext_lazy("UNO FLIP card", "Yellow Reverse"),
    "Yskip": pgettext_lazy("UNO FLIP card", "Yellow Skip"),
    "Yflip": pgettext_lazy("UNO FLIP card", "Yellow Flip"),
    "G+1": pgettext_lazy("UNO FLIP card", "Green Draw One"),
    "Grev": pgettext_lazy("UNO FLIP card", "Green Reverse"),
    "Gskip": pgettext_lazy("UNO FLIP card", "Green Skip"),
    "Gflip": pgettext_lazy("UNO FLIP card", "Green Flip"),
    "B+1": pgettext_lazy("UNO FLIP card", "Blue Draw One"),
    "Brev": pgettext_lazy("UNO FLIP card", "Blue Reverse"),
    "Bskip": pgettext_lazy("UNO FLIP card", "Blue Skip"),
    "Bflip": pgettext_lazy("UNO FLIP card", "Blue Flip"),
    "W": pgettext_lazy("UNO FLIP card", "Wild"),
    "W+2": pgettext_lazy("UNO FLIP card", "Wild Draw Two"),
    # dark side
    "P+5": pgettext_lazy("UNO FLIP card", "Pink Draw Five"),
    "Prev": pgettext_lazy("UNO FLIP card", "Pink Reverse"),
    "Pskipall": pgettext_lazy("UNO FLIP card", "Pink Skip Everyone"),
    "Pflip": pgettext_lazy("UNO FLIP card", "Pink Flip"),
    "T+5": pgettext_lazy("UNO FLIP card", "Teal Draw Five"),
    "Trev": pgettext_lazy("UNO FLIP card", "Teal Reverse"),
    "Tskipall": pgettext_lazy("UNO FLIP card", "Teal Skip Everyone"),
    "Tflip": pgettext_lazy("UNO FLIP card", "Teal Flip"),
    "O+5": pgettext_lazy("UNO FLIP card", "Orange Draw Five"),
    "Orev": pgettext_lazy("UNO FLIP card", "Orange Reverse"),
    "Oskipall": pgettext_lazy("UNO FLIP card", "Orange Skip Everyone"),
    "Oflip": pgettext_lazy("UNO FLIP card", "Orange Flip"),
    "V+5": pgettext_lazy("UNO FLIP card", "Purple Draw Five"),
    "Vrev": pgettext_lazy("UNO FLIP card", "Purple Reverse"),
    "Vskipall": pgettext_lazy("UNO FLIP card", "Purple Skip Everyone"),
    "Vflip": pgettext_lazy("UNO FLIP card", "Purple Flip"),
    "DW": pgettext_lazy("UNO FLIP card", "Wild (dark)"),
    "DW+C": pgettext_lazy("UNO FLIP card", "Wild Draw Color"),
}
_COLOUR = {
    "R": pgettext_lazy("uno_flip colour", "Red"),
    "Y": pgettext_lazy("uno_flip colour", "Yellow"),
    "G": pgettext_lazy("uno_flip colour", "Green"),
    "B": pgettext_lazy("uno_flip colour", "Blue"),
    "P": pgettext_lazy("uno_flip colour", "Pink"),
    "T": pgettext_lazy("uno_flip colour", "Teal"),
    "O": pgettext_lazy("uno_flip colour", "Orange"),
    "V": pgettext_lazy("uno_flip colour", "Purple"),
}
_SHORT = {"+1": "+1", "+5": "+5", "rev": "⇄", "skip": "⊘", "skipall": "⊘⊘", "flip": "⇅",
          "W": "★", "W+2": "+2", "DW": "★", "DW+C": "+★"}


def card_name(code: str) -> str:
    """A face ("Pskipall" → "Pink Skip Everyone") or a physical card ("R7/P+5" → "Red 7 / Pink Draw Five")."""
    if "/" in code:
        light, _, dark = code.partition("/")
        return pgettext("UNO FLIP card", "%(light)s / %(dark)s") % {"light": card_name(light), "dark": card_name(dark)}
    if code in _ACTION:
        return str(_ACTION[code])
    if len(code) == 2 and code[0] in _NUMBER and code[1].isdigit():
        return str(_NUMBER[code[0]]) % {"number": code[1]}
    return code


def card_short(code: str) -> str:
    if "/" in code:
        light, _, dark = code.partition("/")
        return f"{card_short(light)}/{card_short(dark)}"
    if code in _SHORT:
        return _SHORT[code]
    symbol = code[1:] if code[:1] in _COLOUR else code
    return _SHORT.get(symbol, symbol)


def colour_name(letter) -> str:
    return str(_COLOUR[letter]) if letter in _COLOUR else str(letter or "")


def face_on(card: str, side: str) -> str:
    """The face of a physical card that is up on ``side`` ("light" | "dark")."""
    if "/" not in card:
        return card
    light, _, dark = card.partition("/")
    return dark if side == "dark" else light


def active_face(card: str, back: str | None) -> str:
    """The face of a physical card that is not ``back`` (the face everyone else sees)."""
    if "/" not in card:
        return card
    light, _, dark = card.partition("/")
    return light if back == dark else dark if back == light else card


def _list(codes) -> str:
    return join_list(card_name(c) for c in codes)


def _hand(codes) -> str:
    return ", ".join(card_name(c) for c in codes)


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------

def _match_started(e, names):
    target = as_int((e.get("options") or {}).get("target"), 500)
    return npgettext("uno_flip", "The match begins: the first to %(target)d point wins",
                     "The match begins: the first to %(target)d points wins", target) % {"target": target}


def _starter_of_deal(e) -> str | None:
    if "starter" in e:
        return e["starter"]
    deck, seats = e.get("deck"), e.get("seats")
    if isinstance(deck, list) and isinstance(seats, int) and len(deck) > seats * HAND_SIZE:
        return deck[seats * HAND_SIZE]
    return None


def _round_dealt(e, names):
    first = pgettext("uno_flip", "Round %(round)d: %(player)s deals") % {
        "round": as_int(e.get("round")), "player": name_of(names, e.get("dealer"))}
    starter = _starter_of_deal(e)
    turned = pgettext("uno_flip", "The first card is %(card)s") % {
        "card": card_name(face_on(starter, "light"))} if starter else None
    hand = pgettext("uno_flip", "Your cards: %(cards)s") % {
        "cards": _hand(face_on(c, "light") for c in e["hand"])} if e.get("hand") else None
    return sentences(first, turned, hand)


def _starter_reshuffled(e, names):
    card = e.get("card")
    starter = e.get("starter") or (e.get("pile") or [None])[0]
    first = pgettext("uno_flip", "%(card)s cannot start a round: it went back and the draw pile was "
                                 "reshuffled") % {"card": card_name(face_on(card, "light"))} if card else None
    turned = pgettext("uno_flip", "The first card is %(card)s") % {
        "card": card_name(face_on(starter, "light"))} if starter else None
    return sentences(first, turned)


def _color_named(e, names):
    return pgettext("uno_flip", "%(player)s named %(colour)s") % {
        "player": name_of(names, e.get("seat")), "colour": colour_name(e.get("color"))}


def _card_played(e, names):
    face = e.get("face") or e.get("card", "")
    args = {"player": name_of(names, e.get("seat")), "card": card_name(face), "colour": colour_name(e.get("color"))}
    if e.get("color") and e.get("call"):
        return pgettext("uno_flip", "%(player)s played %(card)s, named %(colour)s and called UNO!") % args
    if e.get("color"):
        return pgettext("uno_flip", "%(player)s played %(card)s and named %(colour)s") % args
    if e.get("call"):
        return pgettext("uno_flip", "%(player)s played %(card)s and called UNO!") % args
    return pgettext("uno_flip", "%(player)s played %(card)s") % args


def _direction_reversed(e, names):
    if e.get("direction") == -1:
        return pgettext("uno_flip", "Play now goes counterclockwise")
    if e.get("direction") == 1:
        return pgettext("uno_flip", "Play now goes clockwise")
    return pgettext("uno_flip", "The direction of play reverses")


def _turn_skipped(e, names):
    return pgettext("uno_flip", "%(player)s is skipped") % {"player": name_of(names, e.get("seat"))}


def _everyone_skipped(e, names):
    return pgettext("uno_flip", "Everyone else is skipped: %(player)s plays again") % {
        "player": name_of(names, e.get("seat"))}


def _table_flipped(e, names):
    args = {"card": card_name(e.get("top", "")), "colour": colour_name(e.get("color"))}
    wild = e.get("top") in ("W", "W+2", "DW", "DW+C")
    if e.get("side") == "dark":
        if wild:
            return pgettext("uno_flip", "The table flips to the dark side: the top card is %(card)s, "
                                        "the colour is %(colour)s") % args
        return pgettext("uno_flip", "The table flips to the dark side: the top card is %(card)s") % args
    if wild:
        return pgettext("uno_flip", "The table flips to the light side: the top card is %(card)s, "
                                    "the colour is %(colour)s") % args
    return pgettext("uno_flip", "The table flips to the light side: the top card is %(card)s") % args


def _card_drawn(e, names):
    player = name_of(names, e.get("seat"))
    if e.get("card"):
        return pgettext("uno_flip", "%(player)s drew %(card)s") % {
            "player": player, "card": card_name(active_face(e["card"], e.get("back")))}
    if e.get("back"):
        return pgettext("uno_flip", "%(player)s drew a card (back: %(back)s)") % {
            "player": player, "back": card_name(e["back"])}
    return pgettext("uno_flip", "%(player)s drew a card") % {"player": player}


def _drawn_cards(cause, args):
    if cause == "draw_one":
        return pgettext("uno_flip", "%(player)s drew %(cards)s (Draw One)") % args
    if cause == "draw_five":
        return pgettext("uno_flip", "%(player)s drew %(cards)s (Draw Five)") % args
    if cause == "wild_draw_two":
        return pgettext("uno_flip", "%(player)s drew %(cards)s (Wild Draw Two)") % args
    if cause == "wild_draw_color":
        return pgettext("uno_flip", "%(player)s drew %(cards)s (Wild Draw Color)") % args
    if cause == "challenge":
        return pgettext("uno_flip", "%(player)s drew %(cards)s (challenge)") % args
    if cause == "caught":
        return pgettext("uno_flip", "%(player)s drew %(cards)s (caught without calling UNO!)") % args
    return pgettext("uno_flip", "%(player)s drew %(cards)s") % args


def _drawn_count(cause, n, args):
    if cause == "draw_one":
        return npgettext("uno_flip", "%(player)s drew %(count)d card (Draw One)",
                         "%(player)s drew %(count)d cards (Draw One)", n) % args
    if cause == "draw_five":
        return npgettext("uno_flip", "%(player)s drew %(count)d card (Draw Five)",
                         "%(player)s drew %(count)d cards (Draw Five)", n) % args
    if cause == "wild_draw_two":
        return npgettext("uno_flip", "%(player)s drew %(count)d card (Wild Draw Two)",
                         "%(player)s drew %(count)d cards (Wild Draw Two)", n) % args
    if cause == "wild_draw_color":
        return npgettext("uno_flip", "%(player)s drew %(count)d card (Wild Draw Color)",
                         "%(player)s drew %(count)d cards (Wild Draw Color)", n) % args
    if cause == "challenge":
        return npgettext("uno_flip", "%(player)s drew %(count)d card (challenge)",
                         "%(player)s drew %(count)d cards (challenge)", n) % args
    if cause == "caught":
        return npgettext("uno_flip", "%(player)s drew %(count)d card (caught without calling UNO!)",
                         "%(player)s drew %(count)d cards (caught without calling UNO!)", n) % args
    return npgettext("uno_flip", "%(player)s drew %(count)d card", "%(player)s drew %(count)d cards", n) % args


def _cards_drawn(e, names):
    player = name_of(names, e.get("seat"))
    cards, backs, cause = e.get("cards"), e.get("backs") or [], e.get("cause")
    if isinstance(cards, list):
        faces = [active_face(c, backs[i] if i < len(backs) else None) for i, c in enumerate(cards)]
        return _drawn_cards(cause, {"player": player, "cards": _list(faces)})
    n = as_int(e.get("count"), len(backs))
    return _drawn_count(cause, n, {"player": player, "count": n})


def _discards_reshuffled(e, names):
    n = as_int(e["count"]) if "count" in e else len(e.get("pile") or [])
    return npgettext("uno_flip", "The discards were shuffled into a new draw pile (%(count)d card)",
                     "The discards were shuffled into a new draw pile (%(count)d cards)", n) % {"count": n}


def _turn_passed(e, names):
    return pgettext("uno_flip", "%(player)s passed") % {"player": name_of(names, e.get("seat"))}


def _challenged(e, names):
    args = {"player": name_of(names, e.get("seat")), "target": name_of(names, e.get("target"))}
    if e.get("guilty"):
        first = pgettext("uno_flip", "%(player)s challenged the wild draw of %(target)s: it was a bluff") % args
    else:
        first = pgettext("uno_flip", "%(player)s challenged the wild draw of %(target)s: it was fair") % args
    shown = None
    if isinstance(e.get("hand"), list):
        shown = pgettext("uno_flip", "Cards of %(player)s: %(cards)s") % {
            "player": args["target"], "cards": _hand(e["hand"])}
    return sentences(first, shown)


def _accepted(e, names):
    return pgettext("uno_flip", "%(player)s did not challenge the wild draw of %(target)s") % {
        "player": name_of(names, e.get("seat")), "target": name_of(names, e.get("target"))}


def _uno_called(e, names):
    return pgettext("uno_flip", "%(player)s called UNO!") % {"player": name_of(names, e.get("seat"))}


def _uno_caught(e, names):
    return pgettext("uno_flip", "%(player)s caught %(target)s without an UNO! call") % {
        "player": name_of(names, e.get("seat")), "target": name_of(names, e.get("target"))}


def _round_scored(e, names):
    return pgettext("uno_flip", "Round %(round)d to %(player)s: +%(points)d") % {
        "round": as_int(e.get("round")), "player": name_of(names, e.get("seat")), "points": as_int(e.get("gained"))}


def _match_ended(e, names):
    limit = None
    if e.get("reason") == "event_limit":
        limit = pgettext("uno_flip", "The match stopped at the limit of moves")
    return sentences(limit, match_winners_with_points(e, names))


WORDS = {
    "match_started": _match_started,
    "round_dealt": _round_dealt,
    "starter_reshuffled": _starter_reshuffled,
    "color_named": _color_named,
    "card_played": _card_played,
    "direction_reversed": _direction_reversed,
    "turn_skipped": _turn_skipped,
    "everyone_skipped": _everyone_skipped,
    "table_flipped": _table_flipped,
    "card_drawn": _card_drawn,
    "cards_drawn": _cards_drawn,
    "discards_reshuffled": _discards_reshuffled,
    "turn_passed": _turn_passed,
    "challenged": _challenged,
    "accepted": _accepted,
    "uno_called": _uno_called,
    "uno_caught": _uno_caught,
    "round_scored": _round_scored,
    "match_ended": _match_ended,
}


# --------------------------------------------------------------------------
# The round's score table
# --------------------------------------------------------------------------

def round_summary(e, names, options=None):
    if e.get("type") != "round_scored":
        return None
    winner = e.get("seat")
    scores, points = e.get("scores") or [], e.get("points") or []
    rows = []
    for s in range(len(scores)):
        left = points[s] if s < len(points) else 0
        note = npgettext("uno_flip", "%(points)d point in hand", "%(points)d points in hand", left) % {
            "points": left} if s != winner else ""
        rows.append(row(seats=[s], name=name_of(names, s), gain=as_int(e.get("gained")) if s == winner else 0,
                        total=scores[s], note=note, highlight=s == winner))
    return summary(game=GAME, event=e, round_no=e.get("round"), headline=_round_scored(e, names), rows=rows,
                   target=target_of(options))


# --------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------

def _play_move(m, names):
    args = {"card": card_name(str(m.get("card", ""))), "colour": colour_name(m.get("color"))}
    if m.get("color") and m.get("call"):
        return pgettext("uno_flip move", "Play %(card)s, name %(colour)s and call UNO!") % args
    if m.get("color"):
        return pgettext("uno_flip move", "Play %(card)s, name %(colour)s") % args
    if m.get("call"):
        return pgettext("uno_flip move", "Play %(card)s and call UNO!") % args
    return pgettext("uno_flip move", "Play %(card)s") % args


MOVES = {
    "play": _play_move,
    "draw": lambda m, names: pgettext("uno_flip move", "Draw"),
    "pass": lambda m, names: pgettext("uno_flip move", "Pass"),
    "color": lambda m, names: pgettext("uno_flip move", "Name %(colour)s") % {"colour": colour_name(m.get("color"))},
    "call": lambda m, names: pgettext("uno_flip move", "Call UNO!"),
    "catch": lambda m, names: pgettext("uno_flip move", "Catch %(player)s") % {
        "player": name_of(names, m.get("target"))},
    "challenge": lambda m, names: pgettext("uno_flip move", "Challenge"),
    "accept": lambda m, names: pgettext("uno_flip move", "Accept"),
}

# --------------------------------------------------------------------------
# Refused moves
# --------------------------------------------------------------------------

#: A sentence for each refusal code UNO FLIP raises beyond the shared ones (``games.words.SHARED_REFUSALS``):
#: those it shares with LIVOL, whose rules it plays by, in LIVOL's words; its own.
REFUSALS = {
    **{code: livol.REFUSALS[code] for code in ("card_does_not_match", "must_name_color", "color_required",
                                                "no_color_to_name", "cannot_call", "nothing_to_catch",
                                                "nothing_to_challenge")},
    "must_answer_challenge": gettext_lazy("Challenge or accept the wild draw card first."),
    "only_drawn_card": gettext_lazy("After drawing, you may only play the card you drew, or pass."),
    "bad_color": gettext_lazy("That colour does not belong to the side in play."),
    "color_not_allowed": gettext_lazy("This card does not name a colour."),
    "already_drawn": gettext_lazy("You have already drawn: play the card you drew, or pass."),
    "nothing_to_draw": gettext_lazy("There are no cards left to draw."),
    "cannot_pass": gettext_lazy("You cannot pass now: play or draw a card."),
    "ambiguous_card": gettext_lazy("You hold two such cards with different backs: choose which one to play."),
}
