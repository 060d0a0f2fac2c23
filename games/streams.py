"""Live streams (Server-Sent Events): a seat's events as they are recorded, and an account's news.

- ``GET /api/matches/{id}/stream?seat=n``: the seat's redacted events (the one selector that builds
  every feed, ``selectors.events_for_seat``), each with its ``seq`` as the SSE id, resumable with
  ``Last-Event-ID`` (or ``?after=``), a heartbeat comment every ``CARDLEAGUE_STREAM_HEARTBEAT``
  seconds, and ``event: end`` once the match has ended and everything was sent.
- ``GET /api/stream``: an account's news — ``invited``, ``match_started``, ``your_turn``,
  ``round_started`` — with what waits for the account now sent first on every connection (so a
  client that reconnects misses nothing that still matters).

Same authorisation as the other endpoints: a bearer token or the browser's session. Fan-out across
processes is Redis pub/sub (``STREAMS_URL``): after a commit, the store publishes the match's new
position (``match_changed``) and services publish account news (``notify_user``); each open stream
waits on its channel and reads what is new from the database. Without ``STREAMS_URL`` (the
no-server default) there are no streams (503 ``streams_unavailable``) and the pages poll instead.
Served by an ASGI server (uvicorn workers under gunicorn); one worker holds thousands of open
streams (``tests/bench/stream_load.py`` measures it).
"""
from __future__ import annotations

import asyncio
import json
import logging
from functools import lru_cache

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import transaction
from django.http import JsonResponse, StreamingHttpResponse

log = logging.getLogger("games.streams")


def enabled() -> bool:
    return bool(settings.CARDLEAGUE_STREAMS_URL)


def available(request) -> bool:
    """Streams are configured and this server can hold them open: an ASGI server (under WSGI, Django
    would have to read a stream to its end before sending anything)."""
    from django.core.handlers.asgi import ASGIRequest

    return enabled() and isinstance(request, ASGIRequest)


def _unavailable(request, what: str):
    if not enabled():
        return _error(503, {"code": "streams_unavailable", "rule": None,
                            "message": f"This server has no streams: {what}"})
    if not available(request):
        return _error(503, {"code": "streams_unavailable", "rule": None,
                            "message": f"Streams need an ASGI server (uvicorn); this one is WSGI: {what}"})
    return None


def _channel(kind: str, key) -> str:
    return f"{settings.CARDLEAGUE_STREAMS_PREFIX}:{kind}:{key}"


@lru_cache(maxsize=1)
def _publisher():
    import redis

    return redis.Redis.from_url(settings.CARDLEAGUE_STREAMS_URL, socket_timeout=2, socket_connect_timeout=2)


def _publish(channel: str, message: str) -> None:
    try:
        _publisher().publish(channel, message)
    except Exception:  # a stream is a convenience: a move never fails because Redis is away
        log.warning("could not publish to %s", channel, exc_info=True)


def match_changed(match_id: int, seq: int) -> None:
    """On commit: a match reached position ``seq`` (its streams read what is new)."""
    if enabled():
        transaction.on_commit(lambda: _publish(_channel("match", match_id), str(seq)))


def tournament_changed(tournament_id: int) -> None:
    """On commit: a tournament's standings or rounds changed (its page's stream says so)."""
    if enabled():
        transaction.on_commit(lambda: _publish(_channel("tournament", tournament_id), "changed"))


def notify_user(user_id: int | None, kind: str, **data) -> None:
    """On commit: news for an account's stream (``invited``, ``match_started``, ``your_turn``, …)."""
    if enabled() and user_id is not None:
        message = json.dumps({"kind": kind, **data})
        transaction.on_commit(lambda: _publish(_channel("user", user_id), message))


# -- the stream views ---------------------------------------------------------------------------------

def _frame(data: dict, *, event: str = "message", id: int | None = None) -> str:
    head = (f"id: {id}\n" if id is not None else "") + f"event: {event}\n"
    return head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n"


def _error(status: int, body: dict) -> JsonResponse:
    return JsonResponse(body, status=status)


def _authenticate(request):
    """The request's account: a bearer token (no CSRF: a stream only reads) or the session."""
    from games.api import TokenAuth

    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return TokenAuth().authenticate(request, header[7:].strip())
    return request.user if request.user.is_authenticated else None


def _match_access(request, match_id: int, seat):
    """(match, seat) for a seat the account holds (or a spectator: seat None), else an error body."""
    from games.access import access_match, access_seat
    from games.errors import DomainError, http_error

    user = _authenticate(request)
    try:
        if user is None:
            from games.errors import NotSignedIn

            raise NotSignedIn()
        if seat is None:
            return access_match(user, match_id), None, None
        match, seat = access_seat(user, match_id, seat)
        return match, seat, None
    except DomainError as exc:
        return None, None, http_error(exc)


def _position(request) -> int:
    text = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    return int(text) if text.isdigit() and len(text) < 10 else 0


async def match_stream(request, match_id: int):
    """``GET /api/matches/{id}/stream?seat=n``: Server-Sent Events of the seat's events."""
    refused = _unavailable(request, "poll /api/matches/{id}/events.")
    if refused is not None:
        return refused
    seat_text = request.GET.get("seat")
    if seat_text is not None and not (seat_text.isdigit() and len(seat_text) < 3):
        return _error(400, {"code": "malformed_request", "rule": None, "message": "seat is a seat number"})
    match, seat, failure = await sync_to_async(_match_access)(request, match_id,
                                                              None if seat_text is None else int(seat_text))
    if failure is not None:
        return _error(failure[0], failure[1])
    after = _position(request)
    return _stream_response(_match_frames(match.pk, seat, after))


async def _match_frames(match_id: int, seat, after: int):
    from games import selectors
    from games.models import Match

    def new_events(position):
        match = Match.objects.get(pk=match_id)
        return match.has_ended, match.last_seq, selectors.events_for_seat(match, seat, after=position)

    pubsub = await _subscribe(_channel("match", match_id))
    try:
        yield _frame({"match": match_id, "seat": seat, "after": after}, event="hello")
        while True:
            ended, last, events = await sync_to_async(new_events)(after)
            for e in events:
                yield _frame(e, event="match_event", id=e["seq"])
            if events:
                after = events[-1]["seq"]
            if ended and after >= last:
                yield _frame({"match": match_id, "seq": after}, event="end")
                return
            if not await _wait(pubsub, settings.CARDLEAGUE_STREAM_HEARTBEAT):
                yield ": heartbeat\n\n"
    finally:
        await _close(pubsub)


async def account_stream(request):
    """``GET /api/stream``: an account's news, what waits for it first."""
    refused = _unavailable(request, "poll /api/invitations.")
    if refused is not None:
        return refused
    user = await sync_to_async(_authenticate)(request)
    if user is None:
        return _error(401, {"code": "not_signed_in", "rule": None, "message": "sign in first"})
    return _stream_response(_account_frames(user))


async def _account_frames(user):
    from games import selectors

    pubsub = await _subscribe(_channel("user", user.pk))
    try:
        waiting = await sync_to_async(selectors.account_news)(user)
        yield _frame({"user": user.get_username(), "waiting": len(waiting)}, event="hello")
        for news in waiting:
            yield _frame(news, event=news["kind"])
        while True:
            message = await _next_message(pubsub, settings.CARDLEAGUE_STREAM_HEARTBEAT)
            if message is None:
                yield ": heartbeat\n\n"
                continue
            news = json.loads(message)
            yield _frame(news, event=news.get("kind", "message"))
    finally:
        await _close(pubsub)


async def tournament_stream(request, tournament_id: int):
    """``GET /api/tournaments/{id}/stream``: a ``changed`` notice whenever the tournament's standings
    or rounds change (public, like its page: it carries nothing but the notice)."""
    refused = _unavailable(request, "reload the page.")
    if refused is not None:
        return refused
    return _stream_response(_notices(_channel("tournament", tournament_id), {"tournament": tournament_id}))


async def _notices(channel: str, hello: dict):
    pubsub = await _subscribe(channel)
    try:
        yield _frame(hello, event="hello")
        while True:
            if await _wait(pubsub, settings.CARDLEAGUE_STREAM_HEARTBEAT):
                yield _frame(hello, event="changed")
            else:
                yield ": heartbeat\n\n"
    finally:
        await _close(pubsub)


def _stream_response(frames) -> StreamingHttpResponse:
    response = StreamingHttpResponse(frames, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each frame on at once
    return response


# -- Redis pub/sub, asynchronously -------------------------------------------------------------------

async def _subscribe(channel: str):
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(settings.CARDLEAGUE_STREAMS_URL)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(channel)
    pubsub._cardleague_client = client
    return pubsub


async def _next_message(pubsub, timeout: float) -> str | None:
    """The next published message, or None after ``timeout`` seconds of silence."""
    try:
        message = await pubsub.get_message(timeout=timeout)
    except asyncio.TimeoutError:
        return None
    if message is None:
        return None
    data = message.get("data")
    return data.decode() if isinstance(data, bytes) else str(data)


async def _wait(pubsub, timeout: float) -> bool:
    """Wait for the next notice on the channel (True), or ``timeout`` seconds (False); notices that
    arrived meanwhile are drained, since the stream reads everything new from the database."""
    got = await _next_message(pubsub, timeout) is not None
    while got and await _next_message(pubsub, 0.001) is not None:
        pass
    return got


async def _close(pubsub) -> None:
    try:
        await pubsub.unsubscribe()
        await pubsub.aclose()
        await pubsub._cardleague_client.aclose()
    except Exception:
        log.debug("closing a stream's subscription failed", exc_info=True)
