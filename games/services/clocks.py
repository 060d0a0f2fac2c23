"""Clocks: each person's deadline, and the timeouts a sweeper records when one passes.

A match may have a clock: live (``{"move_seconds": 60}``, optionally ``"bank_seconds"``: a time
bank for the whole match that a slow move draws on) or correspondence (``{"move_days": 2}``). The
seat whose turn it is (a person, not a bot) has a ``deadline``; every move of that seat starts a
new one. People a tournament seated must take their seat (open the match) within ``join_seconds``
(default five moves' time) or ``join_days`` (default the move's days).

When a deadline passes, ``seat_timeouts_record`` (the periodic ``games.clocks`` task and its twin
``manage.py clocks_run``) records ``seat_timed_out`` and then the move the match's rule makes for the
seat: a bot's move (``bot``; after ``CARDLEAGUE_ABANDON_AFTER`` timeouts in a row the seat is
abandoned instead) or ``resign`` (``forfeit``); a bot then plays a resigned seat on. A seat that
never took its place resigns as soon as the match starts. Each timeout is recorded once: the
match row is locked (``SKIP LOCKED``: a second sweeper passes it by) and the deadline re-read.
The engine never reads the time: these decisions are events, and the bot's move follows from the
recorded position, so a replay and the audit check them.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine import registry
from games import store
# the clock's shape is a rule, not a service (games.clock_rules); kept here for the services' callers
from games.clock_rules import check_clock  # noqa: F401
from games.models import SEAT_TIMED_OUT, Match, Seat


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
        from games.services.matches import turn_waiting

        for seat in started:
            match_id, index, deadline = match.pk, seat.index, seat.deadline
            transaction.on_commit(lambda m=match_id, i=index, d=deadline:
                                  turn_waiting.send(sender=Match, match_id=m, seat=i, deadline=d))


def clocks_run(*, now: datetime | None = None) -> int:
    """Record every timeout that is due (the periodic task and ``manage.py clocks_run``).
    Returns how many were recorded."""
    now = now or timezone.now()
    due = (Seat.objects.filter(deadline__lte=now, match__status__in=[Match.Status.WAITING, Match.Status.RUNNING])
           .values_list("match_id", flat=True).distinct())
    return sum(seat_timeouts_record(match_id=match_id, now=now) for match_id in list(due)[:500])


@transaction.atomic
def seat_timeouts_record(*, match_id: int, now: datetime | None = None) -> int:
    """Record the due timeouts of one match, exactly once (the match row is locked and each
    deadline re-read under the lock; a match another sweeper holds is passed by)."""
    now = now or timezone.now()
    match = Match.objects.select_for_update(skip_locked=True).filter(pk=match_id).first()
    if match is None or not (match.is_waiting or match.is_running):
        return 0
    due = list(match.seats.filter(deadline__lte=now).order_by("index"))
    if not due:
        return 0
    if match.is_waiting:
        return _no_shows(match, due)
    return sum(_move_timeout(match, seat) for seat in due[:1])


def _timed_out(seat: Seat, then: str, **extra) -> dict:
    return {"type": SEAT_TIMED_OUT, "seat": seat.index, "deadline": store.event_time(seat.deadline), "then": then,
            **extra}


def _no_shows(match: Match, due: list[Seat]) -> int:
    """Seated people who did not take their seat in time: the server contributes for them, and
    once the match starts they resign (a bot plays their seat on, if the match goes on)."""
    from games.services.matches import _contribute, _start_or_wait
    from games.services.moves import record_move

    for seat in due:
        store.append_events(match, [_timed_out(seat, "resign", phase="join")], seat=seat.index, move=None)
        seat.status, seat.deadline = Seat.Status.JOINED, None
        seat.timeouts += 1
        seat.save(update_fields=["status", "deadline", "timeouts"])
        _contribute(match, seat.index, None)
    _start_or_wait(match, wake_bots=True)
    match.refresh_from_db()
    engine_game = registry.get(match.game)
    for seat in due:
        if not match.is_running:
            break
        state = store.load_state(match)
        move = {"type": "resign"}
        record_move(match, state, seat.index, move, engine_game.play(state, seat.index, move), by_bot=True,
                    wake_bots=True)
    return len(due)


def _move_timeout(match: Match, seat: Seat) -> int:
    """The seat to act let its deadline pass: the match's rule decides its move."""
    from engine.bots import bot_move
    from games.services.matches import bots_key
    from games.services.moves import record_move

    engine_game = registry.get(match.game)
    state = store.load_state(match)
    seat.timeouts += 1
    seat.timeouts_in_a_row += 1
    abandon = (match.timeout_rule == Match.TimeoutRule.FORFEIT
               or seat.timeouts_in_a_row >= settings.CARDLEAGUE_ABANDON_AFTER)
    policy = settings.CARDLEAGUE_STAND_IN_POLICY
    move = {"type": "resign"} if abandon else bot_move(match.game, bots_key(match), match.last_seq, state,
                                                       seat.index, policy)
    lead = _timed_out(seat, "resign" if abandon else "bot_move", position=match.last_seq,
                      **({} if abandon else {"policy": policy}))
    seat.deadline = None
    seat.save(update_fields=["timeouts", "timeouts_in_a_row", "deadline"])
    payloads = engine_game.play(state, seat.index, move)
    record_move(match, state, seat.index, move, payloads, by_bot=True, wake_bots=True, lead=(lead,))
    return 1
