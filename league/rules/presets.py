"""Built-in presets: named starts for a new tournament's form (a club saves its own as
``league.models.TournamentPreset``, with the same keys in its ``values``).

A preset's values are the tournament's own fields: ``format``, ``format_options`` (each format's settings:
"Groups then play-offs" stores ``group_size`` and ``advance`` for the ``groups_knockout`` format),
``seats_per_table``, ``rounds`` (None: set from the entrants), ``clock`` (``games.clock_rules``: "15+10" is a
15-minute bank per match plus 10 seconds a move), ``auto_advance``, ``seeding`` and ``days_between_rounds``
(0: every round the same day). The game's match options are not part of a preset: they are the league's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

#: The fields a preset may set (anything else in a saved preset is ignored).
KEYS = ("format", "format_options", "seats_per_table", "rounds", "clock", "timeout_rule", "auto_advance", "seeding",
        "days_between_rounds")


@dataclass(frozen=True)
class Preset:
    key: str
    label: Any
    values: dict[str, Any] = field(default_factory=dict)


BUILT_IN = (
    Preset("club-night-swiss", _("Club night Swiss: 5 rounds, 15+10 clock"), {
        "format": "swiss", "format_options": {}, "seats_per_table": 2, "rounds": 5,
        "clock": {"move_seconds": 10, "bank_seconds": 900}, "auto_advance": True, "seeding": "rating",
        "days_between_rounds": 0}),
    Preset("weekly-league", _("Weekly league"), {
        "format": "league", "format_options": {}, "seats_per_table": 2, "rounds": None,
        "clock": {"move_days": 2}, "auto_advance": False, "seeding": "rating", "days_between_rounds": 7}),
    Preset("knockout-cup", _("Knockout cup"), {
        "format": "knockout", "format_options": {}, "seats_per_table": 2, "rounds": None,
        "clock": {"move_seconds": 30, "bank_seconds": 300}, "auto_advance": True, "seeding": "rating",
        "days_between_rounds": 0}),
    Preset("groups-then-play-offs", _("Groups then play-offs"), {
        "format": "groups_knockout", "format_options": {"group_size": 4, "advance": 2}, "seats_per_table": 2,
        "rounds": None, "clock": {"move_seconds": 30, "bank_seconds": 300}, "auto_advance": True,
        "seeding": "rating", "days_between_rounds": 0}),
)


def built_in(key: str) -> Preset | None:
    return next((p for p in BUILT_IN if p.key == key), None)


def kept(values: dict[str, Any]) -> dict[str, Any]:
    """A preset's values, only the keys a preset may set."""
    return {k: v for k, v in values.items() if k in KEYS}
