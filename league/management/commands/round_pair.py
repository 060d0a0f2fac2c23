"""``manage.py round_pair --tournament ID``: generate the next round (the admin action's twin)."""
from django.core.management.base import BaseCommand

from league import services
from league.management.commands._common import domain_errors, tournament_of


class Command(BaseCommand):
    help = "Generate (pair) the next round of a tournament."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        with domain_errors():
            rnd = services.round_pair(tournament_id=t.pk)
        if rnd is None:
            self.stdout.write(f"{t.name}: no rounds left; the tournament has finished")
            return
        self.stdout.write(f"{t.name}: round {rnd.number} paired")
        for table in rnd.tables.prefetch_related("seats__entrant__player").order_by("number"):
            names = " - ".join(s.entrant.player.name for s in table.seats.order_by("position"))
            label = "bye" if table.kind == table.Kind.BYE else f"table {table.number}"
            self.stdout.write(f"  {label}: {names}")
