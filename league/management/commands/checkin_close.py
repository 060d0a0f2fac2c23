"""``manage.py checkin_close <tournament_id>`` (the twin of the admin's "Close check-in now")."""
from django.core.management.base import BaseCommand

from league import services
from league.management.commands._common import domain_errors, tournament_of


class Command(BaseCommand):
    help = ("Close a tournament's check-in: entrants who did not check in are dropped, and their places go to "
            "the people on the waiting list who checked in.")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id")

    def handle(self, *args, **o):
        t = tournament_of(o["tournament_id"])
        with domain_errors():
            result = services.checkin_close(tournament_id=t.pk)
        self.stdout.write(f"check-in of {t.name} closed; dropped: {', '.join(result['dropped']) or 'nobody'}; "
                          f"moved up: {', '.join(result['promoted']) or 'nobody'}")
