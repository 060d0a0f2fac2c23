"""Changing a drafted round before it is released, and releasing rounds at their scheduled start.

A paired round is a draft: its tables are drawn but no match exists and nobody has been told. The
organiser may swap two players (``draft_swap``: any two seats of the round, byes included) or move one
player to another table (``draft_move``: the tables keep the game's smallest and largest sizes); each change
is recorded as a ``RoundChange`` (who, which tables, by whom, when), shown on the public round. Once the round
is released (``league.services.rounds.round_release``) its tables are fixed: a change is refused.

``rounds_release_due``: the rounds whose ``starts_at`` has passed are released (the periodic
``league.release_due`` task).
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from league.models import Round, RoundChange, Table, TableSeat, Tournament
from league.selectors.rounds import format_setup, withdrawals
from league.services.errors import LeagueError
from league.services.rounds import round_release


class DraftReleased(LeagueError):
    code = "draft_released"
    status = 409
    message = _("The round has been released: its tables can no longer change.")


class NotInDraft(LeagueError):
    code = "not_in_draft"
    status = 404
    message = _("That player has no seat in this round.")


class DraftTableSize(LeagueError):
    code = "draft_table_size"
    status = 409
    message = _("The change would leave a table smaller or larger than the game allows.")


class DraftSamePlace(LeagueError):
    code = "draft_same_place"
    status = 409
    message = _("Choose two different players, or another table.")


def _draft(round_id: int) -> Round:
    """The round, locked, if it is still a draft."""
    rnd = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_id)
    if rnd.status != Round.Status.PAIRED:
        raise DraftReleased()
    return rnd


def _seat(rnd: Round, entrant_id: int) -> TableSeat:
    seat = (TableSeat.objects.select_related("table", "entrant__player")
            .filter(table__round=rnd, entrant_id=entrant_id).first())
    if seat is None:
        raise NotInDraft()
    return seat


def _reseat(table: Table, entrants: list[int], forfeited: set[int]) -> None:
    """Seat ``entrants`` at ``table`` in this order (a draft's seats have no results yet)."""
    table.seats.all().delete()
    TableSeat.objects.bulk_create([TableSeat(table=table, entrant_id=e, position=p, forfeited=e in forfeited)
                                   for p, e in enumerate(entrants)])


def _seated(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entrant_id", flat=True))


def _forfeited(tournament: Tournament) -> set[int]:
    return set(withdrawals(tournament))


@transaction.atomic
def draft_swap(*, round_id: int, first_entrant_id: int, second_entrant_id: int, by=None) -> RoundChange:
    """Swap two players of a drafted round: each takes the other's seat (the same table or two tables)."""
    rnd = _draft(round_id)
    if first_entrant_id == second_entrant_id:
        raise DraftSamePlace()
    a, b = _seat(rnd, first_entrant_id), _seat(rnd, second_entrant_id)
    forfeited = _forfeited(rnd.tournament)
    if a.table_id == b.table_id:
        order = _seated(a.table)
        order[a.position], order[b.position] = order[b.position], order[a.position]
        _reseat(a.table, order, forfeited)
    else:
        first, second = _seated(a.table), _seated(b.table)
        first[a.position], second[b.position] = b.entrant_id, a.entrant_id
        _reseat(a.table, first, forfeited)
        _reseat(b.table, second, forfeited)
    details = {"players": [
        {"entrant": a.entrant_id, "name": a.entrant.player.name, "from": a.table.number, "to": b.table.number,
         "position": a.position},
        {"entrant": b.entrant_id, "name": b.entrant.player.name, "from": b.table.number, "to": a.table.number,
         "position": b.position}]}
    return RoundChange.objects.create(round=rnd, kind=RoundChange.Kind.SWAP, details=details, by=by,
                                      at=timezone.now())


@transaction.atomic
def draft_move(*, round_id: int, entrant_id: int, table_number: int, by=None) -> RoundChange:
    """Move one player of a drafted round to another table (the last seat there). The table left must keep
    the game's smallest table (a bye left empty goes), the table joined must stay within the largest; a
    bye joined becomes a match."""
    rnd = _draft(round_id)
    seat = _seat(rnd, entrant_id)
    source = seat.table
    target = rnd.tables.filter(number=table_number).first()
    if target is None or target.pk == source.pk:
        raise DraftSamePlace()
    setup = format_setup(rnd.tournament)
    left, joined = _seated(source), _seated(target) + [entrant_id]
    left.remove(entrant_id)
    if len(joined) > setup.seats:
        raise DraftTableSize(ngettext("Table %(n)s would have more than %(max)s seat.",
                                      "Table %(n)s would have more than %(max)s seats.", setup.seats) % {
            "n": target.number, "max": setup.seats})
    if len(joined) < setup.min_seats:
        raise DraftTableSize(ngettext("Table %(n)s would have fewer than %(min)s seat.",
                                      "Table %(n)s would have fewer than %(min)s seats.", setup.min_seats) % {
            "n": target.number, "min": setup.min_seats})
    if left and len(left) < setup.min_seats and source.kind == Table.Kind.MATCH:
        raise DraftTableSize(ngettext("Table %(n)s would have fewer than %(min)s seat.",
                                      "Table %(n)s would have fewer than %(min)s seats.", setup.min_seats) % {
            "n": source.number, "min": setup.min_seats})
    forfeited = _forfeited(rnd.tournament)
    if left:
        _reseat(source, left, forfeited)
    else:
        source.seats.all().delete()
        source.delete()
    if target.kind != Table.Kind.MATCH:
        target.kind = Table.Kind.MATCH
        target.save(update_fields=["kind"])
    _reseat(target, joined, forfeited)
    details = {"players": [{"entrant": entrant_id, "name": seat.entrant.player.name, "from": source.number,
                            "to": target.number, "position": seat.position}]}
    return RoundChange.objects.create(round=rnd, kind=RoundChange.Kind.MOVE, details=details, by=by,
                                      at=timezone.now())


def rounds_release_due(*, now=None) -> int:
    """Release every drafted round whose scheduled start (``starts_at``) has passed; how many were released.
    A round scheduled later waits; each release is its own transaction (``round_release``)."""
    now = now or timezone.now()
    due = list(Round.objects.filter(status=Round.Status.PAIRED, starts_at__lte=now,
                                    tournament__status=Tournament.Status.RUNNING)
               .order_by("starts_at", "pk").values_list("pk", flat=True)[:200])
    released = 0
    for round_id in due:
        if round_release(round_id=round_id).status == Round.Status.RUNNING:
            released += 1
    return released
