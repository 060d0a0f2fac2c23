"""What every game's words share: seat names, lists, coordinates, and the
events every game has (``seat_resigned``, ``match_ended``).

Every function returns a plain ``str`` evaluated under the language active at
call time. Patterns carry named placeholders so that translators may reorder
them; list punctuation (", " between items) and the " · " between two whole
sentences of one log line are the only text glued here.
"""
from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from games.words.context import FORFEIT, NO_SHOW, TIMEOUTS

#: Between two complete sentences of one log line ("Round 2: janis deals · Your cards: …").
SEPARATOR = " · "


def sentences(*parts: str | None) -> str:
    """Whole sentences of one line, in order (empty parts left out)."""
    return SEPARATOR.join(p for p in parts if p)


def name_of(names, seat) -> str:
    """The display name of ``seat`` (``names`` is a list or a dict by seat); "Seat 3"
    (1-based) when the caller has no name for it."""
    if seat is None:
        return pgettext("seat", "nobody")
    try:
        name = names[seat]
    except (IndexError, KeyError, TypeError):
        name = None
    if name:
        return str(name)
    try:
        number = int(seat) + 1
    except (TypeError, ValueError):
        return pgettext("seat", "a player")
    return pgettext("seat", "Seat %(number)d") % {"number": number}


def join_list(items) -> str:
    """"a", "a and b", "a, b and c" (the conjunction is translated as a whole pattern)."""
    items = [str(i) for i in items]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return gettext("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


def names_list(names, seats) -> str:
    return join_list(name_of(names, s) for s in seats)


def cell(x, y) -> str:
    """A grid cell as players read it: "(1, 0)"."""
    return "(%d, %d)" % (x, y)


def as_int(value, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


# --------------------------------------------------------------------------
# Events every game has
# --------------------------------------------------------------------------

def seat_resigned(event: dict, names) -> str:
    return gettext("%(player)s resigned") % {"player": name_of(names, event.get("seat"))}


def seat_resigned_in_context(event: dict, names, context) -> str:
    """A resignation as it happened: a Resign pressed ("janis resigned"), or a seat given up that
    its player never gave up — after timeouts in a row, not taken in time, forfeited by the
    organiser (``EventContext.resigned_because``)."""
    player = name_of(names, event.get("seat"))
    because = context.resigned_because(event.get("seat")) if context is not None else None
    if because is None:
        return seat_resigned(event, names)
    why, n = because
    if why == TIMEOUTS and n > 1:
        return ngettext("%(player)s's seat was given up after %(n)d timeout in a row",
                        "%(player)s's seat was given up after %(n)d timeouts in a row", n) % {"player": player, "n": n}
    if why == TIMEOUTS:
        return gettext("%(player)s's seat was given up: the time ran out") % {"player": player}
    if why == NO_SHOW:
        return gettext("%(player)s's seat was given up: it was not taken in time") % {"player": player}
    if why == FORFEIT:
        return gettext("%(player)s's seat was given up: the organiser forfeited it") % {"player": player}
    return seat_resigned(event, names)


def first_place(ranking) -> list[int]:
    try:
        return list(ranking[0]) if ranking else []
    except (TypeError, IndexError, KeyError):
        return []


def match_winners(event: dict, names) -> str:
    """"anna wins the match" / "anna and janis share first place" from ``ranking``."""
    first = first_place(event.get("ranking"))
    if not first:
        return gettext("The match is over")
    if len(first) == 1:
        return gettext("The match is over: %(player)s wins") % {"player": name_of(names, first[0])}
    return gettext("The match is over: %(players)s share first place") % {"players": names_list(names, first)}


def match_winners_with_points(event: dict, names) -> str:
    """As ``match_winners``, with the winner's points when the event has scores."""
    first = first_place(event.get("ranking"))
    scores = event.get("scores") or []
    if not first or not all(isinstance(s, int) and 0 <= s < len(scores) for s in first):
        return match_winners(event, names)
    points = scores[first[0]]
    if len(first) == 1:
        return ngettext("The match is over: %(player)s wins with %(points)d point",
                        "The match is over: %(player)s wins with %(points)d points", points) % {
            "player": name_of(names, first[0]), "points": points}
    return ngettext("The match is over: %(players)s share first place with %(points)d point",
                    "The match is over: %(players)s share first place with %(points)d points", points) % {
        "players": names_list(names, first), "points": points}


def resign_move(move: dict, names) -> str:
    return pgettext("move", "Resign")


def unknown_move(move: dict, names) -> str:
    return gettext("A move the page does not know how to describe")


COMMON_WORDS = {"seat_resigned": seat_resigned}
COMMON_WORDS_IN_CONTEXT = {"seat_resigned": seat_resigned_in_context}
COMMON_MOVES = {"resign": resign_move}


# --------------------------------------------------------------------------
# Score tables (``round_summary``)
# --------------------------------------------------------------------------

def summary(*, game: str, event: dict, round_no, headline: str, rows: list[dict], target=None,
            gain_header: str | None = None, total_header: str | None = None) -> dict:
    """The structure ``round_summary`` returns: a small table and a headline."""
    return {
        "game": game,
        "type": event.get("type"),
        "round": round_no,
        "headline": headline,
        "target": target,
        "headers": {
            "name": gettext("Player"),
            "gain": gain_header if gain_header is not None else gettext("This round"),
            "total": total_header if total_header is not None else gettext("Total"),
        },
        "rows": rows,
    }


def row(*, seats, name: str, gain=None, total=None, note: str = "", highlight: bool = False, **extra) -> dict:
    return {"seats": list(seats), "name": name, "gain": gain, "total": total, "note": note,
            "highlight": highlight, **extra}


def target_of(options) -> int | None:
    if isinstance(options, dict) and isinstance(options.get("target"), int):
        return options["target"]
    return None
