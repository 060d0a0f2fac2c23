"""The bots: their choices, their runs, and waking bots left waiting.

A bot sees only its own seat's view and legal moves; its randomness is keyed by (the match's bot key,
position, seat) (``games.services.opening.bots_key``: derived from the secret), so a repeated task
decides the same. Bots are fast, people are not: while a person may still
call (LIVOL!/UNO!) before being caught, no bot moves until ``CARDLEAGUE_CALL_GRACE_SECONDS`` have
passed since the person's card landed — the rules stay as written, the grace only delays the bots.
"""
from __future__ import annotations

import time
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine import registry
from engine.bots import bot_move
from games import dispatch, store
from games.models import Match, Seat
from games.services.moves import move_submit
from games.services.opening import bots_key
from games.services.recording import record_stretch


class BotRun(NamedTuple):
    made: int       # moves the bots made
    more: bool      # a bot is still to act (the budget ran out, or it waits for a person's grace)
    wait: float     # seconds until a bot may act (a person's grace), 0 if none


def bot_choice(match: Match, state, seats: list[Seat] | None = None,
               position: int | None = None) -> tuple[int, dict] | None:
    """The next bot move at ``position`` (default: the match's): the first seat in ``to_act`` played
    by a bot (its own, or a stand-in for a person who left) whose policy moves. A bot holding the
    turn must move; a bot offered only optional moves (a LIVOL catch or call) may let them go."""
    seats = seats if seats is not None else list(match.seats.all())
    policy = {s.index: s.policy for s in seats if s.policy}
    position = match.last_seq if position is None else position
    for seat in registry.get(match.game).to_act(state):
        if seat in policy:
            move = bot_move(match.game, bots_key(match), position, state, seat, policy[seat])
            if move is not None:
                return seat, move
    return None


def call_grace_left(match: Match, state, seats: list[Seat]) -> float:
    """Seconds the bots must still wait because a person may yet call: some bot could catch a
    person's seat now, and the person's card landed less than the grace ago."""
    grace = settings.CARDLEAGUE_CALL_GRACE_SECONDS
    if grace <= 0:
        return 0.0
    engine_game = registry.get(match.game)
    people = {s.index for s in seats if not s.policy}
    bots = {s.index for s in seats if s.policy}
    for seat in engine_game.to_act(state):
        if seat in bots and any(m.get("type") == "catch" and m.get("target") in people
                                for m in engine_game.legal_moves(state, seat)):
            left = grace - (timezone.now() - match.moved_at).total_seconds()
            return max(0.0, left)
    return 0.0


def bots_advance(*, match_id: int, seq: int | None = None, budget: int = 400) -> BotRun:
    """Play bot moves while a bot is to act, in stretches (``bots_stretch``), up to ``budget`` moves.

    ``seq``: the position the caller saw; if the match has moved on, whoever moved it scheduled
    its own run, so nothing is done (idempotent tasks)."""
    made = 0
    while made < budget:
        run = bots_stretch(match_id=match_id, seq=seq if made == 0 else None,
                           bound=min(settings.CARDLEAGUE_BOT_STRETCH, budget - made))
        made += run.made
        if not run.more or run.wait:
            return BotRun(made, run.more, run.wait)
    return BotRun(made, True, 0.0)


@transaction.atomic
def bots_stretch(*, match_id: int, seq: int | None = None, bound: int = 200) -> BotRun:
    """One stretch of bot moves in one transaction: under the match's row lock, play every bot move
    up to a person's turn, the end of the match, ``bound`` moves or ``CARDLEAGUE_BOT_STRETCH_SECONDS``
    of thinking (a searching bot takes a while: its moves reach the pages as they come, and the row
    lock is not held for long), in memory from the cached state; then append all their events
    (hash-chained, in one insert) and move the match once. The events are exactly those of one-by-one
    play: each bot decides at its own position, from its own view."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None or not match.is_running or (seq is not None and match.last_seq != seq):
        return BotRun(0, False, 0.0)
    seats = list(match.seats.all())
    state = store.load_state(match)
    wait = call_grace_left(match, state, seats)
    if wait > 0:
        return BotRun(0, True, wait)
    engine_game = registry.get(match.game)
    batches: list[tuple[int, dict, list[dict]]] = []
    position = match.last_seq
    until = time.monotonic() + settings.CARDLEAGUE_BOT_STRETCH_SECONDS
    while len(batches) < bound and not (batches and time.monotonic() > until):
        choice = bot_choice(match, state, seats, position=position)
        if choice is None:
            break
        seat, move = choice
        payloads = engine_game.play(state, seat, move)
        for payload in payloads:
            state = engine_game.apply(state, payload)
        batches.append((seat, move, payloads))
        position += len(payloads)
        if engine_game.outcome(state) is not None:
            break
    if not batches:
        return BotRun(0, False, 0.0)
    record_stretch(match, seats, batches, state)
    return BotRun(len(batches), match.is_running and match.bots_to_act, 0.0)


def bot_move_alone(*, match_id: int) -> bool:
    """One bot move in its own transaction, through ``move_submit`` (the way bots moved before
    stretches; the stretch must record exactly what this records)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.is_running:
        return False
    choice = bot_choice(match, store.load_state(match))
    if choice is None:
        return False
    move_submit(match_id=match_id, seat=choice[0], move=choice[1], expected_seq=match.last_seq, wake_bots=False,
                by_bot=True)
    return True


def stalled_bots_wake(*, stall_seconds: float) -> list[int]:
    """Wake the bots of running matches where a bot is to act and nothing has been recorded for
    ``stall_seconds`` (their task was lost: a worker killed, a broker restarted; or they waited for
    a person's grace in a process that runs tasks eagerly). Idempotent: the task is for the match's
    current position, and a task for a position already left does nothing. Returns the matches woken."""
    cutoff = timezone.now() - timedelta(seconds=stall_seconds)
    stalled = list(Match.objects.filter(status=Match.Status.RUNNING, bots_to_act=True, moved_at__lt=cutoff)
                   .values_list("pk", "last_seq")[:500])
    for match_id, seq in stalled:
        dispatch.send("games.bots_play", (match_id, seq))
    return [match_id for match_id, _ in stalled]
