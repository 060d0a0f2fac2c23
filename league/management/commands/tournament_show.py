"""``manage.py tournament_show --tournament ID``: terms, progress, who the round waits for and standings (what
the admin page shows)."""
from django.core.management.base import BaseCommand

from league.management.commands._common import progress_text, standings_text, terms_text, tournament_of, waiting_text


class Command(BaseCommand):
    help = ("Print a tournament's terms, its progress (x of y matches finished), who the current round waits for, "
            "and its standings.")

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        self.stdout.write(terms_text(t))
        self.stdout.write(progress_text(t))
        waiting = waiting_text(t)
        if waiting:
            self.stdout.write(waiting)
        self.stdout.write(standings_text(t))
