"""What a seat may know of a match: its view, its legal moves, and its feed of events.

Every engine view or event passes through ``engine.view`` / ``engine.redact`` (``store.redact_event``) for
the seat that asks; nothing else reaches a page, the API or a bot client. The move log and the boards
(``games.selectors.log``, ``games.selectors.board``) are built only from these feeds and views.
"""
from __future__ import annotations

import json

from engine import registry
from games import store, words
from games.models import Event, Match
from games.selectors.people import players

#: Events read for a log (a match's engine bound is well below it).
LOG_LIMIT = 200_000


def seat_view(match: Match, seat: int | None) -> dict:
    """The engine's view of the match for ``seat`` (None: a spectator)."""
    return registry.get(match.game).view(store.load_state(match), seat)


def seat_legal_moves(match: Match, seat: int) -> list[dict]:
    if not match.is_running:
        return []
    return registry.get(match.game).legal_moves(store.load_state(match), seat)


def events_for_seat(match: Match, seat: int | None, after: int = 0, limit: int = 1000,
                    before: int | None = None) -> list[dict]:
    """The events after position ``after`` (and before ``before``) as ``seat`` may know them
    (``store.redact_event``: while the match runs each payload goes through the engine's ``redact`` or the
    store's own rule, and events the seat may not know of are left out; once it has ended every event is
    public)."""
    rows = Event.objects.filter(match=match, seq__gt=after)
    if before is not None:
        rows = rows.filter(seq__lt=before)
    return feed_of(match, rows.order_by("seq")[:limit], seat)


def feed_of(match: Match, rows, seat: int | None) -> list[dict]:
    """Events just recorded (``rows``, as a service returned them) as ``seat`` may know them: the
    same shape and rule as ``events_for_seat``, without reading them back. ``match`` must have its
    current status (a move that ended the match makes every event public)."""
    out = []
    for e in rows:
        payload = store.redact_event(match, e.payload, seat)
        if payload is not None:
            out.append({"seq": e.seq, "type": e.type, "seat": e.seat, "payload": payload,
                        "created_at": e.created_at.isoformat()})
    return out


def move_starts(match: Match, upto: int | None = None, since: int = 0) -> list[tuple[int, int | None]]:
    """``(seq, seat)`` of the first event of every recorded move (from ``since`` on): where one move's
    events end and the next begin (positions only; what a move was is read from the seat's own feed)."""
    rows = Event.objects.filter(match=match, move__isnull=False)
    if since:
        rows = rows.filter(seq__gte=since)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows.order_by("seq").values_list("seq", "seat"))


def audit_events(match: Match, seat: int | None) -> list[dict]:
    """The audit page's event table: the seat's feed with each event in words (as the log says it)
    and its data as the record has it (JSON)."""
    names = players(match)
    starts = move_starts(match)
    context, i = words.EventContext(), 0
    out = []
    for e in events_for_seat(match, seat, limit=LOG_LIMIT):
        while i < len(starts) and starts[i][0] <= e["seq"]:
            context.move_started(starts[i][1])
            i += 1
        out.append(dict(e, words=words.event_words(match.game, e["payload"], names, context) or "",
                        json=json.dumps(e["payload"], ensure_ascii=False)))
    return out
