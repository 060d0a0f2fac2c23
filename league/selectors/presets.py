"""Presets for a new tournament's form: the built-in ones (``league.rules.presets``) and the clubs' own
(``TournamentPreset``) that the reader may use (the clubs they organise; every club for a superuser)."""
from __future__ import annotations

from typing import Any

from league.models import Tournament, TournamentPreset
from league.rules import presets


def _clubs_presets(user):
    found = TournamentPreset.objects.select_related("club").order_by("club__name", "name")
    if getattr(user, "is_superuser", False):
        return found
    if user is None or not getattr(user, "is_authenticated", False):
        return found.none()
    return found.filter(club__organisers=user)


def presets_for(user) -> list[dict[str, Any]]:
    """Every preset ``user`` may start from: ``key`` ("builtin:<name>" or "club:<id>"), ``label`` (a club's
    preset names its club), ``values``."""
    out = [{"key": f"builtin:{p.key}", "label": str(p.label), "values": dict(p.values), "club": None}
           for p in presets.BUILT_IN]
    for p in _clubs_presets(user):
        out.append({"key": f"club:{p.pk}", "label": f"{p.name} ({p.club.name})", "values": presets.kept(p.values),
                    "club": p.club})
    return out


def preset_values(key: str, user, *, any_club: bool = False) -> dict[str, Any] | None:
    """The values of the preset ``key`` if ``user`` may use it (None: no such preset for them);
    ``any_club``: any club's (the command line, run by the server's operator)."""
    kind, _sep, name = (key or "").partition(":")
    if kind == "builtin":
        found = presets.built_in(name)
        return dict(found.values) if found else None
    if kind == "club" and name.isdigit():
        found = TournamentPreset.objects.all() if any_club else _clubs_presets(user)
        preset = found.filter(pk=int(name)).first()
        return presets.kept(preset.values) if preset else None
    return None


def tournament_preset_values(tournament: Tournament) -> dict[str, Any]:
    """What a preset keeps of a tournament (its format and settings, table size, rounds, clock, rule,
    seeding and schedule), never its league, name, entrants or dates."""
    return {"format": tournament.format, "format_options": dict(tournament.format_options or {}),
            "seats_per_table": tournament.seats_per_table, "rounds": tournament.rounds,
            "clock": tournament.clock or None, "timeout_rule": tournament.timeout_rule,
            "auto_advance": tournament.auto_advance, "seeding": tournament.seeding,
            "days_between_rounds": tournament.days_between_rounds}
