"""UNO FLIP on the site (``games.kits``): LIVOL's shapes with a light and a dark side.
The rules: ``engine/uno_flip.py``; the words: ``games/words/uno_flip.py``; the rules page:
``templates/rules/uno_flip.html``.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from pydantic import Field

from games.kits import Kit
from games.kits.base import Code, GameOptionsForm, Move, Resign, bounds
from games.kits.boards import Row, at, calling_plays, card_buttons, seat_name, seat_rows, shown_hands
from games.kits.livol import Accept, Call, Catch, Challenge, Draw, SheddingView, mark, probe, target_words
from games.words import uno_flip as flip_words

# -- The API's move and view schemas ------------------------------------------------------------
FlipColour = Literal["R", "Y", "G", "B", "P", "T", "O", "V"]


class FlipPlay(Move):
    type: Literal["play"]
    card: Code
    color: FlipColour | None = None
    call: bool | None = None


class FlipColor(Move):
    type: Literal["color"]
    color: FlipColour


class Pass(Move):
    type: Literal["pass"]


FlipMove = Annotated[FlipPlay | Draw | Pass | FlipColor | Call | Catch | Challenge | Accept | Resign,
                     Field(discriminator="type")]


class UnoFlipView(SheddingView):
    """An UNO FLIP seat's view: the side in play, the other faces everyone sees."""
    side: Literal["light", "dark"]
    backs: list[list[str]]
    draw_back: str | None


# -- The new-match form and the options in words -----------------------------------------------
class UnoFlipOptions(GameOptionsForm):
    """UNO FLIP's options: the target."""
    game = "uno_flip"
    target = forms.IntegerField(label=_("Target points"), required=False, help_text=_("Empty: 500"),
                                **bounds("uno_flip", "target"))

    def options(self) -> dict[str, Any]:
        return {"target": self.cleaned_data["target"]} if self.cleaned_data.get("target") else {}


def option_words(o: dict[str, Any]) -> list[str]:
    """"to 500 points"."""
    return [target_words(o["target"])]


# -- Cards and the board ------------------------------------------------------------------------
LIGHT = ("R", "Y", "G", "B")
DARK = ("P", "T", "O", "V")


def face(code: str) -> dict[str, Any]:
    """One face of a card (``W``: a light Wild, ``D``: a dark one)."""
    if code in ("W", "W+2"):
        colour = "W"
    elif code in ("DW", "DW+C"):
        colour = "D"
    else:
        colour = code[:1]
    return {"code": code, "name": flip_words.card_name(code), "short": flip_words.card_short(code),
            "colour": colour, "side": "dark" if colour in DARK or colour == "D" else "light"}


def physical(code: str, side: str) -> dict[str, Any]:
    """A physical card ``light/dark``: both faces, the one up on ``side`` first."""
    light, _sep, dark = code.partition("/")
    faces = {"light": face(light), "dark": face(dark or light)}
    active = faces["dark" if side == "dark" else "light"]
    back = faces["light" if side == "dark" else "dark"]
    return {"code": code, "name": flip_words.card_name(code), "active": active, "back": back}




def card(code: str, side: str = "light") -> dict[str, Any]:
    """UNO FLIP: a face code, or a physical card ``light/dark`` shown on ``side``."""
    return physical(code, side) if "/" in code else face(code)




def board(view: dict[str, Any], seat: int | None, legal: list[Row], names: list[str], marks: dict[str, Any],
          hands: Any, turn_seat: int | None) -> dict[str, Any]:
    """UNO FLIP's board: the side in play, the seats with the backs of their cards, the top card and colour,
    the hand (each card with its face up) and its plays."""
    side = view.get("side") or "light"
    open_hands = shown_hands(view, hands)
    seats = seat_rows(view, seat, names, turn_seat, marks)
    for row in seats:
        s = row["index"]
        row.update(count=at(view.get("hand_sizes"), s, 0), score=at(view.get("scores"), s, 0),
                   called=bool(at(view.get("called"), s)),
                   backs=[face(c) for c in at(view.get("backs"), s, []) or []]
                   if s != seat and not (open_hands and at(open_hands, s) is not None) else [],
                   open=[physical(c, side) for c in open_hands[s]] if open_hands and at(open_hands, s) is not None
                   and s != seat else None)
    plays = calling_plays([e for e in legal if e["type"] == "play"], view)
    hand = []
    for code in view.get("hand") or []:
        c = physical(code, side)
        active = c["active"]["code"]
        mine = [e for e in plays if e["move"].get("card") == code
                or (e["move"].get("card") == active and "/" not in str(e["move"].get("card")))]
        hand.append({"card": c, "plays": [e for e in mine if not e["move"].get("call")],
                     "calls": [e for e in mine if e["move"].get("call")]})
    card_buttons(hand, lambda c: c["active"]["short"])
    top, colour = view.get("top"), view.get("color")
    return {
        "side": side, "seats": seats, "hand": hand, "others": [e for e in legal if e["type"] != "play"],
        "call_toggle": any(e["move"].get("call") for e in plays),
        "top": dict(face(top), last=top is not None and marks.get("card") == top) if top else None,
        "colour": {"letter": colour, "name": flip_words.colour_name(colour)} if colour else None,
        "draw_back": face(view["draw_back"]) if view.get("draw_back") else None,
        "shown_hand": [physical(c, side) for c in view["shown_hand"]] if view.get("shown_hand") else None,
        "round": view.get("round"), "direction": view.get("direction"), "draw_size": view.get("draw_size"),
        "discard_size": view.get("discard_size"), "dealer": seat_name(names, view.get("dealer")),
        "target": (view.get("options") or {}).get("target"),
    }


def plays_card(move: dict[str, Any], code: str, side: str) -> bool:
    """A move plays hand card ``code`` (``light/dark``) by its code, or by the face up on ``side``."""
    played = move.get("card")
    if played is None:
        return False
    if "/" not in str(played):
        light, _sep, dark = code.partition("/")
        return bool(played == (dark if side == "dark" else light))
    return bool(played == code)


KIT = Kit(
    game="uno_flip",
    label=pgettext_lazy("game", "UNO FLIP"),
    tagline=_("UNO with a light and a dark side: a Flip turns the whole table over."),
    default_seats=3,
    form=UnoFlipOptions,
    moves=FlipMove,
    view=UnoFlipView,
    words=flip_words,
    option_words=option_words,
    card=card,
    board=board,
    round_starts=frozenset({"round_dealt"}),
    rulebook_languages=("lt",),
    rule_examples={"r4": "R4", "r1": "R+1", "rrev": "Rrev", "rskip": "Rskip", "rflip": "Rflip", "w": "W",
                   "w2": "W+2", "p5": "P+5", "prev": "Prev", "pskipall": "Pskipall", "pflip": "Pflip",
                   "dw": "DW", "dwc": "DW+C", "v6": "V6", "y2": "Y2", "phys": "Y2/V6", "phys2": "R4/P+5"},
    mark=mark,
    probe=probe,
    plays_card=plays_card,
    windowed_log=True,
)
