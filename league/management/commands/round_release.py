"""``manage.py round_release <tournament_id> [--round N]``: release a drafted round (the draft page's
button's twin): its matches are created and its people told."""
from django.core.management.base import BaseCommand, CommandError

from league import services
from league.management.commands._common import domain_errors, progress_text, tournament_of


class Command(BaseCommand):
    help = "Release a drafted round (by default the latest): create its matches and notify its people."

    def add_arguments(self, parser):
        parser.add_argument("tournament")
        parser.add_argument("--round", type=int, dest="number")

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        rounds = t.round_set.order_by("-number")
        rnd = rounds.filter(number=o["number"]).first() if o["number"] else rounds.first()
        if rnd is None:
            raise CommandError("no such round: generate one first (round_pair)")
        with domain_errors():
            services.round_release(round_id=rnd.pk)
        t.refresh_from_db()
        self.stdout.write(f"round {rnd.number} released\n" + progress_text(t))
