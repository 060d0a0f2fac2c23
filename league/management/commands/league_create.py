"""``manage.py league_create --club SLUG --name NAME --game GAME [...]``"""
import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from games.models import Match
from league import services
from league.models import Club


class Command(BaseCommand):
    help = "Create a league: a club's competition for one game with its points and tie-break rules."

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="club slug")
        parser.add_argument("--name", required=True)
        parser.add_argument("--game", required=True)
        parser.add_argument("--options", default="{}", help='match options as JSON, e.g. {"target": 300}')
        parser.add_argument("--points", default=None, help="two seats: win,draw,loss (default 3,1,0)")
        parser.add_argument("--place-points", default=None,
                            help="3+ seats: points by place at a full table, e.g. 3,2,1,0 (default: first the "
                                 "win points, last the loss points, evenly between)")
        parser.add_argument("--bye-points", default=None)
        parser.add_argument("--tie-breaks", default=None, help="comma-separated order")
        parser.add_argument("--forfeit", choices=["award", "void"], default=None)
        parser.add_argument("--unplayed-rounds", choices=["virtual", "none"], default=None,
                            help="a round without an opponent (a bye, a rest, a forfeit) in Buchholz and "
                                 "Sonneborn-Berger: virtual (default; a virtual opponent with the player's own "
                                 "points, FIDE 2023) or none (it adds nothing)")
        parser.add_argument("--unrated", action="store_true")
        parser.add_argument("--clock", default=None,
                            help='the clock as JSON: live {"move_seconds": 60} (optionally "bank_seconds", '
                                 '"join_seconds") or correspondence {"move_days": 2}; default: no clock')
        parser.add_argument("--timeout-rule", choices=Match.TimeoutRule.values, default=None,
                            help="when a deadline passes: bot (a bot makes the move; three in a row and the seat is "
                                 "abandoned) or forfeit (the seat resigns); default: bot")

    def handle(self, *args, **o):
        club = Club.objects.filter(slug=o["club"]).first()
        if club is None:
            raise CommandError(f"no club {o['club']!r}")
        win = draw = loss = None
        if o["points"]:
            win, draw, loss = o["points"].split(",")
        try:
            league = services.league_create(
                club_id=club.pk, name=o["name"], game=o["game"], options=json.loads(o["options"]),
                win_points=win, draw_points=draw, loss_points=loss, bye_points=o["bye_points"],
                place_points=[float(v) for v in o["place_points"].split(",")] if o["place_points"] else None,
                tie_breaks=o["tie_breaks"].split(",") if o["tie_breaks"] else None, forfeit_rule=o["forfeit"],
                rated=not o["unrated"], clock=json.loads(o["clock"]) if o["clock"] else None,
                timeout_rule=o["timeout_rule"], unplayed_rounds=o["unplayed_rounds"])
        except (ValidationError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"league {league.pk}: {league}")
