"""A match's terms in words: its options and its clock, as an invitation, a tournament page, the
admin and a table panel say them ("to 100 points · the round's winner scores the others' cards";
"30 seconds a move, a 5-minute bank"; "2 days a move").

The options are read as the engine plays them: ``start`` fills in every default (Karuselis's target
from its deck), so "{}" reads as what the match will really be, not as nothing.
"""
from __future__ import annotations

import json
from functools import lru_cache

from django.utils.translation import gettext, ngettext, npgettext

from engine import registry
from games.kits import KitTable


@lru_cache(maxsize=256)
def _played(game: str, options_json: str) -> dict | None:
    try:
        first = registry.get(game).start(registry.get(game).MIN_SEATS, "terms", options=json.loads(options_json))[0]
    except (KeyError, ValueError, TypeError):
        return None
    return dict(first.get("options") or {})


def played_options(game: str, options: dict | None) -> dict | None:
    """The options a match of ``game`` plays with ``options`` (defaults filled in by the engine), or
    None when the engine refuses them."""
    if options is not None and not isinstance(options, dict):
        return None
    return _played(game, json.dumps(options or {}, sort_keys=True))


#: Each game's options in words (its kit's ``option_words``).
OPTION_WORDS = KitTable("option_words")


def options_words(game: str, options: dict | None) -> list[str]:
    """The options a match plays, in words, the most telling first (the target); refused options
    are shown as they are (``key = value``), never hidden."""
    played = played_options(game, options)
    if played is None or game not in OPTION_WORDS:
        return [f"{k} = {v}" for k, v in (options or {}).items()] if isinstance(options, dict) else [str(options)]
    return OPTION_WORDS[game](played)


def options_text(game: str, options: dict | None) -> str:
    return " · ".join(options_words(game, options))


def clock_words(clock: dict | None) -> str:
    """A match's clock in words ("60 seconds a move, a 5-minute bank"; "2 days a move")."""
    if not clock:
        return gettext("no clock")
    if "move_days" in clock:
        return ngettext("%(n)d day a move", "%(n)d days a move", clock["move_days"]) % {"n": clock["move_days"]}
    text = ngettext("%(n)d second a move", "%(n)d seconds a move", clock["move_seconds"]) % {"n": clock["move_seconds"]}
    if clock.get("bank_seconds"):
        text += ", " + ngettext("a %(n)d-minute bank", "a %(n)d-minute bank", clock["bank_seconds"] // 60 or 1) % {
            "n": clock["bank_seconds"] // 60 or 1}
    return text


def clock_kind(clock: dict | None) -> str:
    """"none", "live" or "correspondence": what kind of match a person is asked to sit down to."""
    if not clock:
        return "none"
    return "correspondence" if "move_days" in clock else "live"


def _units(unit: str, n: int) -> str:
    if unit == "day":
        return npgettext("time left", "%(n)d day", "%(n)d days", n) % {"n": n}
    if unit == "hour":
        return npgettext("time left", "%(n)d hour", "%(n)d hours", n) % {"n": n}
    return npgettext("time left", "%(n)d minute", "%(n)d minutes", n) % {"n": n}


def duration_words(seconds: float, parts: int = 2) -> str:
    """A length of time in the site's own words, largest unit first ("2 days, 3 hours"; "23 hours,
    54 minutes"; with ``parts=1`` "2 days"), at least "1 minute": the countdowns' units, so that every
    language says them (Django's own ``timesince`` units are missing in Lithuanian)."""
    s = max(0, int(seconds))
    days, hours, minutes = s // 86400, s % 86400 // 3600, max(1, s % 3600 // 60) if s < 3600 else s % 3600 // 60
    units = [("day", days), ("hour", hours), ("minute", minutes)]
    first = next(i for i, (_unit, n) in enumerate(units) if n or i == 2)
    shown = [(u, n) for u, n in units[first:first + parts] if n]
    return ", ".join(_units(u, n) for u, n in shown)


def time_left(seconds: float) -> str:
    """A countdown as the turn banner shows it before its script ticks: "0:45", "12:05" under an
    hour; beyond, "23 hours, 54 minutes", "2 days, 3 hours"; never "0 minutes". static/js/table.js
    then says the same with ``Intl.NumberFormat``'s units in the page's language (CLDR's words: the
    catalogues translate these units as CLDR does, so the text does not change when the script starts)."""
    s = max(0, int(seconds))
    if s < 3600:
        return "%d:%02d" % (s // 60, s % 60)
    return duration_words(s)
