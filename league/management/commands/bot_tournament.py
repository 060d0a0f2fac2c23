"""``manage.py bot_tournament --game GAME --format FORMAT --players N [--rounds R]
[--seed S] [--sync]``

Creates a tournament of N bots (FORMAT: a format's name, ``league.formats``) in the "Bot arena"
club, one league per game, runs it to the end — through Celery (a worker must be running) or in this
process with ``--sync`` — and prints the final standings.

``--seed S`` derives every match's secret from S (``league.services.seeding``), so the same command
gives the same pairings, results, standings and match events again (ids, times and hashes aside):
for tests and demos only, since whoever knows S knows every deal.
"""
from __future__ import annotations

import time
from contextlib import nullcontext

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from engine import registry
from engine.bots import POLICY_NAMES, levels_for
from games.kits import GAME_LABELS
from league import services
from league.formats import base as formats
from league.management.commands._common import domain_errors, progress_text, standings_text
from league.management.format_flags import add_format_flags, format_options
from league.models import Club, League, Round, Tournament
from league.services.seeding import tournament_seeded


def run_to_end(tournament: Tournament, *, sync: bool, timeout: float, out, seed: str | None = None) -> Tournament:
    """Pair and start the first round if needed, then run in-process or watch the workers. With a
    ``seed`` the matches' secrets come from it (``tournament_seeded``): the matches are created here,
    so through Celery the tournament must not start its rounds itself (``auto_advance`` off)."""
    with tournament_seeded(tournament_id=tournament.pk, seed=seed) if seed else nullcontext():
        return _run_to_end(tournament, sync=sync, timeout=timeout, out=out)


def _run_to_end(tournament: Tournament, *, sync: bool, timeout: float, out) -> Tournament:
    if sync:
        return services.tournament_run(
            tournament_id=tournament.pk,
            on_round=lambda rnd: out.write(f"round {rnd.number} closed · {progress_text(rnd.tournament)}"))
    if tournament.status == Tournament.Status.DRAFT or not tournament.round_set.exists():
        services.round_pair(tournament_id=tournament.pk)
    latest = tournament.round_set.order_by("-number").first()
    if latest is not None and latest.status != Round.Status.CLOSED:
        services.round_start(round_id=latest.pk)
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        line = progress_text(tournament)
        if line != last:
            out.write(line)
            last = line
        if tournament.status == Tournament.Status.FINISHED:
            break
        latest = tournament.round_set.order_by("-number").first()
        if latest is not None and latest.status == Round.Status.PAIRED and not tournament.auto_advance:
            services.round_start(round_id=latest.pk)
        time.sleep(0.5)
    return tournament


class Command(BaseCommand):
    help = "Run a tournament of N bots to the end and print the final standings."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, choices=registry.names())
        parser.add_argument("--format", required=True, choices=formats.names())
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument("--seats", type=int, default=None, 
                            help="seats per table (default: 2, or the game's minimum)")
        parser.add_argument("--policy", default=None, choices=("mixed", *POLICY_NAMES),
                            help="a bot level (weakest first), or mixed: greedy and random in turn (the default "
                                 "where the game has greedy bots; else its weakest level)")
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                            help="a match option, e.g. target=200; repeatable")
        parser.add_argument("--seed", default=None,
                            help="derive every match's secret from this text, so that the same command gives the "
                                 "same tournament again (pairings, results, standings, match events). For tests "
                                 "and demos only: whoever knows the seed knows every deal")
        parser.add_argument("--team-size", type=int, default=None,
                            help="put the bots in teams of this many, in seed order (Karuselis at four seats: "
                                 "2, partners as teams; a team match: the boards)")
        parser.add_argument("--sync", action="store_true", help="run in this process instead of through Celery")
        parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the workers")
        add_format_flags(parser)

    def handle(self, *args, **o):
        game = o["game"]
        options = {}
        for item in o["option"]:
            key, _, value = item.partition("=")
            options[key] = int(value) if value.lstrip("-").isdigit() else value
        seats = o["seats"] or max(2, registry.get(game).MIN_SEATS)
        levels = levels_for(game)
        offered = (*levels, "mixed") if {"greedy", "random"} <= set(levels) else levels
        if o["policy"] is None:
            o["policy"] = "mixed" if "mixed" in offered else levels[0]
        if o["policy"] not in offered:
            raise CommandError(f"{game} has no {o['policy']} bots: choose from {', '.join(offered)}")
        if o["seed"] is not None and not o["seed"]:
            raise CommandError("--seed needs a non-empty text")
        with domain_errors():
            club = Club.objects.filter(slug="bot-arena").first() or services.club_create(
                name="Bot arena", slug="bot-arena", description="Tournaments of bots run from the command line.")
            league = League.objects.filter(club=club, game=game).first() or services.league_create(
                club_id=club.pk, name=f"{GAME_LABELS.get(game, game)} bots", game=game)
            name = f"{GAME_LABELS.get(game, game)} {o['format'].replace('_', ' ')} of {o['players']} bots · " \
                   f"{timezone.localtime():%Y-%m-%d %H:%M:%S}" + (f" · seed {o['seed']}" if o["seed"] else "")
            # seeded through Celery: this command starts every round, so that it derives the secrets
            tournament = services.tournament_create(league_id=league.pk, name=name[:120], format=o["format"],
                                                    seats_per_table=seats, rounds=o["rounds"], options=options,
                                                    seeding=Tournament.Seeding.ENTRY,
                                                    auto_advance=not (o["seed"] and not o["sync"]),
                                                    format_options=format_options(o))
            bots = services.bots_add(tournament_id=tournament.pk, count=o["players"], policy=o["policy"])
            for i in range(0, len(bots) if o["team_size"] else 0, o["team_size"] or 1):
                services.team_create(tournament_id=tournament.pk, name=f"Team {i // o['team_size'] + 1}",
                                     entrant_ids=[e.pk for e in bots[i:i + o["team_size"]]])
            self.stdout.write(f"tournament {tournament.pk}: {tournament.name}")
            started = time.monotonic()
            tournament = run_to_end(tournament, sync=o["sync"], timeout=o["timeout"], out=self.stdout,
                                    seed=o["seed"])
        self.stdout.write("")
        self.stdout.write(f"Final standings ({time.monotonic() - started:.1f}s):" if tournament.status ==
                          Tournament.Status.FINISHED else "Standings so far:")
        self.stdout.write(standings_text(tournament))
        if tournament.status != Tournament.Status.FINISHED:
            raise CommandError("the tournament did not finish in time (is a Celery worker running?)")
