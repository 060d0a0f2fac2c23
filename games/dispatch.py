"""Handing work to the Celery broker without ever holding a request (issue 23, M8).

A move, a round started, a result recorded: the change is committed first, and only then are the bots
(or the next table) woken through the broker. If the broker refuses the connection or hangs, the
request still answers success — what was committed stands — and the sweepers (``games.sweep``,
``league.sweep``: Celery beat, every ``CARDLEAGUE_SWEEP_EVERY`` seconds) wake the work later. Every call
has a short timeout (``CELERY_BROKER_TRANSPORT_OPTIONS``' socket timeouts, no publish retries), and
after a failure the broker is not asked again for ``RETRY_AFTER`` seconds, so a hung broker costs one
request one timeout, not every request.

A process that runs its tasks eagerly (tests, ``bot_tournament --sync``) runs them here and lets their
errors through: those are bugs, not a broker away.
"""
from __future__ import annotations

import logging
import time

from django.db import transaction

log = logging.getLogger("games.dispatch")

RETRY_AFTER = 5.0
_failed_at: float | None = None


def broker_down() -> bool:
    """Whether handing a task to the broker failed in the last ``RETRY_AFTER`` seconds."""
    return _failed_at is not None and time.monotonic() - _failed_at < RETRY_AFTER


def send(task, args: tuple = (), *, countdown: float | None = None) -> bool:
    """Queue ``task(*args)``; False (and a log line) when the broker is away: never raises for that."""
    global _failed_at
    if task.app.conf.task_always_eager:
        task.apply_async(args, countdown=countdown)
        return True
    if broker_down():
        log.info("broker down: %s%r left for the sweepers", task.name, args)
        return False
    try:
        task.apply_async(args, countdown=countdown, retry=False)
    except Exception as exc:
        if _failed_at is None:
            log.warning("the broker does not take tasks (%s): %s%r left for the sweepers",
                        exc.__class__.__name__, task.name, args)
        _failed_at = time.monotonic()
        return False
    if _failed_at is not None:
        log.warning("the broker takes tasks again")
        _failed_at = None
    return True


def send_on_commit(task, args: tuple = (), *, countdown: float | None = None) -> None:
    """``send`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: send(task, args, countdown=countdown))
