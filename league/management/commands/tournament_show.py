"""``manage.py tournament_show --tournament ID``: progress and standings (what the admin page shows)."""
from django.core.management.base import BaseCommand

from league.management.commands._common import progress_text, standings_text, tournament_of


class Command(BaseCommand):
    help = "Print a tournament's progress (x of y matches finished) and its standings."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        self.stdout.write(progress_text(t))
        self.stdout.write(standings_text(t))
