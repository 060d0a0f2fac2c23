"""``manage.py tournament_create --league ID --name NAME --format FORMAT [--seats N] [--rounds R] [...]``"""
import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from games.models import Match
from league import services
from league.formats import base as formats
from league.management.commands._common import domain_errors
from league.models import Tournament


def arena_options(o: dict) -> dict:
    """An arena's settings from ``--minutes`` and ``--streak``, those given."""
    return {key: o[key] for key in ("minutes", "streak") if o.get(key) is not None}


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
        parser.add_argument("--minutes", type=int, default=None, help="an arena's window, in minutes")
        parser.add_argument("--streak", type=int, default=None,
                            help="an arena's streak: wins in a row after which results score double (0: never)")

    def handle(self, *args, **o):
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
                timeout_rule=o["timeout_rule"], format_options=arena_options(o))
        self.stdout.write(f"tournament {t.pk}: {t.name} ({t.get_format_display()}, {t.game_label})")
