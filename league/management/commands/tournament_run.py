"""``manage.py tournament_run --tournament ID [--sync] [--timeout S]``: run a tournament to its end."""
from django.core.management.base import BaseCommand, CommandError

from league.management.commands._common import domain_errors, standings_text, tournament_of
from league.management.commands.bot_tournament import run_to_end


class Command(BaseCommand):
    help = "Run a tournament to its end, through Celery (a worker must be running) or in this process (--sync)."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)
        parser.add_argument("--sync", action="store_true")
        parser.add_argument("--timeout", type=float, default=3600)

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        with domain_errors():
            t = run_to_end(t, sync=o["sync"], timeout=o["timeout"], out=self.stdout)
        self.stdout.write(standings_text(t))
        if t.status != t.Status.FINISHED:
            raise CommandError("the tournament did not finish in time")
