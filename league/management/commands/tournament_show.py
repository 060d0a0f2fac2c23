"""``manage.py tournament_show --tournament ID``: terms, progress, who the round waits for and standings (what
the admin page shows); ``--json``: the whole event as ``GET /api/tournaments/{id}`` serves it."""
import json

from django.core.management.base import BaseCommand

from league.management.commands._common import (
    progress_text,
    standings_text,
    team_standings_text,
    terms_text,
    tournament_of,
    waiting_text,
)
from league.selectors.event import event_document
from league.web.api import TournamentDetailOut


class Command(BaseCommand):
    help = ("Print a tournament's terms, its progress (x of y matches finished), who the current round waits for, "
            "and its standings.")

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)
        parser.add_argument("--json", action="store_true", help="The whole event as one JSON document (the API's).")

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        if o["json"]:
            document = TournamentDetailOut.model_validate(event_document(t)).model_dump(mode="json")
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
            return
        self.stdout.write(terms_text(t))
        self.stdout.write(progress_text(t))
        waiting = waiting_text(t)
        if waiting:
            self.stdout.write(waiting)
        self.stdout.write(standings_text(t))
        teams = team_standings_text(t)
        if teams:
            self.stdout.write(teams)
