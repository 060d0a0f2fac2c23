"""``manage.py tournament_create --league ID --name NAME --format FORMAT [--seats N] [--rounds R] [...]``"""
import json
from datetime import date

from django.core.management.base import BaseCommand

from league import services
from league.management.commands._common import domain_errors
from league.models import Tournament


class Command(BaseCommand):
    help = "Create a tournament taking entries (the admin's 'add tournament')."

    def add_arguments(self, parser):
        parser.add_argument("--league", type=int, required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--format", choices=Tournament.Format.values, default="swiss")
        parser.add_argument("--seats", type=int, default=2, help="seats per table")
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument("--season", type=int, default=None)
        parser.add_argument("--options", default=None, help="match options as JSON (default: the league's)")
        parser.add_argument("--manual", action="store_true", help="do not start rounds automatically")
        parser.add_argument("--seeding", choices=Tournament.Seeding.values, default="rating")
        parser.add_argument("--starts", type=date.fromisoformat, default=None)

    def handle(self, *args, **o):
        with domain_errors():
            t = services.tournament_create(
                league_id=o["league"], name=o["name"], format=o["format"], seats_per_table=o["seats"],
                rounds=o["rounds"], season_id=o["season"], options=json.loads(o["options"]) if o["options"] else None,
                auto_advance=not o["manual"], seeding=o["seeding"], starts_on=o["starts"])
        self.stdout.write(f"tournament {t.pk}: {t.name} ({t.get_format_display()}, {t.game_label})")
