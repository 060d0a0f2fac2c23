"""What the greedy bots of the UNO-family games (LIVOL, UNO FLIP) share.

Out of turn, the only moves on offer are a catch of a seat that forgot to call
and one's own call (L10 / F12): both are always worth making, a catch first.
"""
from __future__ import annotations

from typing import Any


def grouped(legal: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The legal moves by their ``type``, each list in legal-move order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for m in legal:
        groups.setdefault(m["type"], []).append(m)
    return groups


def catch_or_call(groups: dict[str, list[dict[str, Any]]]) -> dict[str, Any] | None:
    """A catch if one is on offer, else a call, else None."""
    for kind in ("catch", "call"):
        if kind in groups:
            return groups[kind][0]
    return None
