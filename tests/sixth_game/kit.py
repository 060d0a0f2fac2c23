"""Tally on the site (``games.kits``): its name, form, schemas, words, cards and board, in one module (the
five games keep their words apart, in ``games/words/<game>.py``, because they are long; a small game's fit
here). Found through ``settings.GAME_KITS`` (``tests/sixth_game/settings.py``).
"""
from __future__ import annotations

import sys
from typing import Annotated, Literal

from django import forms
from django.utils.translation import gettext, gettext_lazy
from pydantic import Field

from games.kits import Kit
from games.kits.base import Code, GameOptionsForm, Move, Resign, View, bounds
from games.kits.boards import seat_rows
from games.words.common import first_place, name_of, names_list, row, summary


class Play(Move):
    type: Literal["play"]
    card: Code


TallyMove = Annotated[Play | Resign, Field(discriminator="type")]


class TallyView(View):
    scores: list[int]
    hand_sizes: list[int]
    played: list[list]


class TallyOptions(GameOptionsForm):
    """Tally's options: the cards each seat is dealt."""
    game = "tally"
    hand = forms.IntegerField(label=gettext_lazy("Cards each"), initial=10, **bounds("tally", "hand"))

    def options(self) -> dict:
        return {"hand": self.cleaned_data["hand"]}


# -- Words (``games.words``' interface) ------------------------------------------------------------------------
SILENT: frozenset = frozenset()


def card_name(code: str) -> str:
    return str(code)


def card_short(code: str) -> str:
    return str(code)


def colour_name(letter) -> str:
    return str(letter or "")


WORDS = {
    "match_started": lambda e, names: gettext("The match starts: %(n)d cards each.") % {
        "n": (e.get("options") or {}).get("hand", 0)},
    "cards_dealt": lambda e, names: gettext("%(player)s is dealt %(cards)s.") % {
        "player": name_of(names, e.get("seat")), "cards": ", ".join(e["cards"])} if "cards" in e else
    gettext("%(player)s is dealt their cards.") % {"player": name_of(names, e.get("seat"))},
    "card_played": lambda e, names: gettext("%(player)s plays %(card)s.") % {
        "player": name_of(names, e.get("seat")), "card": e.get("card")},
    "match_ended": lambda e, names: gettext("The match is over: %(players)s first.") % {
        "players": names_list(names, first_place(e.get("ranking")))},
}
MOVES = {"play": lambda m, names: gettext("Play %(card)s") % {"card": m.get("card")}}


def round_summary(e, names, options=None):
    if e.get("type") != "match_ended":
        return None
    scores, first = e.get("scores") or [], set(first_place(e.get("ranking")))
    return summary(game="tally", event=e, round_no=None, headline=WORDS["match_ended"](e, names), target=None,
                   rows=[row(seats=[s], name=name_of(names, s), total=scores[s], highlight=s in first)
                         for s in range(len(scores))], gain_header="", total_header=gettext("Points"))


def option_words(o: dict) -> list[str]:
    return [gettext("%(n)d cards each") % {"n": o["hand"]}]


# -- Cards and the board ---------------------------------------------------------------------------------------
def card(code: str, side: str = "light") -> dict:
    return {"code": code, "name": card_name(code), "short": card_short(code)}


def board(view, seat, legal, names, marks, hands, turn_seat) -> dict:
    rows = seat_rows(view, seat, names, turn_seat, marks)
    for r in rows:
        r.update(score=view["scores"][r["index"]], count=view["hand_sizes"][r["index"]])
    return {"seats": rows, "hand": [card(c) for c in view.get("hand") or []],
            "plays": [dict(e, card=card(e["move"]["card"])) for e in legal if e["type"] == "play"],
            "played": [{"name": names[s], "card": card(c)} for s, c in view.get("played") or []]}


def mark(marks: dict, kind: str, p: dict) -> None:
    if kind == "card_played":
        marks["card"], marks["seat"] = p.get("card"), p.get("seat")


KIT = Kit(
    game="tally",
    label=gettext_lazy("Tally"),
    tagline=gettext_lazy("Play your cards one by one: the highest total wins."),
    default_seats=2,
    form=TallyOptions,
    moves=TallyMove,
    view=TallyView,
    words=sys.modules[__name__],
    option_words=option_words,
    card=card,
    board=board,
    round_starts=frozenset({"match_started"}),
    rulebook_languages=("en",),
    rule_examples={"nine": "9"},
    mark=mark,
    probe=lambda code: {"type": "play", "card": code},
    one_deal=True,
    static_files=False,  # no stylesheet or script of its own: the pages' own do
)
