"""Print every error code the server sends (``games.error_codes``), as the Markdown table in docs/api.md."""
from django.core.management.base import BaseCommand

from games import error_codes


class Command(BaseCommand):
    help = "Print every error code the server sends, with its status and meaning (the table in docs/api.md)."

    def handle(self, *args, **options):
        self.stdout.write(error_codes.markdown(), ending="")
