"""The event store's own events in words (not engine events; the same for every game).

``seed_revealed`` (seed) · ``seat_timed_out`` (seat, deadline) · ``seat_forfeited`` (seat) · ``bot_took_seat``
(seat, policy) · ``match_aborted`` (by) · ``match_awarded`` (ranking) ·
``entropy_contributed`` (seat) · ``match_opened`` (commitment).
"""
from __future__ import annotations

from django.utils.translation import gettext

from games.words.common import name_of, names_list

#: No store event is silent.
SILENT: frozenset = frozenset()

#: How much of a commitment (a SHA-256 in hex) a sentence shows.
COMMITMENT_SHOWN = 16


def _seed_revealed(e, names):
    return gettext("The seed is revealed: anyone can now check the deal")


def _seat_timed_out(e, names):
    if e.get("phase") == "join":  # a seat a tournament gave, never taken before its deadline
        return gettext("%(player)s did not take the seat in time") % {"player": name_of(names, e.get("seat"))}
    return gettext("%(player)s ran out of time") % {"player": name_of(names, e.get("seat"))}


def _seat_forfeited(e, names):
    return gettext("The organiser forfeited %(player)s's seat") % {"player": name_of(names, e.get("seat"))}


def _bot_took_seat(e, names):
    return gettext("A bot plays for %(player)s from now on") % {"player": name_of(names, e.get("seat"))}


def _match_aborted(e, names):
    if e.get("reason") == "event_limit":
        return gettext("The match reached the most moves a match may have and was stopped")
    if e.get("reason") == "no_people_left":
        return gettext("Everyone at the table gave up: the match was stopped rather than left to the bots")
    if e.get("reason") == "withdrawn":
        return gettext("The challenger withdrew the challenge")
    if e.get("reason") == "declined":
        player = name_of(names, e.get("seat"))
        if e.get("message"):
            return gettext("%(player)s declined the invitation: “%(message)s”") % {
                "player": player, "message": str(e["message"])[:200]}
        return gettext("%(player)s declined the invitation") % {"player": player}
    return gettext("The organiser stopped the match")


def _ranking_text(ranking, names) -> str:
    """"1. anna · 2. janis and karlis" (places are numbers: no ordinal words to translate)."""
    parts = []
    place = 1
    for seats in ranking or []:
        seats = list(seats) if isinstance(seats, (list, tuple)) else [seats]
        parts.append("%d. %s" % (place, names_list(names, seats)))
        place += len(seats)
    return " · ".join(parts)


def _match_awarded(e, names):
    ranking = e.get("ranking")
    if not ranking:
        return gettext("The organiser awarded the match")
    return gettext("The organiser awarded the match: %(ranking)s") % {"ranking": _ranking_text(ranking, names)}


def _entropy_contributed(e, names):
    return gettext("%(player)s added randomness to the shuffle") % {"player": name_of(names, e.get("seat"))}


def _match_opened(e, names):
    commitment = str(e.get("commitment") or "")
    if not commitment:
        return gettext("The match opened")
    shown = commitment[:COMMITMENT_SHOWN] + ("…" if len(commitment) > COMMITMENT_SHOWN else "")
    return gettext("The match opened (commitment %(commitment)s)") % {"commitment": shown}


WORDS = {
    "seed_revealed": _seed_revealed,
    "seat_timed_out": _seat_timed_out,
    "seat_forfeited": _seat_forfeited,
    "bot_took_seat": _bot_took_seat,
    "match_aborted": _match_aborted,
    "match_awarded": _match_awarded,
    "entropy_contributed": _entropy_contributed,
    "match_opened": _match_opened,
}
