"""The one door to the Celery broker: work is handed on by task name, never by holding a request.

A move, a round started, a result recorded: the change is committed first, and only then are the bots
(or the next table) woken through the broker. If the broker refuses the connection or hangs, the
request still answers success — what was committed stands — and the sweepers (``games.sweep``,
``league.sweep``: Celery beat, every ``CARDLEAGUE_SWEEP_EVERY`` seconds) wake the work later. Every call
has a short timeout (``CELERY_BROKER_TRANSPORT_OPTIONS``' socket timeouts, no publish retries), and
after a failure the broker is not asked again for ``RETRY_AFTER`` seconds, so a hung broker costs one
request one timeout, not every request.

Tasks are named (``"games.bots_play"``, ``"league.table_play"``): whoever hands work on imports no
tasks module, so the tasks (which import the services they run) stand above the services. Celery's
``send_task`` sends a name; a process that runs its tasks eagerly (tests, ``bot_tournament --sync``)
looks the task up by name and runs it here, letting its errors through: those are bugs, not a broker
away. Nothing else in the tree calls ``.delay``, ``.apply_async`` or ``.send_task`` (a test says so).

Services hand work on through this module and never ask how it is run:

- ``start``: new work (a round's tables, its notices, the bots after a grace), sent once the
  transaction commits;
- ``hand_on``: the rest of a bounded task, for a fresh worker slot;
- ``send_on_commit``: the bots a change wakes (``games.bots_play``), sent on commit wherever the work
  is done; ``send``: the same at once, for a task or a sweeper that holds no transaction.

The in-process runner (``work_here``: ``bot_tournament --sync``, the demo data) swaps in for the broker:
new work is left to the caller's loop, a task's rest goes on where it is, and the bots' own tasks run
eagerly.
"""
from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from contextvars import ContextVar

from celery import current_app
from django.db import transaction

log = logging.getLogger("games.dispatch")

RETRY_AFTER = 5.0
_failed_at: float | None = None


def broker_down() -> bool:
    """Whether handing a task to the broker failed in the last ``RETRY_AFTER`` seconds."""
    return _failed_at is not None and time.monotonic() - _failed_at < RETRY_AFTER


def _task(app, name: str):
    """The task registered as ``name`` in this process, for running it here (the installed apps'
    ``tasks`` modules are imported the first time one is not known yet)."""
    if name not in app.tasks:
        app.autodiscover_tasks(force=True)
    return app.tasks[name]


def send(name: str, args: tuple = (), *, countdown: float | None = None) -> bool:
    """Queue the task ``name`` with ``args``; False (and a log line) when the broker is away: never raises
    for that. Where tasks run eagerly, the task runs here and now."""
    global _failed_at
    app = current_app
    if app.conf.task_always_eager:
        _task(app, name).apply_async(args, countdown=countdown)
        return True
    if broker_down():
        log.info("broker down: %s%r left for the sweepers", name, args)
        return False
    try:
        # the project's tasks keep no result
        app.send_task(name, args, countdown=countdown, retry=False, ignore_result=True)
    except Exception as exc:
        if _failed_at is None:
            log.warning("the broker does not take tasks (%s): %s%r left for the sweepers",
                        exc.__class__.__name__, name, args)
        _failed_at = time.monotonic()
        return False
    if _failed_at is not None:
        log.warning("the broker takes tasks again")
        _failed_at = None
    return True


def send_on_commit(name: str, args: tuple = (), *, countdown: float | None = None) -> None:
    """``send`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: send(name, args, countdown=countdown))


_here: ContextVar[bool] = ContextVar("dispatch_work_here", default=False)


@contextmanager
def work_here():
    """Do the work this process hands on itself, in the caller's loop, instead of through the broker:
    ``start`` sends nothing (the loop picks the work up), ``hand_on`` says go on here, and Celery runs
    the bots' own tasks eagerly."""
    app = current_app
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


def start(name: str, args: tuple = (), *, countdown: float | None = None) -> None:
    """New work: the task ``name`` once the transaction commits (run at once where tasks run eagerly);
    under ``work_here`` nothing is sent: the caller's loop takes it up."""
    if not _here.get():
        send_on_commit(name, args, countdown=countdown)


def hand_on(name: str, args: tuple = (), *, countdown: float | None = None) -> bool:
    """The rest of a bounded task (it stays well inside the broker's visibility timeout): True when
    the task ``name`` is queued for a fresh worker slot (the caller stops), False when the caller goes
    on itself (its process runs its tasks: eagerly, or under ``work_here``)."""
    if _here.get() or current_app.conf.task_always_eager:
        return False
    send_on_commit(name, args, countdown=countdown)
    return True
