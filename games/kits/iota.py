"""IOTA on the site (``games.kits``): its form, move and view schemas, cards, board and rules page.
The rules: ``engine/iota.py``; the words: ``games/words/iota.py``; the rules page: ``templates/rules/iota.html``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from ninja import Schema
from pydantic import ConfigDict, Field

from engine.iota import view_scorer
from games.kits import Kit
from games.kits.base import Code, Coordinate, GameOptionsForm, Move, Resign, View
from games.kits.boards import Row, at, seat_name, seat_rows, shown_hands
from games.words import iota as iota_words


# -- The API's move and view schemas ----------------------------------------------------------------
class Placement(Move):
    card: Code
    x: Coordinate
    y: Coordinate


class IotaPlay(Move):
    type: Literal["play"]
    cards: Annotated[list[Placement], Field(min_length=1, max_length=4)]


class IotaPass(Move):
    type: Literal["pass"]
    return_: Annotated[list[Code], Field(max_length=4, alias="return")] = []

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class Recycle(Move):
    type: Literal["recycle"]
    card: Code
    x: Coordinate
    y: Coordinate


IotaMove = Annotated[IotaPlay | IotaPass | Recycle | Resign, Field(discriminator="type")]


class IotaCell(Schema):
    card: str
    x: int
    y: int


class IotaView(View):
    grid: list[IotaCell]
    scores: list[int]
    stock_size: int
    hand_sizes: list[int]


# -- The new-match form and the options in words ----------------------------------------------------
class IotaOptions(GameOptionsForm):
    """IOTA's options: the variant."""
    game = "iota"
    variant = forms.ChoiceField(label=_("Variant"), initial="standard", choices=[
        ("standard", _("Standard: all 64 cards and both wilds")),
        ("short", _("Short: 32 cards and both wilds")),
        ("kids", _("Kids: no scores, the first out of cards wins"))])

    def options(self) -> dict[str, Any]:
        return {"variant": self.cleaned_data["variant"]}


def option_words(o: dict[str, Any]) -> list[str]:
    """The variant."""
    return [{"standard": gettext("all 64 cards and both wilds"), "short": gettext("short: 32 cards and both wilds"),
             "kids": gettext("kids: no scores, the first out of cards wins")}.get(str(o.get("variant")),
                                                                                 str(o.get("variant")))]


# -- Cards and the board ----------------------------------------------------------------------------
def card(code: str, side: str = "light") -> dict[str, Any]:
    """An IOTA card: its colour, number and shape, or a wild."""
    wild = code in ("W1", "W2")
    return {"code": code, "name": iota_words.card_name(code), "wild": wild,
            "colour": "W" if wild else code[:1], "number": "" if wild else code[1:2],
            "shape": "" if wild else code[2:3]}




def board(view: dict[str, Any], seat: int | None, legal: list[Row], names: list[str], marks: dict[str, Any],
          hands: Any, turn_seat: int | None) -> dict[str, Any]:
    """IOTA's board: the grid with its coordinates on its edges and the cells just filled, the hand, the plays
    (each with its score), the passes and the wilds that may be taken back."""
    open_hands = shown_hands(view, hands)
    seats = seat_rows(view, seat, names, turn_seat, marks)
    for row in seats:
        s = row["index"]
        row.update(count=at(view.get("hand_sizes"), s, 0), score=at(view.get("scores"), s, 0),
                   open=[card(c) for c in open_hands[s]] if open_hands and at(open_hands, s) is not None
                   and s != seat else None)
    layout = view.get("layout") or {"dx": 0, "dy": 0, "cols": 1, "rows": 1}
    last_cells = {tuple(c) for c in marks.get("cells") or []}
    if not last_cells and view.get("last_play"):
        last_cells = {(p["x"], p["y"]) for p in view["last_play"].get("cards") or []}
    grid = []
    for c in view.get("grid") or []:
        cand = c.get("candidates")
        grid.append({"card": card(c["card"]), "x": c["x"], "y": c["y"], "col": c["x"] + layout["dx"] + 1,
                     "row": c["y"] + layout["dy"] + 1, "last": (c["x"], c["y"]) in last_cells,
                     "candidates": len(cand) if cand is not None else None,
                     "candidate_names": ", ".join(iota_words.card_name(k) for k in cand[:8]) if cand else ""})
    last = view.get("last_play")
    # the grid's edges carry its coordinates (x along the top, y down the side), as the log and the
    # cells' names give places "(x, y)": a column and a row of labels before the cells
    axis_x = [{"n": col - layout["dx"], "col": col + 1} for col in range(1, layout["cols"] + 1)]
    axis_y = [{"n": row - layout["dy"], "row": row + 1} for row in range(1, layout["rows"] + 1)]
    return {
        "seats": seats, "grid": grid, "layout": layout, "axis_x": axis_x, "axis_y": axis_y,
        "hand": [card(c) for c in view.get("hand") or []],
        "plays": [{"move": e["move"], "label": e["label"], "score": e["score"]} for e in legal if e["type"] == "play"],
        "passes": [e for e in legal if e["type"] == "pass"],
        "plain_pass": next((e for e in legal if e["type"] == "pass" and not e["move"].get("return")), None),
        "recycles": [dict(e, card=card(e["move"]["card"])) for e in legal if e["type"] == "recycle"],
        "stock_size": view.get("stock_size"), "variant": view.get("variant"), "passes_in_row": view.get("passes"),
        "last_play": {"name": seat_name(names, last["seat"]), "score": last.get("score")} if last else None,
    }


def mark(marks: dict[str, Any], kind: str, p: dict[str, Any]) -> None:
    """The cells just filled (or whose wild was taken back)."""
    if kind == "cards_played":
        marks["cells"] += [(c.get("x"), c.get("y")) for c in p.get("cards") or [] if isinstance(c, dict)]
    elif kind == "wild_recycled":
        marks["cells"].append((p.get("x"), p.get("y")))


def play_scores(view: dict[str, Any]) -> Callable[[dict[str, Any]], Any] | None:
    """What each play scores, from the seat's view (the kids' variant has no scores)."""
    if view.get("hand") is None or view.get("over") or view.get("variant") == "kids":
        return None

    scorer = view_scorer(view)
    return lambda m: scorer(m["cards"]) if m.get("type") == "play" else None


KIT = Kit(
    game="iota",
    label=pgettext_lazy("game", "IOTA"),
    tagline=_("Lay lines of up to four cards: every property all the same or all different."),
    default_seats=2,
    form=IotaOptions,
    moves=IotaMove,
    view=IotaView,
    words=iota_words,
    option_words=option_words,
    card=card,
    board=board,
    round_starts=frozenset({"cards_dealt"}),
    rulebook_languages=("ru",),
    rule_examples={"r1c": "R1C", "r2s": "R2S", "r3t": "R3T", "r4x": "R4X", "g1c": "G1C", "b1c": "B1C",
                   "y1c": "Y1C", "b2x": "B2X", "g3s": "G3S", "w1": "W1", "y4t": "Y4T"},
    mark=mark,
    play_scores=play_scores,
    one_deal=True,
)
