"""``manage.py team_create --tournament ID --name NAME --entrants ID,ID[,…] [--club SLUG] [--seed N]``

A team of a tournament not started yet, with these entrants as its players in this order (a team match
seats them on boards 1, 2, …; a Karuselis pair sits as partners)."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from league import services
from league.management.commands._common import domain_errors
from league.models import Club


class Command(BaseCommand):
    help = "Create a team of a tournament from some of its entrants."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", type=int, required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--entrants", required=True, help="entrant ids, comma-separated, in board order")
        parser.add_argument("--club", default=None, help="the club's short name")
        parser.add_argument("--seed", type=int, default=None)

    def handle(self, *args, **o):
        try:
            entrants = [int(x) for x in o["entrants"].split(",") if x.strip()]
        except ValueError:
            raise CommandError("--entrants: entrant ids separated by commas") from None
        club = Club.objects.filter(slug=o["club"]).first() if o["club"] else None
        if o["club"] and club is None:
            raise CommandError(f"no club {o['club']!r}")
        with domain_errors():
            team = services.team_create(tournament_id=o["tournament"], name=o["name"], entrant_ids=entrants,
                                        club_id=club.pk if club else None, seed=o["seed"])
        names = ", ".join(team.members.order_by("seed").values_list("player__name", flat=True))
        self.stdout.write(f"team {team.pk}: {team.name} ({names})")
