"""``manage.py tournament_create --league ID --name NAME --format FORMAT [--seats N] [--rounds R] [...]``"""
import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from games.models import Match
from league import services
from league.formats import base as formats
from league.management.commands._common import domain_errors
from league.management.format_flags import add_format_flags, format_options
from league.models import Tournament
from league.selectors.presets import preset_values


class Command(BaseCommand):
    help = "Create a tournament taking entries (the admin's 'add tournament')."

    def add_arguments(self, parser):
        parser.add_argument("--league", type=int, required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--format", choices=formats.names(), default="swiss")
        parser.add_argument("--seats", type=int, default=2, help="seats per table")
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument("--season", type=int, default=None)
        parser.add_argument("--options", default=None, help="match options as JSON (default: the league's)")
        parser.add_argument("--manual", action="store_true", help="do not start rounds automatically")
        parser.add_argument("--seeding", choices=Tournament.Seeding.values, default="rating")
        parser.add_argument("--starts", type=date.fromisoformat, default=None)
        parser.add_argument("--clock", default=None,
                            help='the clock as JSON (default: the league\'s; null: no clock), e.g. '
                                 '{"move_seconds": 30, "bank_seconds": 300} or {"move_days": 1}')
        parser.add_argument("--timeout-rule", choices=Match.TimeoutRule.values, default=None,
                            help="when a deadline passes: bot or forfeit (default: the league's)")
        add_format_flags(parser)
        parser.add_argument("--preset", default=None,
                            help='start from a preset: "builtin:club-night-swiss", "builtin:weekly-league", '
                                 '"builtin:knockout-cup", "builtin:groups-then-play-offs" or a club\'s '
                                 '"club:ID"; a flag given with a value other than its default overrides it')
        parser.add_argument("--seeded-from", type=int, default=None,
                            help="with --seeding standings: the earlier tournament whose final standings seed it")

    def handle(self, *args, **o):
        preset = _preset(self, o)
        try:
            options = json.loads(o["options"]) if o["options"] else None
            clock = json.loads(o["clock"]) if o["clock"] is not None else services.LEAGUE_CLOCK
        except ValueError as exc:
            raise CommandError(f"not JSON: {exc}") from None
        with domain_errors():
            t = services.tournament_create(
                league_id=o["league"], name=o["name"], format=o["format"], seats_per_table=o["seats"],
                rounds=o["rounds"], season_id=o["season"], options=options,
                auto_advance=not o["manual"], seeding=o["seeding"], starts_on=o["starts"], clock=clock,
                timeout_rule=o["timeout_rule"],
                format_options={**preset.get("format_options", {}), **format_options(o)})
            extra = {"seeded_from_id": o["seeded_from"]} if o["seeded_from"] else {}
            extra.update({k: preset[k] for k in ("days_between_rounds",) if k in preset})
            if extra:
                Tournament.objects.filter(pk=t.pk).update(**extra)
        self.stdout.write(f"tournament {t.pk}: {t.name} ({t.get_format_display()}, {t.game_label})")


def _preset(command, o) -> dict:
    """Fill ``o`` from ``--preset`` where a flag was left at its default; the preset's values."""
    if not o.get("preset"):
        return {}
    values = preset_values(o["preset"], None, any_club=True)
    if values is None:
        raise CommandError(f"no preset {o['preset']!r}")
    flags = {"format": ("format", "swiss"), "seats_per_table": ("seats", 2), "rounds": ("rounds", None),
             "seeding": ("seeding", "rating"), "timeout_rule": ("timeout_rule", None)}
    for key, (flag, default) in flags.items():
        if key in values and o.get(flag) == default and values[key] is not None:
            o[flag] = values[key]
    if "auto_advance" in values and not o["manual"]:
        o["manual"] = not values["auto_advance"]
    if "clock" in values and o["clock"] is None:
        o["clock"] = json.dumps(values["clock"])
    return values
