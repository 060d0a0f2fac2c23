"""LIVOL on the site (``games.kits``): its form, move and view schemas, cards, board and rules page.
The rules: ``engine/livol.py``; the words: ``games/words/livol.py``; the rules page: ``templates/rules/livol.html``.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from django import forms
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from pydantic import Field

from games.kits import Kit
from games.kits.base import Code, GameOptionsForm, Move, Resign, SeatNumber, View, bounds
from games.kits.boards import Row, at, calling_plays, card_buttons, seat_name, seat_rows, shown_hands
from games.words import livol as livol_words

# -- The API's move and view schemas ------------------------------------------------------------
LivolColour = Literal["R", "Y", "G", "B"]


class LivolPlay(Move):
    type: Literal["play"]
    card: Code
    color: LivolColour | None = None
    call: bool | None = None


class LivolColor(Move):
    type: Literal["color"]
    color: LivolColour


class Catch(Move):
    type: Literal["catch"]
    target: SeatNumber


class Draw(Move):
    type: Literal["draw"]


class Call(Move):
    type: Literal["call"]


class Challenge(Move):
    type: Literal["challenge"]


class Accept(Move):
    type: Literal["accept"]


LivolMove = Annotated[LivolPlay | Draw | LivolColor | Call | Catch | Challenge | Accept | Resign,
                      Field(discriminator="type")]


class SheddingView(View):
    """LIVOL's and UNO FLIP's shared keys (docs/engine-contract.md)."""
    top: str | None
    color: str | None
    hand_sizes: list[int]
    draw_size: int
    discard_size: int
    scores: list[int]
    round: int
    dealer: int
    direction: Literal[1, -1]
    shown_hand: list[str] | None = None


class LivolView(SheddingView):
    """A LIVOL seat's view."""


# -- The new-match form and the options in words -----------------------------------------------
class LivolOptions(GameOptionsForm):
    """LIVOL's options: the scoring variant, the target, the extra cards of a failed challenge."""
    game = "livol"
    variant = forms.ChoiceField(label=_("Scoring"), initial="winner_scores", choices=[
        ("winner_scores", _("The round's winner scores the others' cards (most points win)")),
        ("own_hand", _("Everyone scores their own hand (fewest points win)"))])
    target = forms.IntegerField(label=_("Target points"), required=False, help_text=_("Empty: 500"),
                                **bounds("livol", "target"))
    challenge_extra_penalty = forms.IntegerField(
        label=_("Extra cards for a failed challenge of a Wild +4"), required=False, initial=0,
        help_text=_("Empty: none; classic UNO's is 2"), **bounds("livol", "challenge_extra_penalty"))

    def options(self) -> dict[str, Any]:
        out = {"variant": self.cleaned_data["variant"]}
        if self.cleaned_data.get("target"):
            out["target"] = self.cleaned_data["target"]
        if self.cleaned_data.get("challenge_extra_penalty"):
            out["challenge_extra_penalty"] = self.cleaned_data["challenge_extra_penalty"]
        return out


def target_words(n: int) -> str:
    """"to 500 points" (UNO FLIP's and Karuselis's too)."""
    return ngettext("to %(n)d point", "to %(n)d points", n) % {"n": n}




def option_words(o: dict[str, Any]) -> list[str]:
    out = [target_words(o["target"])]
    out.append(gettext("everyone scores their own hand (fewest points win)") if o.get("variant") == "own_hand"
               else gettext("the round's winner scores the others' cards (most points win)"))
    extra = o.get("challenge_extra_penalty") or 0
    if extra:
        out.append(ngettext("a failed challenge of a Wild Draw Four costs %(n)d more card",
                            "a failed challenge of a Wild Draw Four costs %(n)d more cards", extra) % {"n": extra})
    return out


# -- Cards and the board ------------------------------------------------------------------------
def card(code: str, side: str = "light") -> dict[str, Any]:
    """A LIVOL card: its name, what its face shows and its colour (W: a Wild)."""
    colour = code[0] if code[:1] in ("R", "Y", "G", "B") else "W"
    return {"code": code, "name": livol_words.card_name(code), "short": livol_words.card_short(code),
            "colour": colour}




def board(view: dict[str, Any], seat: int | None, legal: list[Row], names: list[str], marks: dict[str, Any],
          hands: Any, turn_seat: int | None) -> dict[str, Any]:
    """LIVOL's board: the seats with their card counts, scores and calls, the top card and colour, the hand
    with the plays of each card."""
    open_hands = shown_hands(view, hands)
    seats = seat_rows(view, seat, names, turn_seat, marks)
    for row in seats:
        s = row["index"]
        row.update(count=at(view.get("hand_sizes"), s, 0), score=at(view.get("scores"), s, 0),
                   called=bool(at(view.get("called"), s)), catchable=view.get("catchable") == s,
                   open=[card(c) for c in open_hands[s]] if open_hands and at(open_hands, s) is not None
                   and s != seat else None)
    plays = calling_plays([e for e in legal if e["type"] == "play"], view)
    hand = []
    for code in view.get("hand") or []:
        mine = [e for e in plays if e["move"].get("card") == code]
        hand.append({"card": card(code), "plays": [e for e in mine if not e["move"].get("call")],
                     "calls": [e for e in mine if e["move"].get("call")], "must": view.get("must_play") == code})
    card_buttons(hand, lambda c: c["short"])
    top = view.get("top")
    colour = view.get("color")
    options = view.get("options") or {}
    return {
        "seats": seats, "hand": hand, "others": [e for e in legal if e["type"] != "play"],
        "call_toggle": any(e["move"].get("call") for e in plays),
        "top": dict(card(top), last=top is not None and marks.get("card") == top) if top else None,
        "colour": {"letter": colour, "name": livol_words.colour_name(colour)} if colour else None,
        "shown_hand": [card(c) for c in view["shown_hand"]] if view.get("shown_hand") is not None else None,
        "target": options.get("target"), "own_hand": options.get("variant") == "own_hand",
        "round": view.get("round"), "direction": view.get("direction"), "draw_size": view.get("draw_size"),
        "discard_size": view.get("discard_size"), "dealer": seat_name(names, view.get("dealer")),
        "phase": view.get("phase"), "must_play": card(view["must_play"]) if view.get("must_play") else None,
    }


def mark(marks: dict[str, Any], kind: str, p: dict[str, Any]) -> None:
    """The card just played (the first of the move), and who played it."""
    if kind == "card_played" and marks["card"] is None:
        marks["card"] = p.get("face") or p.get("card")
        marks["seat"] = p.get("seat")


def probe(code: str) -> dict[str, Any]:
    """Playing hand card ``code`` alone."""
    return {"type": "play", "card": code}


KIT = Kit(
    game="livol",
    label=pgettext_lazy("game", "LIVOL"),
    tagline=_("Shed your hand by colour and number; call LIVOL! at one card."),
    default_seats=3,
    form=LivolOptions,
    moves=LivolMove,
    view=LivolView,
    words=livol_words,
    option_words=option_words,
    card=card,
    board=board,
    round_starts=frozenset({"round_dealt"}),
    rulebook_languages=("lv", "en", "lt"),
    rule_examples={"r7": "R7", "b7": "B7", "r2": "R2", "rskip": "Rskip", "rrev": "Rrev", "rp2": "R+2", "w": "W",
                   "w4": "W+4", "g5": "G5", "g2": "G2", "b9": "B9", "y3": "Y3", "g0": "G0", "bskip": "Bskip"},
    mark=mark,
    probe=probe,
    windowed_log=True,
)
