"""``python manage.py match_export ID [-o FILE] [--text]``: an ended match's portable record (JSON, to
verify offline with ``python -m engine.verify FILE``), or its readable text form."""
import json

from django.core.management.base import BaseCommand, CommandError

from games.models import Match
from games.records import match_record, record_text


class Command(BaseCommand):
    help = "Write an ended match's record: JSON to verify offline (python -m engine.verify), or --text to read."

    def add_arguments(self, parser):
        parser.add_argument("match_id", type=int)
        parser.add_argument("-o", "--output", help="write to this file instead of standard output")
        parser.add_argument("--text", action="store_true", help="the readable form (header tags, moves in words)")

    def handle(self, *args, match_id, output, text, **options):
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"no match {match_id}")
        if not match.has_ended:
            raise CommandError(f"match {match_id} has not ended: its secret and hands are not public yet")
        content = record_text(match) if text else json.dumps(match_record(match), ensure_ascii=False, indent=1) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as f:
                f.write(content)
            self.stdout.write(f"match {match_id}: written to {output}")
        else:
            self.stdout.write(content, ending="")
