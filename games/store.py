"""The event store's mechanics: canonical hashing, appending, and rebuilding state.

Only ``games.services`` calls ``append_events``. Loading a state uses, in order:
an in-process cache of the latest state per match (checked against the match's
``last_hash``), the newest snapshot at or before the wanted position, and the
events after it — so a move at event 5,000 costs about what a move at event 50
costs.
"""
from __future__ import annotations

import hashlib
import json
import pickle
import threading
from collections import OrderedDict
from datetime import datetime, timezone as dt_timezone

from django.conf import settings
from django.utils import timezone

from engine import registry
from games.models import SEED_REVEALED, Event, Match, Snapshot

GENESIS_HASH = "0" * 64
_CACHE_SIZE = 512
_cache: "OrderedDict[int, tuple[int, str, object]]" = OrderedDict()
_cache_lock = threading.Lock()


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_time(moment: datetime) -> str:
    """An event's time as the hash covers it: UTC, ISO 8601, to the microsecond."""
    return moment.astimezone(dt_timezone.utc).isoformat(timespec="microseconds")


def event_hash(*, prev_hash: str, match_id: int, seq: int, payload: dict, seat: int | None, move: dict | None,
               created_at: datetime | None = None, chain_version: int = 2) -> str:
    """SHA-256 over the previous hash and this event's whole content.

    Chain version 2 covers the event's time too (``created_at``), so nobody can move an event in
    time unseen (a clock's timeout is judged by it); version 1, of matches recorded before, did not.
    """
    content = {"match": match_id, "seq": seq, "type": payload.get("type"), "seat": seat,
               "payload": payload, "move": move}
    if chain_version >= 2:
        content["at"] = event_time(created_at)
    return hashlib.sha256((prev_hash + canonical(content)).encode("utf-8")).hexdigest()


def seed_commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def append_events(match: Match, payloads: list[dict], *, seat: int | None, move: dict | None) -> list[Event]:
    """Append ``payloads`` after ``match.last_seq`` with chained hashes.

    The caller holds the match row lock; ``move`` is stored on the first event
    of the batch. Updates ``match.last_seq`` / ``last_hash`` / ``moved_at`` in memory (the caller
    saves the match).
    """
    rows = []
    prev = match.last_hash or GENESIS_HASH
    seq = match.last_seq
    now = timezone.now()
    for i, payload in enumerate(payloads):
        seq += 1
        this_move = move if i == 0 else None
        h = event_hash(prev_hash=prev, match_id=match.pk, seq=seq, payload=payload, seat=seat, move=this_move,
                       created_at=now, chain_version=match.chain_version)
        rows.append(Event(match=match, seq=seq, type=payload["type"], payload=payload, seat=seat,
                          move=this_move, created_at=now, prev_hash=prev, hash=h))
        prev = h
    Event.objects.bulk_create(rows)
    match.last_seq, match.last_hash, match.moved_at = seq, prev, now
    return rows


def engine_payloads(events) -> list[dict]:
    """The engine's events among stored ones (the store's own seed reveal left out)."""
    return [e.payload for e in events if e.type != SEED_REVEALED]


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
