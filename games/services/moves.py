"""A move: lock the match row, check ``expected_seq``, load the state, let the engine validate and
decide (``engine.play``), append the events with chained hashes, and settle what follows — a bot
takes a resigned person's seat, the clocks move on, the end reveals the secret — then, on commit,
wake the bots and announce what changed.
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine import registry
from games import publish, store
from games.errors import DeadlinePassed, MatchNotRunning, MatchWaiting, StaleSequence
from games.models import BOT_TOOK_SEAT, MATCH_ABORTED, SEED_REVEALED, Event, Match, Seat


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
    """A seat resigns (ENGINE.md "Resigning"): it ranks last; if the match goes on, a bot plays
    the seat for the others from then on."""
    return move_submit(match_id=match_id, seat=seat, move={"type": "resign"}, expected_seq=expected_seq)


def record_move(match: Match, state, seat: int, move: dict, payloads: list[dict], *, by_bot: bool,
                wake_bots: bool, lead: tuple[dict, ...] = ()) -> list[Event]:
    """Append a validated move's events (after ``lead``, store events such as ``seat_timed_out``)
    and settle what follows. The caller holds the match row lock."""
    engine_game = registry.get(match.game)
    before = match.last_seq
    seats = list(match.seats.all())
    if not by_bot:
        mover = next((s for s in seats if s.index == seat), None)
        if mover is not None and mover.deadline is not None and mover.deadline <= timezone.now():
            # the clock ran out before the move came: the clock's rule decides it (the sweep records the
            # timeout within seconds), not a move that arrived late (L-5)
            raise DeadlinePassed()
    rows = []
    for event in lead:
        rows += store.append_events(match, [event], seat=event.get("seat"), move=None)
    for payload in payloads:
        state = engine_game.apply(state, payload)
    rows += store.append_events(match, payloads, seat=seat, move=move)
    if not by_bot:
        _clear_timeouts(seats, seat)
    rows += settle(match, seats, state, mover=seat)
    fields = ["status", "result", "finished_at", "last_seq", "last_hash", "moved_at", "bots_to_act"]
    match.save(update_fields=fields)
    store.remember(match, state)
    store.maybe_snapshot(match, state, before)
    after_change(match, wake_bots=wake_bots)
    return rows


def record_stretch(match: Match, seats: list[Seat], batches: list[tuple[int, dict, list[dict]]], state) -> list[Event]:
    """Append a stretch of bot moves (each ``(seat, move, payloads)``, already applied: ``state`` is
    the state after them) in one insert, settle once, and move the match once. The caller holds the
    match row lock."""
    before = match.last_seq
    rows = store.append_batches(match, [(payloads, seat, move) for seat, move, payloads in batches])
    rows += settle(match, seats, state, mover=batches[-1][0])
    match.save(update_fields=["status", "result", "finished_at", "last_seq", "last_hash", "moved_at", "bots_to_act"])
    store.remember(match, state)
    store.maybe_snapshot(match, state, before)
    after_change(match, wake_bots=False)
    return rows


def _no_person_left(match: Match, seats: list[Seat], view: dict) -> bool:
    """Whether the match had accounts at the table and every one of them has resigned (resigning,
    forfeited), so only the server's bots would play on; never for a tournament's match."""
    accounts = [s.index for s in seats if s.user_id is not None]
    if not accounts or not set(accounts) <= set(view.get("resigned") or ()):
        return False
    return not _tournament_match(match)


def _tournament_match(match: Match) -> bool:
    """Whether a tournament seated this match (the league's ``Table.match``, seen from here by its
    reverse name: games imports nothing of the league)."""
    from django.apps import apps

    if not apps.is_installed("league"):
        return False
    return Match.objects.filter(pk=match.pk, league_table__isnull=False).exists()


def settle(match: Match, seats: list[Seat], state, *, mover: int | None) -> list[Event]:
    """What follows a batch of engine events: the end (the result and the secret), a bot for a
    person who resigned while the match goes on, the seats' deadlines, and whether a bot is to act.
    Saves the seats it changes; the caller saves the match."""
    engine_game = registry.get(match.game)
    rows = []
    outcome = engine_game.outcome(state)
    if outcome is not None:
        rows += store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
        match.status, match.result, match.finished_at = Match.Status.FINISHED, outcome, timezone.now()
        match.bots_to_act = False
        Seat.objects.filter(match=match).update(deadline=None, turn_started_at=None)
        return rows
    if match.last_seq >= engine_game.MAX_EVENTS:
        # H1: the hard ceiling. A match whose record reaches the game's MAX_EVENTS ends as aborted
        # (a ``match_aborted`` event with reason ``event_limit``, then the secret), so no table of
        # bots plays for ever. ``match.last_seq`` counts store events too, so this is conservative.
        rows += store.append_events(match, [{"type": MATCH_ABORTED, "reason": "event_limit"}], seat=None, move=None)
        rows += store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
        match.status, match.finished_at, match.bots_to_act = Match.Status.ABORTED, timezone.now(), False
        Seat.objects.filter(match=match).update(deadline=None, turn_started_at=None)
        return rows
    view = engine_game.view(state, None)
    for seat in seats:
        if seat.index in view.get("resigned", ()) and not seat.policy:
            seat.stand_in = settings.CARDLEAGUE_STAND_IN_POLICY
            seat.deadline = seat.turn_started_at = None
            seat.save(update_fields=["stand_in", "deadline", "turn_started_at"])
            rows += store.append_events(match, [{"type": BOT_TOOK_SEAT, "seat": seat.index, "policy": seat.stand_in}],
                                        seat=seat.index, move=None)
    if _no_person_left(match, seats, view):
        # H1: every person (or outside bot account) at the table has resigned or was forfeited: nobody is
        # left to play for, so the server's bots stop and the match ends as aborted (``no_people_left``).
        # A tournament's match plays on: its result counts for the standings.
        rows += store.append_events(match, [{"type": MATCH_ABORTED, "reason": "no_people_left"}], seat=None,
                                    move=None)
        rows += store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
        match.status, match.finished_at, match.bots_to_act = Match.Status.ABORTED, timezone.now(), False
        Seat.objects.filter(match=match).update(deadline=None, turn_started_at=None)
        return rows
    from games.services.clocks import move_deadlines

    move_deadlines(match, seats, view, mover=mover)
    turn = view.get("turn")
    if turn is not None and turn != mover:
        holder = next((s for s in seats if s.index == turn), None)
        if holder is not None and holder.user_id is not None and not holder.policy:
            publish.notify_user(holder.user_id, "your_turn", match=match.pk, game=match.game, seat=turn,
                                deadline=holder.deadline.isoformat() if holder.deadline else None)
    actors = set(view["to_act"])
    match.bots_to_act = any(s.policy and s.index in actors for s in seats)
    return rows


def _clear_timeouts(seats: list[Seat], index: int) -> None:
    """A person who moves is at the table: their run of timeouts ends."""
    for seat in seats:
        if seat.index == index and seat.timeouts_in_a_row:
            seat.timeouts_in_a_row = 0
            seat.save(update_fields=["timeouts_in_a_row"])


def after_change(match: Match, *, wake_bots: bool = True) -> None:
    """On commit: announce a match that ended, or wake the bots if one may act."""
    from games.services.matches import match_finished

    match_id, seq = match.pk, match.last_seq
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        from games.services.matches import announce_end

        aborted = (Event.objects.filter(match=match, type=MATCH_ABORTED).values_list("payload", flat=True).first()
                   if match.status == Match.Status.ABORTED else None)
        announce_end(match, aborted)
        transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id))
        return
    if wake_bots and match.bots_to_act:
        from games.tasks import bots_play

        transaction.on_commit(lambda: bots_play.delay(match_id, seq))
