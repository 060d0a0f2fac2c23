"""A match record's mechanics, with nothing but the standard library: canonical JSON, the hash chain,
and the store's own events (the server's store appends them; this module only names and checks them).

Every recorded event has ``hash = SHA-256(prev_hash + canonical(content))``, where the content is the
match id, the position ``seq``, the type, the seat that caused it, the payload, the move (on the
first event of a move's batch) and — from chain version 2 on — the time it was recorded. The first
event's ``prev_hash`` is 64 zeros.
"""
from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64

# The store's own events (not the engine's: never folded, never produced by ``play``).
MATCH_OPENED = "match_opened"                # the commitment to the server's secret, before anything
ENTROPY_CONTRIBUTED = "entropy_contributed"  # a seat's random value for the shuffle
SEAT_TIMED_OUT = "seat_timed_out"            # a seat's deadline passed; the move the rule makes follows
SEAT_FORFEITED = "seat_forfeited"            # the organiser forfeited a seat; its resignation follows
BOT_TOOK_SEAT = "bot_took_seat"              # a bot plays a resigned or abandoned person's seat from now on
MATCH_ABORTED = "match_aborted"              # the organiser stopped the match (or an invitation was declined)
MATCH_AWARDED = "match_awarded"              # the organiser decided the result
SEED_REVEALED = "seed_revealed"              # the secret, when the match has ended
STORE_EVENTS = frozenset({MATCH_OPENED, ENTROPY_CONTRIBUTED, SEAT_TIMED_OUT, SEAT_FORFEITED, BOT_TOOK_SEAT,
                          MATCH_ABORTED, MATCH_AWARDED, SEED_REVEALED})

#: The store's events' keys (``engine.protocol``'s vocabulary, as each game's ``EVENTS``).
STORE_EVENT_KEYS = {
    MATCH_OPENED: {"game": "str", "options": "options", "players": "[player]", "clock": "clock|null",
                   "timeout_rule": "str", "commitment": "str", "seed_scheme": "int", "bots_keyed_by?": "str"},
    ENTROPY_CONTRIBUTED: {"seat": "int", "value?": "str", "by": "str"},
    SEAT_TIMED_OUT: {"seat": "int", "deadline": "str", "then": "str", "phase?": "str", "position?": "int",
                     "policy?": "str"},
    SEAT_FORFEITED: {"seat": "int", "by": "str"},
    BOT_TOOK_SEAT: {"seat": "int", "policy": "str"},
    MATCH_ABORTED: {"reason": "str", "by?": "str|null", "seat?": "int"},
    MATCH_AWARDED: {"ranking": "[[int]]", "reason": "str", "by": "str|null"},
    SEED_REVEALED: {"seed": "str"},
}


def canonical(value: Any) -> str:
    """JSON with sorted keys, no spaces, UTF-8 kept as is: one text for one value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_time(moment: datetime) -> str:
    """An event's time as the hash covers it: UTC, ISO 8601, to the microsecond."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_hash(*, prev_hash: str, match_id: int, seq: int, payload: dict[str, Any], seat: int | None, move: dict[str, Any] | None,
               at: str | None = None, chain_version: int = 2) -> str:
    """SHA-256 over the previous hash and this event's whole content. Chain version 2 covers the
    event's time too (``at``, as ``event_time`` writes it), so nobody can move an event in time
    unseen (a clock's timeout is judged by it); version 1, of matches recorded before, did not."""
    content = {"match": match_id, "seq": seq, "type": payload.get("type"), "seat": seat,
               "payload": payload, "move": move}
    if chain_version >= 2:
        content["at"] = at
    return hashlib.sha256((prev_hash + canonical(content)).encode("utf-8")).hexdigest()


def commitment(secret: str) -> str:
    """The commitment to the server's secret, published when the match opens: SHA-256 of it."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
