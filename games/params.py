"""The one parser for counts in requests (issue 23, L-1): a seat, a position (``since``, ``after``,
``upto``, ``expected_seq``, ``Last-Event-ID``), a replay step, a round. ``str.isdigit`` alone takes "²"
and other digits ``int`` refuses, and ``int`` refuses more than 4,300 digits: both were a 500."""
from __future__ import annotations


def count(text: str | None, *, digits: int = 10) -> int | None:
    """A whole number written in ASCII digits, at most ``digits`` of them; None for anything else."""
    if not isinstance(text, str) or not (0 < len(text) <= digits and text.isascii() and text.isdigit()):
        return None
    return int(text)
