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

Services hand work on through this one module and never ask how they are run: ``start`` for new work
(a round's tables, its notices, the bots after a grace), ``hand_on`` for the rest of a bounded task. The
in-process runner (``work_here``: ``bot_tournament --sync``, the demo data) swaps in for the broker: new
work is left to the caller's loop, and a task's rest goes on where it is.
"""
from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from contextvars import ContextVar

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


_here: ContextVar[bool] = ContextVar("dispatch_work_here", default=False)


@contextmanager
def work_here():
    """Do the work this process hands on itself, in the caller's loop, instead of through the broker:
    ``start`` sends nothing (the loop picks the work up), ``hand_on`` says go on here, and Celery runs
    the bots' own tasks eagerly."""
    from games.tasks import bots_play

    app = bots_play.app
    token = _here.set(True)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = eager
        _here.reset(token)


def works_here() -> bool:
    """Whether the caller's own loop does the work handed on (``work_here``): the one question a
    service may ask, for work that the loop itself orders (the next round of a tournament)."""
    return _here.get()


def start(task, args: tuple = (), *, countdown: float | None = None) -> None:
    """New work: ``task(*args)`` once the transaction commits (run at once where tasks run eagerly);
    under ``work_here`` nothing is sent: the caller's loop takes it up."""
    if not _here.get():
        send_on_commit(task, args, countdown=countdown)


def hand_on(task, args: tuple = (), *, countdown: float | None = None) -> bool:
    """The rest of a bounded task (it stays well inside the broker's visibility timeout): True when
    ``task(*args)`` is queued for a fresh worker slot (the caller stops), False when the caller goes
    on itself (its process runs its tasks: eagerly, or under ``work_here``)."""
    if _here.get() or task.app.conf.task_always_eager:
        return False
    send_on_commit(task, args, countdown=countdown)
    return True
