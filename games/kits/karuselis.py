"""Karuselis on the site (``games.kits``): its form, move and view schemas, cards, board and rules page.
The rules: ``engine/karuselis.py``; the words: ``games/words/karuselis.py``; the rules page:
``templates/rules/karuselis.html``.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from ninja import Schema
from pydantic import ConfigDict, Field

from games.kits import Kit
from games.kits.base import Code, GameOptionsForm, Move, Resign, View, bounds
from games.kits.boards import Row, at, seat_name, seat_rows, shown_hands
from games.kits.livol import target_words
from games.words import karuselis as k_words

# -- The API's move and view schemas ------------------------------------------------------------
Group = Annotated[list[Code], Field(min_length=1, max_length=16)]


class Capture(Move):
    type: Literal["capture"]
    card: Code
    groups: Annotated[list[Group], Field(min_length=1, max_length=16)]


class Build(Move):
    type: Literal["build"]
    card: Code
    onto: Annotated[list[Code], Field(min_length=1, max_length=16)]
    value: Annotated[int, Field(ge=1, le=20)]


class Trail(Move):
    type: Literal["trail"]
    card: Code


class Sweep(Move):
    type: Literal["sweep"]
    card: Code


KaruselisMove = Annotated[Capture | Build | Trail | Sweep | Resign, Field(discriminator="type")]


class KaruselisBuild(Schema):
    model_config = ConfigDict(extra="allow")
    id: str
    cards: list[str]
    value: int
    owner: int


class KaruselisTable(Schema):
    model_config = ConfigDict(extra="allow")
    cards: list[str]
    builds: list[KaruselisBuild]


class KaruselisView(View):
    table: KaruselisTable
    pile_sizes: list[int]
    scores: list[int]
    round: int
    dealer: int


# -- The new-match form and the options in words -----------------------------------------------
class KaruselisOptions(GameOptionsForm):
    """Karuselis's options: the deck and the target."""
    game = "karuselis"
    deck = forms.ChoiceField(label=_("Deck"), initial="full", choices=[
        ("full", _("Full: 56 cards, three jokers and the Broom (to 120)")),
        ("no_x20", _("Without the Joker 20 (to 90)")),
        ("no_broom", _("Without the Broom (to 90)")),
        ("small", _("Small: no Joker 20, no Broom (to 60)"))])
    target = forms.IntegerField(label=_("Target points"), required=False, help_text=_("Empty: the deck's target"),
                                **bounds("karuselis", "target"))

    def options(self) -> dict[str, Any]:
        out = {"deck": self.cleaned_data["deck"]}
        if self.cleaned_data.get("target"):
            out["target"] = self.cleaned_data["target"]
        return out


def option_words(o: dict[str, Any]) -> list[str]:
    """The target, then the deck."""
    deck = {"full": gettext("the full deck of 56 cards"),
            "no_x20": gettext("without the Joker 20"),
            "no_broom": gettext("without the Broom"),
            "small": gettext("the small deck (no Joker 20, no Broom)")}
    return [target_words(o["target"]), deck.get(str(o.get("deck")), str(o.get("deck")))]


# -- Cards and the board ------------------------------------------------------------------------
def card(code: str, side: str = "light") -> dict[str, Any]:
    """A Karuselis card: a red or black suit card, a joker (its value, a star) or the Broom."""
    if code == "BR":
        kind, rank, suit = "broom", "", ""
    elif code in k_words.JOKERS:
        kind, rank, suit = "joker", str(k_words.JOKERS[code]), "★"
    else:
        kind = "red" if code[-1:] in ("H", "D") else "black"
        rank = k_words.card_name(code)[:-1]
        suit = k_words.SUITS.get(code[-1:], "")
    return {"code": code, "name": k_words.card_name(code), "short": k_words.card_short(code),
            "kind": kind, "rank": rank, "suit": suit}




def board(view: dict[str, Any], seat: int | None, legal: list[Row], names: list[str], marks: dict[str, Any],
          hands: Any, turn_seat: int | None) -> dict[str, Any]:
    """Karuselis's board: the sides (teams of two at four seats) with their piles, the table's loose cards
    and builds, what was just captured, the hand, and each move with the cards it takes."""
    n = view.get("seats") or len(names)
    open_hands = shown_hands(view, hands)
    seats = seat_rows(view, seat, names, turn_seat, marks)
    for row in seats:
        s = row["index"]
        row.update(count=at(view.get("hand_sizes"), s, 0), pile=at(view.get("pile_sizes"), s, 0),
                   spades=at(view.get("spades"), s, 0), score=at(view.get("scores"), s, 0),
                   last_points=at(view.get("last_points"), s), team=at(view.get("sides"), s) if n == 4 else None,
                   open=[card(c) for c in open_hands[s]] if open_hands and at(open_hands, s) is not None
                   and s != seat else None)
    table = view.get("table") or {}
    loose = [dict(card(c), last=c == marks.get("trailed")) for c in table.get("cards") or []]
    # a build is shown and named by its value and cards (its id stays in the markup, for the moves)
    builds = [{"id": b["id"], "value": b["value"], "owner": seat_name(names, b.get("owner")),
               "mine": b.get("owner") == seat, "cards": [card(c) for c in b.get("cards") or []],
               "card_names": " ".join(k_words.card_name(c) for c in b.get("cards") or []),
               "last": b["id"] == marks.get("build")} for b in table.get("builds") or []]
    by_id = {b["id"]: b for b in builds}
    captured = None
    if marks.get("captured"):
        cap = marks["captured"]
        captured = {"name": seat_name(names, cap["seat"]), "card": card(cap["card"]) if cap.get("card") else None,
                    "cards": [card(c) for c in cap["cards"] if c != cap.get("card")]}
    moves = []
    for e in legal:
        m = e["move"]
        take = [x for g in m.get("groups") or [] for x in g] + list(m.get("onto") or [])
        groups = [[card(x) if x not in by_id else {"build": by_id[x]} for x in g]
                  for g in m.get("groups") or []]
        onto = [card(x) if x not in by_id else {"build": by_id[x]} for x in m.get("onto") or []]
        moves.append(dict(e, card=card(m["card"]) if m.get("card") else None, take=" ".join(take),
                          groups=groups, onto=onto, value=m.get("value")))
    return {
        "seats": seats, "sides": [r for r in seats if n != 4 or r["index"] < 2],
        "partners": n == 4, "loose": loose, "builds": builds, "captured": captured,
        "hand": [card(c) for c in view.get("hand") or []], "moves": moves,
        "round": view.get("round"), "stock_size": view.get("stock_size"), "target": view.get("target"),
        "deck": view.get("deck"), "dealer": seat_name(names, view.get("dealer")),
        "side_names": [k_words.side_name(names, s, n) for s in range(n)],
    }


def mark(marks: dict[str, Any], kind: str, p: dict[str, Any]) -> None:
    """The cards just captured (or swept), the build just made, the card just trailed."""
    if kind in ("cards_captured", "table_swept") and marks["captured"] is None:
        marks["captured"] = {"seat": p.get("seat"), "card": p.get("card"), "cards": list(p.get("cards") or [])}
    elif kind == "build_made":
        marks["build"] = p.get("build")
    elif kind == "card_trailed":
        marks["trailed"] = p.get("card")


def probe(code: str) -> dict[str, Any]:
    """Putting hand card ``code`` on the table (the Broom: sweeping with it)."""
    return {"type": "sweep" if code == "BR" else "trail", "card": code}


KIT = Kit(
    game="karuselis",
    label=pgettext_lazy("game", "Karuselis"),
    tagline=_("Fish cards from the table by sums and builds; the Broom sweeps it."),
    default_seats=2,
    form=KaruselisOptions,
    moves=KaruselisMove,
    view=KaruselisView,
    words=k_words,
    option_words=option_words,
    card=card,
    board=board,
    round_starts=frozenset({"round_dealt"}),  # a round's re-deals (``cards_dealt``) stay in it
    rulebook_languages=("lv",),
    rule_examples={"h7": "7H", "s7": "7S", "c3": "3C", "d4": "4D", "d5": "5D", "h2": "2H", "s9": "9S",
                   "qs": "QS", "qh": "QH", "qd": "QD", "x20": "X20", "x15": "X15", "x11": "X11", "br": "BR",
                   "d10": "10D", "s2": "2S", "ac": "AC", "s10": "10S", "h6": "6H", "kd": "KD"},
    mark=mark,
    probe=probe,
    windowed_log=True,
)
