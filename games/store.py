"""The event store's mechanics: canonical hashing, appending, and rebuilding state.

Only ``games.services`` calls ``append_events``. Loading a state uses, in order:
an in-process cache of the latest state per match (checked against the match's
``last_hash``), the newest snapshot at or before the wanted position, and the
events after it — so a move at event 5,000 costs about what a move at event 50
costs.
"""
from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from datetime import datetime

from django.conf import settings
from django.dispatch import Signal
from django.utils import timezone

from engine import record, registry
from engine.record import GENESIS_HASH, canonical, event_time  # noqa: F401 (the store's names for them)
from games.models import ENTROPY_CONTRIBUTED, SEED_REVEALED, STORE_EVENTS, Event, Match, Snapshot

#: Sent when events were appended (``match_id``, ``seq``: the new position), inside the transaction. The
#: store publishes nothing itself: ``games.apps`` connects ``games.publish.match_changed`` (on commit).
events_appended = Signal()

_CACHE_SIZE = 512
_cache: OrderedDict[int, tuple[int, str, object]] = OrderedDict()
_cache_lock = threading.Lock()


def event_hash(*, prev_hash: str, match_id: int, seq: int, payload: dict, seat: int | None, move: dict | None,
               created_at: datetime | None = None, chain_version: int = 2) -> str:
    """The chained hash of a stored event (``engine.record.event_hash``, with its time)."""
    at = event_time(created_at) if created_at is not None else None
    return record.event_hash(prev_hash=prev_hash, match_id=match_id, seq=seq, payload=payload, seat=seat, move=move,
                             at=at, chain_version=chain_version)


seed_commitment = record.commitment


def append_events(match: Match, payloads: list[dict], *, seat: int | None, move: dict | None) -> list[Event]:
    """Append ``payloads`` after ``match.last_seq`` with chained hashes (``append_batches`` of one)."""
    return append_batches(match, [(payloads, seat, move)])


def append_batches(match: Match, batches: list[tuple[list[dict], int | None, dict | None]]) -> list[Event]:
    """Append batches of events — each ``(payloads, seat, move)``: the events one move (or the store)
    caused — after ``match.last_seq``, with chained hashes, in one insert.

    The caller holds the match row lock; each batch's ``move`` is stored on its first event.
    Updates ``match.last_seq`` / ``last_hash`` / ``moved_at`` in memory (the caller saves the match).
    """
    rows = []
    prev = match.last_hash or GENESIS_HASH
    seq = match.last_seq
    now = timezone.now()
    for payloads, seat, move in batches:
        for i, payload in enumerate(payloads):
            seq += 1
            this_move = move if i == 0 else None
            h = event_hash(prev_hash=prev, match_id=match.pk, seq=seq, payload=payload, seat=seat, move=this_move,
                           created_at=now, chain_version=match.chain_version)
            rows.append(Event(match=match, seq=seq, type=payload["type"], payload=payload, seat=seat,
                              move=this_move, created_at=now, prev_hash=prev, hash=h))
            prev = h
    _insert(rows)
    match.last_seq, match.last_hash, match.moved_at = seq, prev, now
    events_appended.send(sender=Match, match_id=match.pk, seq=seq)  # games.apps: the streams hear of it
    return rows


EVENT_COLUMNS = ("match_id", "seq", "type", "payload", "seat", "move", "created_at", "prev_hash", "hash")


def _insert(rows: list[Event]) -> None:
    """Write new events: on PostgreSQL with COPY (a stretch of bot moves writes hundreds at once,
    several times faster than INSERT), elsewhere with one bulk INSERT. The rows stay unsaved
    instances (no id read back: nothing needs it)."""
    from django.db import connection

    if connection.vendor != "postgresql" or len(rows) < 8:
        Event.objects.bulk_create(rows)
        return
    from psycopg.types.json import Jsonb

    table = Event._meta.db_table
    with connection.cursor() as cursor, \
            cursor.cursor.copy(f"COPY {table} ({', '.join(EVENT_COLUMNS)}) FROM STDIN") as copy:
        for e in rows:
            copy.write_row((e.match_id, e.seq, e.type, Jsonb(e.payload), e.seat,
                            None if e.move is None else Jsonb(e.move), e.created_at, e.prev_hash, e.hash))


def engine_payloads(events) -> list[dict]:
    """The engine's events among stored ones (the store's own events left out)."""
    return [e.payload for e in events if e.type not in STORE_EVENTS]


def redact_event(match: Match, payload: dict, seat: int | None) -> dict | None:
    """What ``seat`` (None: a spectator) may know of one recorded event — the one place that decides:
    everything once the match has ended (its secret is then revealed too); until then the store's
    own events by ``redact_store_event`` and the engine's through the game's ``redact``."""
    if match.has_ended:
        return payload
    if payload["type"] in STORE_EVENTS:
        return redact_store_event(payload, seat, match)
    return registry.get(match.game).redact(payload, seat)


def redact_store_event(payload: dict, seat: int | None, match: Match) -> dict | None:
    """What ``seat`` (None: a spectator) may know of one of the store's own events while the
    match has not ended: a seat's random value only once the match has started (the contributor
    sees its own at once); the secret never (it is recorded only at the end)."""
    kind = payload["type"]
    if kind == SEED_REVEALED:
        return None
    if kind == ENTROPY_CONTRIBUTED and match.is_waiting and payload.get("seat") != seat:
        return {k: v for k, v in payload.items() if k != "value"}
    return payload


def _cached(match: Match):
    with _cache_lock:
        hit = _cache.get(match.pk)
        if hit and hit[0] == match.last_seq and hit[1] == match.last_hash:
            _cache.move_to_end(match.pk)
            return hit[2]
    return None


def remember(match: Match, state) -> None:
    with _cache_lock:
        _cache[match.pk] = (match.last_seq, match.last_hash, state)
        _cache.move_to_end(match.pk)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def forget_cache() -> None:
    with _cache_lock:
        _cache.clear()


def load_state(match: Match, upto: int | None = None):
    """The folded state after ``upto`` events (default: all)."""
    game = registry.get(match.game)
    latest = upto is None or upto >= match.last_seq
    if latest:
        hit = _cached(match)
        if hit is not None:
            return hit
    limit = match.last_seq if latest else upto
    snap = (Snapshot.objects.filter(match=match, seq__lte=limit).order_by("-seq").only("seq", "state").first())
    state, start = (pickle.loads(bytes(snap.state)), snap.seq) if snap else (None, 0)
    events = Event.objects.filter(match=match, seq__gt=start, seq__lte=limit).order_by("seq").only("type", "payload")
    for payload in engine_payloads(events):
        state = game.apply(state, payload)
    if latest:
        remember(match, state)
    return state


def maybe_snapshot(match: Match, state, before_seq: int) -> None:
    """Store a snapshot when this batch crossed a multiple of the snapshot interval."""
    every = settings.CARDLEAGUE_SNAPSHOT_EVERY
    if every and match.last_seq // every > before_seq // every:
        Snapshot.objects.create(match=match, seq=match.last_seq, state=pickle.dumps(state, protocol=5))
