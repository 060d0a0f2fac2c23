"""``manage.py entrant_withdraw --tournament ID --player NAME [--reason TEXT]`` (the admin action's twin)."""
from django.core.management.base import BaseCommand, CommandError

from league import services
from league.management.commands._common import domain_errors, tournament_of


class Command(BaseCommand):
    help = "Withdraw a player: not paired again; unplayed matches scored by the league's rule."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)
        parser.add_argument("--player", required=True, help="player profile name")
        parser.add_argument("--reason", default="")

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        entrant = t.entrants.filter(player__name=o["player"]).first()
        if entrant is None:
            raise CommandError(f"{o['player']!r} has not entered {t.name}")
        with domain_errors():
            w = services.entrant_withdraw(entrant_id=entrant.pk, reason=o["reason"])
        self.stdout.write(f"{o['player']} withdrawn from {t.name} (round {w.round_number})")
