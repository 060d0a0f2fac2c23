"""What every game's board is built from (``Kit.board``): seat rows, open hands, a card button's name.

A board builder takes the seat's view, its legal moves as entries (``games.selectors.board._entries``), the
seats' names, the marks of the last move (``Kit.mark``), every hand where they are open (a replay) and
whose turn it is, and returns what the game's play template draws.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: A board's row, entry or card: the dict a template reads.
Row = dict[str, Any]


def at(values: Any, i: Any, default: Any = None) -> Any:
    """``values[i]``, or ``default`` where there is none (a short list, a missing key, no list)."""
    try:
        return values[i]
    except (IndexError, KeyError, TypeError):
        return default


def seat_name(names: Sequence[str], seat: int | None) -> str:
    """A seat's display name ("" for no seat)."""
    return str(at(names, seat, "")) if seat is not None else ""


def seat_rows(view: dict[str, Any], seat: int | None, names: Sequence[str], turn_seat: int | None,
              marks: dict[str, Any]) -> list[Row]:
    """A row per seat: its name, whether it is to move, the reader's own, the dealer, the last mover, resigned."""
    rows = []
    for s, person in enumerate(names):
        rows.append({"index": s, "name": person, "turn": s == turn_seat, "me": s == seat,
                     "dealer": s == view.get("dealer"), "moved": s == marks.get("seat"),
                     "resigned": s in (view.get("resigned") or [])})
    return rows


def shown_hands(view: dict[str, Any], hands: Any) -> Any:
    """Every seat's hand where they are shown: a replay's (``hands``), or the view's once the match is over."""
    return hands if hands is not None else view.get("hands")


def calling_plays(plays: list[Row], view: dict[str, Any]) -> list[Row]:
    """The plays to offer: a play that calls LIVOL! / UNO! only where it counts, when it leaves
    one card (the engine lists the calling twin of every play)."""
    if len(view.get("hand") or []) == 2:
        return plays
    return [e for e in plays if not e["move"].get("call")]


def with_glyph(label: str, short: str) -> str:
    """A card button's name holds what the card shows: "Play Red Draw Two (+2)" over a visible "+2"
    (voice control users say what they see; WCAG 2.5.3), "Play Red 7" as it is over a "7"."""
    shown = "".join(ch for ch in str(short) if ch.isalnum())
    return label if not shown or shown.lower() in label.lower() else f"{label} ({short})"


def card_buttons(hand: list[Row], short_of: Callable[[Row], str]) -> None:
    """Each hand card's buttons named with its glyph (``with_glyph``)."""
    for h in hand:
        short = short_of(h["card"])
        h["name"] = with_glyph(h["card"]["name"], short)
        for e in h["plays"] + h["calls"]:
            e["card_label"] = with_glyph(e["label"], short)
