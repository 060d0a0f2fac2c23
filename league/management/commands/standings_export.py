"""``manage.py standings_export --tournament ID [--output FILE]``: standings as CSV (the admin action's twin)."""
from django.core.management.base import BaseCommand

from league.management.commands._common import tournament_of, write_csv
from league.selectors import exports, standings


class Command(BaseCommand):
    help = "Export a tournament's standings as CSV (stdout or --output)."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)
        parser.add_argument("--output", default=None)

    def handle(self, *args, **o):
        write_csv(exports.standings_csv_rows(standings.standings(tournament_of(o["tournament"]))), o["output"], self.stdout)
