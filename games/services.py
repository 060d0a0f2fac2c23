"""The only writers of matches and events (HackSoft style: services write).

A move: lock the match row, check ``expected_seq``, load the state, let the
engine validate and decide (``engine.play``), append the events with chained
hashes, move the match's position, and on commit wake the bots and tell the
league when a match ended.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from engine import registry
from engine.bots import POLICY_NAMES
from games import store
from games.errors import MatchNotRunning, SeatedTwice, StaleSequence
from games.models import SEED_REVEALED, Event, Match, Seat

# Sent on commit when a match has ended; ``match_id`` is its id.
match_finished = Signal()


@dataclass(frozen=True)
class SeatSpec:
    """Who holds a seat: a user, or a bot policy (``"random"``, ``"greedy"``)."""
    user: object | None = None
    bot: str = ""
    name: str = ""

    def __post_init__(self):
        if (self.user is None) == (not self.bot):
            raise ValueError("a seat is held by exactly one of a user or a bot")
        if self.bot and self.bot not in POLICY_NAMES:
            raise ValueError(f"unknown bot policy {self.bot!r}")


@transaction.atomic
def match_create(*, game: str, seats: list[SeatSpec], options: dict | None = None, seed: str | None = None,
                 deck: list[str] | None = None, created_by=None, wake_bots: bool = True) -> Match:
    """Open a match: seats, seed commitment, and the engine's opening events.

    Raises ``ValueError`` for an unknown game, bad options, a bad seat count or
    a deck that is not a permutation of the game's cards. ``wake_bots=False``
    leaves the bots for the caller to run (a benchmark, a tournament task).
    """
    engine_game = registry.get(game)
    people = [s.user.pk for s in seats if s.user is not None]
    if len(set(people)) != len(people):
        raise SeatedTwice()
    seed = seed or secrets.token_hex(16)
    payloads = engine_game.start(len(seats), seed, options=options, deck=deck)
    match = Match.objects.create(game=game, options=dict(options or {}), seed=seed,
                                 seed_commitment=store.seed_commitment(seed), stacked_deck=deck,
                                 created_by=created_by)
    Seat.objects.bulk_create([Seat(match=match, index=i, user=s.user, bot=s.bot, name=s.name)
                              for i, s in enumerate(seats)])
    store.append_events(match, payloads, seat=None, move=None)
    state = engine_game.fold(payloads)
    match.bots_to_act = _bots_to_act(match, state)
    match.save(update_fields=["last_seq", "last_hash", "moved_at", "bots_to_act"])
    store.remember(match, state)
    _after_change(match, state, wake_bots=wake_bots)
    return match


@transaction.atomic
def move_submit(*, match_id: int, seat: int, move: dict, expected_seq: int | None = None,
                wake_bots: bool = True) -> list[Event]:
    """Validate and record one move of ``seat``; returns the new events.

    ``expected_seq`` is the position the mover saw; if the match has moved on,
    ``StaleSequence`` (409) and nothing is written. ``engine.IllegalMove``
    propagates with its code and rule, and nothing is written.
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    if not match.is_running:
        raise MatchNotRunning()
    if expected_seq is not None and expected_seq != match.last_seq:
        raise StaleSequence(expected_seq=expected_seq, last_seq=match.last_seq)
    engine_game = registry.get(match.game)
    state = store.load_state(match)
    payloads = engine_game.play(state, seat, move)  # raises IllegalMove
    for payload in payloads:
        state = engine_game.apply(state, payload)
    before = match.last_seq
    rows = store.append_events(match, payloads, seat=seat, move=move)
    outcome = engine_game.outcome(state)
    fields = ["last_seq", "last_hash", "moved_at", "bots_to_act"]
    if outcome is not None:
        rows += store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
        match.status, match.result, match.finished_at = Match.Status.FINISHED, outcome, timezone.now()
        fields += ["status", "result", "finished_at"]
    match.bots_to_act = outcome is None and _bots_to_act(match, state)
    match.save(update_fields=fields)
    store.remember(match, state)
    store.maybe_snapshot(match, state, before)
    _after_change(match, state, wake_bots=wake_bots)
    return rows


@transaction.atomic
def match_abort(*, match_id: int) -> Match:
    """Stop a running match (an organiser's decision); its events stay as they are."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.is_running:
        match.status, match.finished_at, match.bots_to_act = Match.Status.ABORTED, timezone.now(), False
        match.save(update_fields=["status", "finished_at", "bots_to_act"])
    return match


def match_replay(*, match: Match, upto: int | None = None):
    """The engine state after ``upto`` events (default: all)."""
    return store.load_state(match, upto=upto)


def _after_change(match: Match, state, wake_bots: bool = True) -> None:
    """On commit: wake the bots if one may act; announce a finished match."""
    if match.status == Match.Status.FINISHED:
        match_id = match.pk
        transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id))
        return
    if wake_bots and match.bots_to_act:
        from games.tasks import bots_play

        match_id, seq = match.pk, match.last_seq
        transaction.on_commit(lambda: bots_play.delay(match_id, seq))


def _bots_to_act(match: Match, state) -> bool:
    """Whether a bot seat is among the seats that may act now (recorded on the match, so the
    sweeper finds bots left waiting with one indexed query)."""
    actors = set(registry.get(match.game).view(state, None)["to_act"])
    return bool(actors) and Seat.objects.filter(match=match, index__in=actors).exclude(bot="").exists()


def bot_choice(match: Match, state) -> tuple[int, dict] | None:
    """The next bot move: the first bot seat in ``to_act`` whose policy moves.

    A bot holding the turn must move; a bot offered only optional moves (a
    LIVOL catch or call) may let them go. Each bot sees only its own view and
    legal moves, and its randomness is keyed by (match, position, seat), so a
    repeated task decides the same.
    """
    import random

    from engine.bots import choose

    engine_game = registry.get(match.game)
    actors = engine_game.view(state, None)["to_act"]
    bots = dict(Seat.objects.filter(match=match, index__in=actors).exclude(bot="").values_list("index", "bot"))
    for seat in actors:
        if seat not in bots:
            continue
        view = engine_game.view(state, seat)
        legal = engine_game.legal_moves(state, seat)
        rng = random.Random(f"{match.pk}:{match.last_seq}:{seat}")
        move = choose(match.game, bots[seat], view, legal, rng, must_act=view.get("turn") == seat)
        if move is not None:
            return seat, move
    return None


def bots_advance(*, match_id: int, seq: int | None = None, budget: int = 400) -> tuple[int, bool]:
    """Play bot moves while a bot is to act, each in its own transaction.

    ``seq``: the position the caller saw; if the match has moved on, whoever
    moved it scheduled its own run, so nothing is done (idempotent tasks).
    Returns (moves made, whether the budget ran out with a bot still to act).
    """
    made = 0
    while made < budget:
        match = Match.objects.filter(pk=match_id).first()
        if match is None or not match.is_running:
            return made, False
        if made == 0 and seq is not None and match.last_seq != seq:
            return 0, False
        choice = bot_choice(match, store.load_state(match))
        if choice is None:
            return made, False
        seat, move = choice
        try:
            move_submit(match_id=match_id, seat=seat, move=move, expected_seq=match.last_seq, wake_bots=False)
        except (StaleSequence, MatchNotRunning):
            return made, False  # someone else moved; their commit woke the bots again
        made += 1
    return made, True


def stalled_bots_wake(*, stall_seconds: float) -> list[int]:
    """Wake the bots of running matches where a bot is to act and nothing has been recorded for
    ``stall_seconds`` (their task was lost: a worker killed, a broker restarted). Idempotent: the
    task is for the match's current position, and a task for a position already left does nothing.
    Returns the matches woken."""
    from games.tasks import bots_play

    cutoff = timezone.now() - timedelta(seconds=stall_seconds)
    stalled = list(Match.objects.filter(status=Match.Status.RUNNING, bots_to_act=True, moved_at__lt=cutoff)
                   .values_list("pk", "last_seq")[:500])
    for match_id, seq in stalled:
        bots_play.delay(match_id, seq)
    return [match_id for match_id, _ in stalled]
