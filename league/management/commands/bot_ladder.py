"""``manage.py bot_ladder --game GAME --matches N [--levels random,greedy,search] [--seed S] [--seats K]``

Plays each bot level against the one below it (``engine.bots.ladder``: engine only, no
database, nothing recorded) and prints the table: first places, their share with a 95%
interval, and the time per move of each level.
"""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from engine import registry
from engine.bots import POLICY_NAMES, ladder


def parse_levels(value: str) -> list[str]:
    levels = [level.strip() for level in value.split(",") if level.strip()]
    unknown = [level for level in levels if level not in POLICY_NAMES]
    if unknown:
        raise CommandError(f"unknown level(s) {', '.join(unknown)}: choose from {', '.join(POLICY_NAMES)}")
    if len(set(levels)) < 2:
        raise CommandError("name at least two levels")
    return levels


def parse_options(items: list[str]) -> dict:
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CommandError(f"an option is KEY=VALUE, not {item!r}")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    return options


class Command(BaseCommand):
    help = ("Play each bot level against the one below it and print the ladder: first places, their share "
            "with a 95% interval, and the time per move.")

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, choices=registry.names(), help="the game")
        parser.add_argument("--matches", type=int, default=40, help="matches per pair of levels (default: 40)")
        parser.add_argument("--levels", default=",".join(POLICY_NAMES),
                            help="the levels, comma-separated (default: all of them, weakest first: %(default)s)")
        parser.add_argument("--seed", default="ladder", help="the seed the matches' seeds derive from")
        parser.add_argument("--seats", type=int, default=None,
                            help="seats per match (default: 2, or the game's minimum)")
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                            help="a match option, e.g. target=200; repeatable")

    def handle(self, *args, **o):
        game = registry.get(o["game"])
        if o["matches"] < 1:
            raise CommandError("--matches must be at least 1")
        levels = parse_levels(o["levels"])
        seats = o["seats"]
        if seats is not None and not game.MIN_SEATS <= seats <= game.MAX_SEATS:
            raise CommandError(f"{o['game']} seats {game.MIN_SEATS} to {game.MAX_SEATS}, not {seats}")
        options = parse_options(o["option"])
        verbose = o["verbosity"] > 1

        def progress(row):
            if verbose:
                self.stderr.write(f"{row.level} against {row.opponent}: {row.matches} of {o['matches']} matches")

        try:
            rows = ladder.ladder(o["game"], levels, o["matches"], o["seed"], seats, options or None, progress)
        except ValueError as exc:          # an option the game refuses
            raise CommandError(str(exc)) from None
        self.stdout.write(ladder.table(rows))
