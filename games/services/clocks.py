"""Clocks: the timeouts a sweeper records when a person's deadline passes.

A match may have a clock: live (``{"move_seconds": 60}``, optionally ``"bank_seconds"``: a time
bank for the whole match that a slow move draws on) or correspondence (``{"move_days": 2}``). The
seat whose turn it is (a person, not a bot) has a ``deadline``; every move of that seat starts a
new one. People a tournament seated must take their seat (open the match) within ``join_seconds``
(default five moves' time) or ``join_days`` (default the move's days). The deadlines are set as
moves are recorded (``games.services.recording``).

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

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine import registry
from engine.bots import bot_move
from games import store

# the clock's shape is a rule, not a service (games.clock_rules); kept here for the services' callers
from games.clock_rules import check_clock  # noqa: F401
from games.models import SEAT_TIMED_OUT, Match, Seat
from games.services.opening import bots_key, match_start_or_wait, seat_contribute
from games.services.recording import record_move


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
    for seat in due:
        store.append_events(match, [_timed_out(seat, "resign", phase="join")], seat=seat.index, move=None)
        seat.status, seat.deadline = Seat.Status.JOINED, None
        seat.timeouts += 1
        seat.save(update_fields=["status", "deadline", "timeouts"])
        seat_contribute(match, seat.index, None)
    match_start_or_wait(match, wake_bots=True)
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
