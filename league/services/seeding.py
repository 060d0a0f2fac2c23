"""Seeded bot tournaments (``bot_tournament --seed``): every match's secret derived from one seed, so that
a run can be replayed — an organiser's or a tester's report reproduced, a demo shown again.

For tests and demos only: whoever knows the seed knows every match's secret, and so every deal before
it is dealt. A seed is therefore refused for a tournament that anyone but the server's bots entered.

What a second run with the same seed gives (in the same database or another): the same pairings,
results and standings, and every match the same events — type, seat, move and payload at each
position, the commitment, the contributions, the secret. Not the same: the database ids (the match's
id is part of every event's hash), the times (``at``: also hashed) and so the hashes; and the bots'
league ratings, which go on from where the first run left them.
"""
from __future__ import annotations

import hashlib
import hmac
from contextlib import contextmanager
from contextvars import ContextVar

from league.models import Entrant, Table, TableSeat
from league.services.errors import SeededWithPeople

SECRET_FORMULA = "cardleague-tournament-v1"

#: The seeded tournament being run in this process (``tournament_seeded``): (tournament id, seed).
_seeded: ContextVar[tuple[int, str] | None] = ContextVar("league_seeded", default=None)


def table_secret(seed: str, round_number: int, table_number: int) -> str:
    """The secret of a seeded tournament's match: HMAC-SHA256(key = the seed, message =
    "cardleague-tournament-v1", "round:<r>", "table:<t>" one per line), 64 hex digits. From the round's
    and the table's numbers, never database ids: the same seed gives the same secrets in any database."""
    message = "\n".join([SECRET_FORMULA, f"round:{round_number}", f"table:{table_number}"])
    return hmac.new(seed.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).hexdigest()


def _people_entered(tournament_id: int) -> bool:
    return Entrant.objects.filter(tournament_id=tournament_id, player__user__isnull=False).exists()


@contextmanager
def tournament_seeded(*, tournament_id: int, seed: str):
    """While inside, the matches of the tournament created in this process take their secrets from
    ``seed`` (``table_secret``), and their bots' randomness follows (``engine.bots.bot_key``). Raises
    ``SeededWithPeople`` when a person (or an outside bot's account) has entered."""
    if not seed:
        raise ValueError("a seed is a non-empty text")
    if _people_entered(tournament_id):
        raise SeededWithPeople()
    token = _seeded.set((tournament_id, seed))
    try:
        yield
    finally:
        _seeded.reset(token)


def seeded_secret(table: Table, seats: list[TableSeat]) -> str | None:
    """The secret of ``table``'s match when its tournament runs seeded here (None: the server draws
    one). Raises ``SeededWithPeople`` if a person holds one of its seats."""
    seeded = _seeded.get()
    if seeded is None or seeded[0] != table.round.tournament_id:
        return None
    if any(s.entrant.player.user_id is not None for s in seats):
        raise SeededWithPeople()
    return table_secret(seeded[1], table.round.number, table.number)
