"""Rounds: pairing the next (the tournament's format: ``league.formats``), starting its matches, running and recording tables, closing it."""
from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import replace
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import dispatch, publish
from games.models import Match
from games.services import SeatSpec, bots_advance, match_create
from league.formats.base import CannotPair
from league.formats.partners import PartnerUnits, partner_units
from league.models import Entrant, Folded, Rating, Round, Standing, Table, TableSeat, Tournament, Withdrawal
from league.rules import pairing
from league.rules.scoring import sides_of
from league.selectors.drafts import forbidden_pairs
from league.selectors.groups import group_ranking
from league.selectors.rounds import Played, format_setup
from league.selectors.standings import ranked_entrant_ids
from league.services.errors import InvalidTournament, NotEnoughPlayers, RoundNotClosed, TournamentFinished
from league.services.projections import _min_seats, _needs_match, rating_apply, standings_apply
from league.services.seeding import seeded_secret


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
        setup, drawn = _drawn(tournament, entrants, withdrawn)
        tournament.rounds = tournament.format_rules.planned_rounds(setup, len(drawn.starters()))
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
    rnd = Round.objects.create(tournament=tournament, number=number, scheduled_on=tournament.round_date(number),
                               starts_at=_scheduled_start(tournament, number), stage=tables.stage)
    for table_number, kind, seated in tables:
        table = Table.objects.create(round=rnd, number=table_number, kind=kind,
                                     stage=tables.table_stages.get(table_number, ""))
        TableSeat.objects.bulk_create([TableSeat(table=table, entrant_id=e, position=p, forfeited=e in withdrawn)
                                       for p, e in enumerate(seated)])
    return rnd


def _scheduled_start(tournament: Tournament, number: int):
    """When a drafted round is released by itself (``league.services.drafts.rounds_release_due``): the first
    round at the tournament's start time, if that is still ahead (a round paired later waits for the
    organiser's release)."""
    if number == 1 and tournament.starts_at is not None and tournament.starts_at > timezone.now():
        return tournament.starts_at
    return None


def _seed(tournament: Tournament, entrants: list[Entrant], withdrawn: dict) -> list[Entrant]:
    """Seeds 1..n for those present at the start, the rest after: by rating (then entry), by entry, by a
    previous event's final standings (``seeded_from``; who did not play it after, by rating), or by hand (the
    seeds as the organiser typed them; a seed left at 0 after the typed ones, in entry order)."""
    order = {e.pk: i for i, e in enumerate(sorted(entrants, key=lambda e: (e.seed, e.pk)))}
    if tournament.seeding == Tournament.Seeding.HAND:
        order = {e.pk: i for i, e in enumerate(sorted(entrants, key=lambda e: (e.seed == 0, e.seed, e.pk)))}
    strength: dict[int, float] = {}
    if tournament.seeding in (Tournament.Seeding.RATING, Tournament.Seeding.STANDINGS):
        for r in Rating.objects.filter(game=tournament.game, player__in=[e.player_id for e in entrants]):
            strength[r.player_id] = r.ordinal
    before: dict[int, int] = {}
    if tournament.seeding == Tournament.Seeding.STANDINGS and tournament.seeded_from is not None:
        players = dict(Entrant.objects.filter(tournament=tournament.seeded_from).values_list("pk", "player_id"))
        before = {players[e]: i for i, e in enumerate(ranked_entrant_ids(tournament.seeded_from))}

    def key(e: Entrant):
        # the unrated count as a fresh rating (ordinal 0)
        return (e.pk in withdrawn, before.get(e.player_id, len(before)), -strength.get(e.player_id, 0.0), order[e.pk])

    ranked = sorted(entrants, key=key)
    for i, e in enumerate(ranked, start=1):
        if e.seed != i:
            e.seed = i
            e.save(update_fields=["seed"])
    return ranked


class _Drawn(list):
    """A round's tables as [(table number, kind, [entrant ids in seat order])], with the round's ``stage``
    and each table's (``table_stages``: table number → stage)."""
    stage = ""
    table_stages: dict[int, str] = {}


def _pair(tournament: Tournament, number: int, entrants: list[Entrant], withdrawn: dict[int, int]):
    """The next round's tables (``_Drawn``), or None when nobody is left to pair: the tournament's format
    draws them (``league.formats``), and names the round's stage and each table's."""
    fmt = tournament.format_rules
    setup, field = _drawn(tournament, entrants, withdrawn, number)
    try:
        seatings = fmt.pair(number, setup, field)
    except CannotPair as exc:
        raise InvalidTournament(str(exc)) from None
    if isinstance(field, PartnerUnits):
        seatings = field.expand(seatings)
    if seatings is None:
        return None
    drawn = _Drawn((s.number, Table.Kind.BYE if s.bye else Table.Kind.MATCH, list(s.entrants)) for s in seatings)
    drawn.stage = fmt.round_stage(number, seatings)
    drawn.table_stages = {s.number: s.stage for s in seatings if s.stage}
    return drawn


def _drawn(tournament: Tournament, entrants: list[Entrant], withdrawn: dict[int, int], number: int | None = None):
    """What the format draws: the players, or in a partnership team event its teams (``PartnerUnits``); for
    round ``number``, with the pairs it keeps apart (``Setup.forbidden``)."""
    setup, field = format_setup(tournament), _Field(tournament, entrants, withdrawn)
    if number is not None:
        setup = replace(setup, forbidden=forbidden_pairs(tournament, number, entrants))
    units = partner_units(setup, field)
    return (units.setup, units) if units is not None else (setup, field)


class _Field(Played):
    """A tournament's entrants as its format asks for them when it draws a round
    (``league.formats.base.Field``), read when asked."""

    def __init__(self, tournament: Tournament, entrants: list[Entrant], withdrawn: dict[int, int],
                 only: set[int] | None = None):
        super().__init__(tournament)
        self.entrants, self.withdrawn, self.only = entrants, withdrawn, only

    def starters(self) -> list[int]:
        return [e.pk for e in sorted(self.entrants, key=lambda e: e.seed) if self.withdrawn.get(e.pk, 1) != 0]

    def teams(self) -> list[list[int]]:
        starters = self.starters()
        members: dict[int, list[int]] = defaultdict(list)
        team_of = {e.pk: e.team_id for e in self.entrants if e.team_id}
        for eid in starters:
            if eid in team_of:
                members[team_of[eid]].append(eid)
        order = dict(self.tournament.teams.order_by("seed", "pk").values_list("pk", "seed"))
        return [members[t] for t in sorted(members, key=lambda t: (order.get(t, 0), t))]

    def contenders(self) -> list[pairing.Contender]:
        tournament = self.tournament
        # a paused entrant (a continuous format's pause) sits out; ``only``: the players free now
        active = [e for e in self.entrants if e.pk not in self.withdrawn and not e.paused
                  and (self.only is None or e.pk in self.only)]
        order = {eid: i for i, eid in enumerate(ranked_entrant_ids(tournament))}
        active.sort(key=lambda e: (order.get(e.pk, 10 ** 6), e.seed))
        points = dict(Standing.objects.filter(tournament=tournament).values_list("entrant_id", "points"))
        history = _history(tournament)
        return [pairing.Contender(e.pk, int((points.get(e.pk) or 0) * 100), tuple(history["opponents"][e.pk]),
                                  history["byes"][e.pk], tuple(history["seats"][e.pk]),
                                  tuple(history["partners"][e.pk])) for e in active]

    def ranking(self, entrants, stage: str) -> list[int]:
        return group_ranking(self.tournament, entrants, stage)


def _history(tournament: Tournament) -> dict:
    """Who met whom, byes, seats held and partners (seats on one side of a match: ``sides_of``), from
    the tables recorded (every table of a closed round; in a continuous format's open round, those
    recorded so far), in the order they were numbered."""
    rows = (TableSeat.objects.filter(table__round__tournament=tournament,
                                     table__folds__projection=Folded.Projection.STANDINGS)
            .order_by("table__round__number", "table__number", "position")
            .values_list("table_id", "table__kind", "entrant_id", "match_seat"))
    tables: dict[int, list] = defaultdict(list)
    out = {"opponents": defaultdict(list), "byes": defaultdict(int), "seats": defaultdict(list),
           "partners": defaultdict(list)}
    for table_id, kind, entrant_id, match_seat in rows:
        tables[table_id].append((kind, entrant_id, match_seat))
    for members in tables.values():
        playing = [(e, seat) for _kind, e, seat in members if seat is not None]
        side = sides_of(tournament.game, len(playing)) if len(playing) > 1 else ()
        for (a, sa), (b, sb) in itertools.combinations(playing, 2):
            if side and side[sa] == side[sb]:
                out["partners"][a].append(b)
                out["partners"][b].append(a)
        for kind, entrant_id, match_seat in members:
            if kind == Table.Kind.BYE:
                out["byes"][entrant_id] += 1
                continue
            out["opponents"][entrant_id] += [other for _, other, _ in members if other != entrant_id]
            if match_seat is not None:
                out["seats"][entrant_id].append(match_seat)
    return out


def _tournament_finish(tournament: Tournament) -> None:
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, timezone.now()
    tournament.save(update_fields=["status", "finished_at"])


@transaction.atomic
def round_release(*, round_id: int) -> Round:
    """Release a drafted (paired) round: the only way a draft goes live. Create its matches, decide byes
    and forfeits, enqueue a task per match, and only now notify its people.

    On a round already running it enqueues the tables still undecided again
    (the tasks are idempotent), so it also restarts a stalled round.
    """
    rnd = Round.objects.select_for_update(of=("self",)).select_related("tournament__league").get(pk=round_id)
    if rnd.status == Round.Status.CLOSED:
        return rnd
    if rnd.status == Round.Status.RUNNING:
        pending = (rnd.tables.filter(kind=Table.Kind.MATCH)
                   .exclude(folds__projection=Folded.Projection.STANDINGS).values_list("pk", flat=True))
        _tables_play(list(pending))
        return rnd
    rnd.status, rnd.started_at = Round.Status.RUNNING, timezone.now()
    publish.tournament_changed(rnd.tournament_id)
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
    _tables_play(to_play)
    people = list(TableSeat.objects.filter(table__round=rnd, entrant__player__user__isnull=False)
                  .values_list("entrant__player__user_id", "table__match_id"))
    for user_id, match_id in people:
        publish.notify_user(user_id, "round_started", tournament=rnd.tournament_id, round=rnd.number,
                            match=match_id)
    if people:
        dispatch.start("league.notify_round", (rnd.pk,))
    return rnd


#: Starting a round is releasing its draft (the name its older callers use).
round_start = round_release


def _tables_play(table_ids) -> None:
    """One ``league.table_play`` task per table, handed to the dispatcher (sent on commit; under
    ``dispatch.work_here`` the caller's loop plays them)."""
    for table_id in table_ids:
        dispatch.start("league.table_play", (table_id,))


@transaction.atomic
def table_match_create(*, table_id: int) -> Match | None:
    """The table's match, created once under the table's row lock (None: no match to play). Its secret
    is drawn, or derived from the seed of a seeded bot tournament run here (``league.services.seeding``)."""
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
            specs.append(SeatSpec(bot=player.bot_policy, name=player.name))
        else:
            # they entered the tournament: seated without asking, they take the seat by opening the match
            specs.append(SeatSpec(user=player.user, name=player.name, seated=True))
    # the table's task runs the bots (``table_run``), so the match does not wake them itself; the clock
    # is the tournament's as it is now (a change applies to the matches created from then on)
    match = match_create(game=tournament.game, seats=specs, options=tournament.options, clock=tournament.clock,
                         timeout_rule=tournament.timeout_rule,
                         created_by=tournament.created_by, wake_bots=False, secret=seeded_secret(table, playing))
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
            run = bots_advance(match_id=match.pk, budget=settings.CARDLEAGUE_BOT_MOVES_PER_TASK)
            if not run.more:
                break
            if run.wait:
                # a person may still call: the bots wait out the grace in their own task
                dispatch.start("games.bots_play", (match.pk, None), countdown=run.wait)
                return False
            if dispatch.hand_on("league.table_play", (table_id,)):
                # a task does bounded work and hands the rest of the match on to a fresh task
                return False
    table_record(table_id=table_id)
    return Folded.objects.filter(projection=Folded.Projection.STANDINGS, table_id=table_id).exists()


def match_result_record(*, match_id: int) -> bool:
    """A match ended: record its table, if it belongs to one (the ``match_finished`` receiver)."""
    table_id = Table.objects.filter(match_id=match_id).values_list("pk", flat=True).first()
    if table_id is None:
        return False
    return table_record(table_id=table_id)



@transaction.atomic
def table_record(*, table_id: int) -> bool:
    """Fold a decided table into the standings and the ratings, then close the round if it
    was the last. True if the standings folded it now (False: not decided, or folded before)."""
    table = Table.objects.select_for_update(of=("self",)).select_related("round__tournament").get(pk=table_id)
    if table.round.status != Round.Status.RUNNING:
        return False
    folded = standings_apply(table_id=table_id)
    if folded:
        rating_apply(table_id=table_id)
        if table.round.tournament.format_rules.continuous:
            round_extend(round_id=table.round_id)
        round_close(round_id=table.round_id)
        publish.tournament_changed(table.round.tournament_id)
    return folded


@transaction.atomic
def round_close(*, round_id: int, now: datetime | None = None) -> bool:
    """Close a running round whose tables are all folded, and pair the next — exactly once.

    The round row is locked, so of two tables finishing together one closes the
    round and the other finds it closed. The next round starts at once when
    the tournament says so (in-process runs start it from their own loop). A continuous format's round
    (an arena) closes only once its window has closed (``now``: the time to judge it by).
    """
    rnd = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_id)
    if rnd.status != Round.Status.RUNNING:
        return False
    if rnd.tournament.format_rules.continuous and seating_open(rnd.tournament, now):
        return False    # a continuous format's round stays open for its window, even with every table played
    tables = rnd.tables.count()
    folded = Folded.objects.filter(projection=Folded.Projection.STANDINGS, table__round=rnd).count()
    if folded < tables:
        return False
    rnd.status, rnd.closed_at = Round.Status.CLOSED, timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    following = round_pair(tournament_id=rnd.tournament_id)
    # the next round starts at once, unless this process's own loop runs the tournament (and starts it)
    if following is not None and rnd.tournament.auto_advance and not dispatch.works_here():
        round_start(round_id=following.pk)
    return True



def seating_open(tournament: Tournament, now: datetime | None = None) -> bool:
    """Whether a continuous format still seats players (its window, from ``starts_at``, else from when the
    tournament started, has not closed at ``now``)."""
    now = now or timezone.now()
    opened = tournament.starts_at or tournament.started_at or now
    closes = tournament.format_rules.closes_at(format_setup(tournament), opened)
    return closes is None or now < closes


@transaction.atomic
def round_extend(*, round_id: int, now: datetime | None = None) -> list[int]:
    """Seat the players free now at new tables of a continuous format's running round, and start them
    (the ids of the tables added). Free: not withdrawn, not paused, not seated at a table of the round
    that is not recorded yet. Nothing once the window has closed.

    The round row is locked (as ``round_close`` locks it), so of two tables recorded together one seats
    the free players and the other, after it, finds them seated; new tables take the numbers after the
    round's highest, which the unique (round, number) constraint backs up.
    """
    rnd = Round.objects.select_for_update(of=("self",)).select_related("tournament__league").get(pk=round_id)
    tournament = rnd.tournament
    if (rnd.status != Round.Status.RUNNING or not tournament.format_rules.continuous
            or not seating_open(tournament, now)):
        return []
    withdrawn = _withdrawn(tournament)
    entrants = list(tournament.entrants.select_related("player").order_by("seed", "pk"))
    busy = set(TableSeat.objects.filter(table__round=rnd).exclude(table__folds__projection=Folded.Projection.STANDINGS)
               .values_list("entrant_id", flat=True))
    free = {e.pk for e in entrants if e.pk not in withdrawn and not e.paused and e.pk not in busy}
    if len(free) < _min_seats(tournament):
        return []
    try:
        seatings = tournament.format_rules.pair(rnd.number, format_setup(tournament),
                                                _Field(tournament, entrants, withdrawn, only=free)) or []
    except CannotPair as exc:
        raise InvalidTournament(str(exc)) from None
    highest = rnd.tables.order_by("-number").values_list("number", flat=True).first() or 0
    added = []
    for offset, seating in enumerate(seatings, start=1):
        table = Table.objects.create(round=rnd, number=highest + offset,
                                     kind=Table.Kind.BYE if seating.bye else Table.Kind.MATCH)
        TableSeat.objects.bulk_create([TableSeat(table=table, entrant_id=e, position=p)
                                       for p, e in enumerate(seating.entrants)])
        table_match_create(table_id=table.pk)
        added.append(table.pk)
    _tables_play(added)
    if added:
        publish.tournament_changed(tournament.pk)
    return added
