"""``manage.py seat_forfeit --match ID --seat N`` (the twin of "forfeit the seat…" in the admin's progress panel)."""
from django.core.management.base import BaseCommand, CommandError

from games.errors import DomainError
from games.services import seat_forfeit


class Command(BaseCommand):
    help = ("Forfeit a person's seat (recorded as seat_forfeited): the seat resigns, ranks last, and a bot plays "
            "it on where the match goes on. `tournament_show` lists who a round waits for.")

    def add_arguments(self, parser):
        parser.add_argument("--match", type=int, required=True)
        parser.add_argument("--seat", type=int, required=True, help="the seat, counted from 0")

    def handle(self, *args, **o):
        try:
            match = seat_forfeit(match_id=o["match"], seat=o["seat"])
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        match.refresh_from_db()
        self.stdout.write(f"seat {o['seat']} of match {match.pk} forfeited; the match is {match.status}")
