"""``python manage.py clocks_run [--every SECONDS]``: record the timeouts that are due (the twin of the
periodic ``games.clocks`` task), once, or in a loop."""
import time

from django.core.management.base import BaseCommand

from games.services import clocks_run


class Command(BaseCommand):
    help = "Record every timeout that is due: a bot's move or a resignation, as the match's rule says."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, default=0, help="repeat every this many seconds (0: once)")

    def handle(self, *args, every, **options):
        while True:
            recorded = clocks_run()
            if recorded or not every:
                self.stdout.write(f"{recorded} timeout(s) recorded")
            if not every:
                return
            time.sleep(every)
