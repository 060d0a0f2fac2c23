"""The one place that parses what pages and streams send (the API's bodies are its
schemas): counts, a seat's random value, a move from a form.

Counts: a seat, a position (``since``, ``after``, ``upto``, ``expected_seq``,
``Last-Event-ID``), a replay step, a round. ``str.isdigit`` alone takes "²" and other digits ``int``
refuses, and ``int`` refuses more than 4,300 digits: both were a 500."""
from __future__ import annotations

import json

from engine.core import is_contribution
from games.errors import MalformedRequest


def entropy(text: str | None) -> str | None:
    """A seat's random value sent by a page (``engine.core.is_contribution``), or None: a page that sends
    none, or a broken one, gets the server's contribution instead (docs/provably-fair.md; the API, whose
    clients choose their value, refuses a malformed one with a 400)."""
    return text if is_contribution(text) else None


def count(text: str | None, *, digits: int = 10) -> int | None:
    """A whole number written in ASCII digits, at most ``digits`` of them; None for anything else."""
    if not isinstance(text, str) or not (0 < len(text) <= digits and text.isascii() and text.isdigit()):
        return None
    return int(text)


#: A move from a page's form is a small JSON object: this much text and nesting at most.
MOVE_TEXT_MAX = 4096
MOVE_DEPTH_MAX = 8


def parse_move(text: str) -> dict:
    """A move from a form field: JSON of an object, else ``MalformedRequest``.

    The text is bounded before it is parsed (its length, and its nesting counted on the brackets),
    so ``"[" * 100000`` is refused in microseconds instead of raising ``RecursionError``."""
    if not isinstance(text, str) or len(text) > MOVE_TEXT_MAX or _nesting(text) > MOVE_DEPTH_MAX:
        raise MalformedRequest()
    try:
        move = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise MalformedRequest() from None
    if not isinstance(move, dict):
        raise MalformedRequest()
    return move


def _nesting(text: str) -> int:
    """The deepest bracket nesting of a JSON text (brackets inside strings count too: an upper bound)."""
    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
