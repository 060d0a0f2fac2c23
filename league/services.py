"""League services: the only writers of clubs, tournaments, rounds, tables and projections.

The life of a round:
1. ``round_pair`` (tournament row locked) builds the next round's tables with
   ``league.pairing`` from what the closed rounds recorded.
2. ``round_start`` creates each table's match (``table_match_create``: once,
   under the table's row lock) and enqueues one ``league.table_play`` task per
   match on commit.
3. ``table_run`` (the task's body) lets the bots play (``games.services.bots_advance``)
   until no bot is to act; a person's moves come through the match page.
4. When a match ends, ``games`` sends ``match_finished`` on commit and the
   receiver calls ``match_result_record`` → ``table_record``: fold the table
   into the standings and the ratings (each remembered in ``Folded``), then
   ``round_close``: with the round row locked, if every table is folded, close
   it and pair the next round — exactly once, whoever gets there first.
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from typing import Iterable, Sequence

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine import registry
from engine.bots import policies_for
from games.errors import DomainError
from games.models import Match
from games.services import SeatSpec, bots_advance, match_abort, match_create
from league import pairing, selectors
from league.models import (Club, Entrant, Folded, League, PlayerProfile, Rating, RatingHistory, Round, Season,
                           Standing, Table, TableSeat, Tournament, Withdrawal)

CENT = Decimal("0.01")


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class LeagueError(DomainError):
    """A refused league operation, with a stable code."""
    code = "league_error"


class InvalidTournament(LeagueError):
    code = "invalid_tournament"


class NotTakingEntries(LeagueError):
    code = "not_taking_entries"
    status = 409
    message = _("The tournament has started: entries are closed.")


class AlreadyEntered(LeagueError):
    code = "already_entered"
    status = 409
    message = _("That player has already entered.")


class RoundNotClosed(LeagueError):
    code = "round_not_closed"
    status = 409
    message = _("The current round has not finished yet.")


class TournamentFinished(LeagueError):
    code = "tournament_finished"
    status = 409
    message = _("The tournament has finished.")


class NotEnoughPlayers(LeagueError):
    code = "not_enough_players"
    status = 409
    message = _("Not enough players to pair a round.")


class AlreadyWithdrawn(LeagueError):
    code = "already_withdrawn"
    status = 409
    message = _("That entrant has already withdrawn.")


class WaitingForPeople(LeagueError):
    code = "waiting_for_people"
    status = 409
    message = _("The round is waiting for people to play their matches.")


# ---------------------------------------------------------------------------
# Running in this process (``--sync``, demo data) instead of through the broker
# ---------------------------------------------------------------------------

_inline: ContextVar[bool] = ContextVar("league_inline", default=False)


@contextmanager
def inline_execution():
    """Run tasks in this process: league tasks are left to the caller's loop and
    Celery runs eagerly (the bots' own tasks), so nothing goes to the broker."""
    from league.celery import app

    token = _inline.set(True)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = eager
        _inline.reset(token)


def _enqueue_tables(table_ids: Iterable[int]) -> None:
    """One ``league.table_play`` task per table, sent when the transaction commits."""
    if _inline.get():
        return
    from league import tasks

    for table_id in table_ids:
        transaction.on_commit(partial(tasks.table_play.delay, table_id))


# ---------------------------------------------------------------------------
# Clubs, players, leagues, seasons
# ---------------------------------------------------------------------------

@transaction.atomic
def club_create(*, name: str, slug: str, description: str = "", organisers: Sequence = (),
                members: Sequence = ()) -> Club:
    club = Club(name=name, slug=slug, description=description)
    club.full_clean()
    club.save()
    club.organisers.set(organisers)
    club.members.set(set(members) | set(organisers))
    return club


@transaction.atomic
def league_create(*, club_id: int, name: str, game: str, options: dict | None = None,
                  win_points=None, draw_points=None, loss_points=None, place_points: list | None = None,
                  bye_points=None, tie_breaks: list[str] | None = None, forfeit_rule: str | None = None,
                  rated: bool = True) -> League:
    league = League(club_id=club_id, name=name, game=game, options=options or {}, rated=rated)
    for field, value in (("win_points", win_points), ("draw_points", draw_points), ("loss_points", loss_points),
                         ("bye_points", bye_points), ("place_points", place_points), ("tie_breaks", tie_breaks),
                         ("forfeit_rule", forfeit_rule)):
        if value is not None:
            setattr(league, field, value)
    league.full_clean()
    league.save()
    return league


@transaction.atomic
def season_create(*, league_id: int, name: str, starts_on=None, ends_on=None) -> Season:
    season = Season(league_id=league_id, name=name, starts_on=starts_on, ends_on=ends_on)
    season.full_clean()
    season.save()
    return season


@transaction.atomic
def player_for_user(*, user) -> PlayerProfile:
    """The user's player profile, created on first use (named after the user)."""
    found = PlayerProfile.objects.filter(user=user).first()
    if found:
        return found
    name = _free_name(user.get_username())
    return PlayerProfile.objects.create(user=user, name=name)


@transaction.atomic
def player_bot_create(*, name: str, policy: str = "greedy", strength: int = 1, club_id: int | None = None
                      ) -> PlayerProfile:
    bot = PlayerProfile(name=name, bot_policy=policy, bot_strength=strength, club_id=club_id)
    bot.full_clean()
    bot.save()
    return bot


@transaction.atomic
def bots_ensure(*, count: int, policy: str = "mixed", exclude: Iterable[int] = ()) -> list[PlayerProfile]:
    """``count`` bot players (created as needed), skipping the ids in ``exclude``.

    Bots are named "<policy> bot NN" and reused, so their ratings carry over.
    ``mixed`` alternates greedy and random.
    """
    exclude = set(exclude)
    out: list[PlayerProfile] = []
    i = 0
    while len(out) < count:
        i += 1
        this = ("greedy", "random")[(len(out)) % 2] if policy == "mixed" else policy
        name = f"{this.capitalize()} bot {i:02d}"
        bot = PlayerProfile.objects.filter(name=name).first()
        if bot is None:
            bot = PlayerProfile.objects.create(name=name, bot_policy=this)
        if bot.pk in exclude or not bot.is_bot:
            continue
        exclude.add(bot.pk)
        out.append(bot)
    return out


def _free_name(base: str) -> str:
    name, n = base, 1
    while PlayerProfile.objects.filter(name=name).exists():
        n += 1
        name = f"{base} {n}"
    return name


# ---------------------------------------------------------------------------
# Tournaments and entrants
# ---------------------------------------------------------------------------

@transaction.atomic
def tournament_create(*, league_id: int, name: str, format: str = Tournament.Format.SWISS, seats_per_table: int = 2,
                      rounds: int | None = None, season_id: int | None = None, options: dict | None = None,
                      auto_advance: bool = True, seeding: str = Tournament.Seeding.RATING, starts_on=None,
                      days_between_rounds: int = 7, created_by=None) -> Tournament:
    """A tournament of the league's game, taking entries (``draft``)."""
    from django.core.exceptions import ValidationError

    league = League.objects.get(pk=league_id)
    season = Season.objects.filter(pk=season_id).first() if season_id else None
    tournament = Tournament(
        league=league, season=season, name=name, format=format, game=league.game,
        options=dict(league.options if options is None else options), seats_per_table=seats_per_table,
        rounds=rounds, auto_advance=auto_advance, seeding=seeding,
        starts_on=starts_on or (season.starts_on if season else None), days_between_rounds=days_between_rounds,
        created_by=created_by)
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise InvalidTournament("; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in exc.message_dict.items()))
    tournament.save()
    return tournament


@transaction.atomic
def entrant_add(*, tournament_id: int, player_id: int) -> Entrant:
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
    if tournament.status != Tournament.Status.DRAFT:
        raise NotTakingEntries()
    if tournament.entrants.filter(player_id=player_id).exists():
        raise AlreadyEntered()
    seed = tournament.entrants.count() + 1
    try:
        with transaction.atomic():
            return Entrant.objects.create(tournament=tournament, player_id=player_id, seed=seed)
    except IntegrityError:
        raise AlreadyEntered() from None


@transaction.atomic
def entrant_remove(*, entrant_id: int) -> None:
    entrant = Entrant.objects.select_related("tournament").get(pk=entrant_id)
    Tournament.objects.select_for_update(of=("self",)).get(pk=entrant.tournament_id)
    if entrant.tournament.status != Tournament.Status.DRAFT:
        raise NotTakingEntries()
    entrant.delete()


@transaction.atomic
def bots_add(*, tournament_id: int, count: int, policy: str = "mixed") -> list[Entrant]:
    """Enter ``count`` bots (new or reused) into a tournament taking entries."""
    Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
    taken = Entrant.objects.filter(tournament_id=tournament_id).values_list("player_id", flat=True)
    return [entrant_add(tournament_id=tournament_id, player_id=bot.pk)
            for bot in bots_ensure(count=count, policy=policy, exclude=taken)]


@transaction.atomic
def entrant_withdraw(*, entrant_id: int, reason: str = "", by=None) -> Withdrawal:
    """Withdraw an entrant: not paired again; unplayed tables scored by the league's rule.

    A table of a paired or running round that holds the entrant marks their seat
    forfeited; a running match there is aborted and the table is decided at once.
    """
    entrant = Entrant.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=entrant_id)
    if Withdrawal.objects.filter(entrant=entrant).exists():
        raise AlreadyWithdrawn()
    tournament = entrant.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentFinished()
    current = tournament.round_set.order_by("-number").values_list("number", flat=True).first() or 0
    withdrawal = Withdrawal.objects.create(entrant=entrant, round_number=current, reason=reason, created_by=by)
    open_seats = (TableSeat.objects.filter(entrant=entrant,
                                           table__round__status__in=[Round.Status.PAIRED, Round.Status.RUNNING])
                  .exclude(table__folds__projection=Folded.Projection.STANDINGS)
                  .select_related("table__round", "table__match"))
    for seat in open_seats:
        table = seat.table
        if table.match_id and table.match.status == Match.Status.FINISHED:
            continue  # played to the end: the result stands
        seat.forfeited = True
        seat.save(update_fields=["forfeited"])
        if table.match_id and table.match.is_running:
            match_abort(match_id=table.match_id)
        if table.round.status == Round.Status.RUNNING:
            table_record(table_id=table.pk)
    return withdrawal


# ---------------------------------------------------------------------------
# Scoring rules (pure)
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    """How a table's outcome turns into points, from the league and the tournament."""
    two_seat: bool = True
    win: Decimal = Decimal(3)
    draw: Decimal = Decimal(1)
    loss: Decimal = Decimal(0)
    place_points: tuple[Decimal, ...] = ()
    bye_points: Decimal = Decimal(3)
    forfeit_rule: str = "award"

    @classmethod
    def of(cls, tournament: Tournament) -> "Rules":
        league = tournament.league
        return cls(two_seat=tournament.seats_per_table == 2, win=league.win_points, draw=league.draw_points,
                   loss=league.loss_points, place_points=tuple(Decimal(str(v)) for v in league.place_points),
                   bye_points=league.bye_points if tournament.format == Tournament.Format.SWISS else Decimal(0),
                   forfeit_rule=league.forfeit_rule)

    def by_place(self, n: int) -> list[Decimal]:
        """Points for places 1..n: win/loss for two seats, else the league's list or n-1 … 0."""
        if self.two_seat and n == 2:
            return [self.win, self.loss]
        if len(self.place_points) >= n:
            return list(self.place_points[:n])
        return [Decimal(n - 1 - i) for i in range(n)]

    def shared(self, n: int, place: int, size: int) -> Decimal:
        """Points for ``size`` seats tied at ``place`` (1-based) of ``n``: the mean of the places covered.
        Two seats tied at a two-seat table score a draw."""
        if self.two_seat and n == 2 and size == 2:
            return self.draw
        covered = self.by_place(n)[place - 1:place - 1 + size]
        return (sum(covered, Decimal(0)) / len(covered)).quantize(CENT, ROUND_HALF_UP)


@dataclass(frozen=True)
class SeatScore:
    entrant_id: int
    place: int | None
    points: Decimal
    game_points: int | None = None
    result: str | None = None      # "win" | "draw" | "loss" | None (not played)
    bye: bool = False
    forfeited: bool = False


@dataclass(frozen=True)
class SeatIn:
    entrant_id: int
    match_seat: int | None
    forfeited: bool


def table_scores(*, kind: str, seats: Sequence[SeatIn], result: dict | None, rules: Rules) -> list[SeatScore]:
    """Score one decided table.

    - a bye: the bye points (Swiss) or nothing (a rest);
    - a finished match: places from its ranking, tied seats sharing the points of
      the places they cover; a forfeited seat (withdrawn before the match) comes
      last under the ``award`` rule, and scores nothing under ``void``;
    - no match (or an aborted one): under ``award`` the players left share the
      places above the forfeited ones; under ``void`` (or with nobody forfeited)
      nobody scores.
    """
    if kind == Table.Kind.BYE:
        return [SeatScore(s.entrant_id, None, Decimal(0), forfeited=True) if s.forfeited else
                SeatScore(s.entrant_id, None, rules.bye_points, bye=True) for s in seats]
    by_seat = {s.match_seat: s.entrant_id for s in seats if s.match_seat is not None}
    # who forfeited this table: withdrawn and not ranked by a finished match
    forfeiters = [s.entrant_id for s in seats if s.forfeited and (result is None or s.match_seat is None)]
    award = rules.forfeit_rule == "award"
    if result is not None:
        groups = [[by_seat[seat] for seat in group] for group in result["ranking"]]
        game_points = {by_seat[seat]: score for seat, score in enumerate(result.get("scores") or []) if seat in by_seat}
    else:
        players = [s.entrant_id for s in seats if not s.forfeited]
        groups = [players] if (forfeiters and award and players) else []
        game_points = {}
    if award and forfeiters and groups:
        groups = groups + [forfeiters]
    n = sum(len(g) for g in groups)
    out: dict[int, SeatScore] = {}
    place = 1
    for group in groups:
        points = rules.shared(n, place, len(group))
        for e in group:
            outcome = "loss" if (place > 1 or e in forfeiters) else ("win" if len(group) == 1 else "draw")
            out[e] = SeatScore(e, place, points, game_points.get(e), outcome, forfeited=e in forfeiters)
        place += len(group)
    for s in seats:
        if s.entrant_id not in out:
            out[s.entrant_id] = SeatScore(s.entrant_id, None, Decimal(0), forfeited=s.forfeited)
    return [out[s.entrant_id] for s in seats]


# ---------------------------------------------------------------------------
# Pairing rounds
# ---------------------------------------------------------------------------

def planned_rounds(tournament: Tournament, field: int) -> int:
    seats = tournament.seats_per_table
    min_seats = _min_seats(tournament)
    if tournament.is_round_robin:
        return len(pairing.round_robin(field, seats, min_seats, double=_double(tournament)))
    if tournament.format == Tournament.Format.KNOCKOUT:
        return pairing.knockout_rounds(field, seats)
    return tournament.rounds or max(1, math.ceil(math.log2(max(field, 2))))


def _double(tournament: Tournament) -> bool:
    return tournament.format in (Tournament.Format.DOUBLE_ROUND_ROBIN, Tournament.Format.LEAGUE)


def _min_seats(tournament: Tournament) -> int:
    return max(2, registry.get(tournament.game).MIN_SEATS)


def _withdrawn(tournament: Tournament) -> dict[int, int]:
    """entrant id → round number in which it withdrew."""
    return dict(Withdrawal.objects.filter(entrant__tournament=tournament).values_list("entrant_id", "round_number"))


@transaction.atomic
def round_pair(*, tournament_id: int) -> Round | None:
    """Pair the next round from what the closed rounds recorded (None: the tournament is over).

    The tournament row is locked; the unique (tournament, number) constraint
    backs up "exactly once".
    """
    tournament = (Tournament.objects.select_for_update(of=("self",)).select_related("league", "season")
                  .get(pk=tournament_id))
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentFinished()
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise RoundNotClosed(number=last.number)
    number = (last.number if last else 0) + 1
    withdrawn = _withdrawn(tournament)
    entrants = list(tournament.entrants.select_related("player").order_by("seed", "pk"))
    if number == 1:
        entrants = _seed(tournament, entrants, withdrawn)
        field = [e for e in entrants if e.pk not in withdrawn]
        if len(field) < _min_seats(tournament):
            raise NotEnoughPlayers()
        tournament.rounds = planned_rounds(tournament, len(field))
        tournament.status, tournament.started_at = Tournament.Status.RUNNING, timezone.now()
        tournament.save(update_fields=["rounds", "status", "started_at"])
        Standing.objects.bulk_create([Standing(tournament=tournament, entrant=e) for e in entrants],
                                     ignore_conflicts=True)
    if number > (tournament.rounds or 0):
        _tournament_finish(tournament)
        return None
    tables = _pair(tournament, number, entrants, withdrawn)
    if tables is None:
        _tournament_finish(tournament)
        return None
    rnd = Round.objects.create(tournament=tournament, number=number, scheduled_on=_scheduled_on(tournament, number))
    for table_number, kind, seated in tables:
        table = Table.objects.create(round=rnd, number=table_number, kind=kind)
        TableSeat.objects.bulk_create([TableSeat(table=table, entrant_id=e, position=p, forfeited=e in withdrawn)
                                       for p, e in enumerate(seated)])
    return rnd


def _scheduled_on(tournament: Tournament, number: int):
    if tournament.starts_on is None:
        return None
    return tournament.starts_on + timedelta(days=tournament.days_between_rounds * (number - 1))


def _seed(tournament: Tournament, entrants: list[Entrant], withdrawn: dict) -> list[Entrant]:
    """Seeds 1..n for those present at the start (by rating or by entry), the rest after."""
    order = {e.pk: i for i, e in enumerate(sorted(entrants, key=lambda e: (e.seed, e.pk)))}
    strength: dict[int, float] = {}
    if tournament.seeding == Tournament.Seeding.RATING:
        for r in Rating.objects.filter(game=tournament.game, player__in=[e.player_id for e in entrants]):
            strength[r.player_id] = r.ordinal

    def key(e: Entrant):
        # the unrated count as a fresh rating (ordinal 0)
        return (e.pk in withdrawn, -strength.get(e.player_id, 0.0), order[e.pk])

    ranked = sorted(entrants, key=key)
    for i, e in enumerate(ranked, start=1):
        if e.seed != i:
            e.seed = i
            e.save(update_fields=["seed"])
    return ranked


def _pair(tournament: Tournament, number: int, entrants: list[Entrant], withdrawn: dict):
    """The next round's tables as [(table number, kind, [entrant ids in seat order])], or None
    when nobody is left to pair."""
    seats, min_seats = tournament.seats_per_table, _min_seats(tournament)
    if tournament.is_round_robin:
        field = [e.pk for e in sorted(entrants, key=lambda e: e.seed) if withdrawn.get(e.pk, 1) != 0]
        schedule = pairing.round_robin(len(field), seats, min_seats, double=_double(tournament))
        this = schedule[number - 1]
        return _numbered([(Table.Kind.MATCH, [field[i] for i in t]) for t in this.tables]
                         + [(Table.Kind.BYE, [field[i]]) for i in this.byes])
    if tournament.format == Tournament.Format.KNOCKOUT:
        return _pair_knockout(tournament, number, entrants, withdrawn)
    return _pair_swiss(tournament, entrants, withdrawn)


def _pair_swiss(tournament: Tournament, entrants: list[Entrant], withdrawn: dict):
    active = [e for e in entrants if e.pk not in withdrawn]
    if len(active) < _min_seats(tournament):
        return None
    order = {eid: i for i, eid in enumerate(selectors.ranked_entrant_ids(tournament))}
    active.sort(key=lambda e: (order.get(e.pk, 10 ** 6), e.seed))
    points = dict(Standing.objects.filter(tournament=tournament).values_list("entrant_id", "points"))
    history = _history(tournament)
    contenders = [pairing.Contender(e.pk, int((points.get(e.pk) or 0) * 100), tuple(history["opponents"][e.pk]),
                                    history["byes"][e.pk], tuple(history["seats"][e.pk])) for e in active]
    if tournament.seats_per_table == 2:
        result = pairing.swiss_pairs(contenders)
    else:
        result = pairing.swiss_tables(contenders, tournament.seats_per_table, _min_seats(tournament))
    return _numbered([(Table.Kind.MATCH, list(t)) for t in result.tables]
                     + [(Table.Kind.BYE, [b]) for b in result.byes])


def _numbered(tables: list) -> list:
    return [(i, kind, seated) for i, (kind, seated) in enumerate(tables, start=1)]


def _history(tournament: Tournament) -> dict:
    """Who met whom, byes and seats held, from the closed rounds."""
    from collections import defaultdict

    rows = (TableSeat.objects.filter(table__round__tournament=tournament, table__round__status=Round.Status.CLOSED)
            .order_by("table__round__number", "table__number", "position")
            .values_list("table_id", "table__kind", "entrant_id", "match_seat"))
    tables: dict[int, list] = defaultdict(list)
    out = {"opponents": defaultdict(list), "byes": defaultdict(int), "seats": defaultdict(list)}
    for table_id, kind, entrant_id, match_seat in rows:
        tables[table_id].append((kind, entrant_id, match_seat))
    for members in tables.values():
        for kind, entrant_id, match_seat in members:
            if kind == Table.Kind.BYE:
                out["byes"][entrant_id] += 1
                continue
            out["opponents"][entrant_id] += [other for _, other, _ in members if other != entrant_id]
            if match_seat is not None:
                out["seats"][entrant_id].append(match_seat)
    return out


def _pair_knockout(tournament: Tournament, number: int, entrants: list[Entrant], withdrawn: dict):
    seats = tournament.seats_per_table
    if number == 1:
        field = [e for e in sorted(entrants, key=lambda e: e.seed) if e.pk not in withdrawn]
        slots = pairing.knockout_slots(len(field), seats)
        groups = [[field[s - 1].pk for s in slot if s is not None] for slot in slots]
        min_seats = _min_seats(tournament)
        if any(1 < len(g) < min_seats for g in groups):
            raise InvalidTournament(_("With %(n)s players some first-round tables would have fewer than %(min)s "
                                      "seats; add or remove players.") % {"n": len(field), "min": min_seats})
    else:
        previous = Round.objects.get(tournament=tournament, number=number - 1)
        winners_by_number = {t.number: selectors.table_winner(t) for t in previous.tables.select_related(
            "round__tournament")}
        last = max(winners_by_number, default=0)
        winners = [winners_by_number.get(i) for i in range(1, last + 1)]
        groups = [[w for w in slot if w is not None] for slot in pairing.knockout_next(winners, seats)]
    # a table keeps its bracket position as its number, so the next round can find it
    return [(i, Table.Kind.BYE if len(group) == 1 else Table.Kind.MATCH, group)
            for i, group in enumerate(groups, start=1) if group]


def _tournament_finish(tournament: Tournament) -> None:
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, timezone.now()
    tournament.save(update_fields=["status", "finished_at"])


# ---------------------------------------------------------------------------
# Starting rounds and running tables
# ---------------------------------------------------------------------------

def _needs_match(table: Table, seats: Sequence[TableSeat] | None = None) -> bool:
    if table.kind != Table.Kind.MATCH:
        return False
    seats = seats if seats is not None else list(table.seats.all())
    players = sum(1 for s in seats if not s.forfeited)
    return players >= _min_seats(table.round.tournament)


@transaction.atomic
def round_start(*, round_id: int) -> Round:
    """Start a paired round: create its matches, decide byes and forfeits, enqueue a task per match.

    On a round already running it enqueues the tables still undecided again
    (the tasks are idempotent), so it also restarts a stalled round.
    """
    rnd = Round.objects.select_for_update(of=("self",)).select_related("tournament__league").get(pk=round_id)
    if rnd.status == Round.Status.CLOSED:
        return rnd
    if rnd.status == Round.Status.RUNNING:
        pending = (rnd.tables.filter(kind=Table.Kind.MATCH)
                   .exclude(folds__projection=Folded.Projection.STANDINGS).values_list("pk", flat=True))
        _enqueue_tables(list(pending))
        return rnd
    rnd.status, rnd.started_at = Round.Status.RUNNING, timezone.now()
    rnd.save(update_fields=["status", "started_at"])
    to_play, decided = [], []
    for table in rnd.tables.select_related("round__tournament").prefetch_related("seats"):
        if _needs_match(table, list(table.seats.all())):
            table_match_create(table_id=table.pk)
            to_play.append(table.pk)
        else:
            decided.append(table.pk)
    for table_id in decided:
        table_record(table_id=table_id)
    _enqueue_tables(to_play)
    return rnd


def _policy(game: str, policy: str) -> str:
    return policy if policy in policies_for(game) else "random"


@transaction.atomic
def table_match_create(*, table_id: int) -> Match | None:
    """The table's match, created once under the table's row lock (None: no match to play)."""
    table = (Table.objects.select_for_update(of=("self",)).select_related("round__tournament", "match")
             .get(pk=table_id))
    if table.match_id:
        return table.match
    if table.round.status != Round.Status.RUNNING:
        return None
    seats = list(table.seats.select_related("entrant__player__user").order_by("position"))
    if not _needs_match(table, seats):
        return None
    tournament = table.round.tournament
    playing = [s for s in seats if not s.forfeited]
    specs = []
    for s in playing:
        player = s.entrant.player
        if player.is_bot:
            specs.append(SeatSpec(bot=_policy(tournament.game, player.bot_policy), name=player.name))
        else:
            specs.append(SeatSpec(user=player.user, name=player.name))
    # the table's task runs the bots (``table_run``), so the match does not wake them itself
    match = match_create(game=tournament.game, seats=specs, options=tournament.options,
                         created_by=tournament.created_by, wake_bots=False)
    for i, s in enumerate(playing):
        s.match_seat = i
        s.save(update_fields=["match_seat"])
    table.match = match
    table.save(update_fields=["match"])
    return match


def table_run(*, table_id: int) -> bool:
    """Play a table: create its match if needed, let the bots move until none is to act,
    and record the result if the match ended. Idempotent: a repeated or
    redelivered run continues from the recorded events. True if the table is decided."""
    match = table_match_create(table_id=table_id)
    if match is not None:
        while True:
            _, more = bots_advance(match_id=match.pk, budget=settings.CARDLEAGUE_BOT_MOVES_PER_TASK)
            if not more:
                break
            if not _inline.get():
                # a task does bounded work (it stays well inside the broker's visibility timeout)
                # and hands the rest of the match on to a fresh task
                _enqueue_tables([table_id])
                return False
    table_record(table_id=table_id)
    return Folded.objects.filter(projection=Folded.Projection.STANDINGS, table_id=table_id).exists()


def match_result_record(*, match_id: int) -> bool:
    """A match ended: record its table, if it belongs to one (the ``match_finished`` receiver)."""
    table_id = Table.objects.filter(match_id=match_id).values_list("pk", flat=True).first()
    if table_id is None:
        return False
    return table_record(table_id=table_id)


def _decided(table: Table, seats: Sequence[TableSeat]) -> bool:
    if table.kind == Table.Kind.BYE:
        return True
    if table.match_id:
        return not table.match.is_running
    return not _needs_match(table, seats)


@transaction.atomic
def table_record(*, table_id: int) -> bool:
    """Fold a decided table into the standings and the ratings, then close the round if it
    was the last. True if the standings folded it now (False: not decided, or folded before)."""
    table = Table.objects.select_for_update(of=("self",)).select_related("round").get(pk=table_id)
    if table.round.status != Round.Status.RUNNING:
        return False
    folded = standings_apply(table_id=table_id)
    if folded:
        rating_apply(table_id=table_id)
        round_close(round_id=table.round_id)
    return folded


# ---------------------------------------------------------------------------
# Projections
# ---------------------------------------------------------------------------

@transaction.atomic
def standings_apply(*, table_id: int) -> bool:
    """Fold one decided table into the standings, once (remembered in ``Folded``)."""
    table = (Table.objects.select_for_update(of=("self",)).select_related("round__tournament__league", "match")
             .get(pk=table_id))
    if Folded.objects.filter(projection=Folded.Projection.STANDINGS, table=table).exists():
        return False
    seats = list(table.seats.order_by("position"))
    if not _decided(table, seats):
        return False
    tournament = table.round.tournament
    result = table.match.result if table.match_id and table.match.status == Match.Status.FINISHED else None
    scores = table_scores(kind=table.kind, seats=[SeatIn(s.entrant_id, s.match_seat, s.forfeited) for s in seats],
                          result=result, rules=Rules.of(tournament))
    for seat, score in zip(seats, scores):
        seat.place, seat.points, seat.game_points = score.place, score.points, score.game_points
        seat.save(update_fields=["place", "points", "game_points"])
        Standing.objects.get_or_create(tournament=tournament, entrant_id=score.entrant_id)
        Standing.objects.filter(entrant_id=score.entrant_id).update(
            points=F("points") + score.points,
            game_points=F("game_points") + (score.game_points or 0),
            played=F("played") + (1 if score.result else 0),
            wins=F("wins") + (1 if score.result == "win" else 0),
            draws=F("draws") + (1 if score.result == "draw" else 0),
            losses=F("losses") + (1 if score.result == "loss" else 0),
            byes=F("byes") + (1 if score.bye else 0),
            forfeits=F("forfeits") + (1 if score.forfeited else 0))
    Folded.objects.create(projection=Folded.Projection.STANDINGS, table=table)
    return True


def _openskill():
    from openskill.models import PlackettLuce

    return PlackettLuce()


@transaction.atomic
def rating_apply(*, table_id: int) -> bool:
    """Fold a finished rated match into the players' openskill ratings for its game, once."""
    table = (Table.objects.select_for_update(of=("self",)).select_related("round__tournament__league", "match")
             .get(pk=table_id))
    match = table.match
    if match is None or match.status != Match.Status.FINISHED or not table.round.tournament.league.rated:
        return False
    if Folded.objects.filter(projection=Folded.Projection.RATINGS, table=table).exists():
        return False
    seat_player = dict(table.seats.filter(match_seat__isnull=False)
                       .values_list("match_seat", "entrant__player_id"))
    rank_of = {seat: i + 1 for i, group in enumerate(match.result["ranking"]) for seat in group}
    order = sorted(seat_player)
    model = _openskill()
    current = {r.player_id: r for r in Rating.objects.select_for_update(of=("self",))
               .filter(game=match.game, player_id__in=seat_player.values())}
    before = []
    for seat in order:
        r = current.get(seat_player[seat])
        before.append(model.rating(mu=r.mu, sigma=r.sigma) if r else model.rating())
    after = model.rate([[b] for b in before], ranks=[rank_of[s] for s in order])
    for seat, old, (new,) in zip(order, before, after):
        player_id = seat_player[seat]
        rating = current.get(player_id) or Rating(player_id=player_id, game=match.game)
        rating.mu, rating.sigma, rating.matches = new.mu, new.sigma, (rating.matches or 0) + 1
        rating.save()
        RatingHistory.objects.create(player_id=player_id, game=match.game, table=table, match=match, mu=new.mu,
                                     sigma=new.sigma, mu_before=old.mu, sigma_before=old.sigma,
                                     played_at=match.finished_at or timezone.now())
    Folded.objects.create(projection=Folded.Projection.RATINGS, table=table)
    return True


@transaction.atomic
def round_close(*, round_id: int) -> bool:
    """Close a running round whose tables are all folded, and pair the next — exactly once.

    The round row is locked, so of two tables finishing together one closes the
    round and the other finds it closed. The next round starts at once when
    the tournament says so (in-process runs start it from their own loop).
    """
    rnd = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_id)
    if rnd.status != Round.Status.RUNNING:
        return False
    tables = rnd.tables.count()
    folded = Folded.objects.filter(projection=Folded.Projection.STANDINGS, table__round=rnd).count()
    if folded < tables:
        return False
    rnd.status, rnd.closed_at = Round.Status.CLOSED, timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    following = round_pair(tournament_id=rnd.tournament_id)
    if following is not None and rnd.tournament.auto_advance and not _inline.get():
        round_start(round_id=following.pk)
    return True


@transaction.atomic
def projections_rebuild() -> dict:
    """Forget the standings and ratings and fold every decided table again from the
    match results: standings per tournament, ratings in the order matches finished."""
    Folded.objects.all().delete()
    RatingHistory.objects.all().delete()
    Rating.objects.all().delete()
    Standing.objects.all().update(points=0, game_points=0, played=0, wins=0, draws=0, losses=0, byes=0, forfeits=0)
    TableSeat.objects.all().update(place=None, points=None, game_points=None)
    tables = list(Table.objects.filter(round__status__in=[Round.Status.RUNNING, Round.Status.CLOSED])
                  .order_by("round__tournament_id", "round__number", "number").values_list("pk", flat=True))
    standings = sum(1 for pk in tables if standings_apply(table_id=pk))
    rated = (Table.objects.filter(pk__in=tables, match__status=Match.Status.FINISHED)
             .order_by("match__finished_at", "match_id").values_list("pk", flat=True))
    ratings = sum(1 for pk in rated if rating_apply(table_id=pk))
    return {"standings": standings, "ratings": ratings}


# ---------------------------------------------------------------------------
# Running a whole tournament
# ---------------------------------------------------------------------------

def tournament_sweep(*, tournament_id: int) -> int:
    """Record every decided table not folded yet (a lost ``match_finished``) and close rounds
    that are done; returns how many tables were recorded."""
    pending = (Table.objects.filter(round__tournament_id=tournament_id, round__status=Round.Status.RUNNING)
               .exclude(folds__projection=Folded.Projection.STANDINGS).values_list("pk", flat=True))
    recorded = sum(1 for pk in list(pending) if table_record(table_id=pk))
    for round_id in Round.objects.filter(tournament_id=tournament_id, status=Round.Status.RUNNING).values_list(
            "pk", flat=True):
        round_close(round_id=round_id)
    return recorded


def tournaments_sweep(*, stall_seconds: float) -> dict:
    """Periodic (Celery beat, ``league.sweep``): keep every running tournament moving after a lost
    task. Records decided tables not folded yet and closes finished rounds (``tournament_sweep``),
    and re-queues ``league.table_play`` for tables of a running round whose match was never
    created (the round started more than ``stall_seconds`` ago). Idempotent, like the tasks."""
    cutoff = timezone.now() - timedelta(seconds=stall_seconds)
    recorded = sum(tournament_sweep(tournament_id=pk) for pk in
                   Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("pk", flat=True))
    orphans = list(Table.objects.filter(round__status=Round.Status.RUNNING, round__started_at__lt=cutoff,
                                        kind=Table.Kind.MATCH, match__isnull=True)
                   .exclude(folds__projection=Folded.Projection.STANDINGS).values_list("pk", flat=True)[:500])
    from league import tasks

    for table_id in orphans:
        tasks.table_play.delay(table_id)
    return {"recorded": recorded, "requeued": len(orphans)}


def tournament_run(*, tournament_id: int, on_round=None) -> Tournament:
    """Run a tournament to the end in this process: pair, start, play every table, repeat.

    Stops with ``WaitingForPeople`` when a round cannot finish without a person's move.
    ``on_round(round)`` is called after each round closes (progress output).
    """
    reported: set[int] = set()

    def report():
        if on_round is None:
            return
        for closed in Round.objects.filter(tournament_id=tournament_id, status=Round.Status.CLOSED).exclude(
                pk__in=reported).order_by("number"):
            reported.add(closed.pk)
            on_round(closed)

    with inline_execution():
        while True:
            report()
            tournament = Tournament.objects.get(pk=tournament_id)
            if tournament.status == Tournament.Status.FINISHED:
                return tournament
            rnd = tournament.round_set.order_by("-number").first()
            if rnd is None or rnd.status == Round.Status.CLOSED:
                round_pair(tournament_id=tournament_id)
                continue
            if rnd.status == Round.Status.PAIRED:
                round_start(round_id=rnd.pk)
                continue
            pending = list(rnd.tables.exclude(folds__projection=Folded.Projection.STANDINGS)
                           .order_by("number").values_list("pk", flat=True))
            for table_id in pending:
                table_run(table_id=table_id)
            rnd.refresh_from_db()
            if rnd.status == Round.Status.RUNNING:
                raise WaitingForPeople()
