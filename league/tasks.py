"""Celery tasks of the league: ids in, look everything up again, idempotent. They stand above the
services they run; the services hand work on to them by name (``games.dispatch``).

``league.table_play`` is ``acks_late``: a task redelivered after a worker died
continues the match from its recorded events (creating the table's match
happens once, under the table's row lock) — proven by
``tests/league/test_services.py::test_a_redelivered_table_task_continues_without_duplicating``.
"""
from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from league.services import drafts, entries, notifications, rounds, running


@shared_task(name="league.table_play", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def table_play(table_id: int) -> bool:
    """Play one table's match with its bots until none is to act; record it if it ended."""
    return rounds.table_run(table_id=table_id)


@shared_task(name="league.match_record", ignore_result=True, autoretry_for=(DatabaseError,), retry_backoff=True,
             max_retries=6)
def match_record(match_id: int) -> bool:
    """Record a finished match's table (the retry of a failed ``match_finished`` receiver)."""
    return rounds.match_result_record(match_id=match_id)


@shared_task(name="league.tournament_sweep", ignore_result=True)
def tournament_sweep(tournament_id: int) -> int:
    """Record decided tables whose ``match_finished`` was lost (e.g. a worker stopped mid-way)."""
    return running.tournament_sweep(tournament_id=tournament_id)


@shared_task(name="league.sweep", ignore_result=True)
def sweep() -> dict:
    """Periodic (Celery beat): record lost results and re-queue tables whose task was lost."""
    return running.tournaments_sweep(stall_seconds=settings.CARDLEAGUE_STALL_SECONDS)


@shared_task(name="league.release_due", ignore_result=True)
def release_due() -> int:
    """Periodic (Celery beat): release the drafted rounds whose scheduled start has passed (their matches'
    tasks are handed on through ``games.dispatch``)."""
    return drafts.rounds_release_due()


@shared_task(name="league.notify_turn", ignore_result=True, autoretry_for=(OSError,), retry_backoff=True,
             max_retries=5)
def notify_turn(match_id: int, seat: int) -> bool:
    """E-mail a person that a correspondence turn waits for them."""
    return notifications.turn_notify(match_id=match_id, seat=seat)


@shared_task(name="league.notify_round", ignore_result=True, autoretry_for=(OSError,), retry_backoff=True,
             max_retries=5)
def notify_round(round_id: int) -> int:
    """E-mail the people of a round that has started."""
    return notifications.round_notify(round_id=round_id)


@shared_task(name="league.entries_sweep", ignore_result=True)
def entries_sweep() -> int:
    """Periodic (Celery beat): hand on each tournament whose check-in is due to close or may have no-shows."""
    return entries.entries_sweep()


@shared_task(name="league.entries_due", ignore_result=True)
def entries_due(tournament_id: int) -> dict:
    """Close a tournament's check-in when its window has ended; forfeit its no-shows' seats."""
    return entries.entries_due(tournament_id=tournament_id)
