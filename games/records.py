"""A match's portable record: one JSON document with everything needed to verify the match offline
(``python -m engine.verify``): game, rules version, options, seats, the commitment, the seats'
contributions, the revealed secret, and every event with its hash chain. Its JSON Schema is
``schemas/match-record.schema.json``.

A record is public once the match has ended; the server's audit builds the same document at any
time (its own check of a running match), with every event as recorded.
"""
from __future__ import annotations

from engine.record import ENTROPY_CONTRIBUTED, SEED_REVEALED
from engine.verify import RECORD_FORMAT, Report, verify_record
from games import store
from games.models import Event, Match

RECORD_VERSION = 1


def match_record(match: Match) -> dict:
    """The record of a match, every event as recorded (callers decide who may have it)."""
    events = list(Event.objects.filter(match=match).order_by("seq"))
    seats = [{"seat": s.index, "name": s.display_name, "kind": "bot" if s.bot else "person",
              "bot": s.bot or None, "stand_in": s.stand_in or None}
             for s in match.seats.select_related("user").order_by("index")]
    started = next((e.payload for e in events if e.type == "match_started"), {})
    revealed = next((e.payload.get("seed") for e in events if e.type == SEED_REVEALED), None)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "match": match.pk,
        "game": match.game,
        "rules_version": started.get("rules_version", 1),
        "options": match.options,
        "status": match.status,
        "seats": seats,
        "clock": match.clock,
        "commitment": match.seed_commitment,
        "seed_scheme": match.seed_scheme,
        "chain_version": match.chain_version,
        "stacked_deck": match.stacked_deck,
        "contributions": [{k: e.payload.get(k) for k in ("seat", "value", "by")}
                          for e in events if e.type == ENTROPY_CONTRIBUTED],
        "secret": revealed,
        "result": match.result,
        "last_seq": match.last_seq,
        "last_hash": match.last_hash,
        "events": [{"seq": e.seq, "type": e.type, "seat": e.seat, "move": e.move, "payload": e.payload,
                    "at": store.event_time(e.created_at) if match.chain_version >= 2 else None,
                    "prev_hash": e.prev_hash, "hash": e.hash} for e in events],
    }


def match_verify(match: Match) -> Report:
    """The server's audit of a match: its record checked by the offline verifier (a running match
    with the server's own secret: the operator's check). The match is read again: the audit judges
    what is recorded now."""
    match.refresh_from_db()
    return verify_record(match_record(match), secret=None if match.has_ended else match.seed)
