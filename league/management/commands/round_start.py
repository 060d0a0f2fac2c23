"""``manage.py round_start --tournament ID``: start the current round's matches (the admin action's twin)."""
from django.core.management.base import BaseCommand, CommandError

from league import services
from league.management.commands._common import domain_errors, progress_text, tournament_of


class Command(BaseCommand):
    help = "Start the current round's matches; a Celery worker plays the bots' moves."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        rnd = t.round_set.order_by("-number").first()
        if rnd is None:
            raise CommandError("generate a round first (round_pair)")
        with domain_errors():
            services.round_start(round_id=rnd.pk)
        t.refresh_from_db()
        self.stdout.write(progress_text(t))
