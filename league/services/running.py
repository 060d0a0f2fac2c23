"""Running whole tournaments: the sweepers that keep them moving, and ``tournament_run`` in this process."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import dispatch
from league.models import Folded, Round, Table, Tournament
from league.services.errors import WaitingForPeople
from league.services.rounds import round_close, round_pair, round_start, table_record, table_run


def tournament_sweep(*, tournament_id: int) -> int:
    """Record every decided table not folded yet (a lost ``match_finished``) and close rounds
    that are done; returns how many tables were recorded."""
    pending = (Table.objects.filter(round__tournament_id=tournament_id, round__status=Round.Status.RUNNING)
               .exclude(folds__projection=Folded.Projection.STANDINGS).values_list("pk", flat=True))
    recorded = sum(1 for pk in list(pending) if table_record(table_id=pk))
    for round_id in Round.objects.filter(tournament_id=tournament_id, status=Round.Status.RUNNING).values_list(
            "pk", flat=True):
        round_close(round_id=round_id)
    return recorded


def tournaments_sweep(*, stall_seconds: float) -> dict:
    """Periodic (Celery beat, ``league.sweep``): keep every running tournament moving after a lost
    task. Records decided tables not folded yet and closes finished rounds (``tournament_sweep``),
    and re-queues ``league.table_play`` for tables of a running round whose match was never
    created (the round started more than ``stall_seconds`` ago). Idempotent, like the tasks."""
    cutoff = timezone.now() - timedelta(seconds=stall_seconds)
    recorded = sum(tournament_sweep(tournament_id=pk) for pk in
                   Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("pk", flat=True))
    orphans = list(Table.objects.filter(round__status=Round.Status.RUNNING, round__started_at__lt=cutoff,
                                        kind=Table.Kind.MATCH, match__isnull=True)
                   .exclude(folds__projection=Folded.Projection.STANDINGS).values_list("pk", flat=True)[:500])
    for table_id in orphans:
        dispatch.send("league.table_play", (table_id,))
    return {"recorded": recorded, "requeued": len(orphans)}


def tournament_run(*, tournament_id: int, on_round=None) -> Tournament:
    """Run a tournament to the end in this process: pair, start, play every table, repeat.

    Stops with ``WaitingForPeople`` when a round cannot finish without a person's move.
    ``on_round(round)`` is called after each round closes (progress output).
    """
    reported: set[int] = set()

    def report():
        if on_round is None:
            return
        for closed in Round.objects.filter(tournament_id=tournament_id, status=Round.Status.CLOSED).exclude(
                pk__in=reported).order_by("number"):
            reported.add(closed.pk)
            on_round(closed)

    with dispatch.work_here():
        while True:
            report()
            tournament = Tournament.objects.get(pk=tournament_id)
            if tournament.status == Tournament.Status.FINISHED:
                return tournament
            rnd = tournament.round_set.order_by("-number").first()
            if rnd is None or rnd.status == Round.Status.CLOSED:
                round_pair(tournament_id=tournament_id)
                continue
            if rnd.status == Round.Status.PAIRED:
                round_start(round_id=rnd.pk)
                continue
            pending = list(rnd.tables.exclude(folds__projection=Folded.Projection.STANDINGS)
                           .order_by("number").values_list("pk", flat=True))
            for table_id in pending:
                table_run(table_id=table_id)
            rnd.refresh_from_db()
            if rnd.status == Round.Status.RUNNING and rnd.tables.exclude(
                    folds__projection=Folded.Projection.STANDINGS).exclude(pk__in=pending).exists():
                continue    # a continuous format (an arena) seated the players freed at new tables
            if rnd.status == Round.Status.RUNNING and not round_close(round_id=rnd.pk):
                raise WaitingForPeople()
