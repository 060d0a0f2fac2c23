"""``manage.py projections_rebuild``: standings and ratings folded again from scratch."""
from django.core.management.base import BaseCommand

from league import services


class Command(BaseCommand):
    help = "Forget standings and ratings and fold every decided table again from the match results."

    def handle(self, *args, **o):
        counts = services.projections_rebuild()
        self.stdout.write(f"standings: {counts['standings']} tables folded; ratings: {counts['ratings']} matches")
