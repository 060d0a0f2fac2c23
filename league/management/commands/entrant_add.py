"""``manage.py entrant_add --tournament ID [--player NAME ...] [--user USERNAME ...] [--bots N --policy P]``"""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from engine.bots import POLICY_NAMES
from league import services
from league.management.commands._common import domain_errors, tournament_of
from league.models import PlayerProfile


class Command(BaseCommand):
    help = "Enter players (existing profiles, users, or new bots) into a tournament taking entries."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True)
        parser.add_argument("--player", action="append", default=[], help="player profile name; repeatable")
        parser.add_argument("--user", action="append", default=[], help="username; repeatable")
        parser.add_argument("--bots", type=int, default=0)
        parser.add_argument("--policy", default="mixed", choices=("mixed", *POLICY_NAMES),
                            help="a bot level (weakest first), or mixed: greedy and random in turn")

    def handle(self, *args, **o):
        t = tournament_of(o["tournament"])
        User = get_user_model()
        with domain_errors():
            for name in o["player"]:
                player = PlayerProfile.objects.filter(name=name).first()
                if player is None:
                    raise CommandError(f"no player {name!r}")
                services.entrant_add(tournament_id=t.pk, player_id=player.pk)
            for username in o["user"]:
                user = User.objects.filter(username=username).first()
                if user is None:
                    raise CommandError(f"no user {username!r}")
                services.entrant_add(tournament_id=t.pk, player_id=services.player_for_user(user=user).pk)
            if o["bots"]:
                services.bots_add(tournament_id=t.pk, count=o["bots"], policy=o["policy"])
        self.stdout.write(f"{t.name}: {t.entrants.count()} entrants")
