"""``manage.py tournament_sweep --tournament ID``: record missed finished matches (the admin action's twin)."""
from django.core.management.base import BaseCommand

from league import services
from league.management.commands._common import progress_text, tournament_of


class Command(BaseCommand):
    help = "Record every decided table not recorded yet and close rounds that are done."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        n = services.tournament_sweep(tournament_id=t.pk)
        t.refresh_from_db()
        self.stdout.write(f"{n} tables recorded. " + progress_text(t))
