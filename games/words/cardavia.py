"""Cardavia in words: card names, event sentences, move labels, settlement tables.

Card codes (rules C1): ``FOOL OWL POT 0 1 … 12 HOUSE HORSE CAT DRAGOON CUCKOO``,
lowest to highest. Numbers are shown as the Roman numerals the cards carry
("12" → "XII"; "0" stays "0"); the named cards are translated. A matador's
refusal has one full pattern per matador ("janis refused with the Dragoon"),
so translators never glue a card name to an article.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import npgettext, pgettext, pgettext_lazy

from games.words.common import (
    as_int,
    first_place,
    match_winners,
    name_of,
    names_list,
    row,
    sentences,
    summary,
)

GAME = "cardavia"

#: ``turn_passed`` only says whose turn it is, which the board shows.
SILENT = frozenset({"turn_passed"})

_NAMED = {
    "FOOL": pgettext_lazy("cardavia card", "Fool"),
    "OWL": pgettext_lazy("cardavia card", "Owl"),
    "POT": pgettext_lazy("cardavia card", "Pot"),
    "HOUSE": pgettext_lazy("cardavia card", "House"),
    "HORSE": pgettext_lazy("cardavia card", "Horse"),
    "CAT": pgettext_lazy("cardavia card", "Cat"),
    "DRAGOON": pgettext_lazy("cardavia card", "Dragoon"),
    "CUCKOO": pgettext_lazy("cardavia card", "Cuckoo"),
}
ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


def card_name(code: str) -> str:
    if code in _NAMED:
        return str(_NAMED[code])
    if code.isdigit() and int(code) < len(ROMAN):
        return ROMAN[int(code)]
    return code


def card_short(code: str) -> str:
    return card_name(code)


def colour_name(letter) -> str:
    """Cardavia's cards have no colours."""
    return str(letter or "")


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------

def _match_started(e, names):
    lives = as_int((e.get("options") or {}).get("lives"), 3)
    return npgettext("cardavia", "The match begins: everyone has %(count)d life",
                     "The match begins: everyone has %(count)d lives", lives) % {"count": lives}


def _resting(resting, names) -> str | None:
    if not resting:
        return None
    return npgettext("cardavia", "%(players)s rests this round", "%(players)s rest this round", len(resting)) % {
        "players": names_list(names, resting)}


def _cards_dealt(e, names):
    first = pgettext("cardavia", "Round %(round)d: %(player)s deals") % {
        "round": as_int(e.get("round")), "player": name_of(names, e.get("dealer"))}
    mine = pgettext("cardavia", "Your card: %(card)s") % {"card": card_name(e["card"])} if e.get("card") else None
    return sentences(first, _resting(e.get("resting"), names), mine)


def _deal_skipped(e, names):
    return pgettext("cardavia", "Round %(round)d is skipped: fewer than two players could take part") % {
        "round": as_int(e.get("round"))}


def _fool_knocked(e, names):
    return pgettext("cardavia", "%(player)s knocked and showed the Fool") % {"player": name_of(names, e.get("seat"))}


def _card_kept(e, names):
    return pgettext("cardavia", "%(player)s kept the card") % {"player": name_of(names, e.get("seat"))}


def _swap_asked(e, names):
    player = name_of(names, e.get("seat"))
    if e.get("target") is None:
        return pgettext("cardavia", "%(player)s asked to exchange with the stock") % {"player": player}
    return pgettext("cardavia", "%(player)s asked %(target)s to swap") % {
        "player": player, "target": name_of(names, e.get("target"))}


def _swap_refused(e, names):
    args = {"player": name_of(names, e.get("seat")), "asker": name_of(names, e.get("asker"))}
    card = e.get("card")
    if card == "HORSE":
        return pgettext("cardavia", "%(player)s refused with the Horse: the request goes on") % args
    if card == "HOUSE":
        return pgettext("cardavia", "%(player)s refused with the House: the request goes on") % args
    if card == "DRAGOON":
        return pgettext("cardavia", "%(player)s refused with the Dragoon") % args
    if card == "CAT":
        return pgettext("cardavia", "%(player)s refused with the Cat") % args
    if card == "CUCKOO":
        return pgettext("cardavia", "%(player)s showed the Cuckoo: the deal stops") % args
    return pgettext("cardavia", "%(player)s refused to swap") % args


def _cards_swapped(e, names):
    args = {"player": name_of(names, e.get("seat")), "target": name_of(names, e.get("target"))}
    if e.get("gave") and e.get("got"):
        return pgettext("cardavia", "%(player)s swapped cards with %(target)s: %(player)s gave %(gave)s "
                                    "and got %(got)s") % {
            **args, "gave": card_name(e["gave"]), "got": card_name(e["got"])}
    return pgettext("cardavia", "%(player)s swapped cards with %(target)s") % args


def _stock_drawn(e, names):
    args = {"player": name_of(names, e.get("seat"))}
    card = e.get("card")
    if card == "HORSE":
        return pgettext("cardavia", "%(player)s drew the Horse from the stock: it is set aside") % args
    if card == "HOUSE":
        return pgettext("cardavia", "%(player)s drew the House from the stock: it is set aside") % args
    if card == "DRAGOON":
        return pgettext("cardavia", "%(player)s drew the Dragoon from the stock") % args
    if card == "CAT":
        return pgettext("cardavia", "%(player)s drew the Cat from the stock") % args
    if card == "CUCKOO":
        return pgettext("cardavia", "%(player)s drew the Cuckoo from the stock: the deal stops") % args
    return pgettext("cardavia", "%(player)s drew %(card)s from the stock") % {**args, "card": card_name(card or "")}


def _stock_exchanged(e, names):
    player = name_of(names, e.get("seat"))
    if e.get("gave") and e.get("got"):
        return pgettext("cardavia", "%(player)s exchanged %(gave)s for %(got)s from the stock") % {
            "player": player, "gave": card_name(e["gave"]), "got": card_name(e["got"])}
    return pgettext("cardavia", "%(player)s exchanged a card with the stock") % {"player": player}


def _life_lost(e, names):
    lives = as_int(e.get("lives"))
    args = {"player": name_of(names, e.get("seat")), "count": lives}
    card = e.get("card")
    if card == "DRAGOON":
        if lives <= 0:
            return pgettext("cardavia", "%(player)s lost the last life to the Dragoon") % args
        return npgettext("cardavia", "%(player)s lost a life to the Dragoon: %(count)d left",
                         "%(player)s lost a life to the Dragoon: %(count)d left", lives) % args
    if card == "CAT":
        if lives <= 0:
            return pgettext("cardavia", "%(player)s lost the last life to the Cat") % args
        return npgettext("cardavia", "%(player)s lost a life to the Cat: %(count)d left",
                         "%(player)s lost a life to the Cat: %(count)d left", lives) % args
    if lives <= 0:
        return pgettext("cardavia", "%(player)s lost the last life") % args
    return npgettext("cardavia", "%(player)s lost a life: %(count)d left",
                     "%(player)s lost a life: %(count)d left", lives) % args


def _seat_eliminated(e, names):
    return pgettext("cardavia", "%(player)s is out") % {"player": name_of(names, e.get("seat"))}


def _swaps_undone(e, names):
    n = len(e.get("swaps") or [])
    return npgettext("cardavia", "The Cat undid %(count)d swap: every card went back",
                     "The Cat undid %(count)d swaps: every card went back", n) % {"count": n}


def _shown(cards, names) -> str:
    return ", ".join(pgettext("cardavia", "%(player)s (%(card)s)") % {"player": name_of(names, s), "card": card_name(c)}
                     for s, c in enumerate(cards or []) if c)


def _deal_settled(e, names):
    first = pgettext("cardavia", "Round %(round)d is settled: %(cards)s") % {
        "round": as_int(e.get("round")), "cards": _shown(e.get("cards"), names)}
    rest = e.get("rest") or []
    resting = npgettext("cardavia", "%(players)s rests next round", "%(players)s rest next round", len(rest)) % {
        "players": names_list(names, rest)} if rest else None
    return sentences(first, resting)


def _deal_ended(e, names):
    return pgettext("cardavia", "Round %(round)d ends without a settlement: one player is left") % {
        "round": as_int(e.get("round"))}


def _match_ended(e, names):
    first = first_place(e.get("ranking"))
    scores = e.get("scores") or []
    if len(first) == 1 and 0 <= first[0] < len(scores):
        lives = as_int(scores[first[0]])
        return npgettext("cardavia", "The match is over: %(player)s wins with %(count)d life left",
                         "The match is over: %(player)s wins with %(count)d lives left", lives) % {
            "player": name_of(names, first[0]), "count": lives}
    return match_winners(e, names)


WORDS = {
    "match_started": _match_started,
    "cards_dealt": _cards_dealt,
    "deal_skipped": _deal_skipped,
    "fool_knocked": _fool_knocked,
    "card_kept": _card_kept,
    "swap_asked": _swap_asked,
    "swap_refused": _swap_refused,
    "cards_swapped": _cards_swapped,
    "stock_drawn": _stock_drawn,
    "stock_exchanged": _stock_exchanged,
    "life_lost": _life_lost,
    "seat_eliminated": _seat_eliminated,
    "swaps_undone": _swaps_undone,
    "deal_settled": _deal_settled,
    "deal_ended": _deal_ended,
    "match_ended": _match_ended,
}


# --------------------------------------------------------------------------
# Settlement tables
# --------------------------------------------------------------------------

def round_summary(e: dict[str, Any], names: Sequence[str],
                  options: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """``deal_settled``: every participant's card and who pays (the lives left are in the
    ``life_lost`` events that follow, not here: ``total`` is None). ``life_lost``: one row,
    with the lives left."""
    kind = e.get("type")
    lives_header = pgettext("cardavia", "Lives")
    lost_header = pgettext("cardavia", "Lives lost")
    if kind == "deal_settled":
        losers = set(e.get("losers") or [])
        rows = [row(seats=[s], name=name_of(names, s), gain=-1 if s in losers else 0, total=None,
                    note=card_name(c), highlight=s in losers, card=c)
                for s, c in enumerate(e.get("cards") or []) if c]
        n = len(losers)
        headline = npgettext("cardavia", "Round %(round)d: %(players)s loses a life",
                             "Round %(round)d: %(players)s lose a life", n) % {
            "round": as_int(e.get("round")), "players": names_list(names, sorted(losers))}
        return summary(game=GAME, event=e, round_no=e.get("round"), headline=headline, rows=rows, target=None,
                       gain_header=lost_header, total_header=lives_header)
    if kind == "life_lost":
        seat = e.get("seat")
        rows = [row(seats=[seat], name=name_of(names, seat), gain=-1, total=as_int(e.get("lives")), highlight=True)]
        return summary(game=GAME, event=e, round_no=None, headline=_life_lost(e, names), rows=rows, target=None,
                       gain_header=lost_header, total_header=lives_header)
    return None


# --------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------

MOVES = {
    "keep": lambda m, names: pgettext("cardavia move", "Keep"),
    "ask": lambda m, names: pgettext("cardavia move", "Ask"),
}

#: Cardavia refuses a move only with the shared codes (``games.words.SHARED_REFUSALS``): no sentence of its own.
REFUSALS: dict = {}
