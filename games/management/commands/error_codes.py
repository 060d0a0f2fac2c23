"""Print every error code the server sends (``games.error_codes``), as the README's Markdown table."""
from django.core.management.base import BaseCommand

from games import error_codes


class Command(BaseCommand):
    help = "Print every error code the server sends, with its status and meaning (the README's table)."

    def handle(self, *args, **options):
        self.stdout.write(error_codes.markdown(), ending="")
