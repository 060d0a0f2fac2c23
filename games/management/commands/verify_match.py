"""``python manage.py verify_match ID [ID…]`` or ``--all-finished``: audit matches."""
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from games.models import Match
from games.records import match_verify


class Command(BaseCommand):
    help = "Check hash chains, seeds and full replays of matches; names the first bad event."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int)
        parser.add_argument("--all-finished", action="store_true", help="check every finished match")

    def handle(self, *args, ids, all_finished, **options):
        if not ids and not all_finished:
            raise CommandError(_("give match ids or --all-finished"))
        qs = Match.objects.filter(pk__in=ids) if ids else Match.objects.filter(status=Match.Status.FINISHED)
        found = {m.pk: m for m in qs.order_by("pk")}
        missing = sorted(set(ids) - set(found))
        bad = 0
        for match in found.values():
            report = match_verify(match)
            if report.verified:
                self.stdout.write(f"match {match.pk}: OK ({report.checked_events} events)")
            elif report.ok:
                self.stdout.write(f"match {match.pk}: chain only, not replayed ({report.checked_events} events)")
            else:
                bad += 1
                self.stdout.write(f"match {match.pk}: BAD at event {report.first_bad_seq}: {'; '.join(report.problems)}")
            for note in report.notes:
                self.stdout.write(f"  note: {note}")
        for pk in missing:
            self.stdout.write(f"match {pk}: not found")
        if bad or missing:
            raise CommandError(_("%(bad)d bad, %(missing)d missing") % {"bad": bad, "missing": len(missing)})
