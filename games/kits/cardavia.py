"""Cardavia on the site (``games.kits``): its form, move and view schemas, cards, board, deal table and
rules page. The rules: ``engine/cardavia.py``; the words: ``games/words/cardavia.py``; the rules page:
``templates/rules/cardavia.html``.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy
from pydantic import Field

from games.kits import Kit
from games.kits.base import GameOptionsForm, Move, Resign, View, bounds, documented
from games.kits.boards import Row, at, seat_name, seat_rows
from games.words import cardavia as cv_words


# -- The API's move and view schemas ----------------------------------------------------------------
class Keep(Move):
    type: Literal["keep"]


class Ask(Move):
    type: Literal["ask"]


CardaviaMove = Annotated[Keep | Ask | Resign, Field(discriminator="type")]


class CardaviaView(View):
    lives: list[int]
    dealer: int
    resting: list[int]
    round: int
    face_up: list[str | None]
    revealed: list[str | None]
    #: this deal's asks, swaps and refusals as the seat may know them (events: ``CardaviaEventPayload``)
    log: Annotated[list[dict[str, Any]], documented("CardaviaEventPayload", many=True)]
    #: the deal before's, while its end is shown
    last_log: Annotated[list[dict[str, Any]], documented("CardaviaEventPayload", many=True)
                        ] | None = None


# -- The new-match form and the options in words ----------------------------------------------------
class CardaviaOptions(GameOptionsForm):
    """Cardavia's options: the lives."""
    game = "cardavia"
    lives = forms.IntegerField(label=_("Lives"), initial=3, **bounds("cardavia", "lives"))

    def options(self) -> dict[str, Any]:
        return {"lives": self.cleaned_data["lives"]}


def option_words(o: dict[str, Any]) -> list[str]:
    """The lives."""
    return [ngettext("%(n)d life", "%(n)d lives", o["lives"]) % {"n": o["lives"]}]


# -- Cards and the board ----------------------------------------------------------------------------
ORDER = ("FOOL", "OWL", "POT", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
                  "HOUSE", "HORSE", "CAT", "DRAGOON", "CUCKOO")
MATADORS = ("HOUSE", "HORSE", "CAT", "DRAGOON", "CUCKOO")


def card(code: str, side: str = "light") -> dict[str, Any]:
    """A Cardavia card: the Fool, a matador, a low card or a number, with its rank in ``ORDER``."""
    if code == "FOOL":
        kind = "fool"
    elif code in MATADORS:
        kind = "matador"
    elif code in ("OWL", "POT"):
        kind = "low"
    else:
        kind = "number"
    rank = ORDER.index(code) + 1 if code in ORDER else 0
    return {"code": code, "name": cv_words.card_name(code), "kind": kind, "rank": rank,
            "slug": code.lower()}




class DealTable:
    """Cardavia's settlement table, completed by what follows it: every seat of the deal, the
    lives it lost in the deal (a Dragoon's or Cat's chop included) and the lives it has left."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.lives: list[int] = []
        self.reset()

    def reset(self) -> None:
        self.lost: dict[int, int] = {}
        self.settled: dict[str, Any] | None = None
        self.group: Any = None
        self.order: list[int] = []

    def see(self, p: dict[str, Any], group: Any, options: dict[str, Any]) -> None:
        kind = p.get("type")
        if kind == "match_started":
            self.lives = [int(options.get("lives", 3))] * int(p.get("seats") or len(self.names))
        elif kind == "cards_dealt":
            self.order = list(p.get("order") or [])
        elif kind == "life_lost" and isinstance(p.get("seat"), int):
            if 0 <= p["seat"] < len(self.lives):
                self.lives[p["seat"]] = int(p.get("lives", 0))
            self.lost[p["seat"]] = self.lost.get(p["seat"], 0) + 1
        elif kind == "deal_settled":
            self.settled = cv_words.round_summary(p, self.names, options)
            self.group = group
            self.order = [s for s, c in enumerate(p.get("cards") or []) if c] or self.order

    def table(self) -> dict[str, Any] | None:
        if self.settled is None:
            return None
        by_seat = {r["seats"][0]: r for r in self.settled["rows"]}
        seats = list(self.order) + sorted(s for s in self.lost if s not in self.order)
        rows = []
        for s in seats:
            r = dict(by_seat.get(s) or {"seats": [s], "name": seat_name(self.names, s), "note": ""})
            r.update(gain=-self.lost.get(s, 0), total=at(self.lives, s), highlight=bool(self.lost.get(s)))
            rows.append(r)
        return {**self.settled, "rows": rows}




def board(view: dict[str, Any], seat: int | None, legal: list[Row], names: list[str], marks: dict[str, Any],
          hands: Any, turn_seat: int | None) -> dict[str, Any]:
    """Cardavia's board: the seats round the table with their lives, their cards as far as the seat may see
    them and what each did this move (asked, refused, swapped, kept, lost a life), and the seat's own card."""
    n = view.get("seats") or len(names)
    participants = view.get("participants") or []
    resting = view.get("resting") or []
    seats = seat_rows(view, seat, names, turn_seat, marks)
    face_up = view.get("face_up") or []
    revealed = view.get("revealed") or []
    for row in seats:
        s = row["index"]
        lives = at(view.get("lives"), s, 0)
        shown = None
        if hands is not None:
            h = at(hands, s) or []
            shown = card(h[0]) if h else None
        elif view.get("over") and view.get("hands") and s in participants:
            c = at(view.get("hands"), s)
            shown = card(c) if c else None
        elif s in participants and at(face_up, s):
            shown = card(face_up[s])
        elif s == seat and view.get("hand"):
            shown = card(view["hand"][0])
        row.update(lives=lives, hearts=range(lives), out=lives == 0, resting=s in resting,
                   playing=s in participants, card=shown, face_up=bool(at(face_up, s)),
                   back=shown is None and s in participants and not view.get("over"),
                   revealed=card(revealed[s]) if at(revealed, s) else None,
                   tags=marks["seats"].get(s, []), angle=(s - (seat if seat is not None else 0)) % max(n, 1))
    me = None
    if seat is not None:
        me = {"card": card(view["hand"][0]) if view.get("hand") else None,
              "resting": seat in resting, "out": at(view.get("lives"), seat, 1) == 0,
              "dealer": seat == view.get("dealer")}
    return {
        "seats": seats, "n": n, "me": me, "moves": legal, "round": view.get("round"),
        "stock_size": view.get("stock_size"), "set_aside": [card(c) for c in view.get("set_aside") or []],
        "resting": [seat_name(names, s) for s in resting],
        "order": [card(c) for c in ORDER],
    }


def mark(marks: dict[str, Any], kind: str, p: dict[str, Any]) -> None:
    """What each seat did in the move: asked, refused, swapped, kept, lost a life."""
    who, tags = p.get("seat"), marks["seats"]
    if kind == "swap_asked":
        tags.setdefault(who, []).append("asked")
    elif kind == "swap_refused":
        tags.setdefault(who, []).append("refused")
    elif kind == "cards_swapped":
        tags.setdefault(who, []).append("swapped")
        tags.setdefault(p.get("target"), []).append("swapped")
    elif kind in ("stock_drawn", "stock_exchanged"):
        tags.setdefault(who, []).append("swapped")
    elif kind == "card_kept":
        tags.setdefault(who, []).append("kept")
    elif kind == "life_lost":
        tags.setdefault(who, []).append("lost")


def rule_extras() -> dict[str, Any]:
    """The rules page draws the cards in their order, lowest first."""
    return {"order": [card(c) for c in ORDER]}


KIT = Kit(
    game="cardavia",
    label=pgettext_lazy("game", "Cardavia"),
    tagline=_("Keep your card or swap it: the lowest card loses a life."),
    default_seats=4,
    form=CardaviaOptions,
    moves=CardaviaMove,
    view=CardaviaView,
    words=cv_words,
    option_words=option_words,
    card=card,
    board=board,
    round_starts=frozenset({"cards_dealt", "deal_skipped"}),
    rulebook_languages=("uk",),
    rule_examples={"fool": "FOOL", "owl": "OWL", "pot": "POT", "n0": "0", "n5": "5", "n12": "12",
                   "house": "HOUSE", "horse": "HORSE", "cat": "CAT", "dragoon": "DRAGOON", "cuckoo": "CUCKOO"},
    rule_extras=rule_extras,
    mark=mark,
    deal_table=DealTable,
)
