"""The one parser for counts in requests (issue 23, L-1): a seat, a position (``since``, ``after``,
``upto``, ``expected_seq``, ``Last-Event-ID``), a replay step, a round. ``str.isdigit`` alone takes "²"
and other digits ``int`` refuses, and ``int`` refuses more than 4,300 digits: both were a 500."""
from __future__ import annotations

from engine.core import is_contribution


def entropy(text: str | None) -> str | None:
    """A seat's random value sent by a page (``engine.core.is_contribution``), or None: a page that sends
    none, or a broken one, gets the server's contribution instead (the README's rule; the API, whose
    clients choose their value, refuses a malformed one with a 400)."""
    return text if is_contribution(text) else None


def count(text: str | None, *, digits: int = 10) -> int | None:
    """A whole number written in ASCII digits, at most ``digits`` of them; None for anything else."""
    if not isinstance(text, str) or not (0 < len(text) <= digits and text.isascii() and text.isdigit()):
        return None
    return int(text)
