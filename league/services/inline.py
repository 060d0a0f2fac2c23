"""Running league work in this process (``--sync``, demo data) instead of through the broker."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterable



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
    from games.dispatch import send_on_commit
    from league import tasks

    for table_id in table_ids:
        send_on_commit(tasks.table_play, (table_id,))
