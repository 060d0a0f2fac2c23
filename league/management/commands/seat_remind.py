"""``manage.py seat_remind --match ID --seat N`` (the twin of "remind…" in the admin's progress panel)."""
from django.core.management.base import BaseCommand, CommandError

from games.errors import DomainError
from league import services


class Command(BaseCommand):
    help = ("Remind the person a round waits for at a seat: a notice on their open pages and, if they take "
            "e-mails, an e-mail (at most once every few minutes per seat). `tournament_show` lists who a round "
            "waits for.")

    def add_arguments(self, parser):
        parser.add_argument("--match", type=int, required=True)
        parser.add_argument("--seat", type=int, required=True, help="the seat, counted from 0")

    def handle(self, *args, **o):
        try:
            reminder = services.seat_remind(match_id=o["match"], seat=o["seat"])
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        how = "by e-mail and on their pages" if reminder.emailed else "on their pages (no e-mail)"
        self.stdout.write(f"reminded {reminder.user.get_username()} {how}")
