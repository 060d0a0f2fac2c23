"""Opening a match once its seats are there: each seat's random value, the engine's seed, the bots' key,
and the start (or, while someone is still to take a seat, the wait).

A match opens with the server's commitment (``match_opened``: SHA-256 of its secret). Every seat
then joins with a random value of its own (``entropy_contributed``): a person's browser or API
client draws it; a bot's seat, and a person's seat the server fills in (no value sent, or the seat
timed out), gets ``engine.core.server_contribution(secret, seat)``, fixed by the commitment. When
every seat has joined, the engine's ``start`` runs with ``engine.core.match_seed(secret,
contributions)``. The bots' randomness is keyed by ``engine.bots.bot_key(secret)`` (the opening says
``"bots_keyed_by": "secret"``; matches opened before that key it by their id: ``bots_key``).
"""
from __future__ import annotations

from engine import registry
from engine.bots import BOTS_KEYED_BY_SECRET, bot_key
from engine.core import match_seed, server_contribution
from engine.record import SEAT_FORFEITED
from games import publish, store
from games.models import ENTROPY_CONTRIBUTED, MATCH_OPENED, Event, Match, Seat
from games.services.recording import after_change, join_deadlines, record_move, settle


def seat_contribute(match: Match, index: int, value: str | None) -> None:
    """Record a seat's random value (the server's own for it when none is given)."""
    if match.seed_scheme < 2:
        return
    by = "player" if value else "server"
    value = value or server_contribution(match.seed, index)
    store.append_events(match, [{"type": ENTROPY_CONTRIBUTED, "seat": index, "value": value, "by": by}],
                        seat=index, move=None)


def contributions(match: Match) -> list[str]:
    """Every seat's contribution, in seat order (from the recorded events)."""
    found = {e["seat"]: e["value"] for e in Event.objects.filter(match=match, type=ENTROPY_CONTRIBUTED)
             .values_list("payload", flat=True)}
    return [found[i] for i in sorted(found)]


def engine_seed(match: Match) -> str:
    """The seed the engine gets: the secret itself (scheme 1), or ``match_seed(secret, contributions)``."""
    return match.seed if match.seed_scheme < 2 else match_seed(match.seed, contributions(match))


def bots_key(match: Match) -> int | str:
    """The key of the match's bots' randomness (``engine.bots.bot_rng``): ``bot_key(secret)`` for a match
    whose opening says ``"bots_keyed_by": "secret"`` (every match opened since), else its id."""
    key = getattr(match, "_bots_key", None)
    if key is None:
        opened = (Event.objects.filter(match=match, seq=1, type=MATCH_OPENED)
                  .values_list("payload", flat=True).first())
        key = bot_key(match.seed) if (opened or {}).get("bots_keyed_by") == BOTS_KEYED_BY_SECRET else match.pk
        match._bots_key = key
    return key


def match_start_or_wait(match: Match, *, wake_bots: bool) -> None:
    """Start the engine once every seat has joined; until then give seated people their deadline."""
    seats = list(match.seats.all())
    if any(s.status != Seat.Status.JOINED for s in seats):
        join_deadlines(match, seats)
        match.save(update_fields=["last_seq", "last_hash", "moved_at"])
        return
    engine_game = registry.get(match.game)
    payloads = engine_game.start(len(seats), engine_seed(match), options=match.options or None,
                                 deck=match.stacked_deck)
    store.append_events(match, payloads, seat=None, move=None)
    match.status = Match.Status.RUNNING
    for seat in seats:
        if seat.user_id is not None:
            publish.notify_user(seat.user_id, "match_started", match=match.pk, game=match.game, seat=seat.index)
    state = engine_game.fold(payloads)
    settle(match, seats, state, mover=None)
    match.save(update_fields=["status", "last_seq", "last_hash", "moved_at", "bots_to_act"])
    store.remember(match, state)
    after_change(match, wake_bots=wake_bots)
    _forfeited_resign(match, wake_bots=wake_bots)


def _forfeited_resign(match: Match, *, wake_bots: bool) -> None:
    """At the start, the seats the organiser forfeited while the match waited resign, in seat order
    (``seat_forfeited`` is followed by the seat's resignation, as the audit checks)."""
    forfeited = sorted(set(Event.objects.filter(match=match, type=SEAT_FORFEITED).values_list("seat", flat=True)))
    engine_game = registry.get(match.game)
    for index in forfeited:
        if not match.is_running:
            return
        state = store.load_state(match)
        if index in engine_game.view(state, None).get("resigned", ()):
            continue
        move = {"type": "resign"}
        record_move(match, state, index, move, engine_game.play(state, index, move), by_bot=True,
                    wake_bots=wake_bots)
