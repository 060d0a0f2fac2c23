"""``manage.py no_shows_forfeit <tournament_id>`` (what the periodic sweep does for one tournament)."""
from django.core.management.base import BaseCommand

from league import services
from league.management.commands._common import domain_errors, tournament_of


class Command(BaseCommand):
    help = ("Forfeit the seats of the running round that people have not taken the tournament's no-show minutes "
            "after the round started; at its number of no-shows a player is withdrawn.")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id")

    def handle(self, *args, **o):
        t = tournament_of(o["tournament_id"])
        with domain_errors():
            n = services.no_shows_forfeit(tournament_id=t.pk)
        self.stdout.write(f"{t.name}: {n} no-show seat(s) forfeited")
