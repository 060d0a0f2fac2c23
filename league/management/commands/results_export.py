"""``manage.py results_export --tournament ID [--output FILE]``: results as CSV (the admin action's twin)."""
from django.core.management.base import BaseCommand

from league.management.commands._common import tournament_of, write_csv
from league.selectors import exports, rounds


class Command(BaseCommand):
    help = "Export a tournament's results (every seat of every table) as CSV (stdout or --output)."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)
        parser.add_argument("--output", default=None)

    def handle(self, *args, **o):
        write_csv(exports.results_csv_rows(rounds.tournament_rounds(tournament_of(o["tournament"]))), o["output"], self.stdout)
