"""Celery tasks: ids in, look things up again, idempotent. They stand above the services they run; the
services hand work on to them by name (``games.dispatch``)."""
from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games import dispatch
from games.models import Match
from games.services.bots import bots_advance, stalled_bots_wake
from games.services.clocks import clocks_run


@shared_task(name="games.bots_play", ignore_result=True)
def bots_play(match_id: int, seq: int | None = None) -> int:
    """Let the bots of a match move while one is to act.

    A task for a position the match has already left does nothing; a task that
    used up its budget hands on to a fresh one.
    """
    run = bots_advance(match_id=match_id, seq=seq, budget=settings.CARDLEAGUE_BOT_MOVES_PER_TASK)
    if run.more:
        last_seq = Match.objects.values_list("last_seq", flat=True).get(pk=match_id)
        if not run.wait:
            dispatch.send("games.bots_play", (match_id, last_seq))
        else:
            # a person may still call: the bots look again when the grace is over (a process that
            # runs tasks eagerly cannot wait: hand_on sends nothing there, and the sweeper wakes them)
            dispatch.hand_on("games.bots_play", (match_id, last_seq), countdown=run.wait + 0.05)
    return run.made


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    """Periodic (Celery beat): wake bots left waiting longer than ``CARDLEAGUE_STALL_SECONDS``."""
    return len(stalled_bots_wake(stall_seconds=settings.CARDLEAGUE_STALL_SECONDS))


@shared_task(name="games.clocks", ignore_result=True)
def clocks() -> int:
    """Periodic (Celery beat): record the timeouts that are due (twin: ``manage.py clocks_run``)."""
    return clocks_run()
