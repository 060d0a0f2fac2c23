"""The recording floor under the writers: appending a validated move (or a bots' stretch) and settling
what follows, the seats' deadlines, and the end of a match.

Every writer above (``moves``, ``bots``, ``clocks``, ``matches``, ``opening``) calls down to these; none
of them calls up. Settling a batch of engine events: the end (the result, then the secret), a bot for a
person who resigned while the match goes on, the ceiling of ``MAX_EVENTS``, a table nobody is left to
play for, the seats' deadlines, and whether a bot is to act. On commit the ending is announced
(``match_finished``) or the bots are woken (``games.bots_play``, through ``games.dispatch``).

Clocks: a live clock (``{"move_seconds": 60}``, optionally ``"bank_seconds"``) or a correspondence one
(``{"move_days": 2}``) gives the person whose turn it is a ``deadline``; people a tournament seated get
one to take their seat (``join_seconds``, default five moves' time, or ``join_days``, default the move's
days). ``games.services.clocks`` records what happens when a deadline passes.
"""
from __future__ import annotations

from datetime import timedelta

from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from engine import registry
from games import dispatch, publish, store
from games.errors import DeadlinePassed
from games.models import BOT_TOOK_SEAT, MATCH_ABORTED, SEED_REVEALED, Event, Match, Seat

# Sent on commit when a match has ended (finished, awarded or aborted); ``match_id`` is its id.
match_finished = Signal()
# Sent on commit when a person's turn begins under a clock; ``match_id``, ``seat``, ``deadline``.
turn_waiting = Signal()


# -- recording moves -----------------------------------------------------------------------------------

def record_move(match: Match, state, seat: int, move: dict, payloads: list[dict], *, by_bot: bool,
                wake_bots: bool, lead: tuple[dict, ...] = ()) -> list[Event]:
    """Append a validated move's events (after ``lead``, store events such as ``seat_timed_out``)
    and settle what follows. The caller holds the match row lock."""
    engine_game = registry.get(match.game)
    before = match.last_seq
    seats = list(match.seats.all())
    if not by_bot:
        mover = next((s for s in seats if s.index == seat), None)
        if mover is not None and mover.deadline is not None and mover.deadline <= timezone.now():
            # the clock ran out before the move came: the clock's rule decides it (the sweep records the
            # timeout within seconds), not a move that arrived late
            raise DeadlinePassed()
    rows = []
    for event in lead:
        rows += store.append_events(match, [event], seat=event.get("seat"), move=None)
    for payload in payloads:
        state = engine_game.apply(state, payload)
    rows += store.append_events(match, payloads, seat=seat, move=move)
    if not by_bot:
        _clear_timeouts(seats, seat)
    rows += settle(match, seats, state, mover=seat)
    fields = ["status", "result", "finished_at", "last_seq", "last_hash", "moved_at", "bots_to_act"]
    match.save(update_fields=fields)
    store.remember(match, state)
    store.maybe_snapshot(match, state, before)
    after_change(match, wake_bots=wake_bots)
    return rows


def record_stretch(match: Match, seats: list[Seat], batches: list[tuple[int, dict, list[dict]]], state) -> list[Event]:
    """Append a stretch of bot moves (each ``(seat, move, payloads)``, already applied: ``state`` is
    the state after them) in one insert, settle once, and move the match once. The caller holds the
    match row lock."""
    before = match.last_seq
    rows = store.append_batches(match, [(payloads, seat, move) for seat, move, payloads in batches])
    rows += settle(match, seats, state, mover=batches[-1][0])
    match.save(update_fields=["status", "result", "finished_at", "last_seq", "last_hash", "moved_at", "bots_to_act"])
    store.remember(match, state)
    store.maybe_snapshot(match, state, before)
    after_change(match, wake_bots=False)
    return rows


def _no_person_left(match: Match, seats: list[Seat], view: dict) -> bool:
    """Whether the match had accounts at the table and every one of them has resigned (resigning,
    forfeited), so only the server's bots would play on; never for a tournament's match."""
    accounts = [s.index for s in seats if s.user_id is not None]
    if not accounts or not set(accounts) <= set(view.get("resigned") or ()):
        return False
    return not _tournament_match(match)


def _tournament_match(match: Match) -> bool:
    """Whether a tournament seated this match (the league's ``Table.match``, seen from here by its
    reverse name: games imports nothing of the league)."""
    if not apps.is_installed("league"):
        return False
    return Match.objects.filter(pk=match.pk, league_table__isnull=False).exists()


def settle(match: Match, seats: list[Seat], state, *, mover: int | None) -> list[Event]:
    """What follows a batch of engine events: the end (the result and the secret), a bot for a
    person who resigned while the match goes on, the seats' deadlines, and whether a bot is to act.
    Saves the seats it changes; the caller saves the match."""
    engine_game = registry.get(match.game)
    rows = []
    outcome = engine_game.outcome(state)
    if outcome is not None:
        rows += store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
        match.status, match.result, match.finished_at = Match.Status.FINISHED, outcome, timezone.now()
        match.bots_to_act = False
        Seat.objects.filter(match=match).update(deadline=None, turn_started_at=None)
        return rows
    if match.last_seq >= engine_game.MAX_EVENTS:
        # the hard ceiling: a match whose record reaches the game's MAX_EVENTS ends as aborted (a
        # ``match_aborted`` event with reason ``event_limit``, then the secret), so no table of bots plays
        # for ever. ``match.last_seq`` counts store events too, so this is conservative.
        rows += store.append_events(match, [{"type": MATCH_ABORTED, "reason": "event_limit"}], seat=None, move=None)
        rows += store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
        match.status, match.finished_at, match.bots_to_act = Match.Status.ABORTED, timezone.now(), False
        Seat.objects.filter(match=match).update(deadline=None, turn_started_at=None)
        return rows
    view = engine_game.view(state, None)
    for seat in seats:
        if seat.index in view.get("resigned", ()) and not seat.policy:
            seat.stand_in = settings.CARDLEAGUE_STAND_IN_POLICY
            seat.deadline = seat.turn_started_at = None
            seat.save(update_fields=["stand_in", "deadline", "turn_started_at"])
            rows += store.append_events(match, [{"type": BOT_TOOK_SEAT, "seat": seat.index, "policy": seat.stand_in}],
                                        seat=seat.index, move=None)
    if _no_person_left(match, seats, view):
        # every person (or outside bot account) at the table has resigned or was forfeited: nobody is left
        # to play for, so the server's bots stop and the match ends as aborted (``no_people_left``).
        # A tournament's match plays on: its result counts for the standings.
        rows += store.append_events(match, [{"type": MATCH_ABORTED, "reason": "no_people_left"}], seat=None,
                                    move=None)
        rows += store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
        match.status, match.finished_at, match.bots_to_act = Match.Status.ABORTED, timezone.now(), False
        Seat.objects.filter(match=match).update(deadline=None, turn_started_at=None)
        return rows
    move_deadlines(match, seats, view, mover=mover)
    turn = view.get("turn")
    if turn is not None and turn != mover:
        holder = next((s for s in seats if s.index == turn), None)
        if holder is not None and holder.user_id is not None and not holder.policy:
            publish.notify_user(holder.user_id, "your_turn", match=match.pk, game=match.game, seat=turn,
                                deadline=holder.deadline.isoformat() if holder.deadline else None)
    actors = set(view["to_act"])
    match.bots_to_act = any(s.policy and s.index in actors for s in seats)
    return rows


def _clear_timeouts(seats: list[Seat], index: int) -> None:
    """A person who moves is at the table: their run of timeouts ends."""
    for seat in seats:
        if seat.index == index and seat.timeouts_in_a_row:
            seat.timeouts_in_a_row = 0
            seat.save(update_fields=["timeouts_in_a_row"])


def after_change(match: Match, *, wake_bots: bool = True) -> None:
    """On commit: announce a match that ended, or wake the bots if one may act (``games.bots_play``,
    sent even where the caller's loop does the work: the bots' own tasks then run here, eagerly)."""
    match_id, seq = match.pk, match.last_seq
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        aborted = (Event.objects.filter(match=match, type=MATCH_ABORTED).values_list("payload", flat=True).first()
                   if match.status == Match.Status.ABORTED else None)
        announce_end(match, aborted)
        transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id))
        return
    if wake_bots and match.bots_to_act:
        dispatch.send_on_commit("games.bots_play", (match_id, seq))


# -- the end of a match ---------------------------------------------------------------------------------

def record_end(match: Match, status: str, event: dict, result: dict | None = None) -> None:
    """Record the organiser's (or a declining person's, or a withdrawing challenger's) ending and the
    secret; nothing more will be recorded. The caller holds the match row lock."""
    store.append_events(match, [event], seat=event.get("seat"), move=None)
    store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
    match.status, match.finished_at, match.bots_to_act = status, timezone.now(), False
    fields = ["status", "finished_at", "bots_to_act", "last_seq", "last_hash", "moved_at"]
    if result is not None:
        match.result = result
        fields.append("result")
    match.save(update_fields=fields)
    match.seats.update(deadline=None)
    announce_end(match, event)
    if status != Match.Status.CANCELLED:
        match_id = match.pk
        transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id))


def announce_end(match: Match, event: dict | None = None) -> None:
    """On commit, the account news of an ending, for the people (and outside bots) at the table: a declined
    challenge (``challenge_declined``, to the others, with the decliner's ``seat`` and ``message``), a
    withdrawn one (``challenge_withdrawn``, to the invited), else ``match_finished`` (``status``, the
    ``reason`` of an abort, and ``ranking``)."""
    event = event or {}
    reason = event.get("reason")
    base = {"match": match.pk, "game": match.game}
    for seat in match.seats.filter(user__isnull=False).only("index", "user_id", "status"):
        if reason == "declined" and match.status == Match.Status.CANCELLED:
            if seat.index != event.get("seat"):
                publish.notify_user(seat.user_id, "challenge_declined", **base, seat=seat.index,
                                    by_seat=event.get("seat"), message=event.get("message", ""))
        elif reason == "withdrawn":
            if seat.user_id != match.created_by_id:
                publish.notify_user(seat.user_id, "challenge_withdrawn", **base, seat=seat.index)
        else:
            publish.notify_user(seat.user_id, "match_finished", **base, seat=seat.index, status=match.status,
                                reason=reason if match.status != Match.Status.FINISHED else None,
                                ranking=(match.result or {}).get("ranking"))


# -- deadlines ------------------------------------------------------------------------------------------

def move_allowance(clock: dict) -> timedelta:
    return timedelta(days=clock["move_days"]) if "move_days" in clock else timedelta(seconds=clock["move_seconds"])


def join_allowance(clock: dict) -> timedelta:
    if "move_days" in clock:
        return timedelta(days=clock.get("join_days", clock["move_days"]))
    return timedelta(seconds=clock.get("join_seconds", 5 * clock["move_seconds"]))


def is_correspondence(clock: dict | None) -> bool:
    return bool(clock) and "move_days" in clock


def join_deadlines(match: Match, seats: list[Seat]) -> None:
    """A seated person (a tournament's) who has not taken the seat yet gets a deadline to take it."""
    if not match.clock:
        return
    deadline = timezone.now() + join_allowance(match.clock)
    for seat in seats:
        if seat.status == Seat.Status.SEATED and seat.deadline is None:
            seat.deadline = deadline
            seat.save(update_fields=["deadline"])


def move_deadlines(match: Match, seats: list[Seat], view: dict, *, mover: int | None) -> None:
    """After a batch: the person whose turn it is has a deadline (a new one when the turn just came
    to them or they just moved; the time bank pays for a move over its allowance); everyone else
    has none. A bot, or a bot standing in for a person, has no clock."""
    if not match.clock:
        return
    now = timezone.now()
    allowance = move_allowance(match.clock)
    bank = match.clock.get("bank_seconds")
    turn = view.get("turn")
    started = []
    for seat in seats:
        before = (seat.deadline, seat.turn_started_at, seat.bank_left)
        if bank is not None and seat.bank_left is None:
            seat.bank_left = float(bank)
        if seat.index == mover and seat.turn_started_at is not None and bank is not None:
            over = (now - seat.turn_started_at - allowance).total_seconds()
            seat.bank_left = max(0.0, seat.bank_left - max(0.0, over))
        if seat.index == turn and not seat.policy:
            if seat.deadline is None or seat.index == mover:
                seat.turn_started_at = now
                seat.deadline = now + allowance + timedelta(seconds=seat.bank_left or 0)
                started.append(seat)
        else:
            seat.deadline = seat.turn_started_at = None
        if (seat.deadline, seat.turn_started_at, seat.bank_left) != before:
            seat.save(update_fields=["deadline", "turn_started_at", "bank_left"])
    if is_correspondence(match.clock):
        for seat in started:
            match_id, index, deadline = match.pk, seat.index, seat.deadline
            transaction.on_commit(lambda m=match_id, i=index, d=deadline:
                                  turn_waiting.send(sender=Match, match_id=m, seat=i, deadline=d))
