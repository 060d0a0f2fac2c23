"""A move: lock the match row, check ``expected_seq``, load the state, let the engine validate and
decide (``engine.play``), then record it (``games.services.recording``): append the events with chained
hashes and settle what follows — a bot takes a resigned person's seat, the clocks move on, the end
reveals the secret — then, on commit, wake the bots and announce what changed.
"""
from __future__ import annotations

from django.db import transaction

from engine import registry
from games import store
from games.errors import MatchNotRunning, MatchWaiting, StaleSequence
from games.models import Event, Match
from games.services.recording import record_move


@transaction.atomic
def move_submit(*, match_id: int, seat: int, move: dict, expected_seq: int | None = None,
                wake_bots: bool = True, by_bot: bool = False) -> list[Event]:
    """Validate and record one move of ``seat``; returns the new events.

    ``expected_seq`` is the position the mover saw; if the match has moved on, ``StaleSequence``
    (409) and nothing is written. ``engine.IllegalMove`` propagates with its code and rule, and
    nothing is written. ``by_bot``: a bot made the move (its own seat, a stand-in's, or a timeout's).
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.is_waiting:
        raise MatchWaiting()
    if not match.is_running:
        raise MatchNotRunning()
    if expected_seq is not None and expected_seq != match.last_seq:
        raise StaleSequence(expected_seq=expected_seq, last_seq=match.last_seq)
    state = store.load_state(match)
    payloads = registry.get(match.game).play(state, seat, move)  # raises IllegalMove
    return record_move(match, state, seat, move, payloads, by_bot=by_bot, wake_bots=wake_bots)


def match_resign(*, match_id: int, seat: int, expected_seq: int | None = None) -> list[Event]:
    """A seat resigns (docs/engine-contract.md "Resigning"): it ranks last; if the match goes on, a bot plays
    the seat for the others from then on."""
    return move_submit(match_id=match_id, seat=seat, move={"type": "resign"}, expected_seq=expected_seq)
