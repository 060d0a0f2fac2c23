"""``manage.py season_create --league ID --name NAME [--starts YYYY-MM-DD] [--ends YYYY-MM-DD]``"""
from datetime import date

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from league import services


class Command(BaseCommand):
    help = "Create a season of a league."

    def add_arguments(self, parser):
        parser.add_argument("--league", type=int, required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--starts", type=date.fromisoformat, default=None)
        parser.add_argument("--ends", type=date.fromisoformat, default=None)

    def handle(self, *args, **o):
        try:
            season = services.season_create(league_id=o["league"], name=o["name"], starts_on=o["starts"],
                                            ends_on=o["ends"])
        except ValidationError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"season {season.pk}: {season}")
