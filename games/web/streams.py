"""Live streams (Server-Sent Events): a seat's events as they are recorded, and an account's news.

- ``GET /api/matches/{id}/stream?seat=n``: the seat's redacted events (the one selector that builds
  every feed, ``selectors.feeds.events_for_seat``), each with its ``seq`` as the SSE id, resumable with
  ``Last-Event-ID`` (or ``?after=``), a heartbeat comment every ``CARDLEAGUE_STREAM_HEARTBEAT``
  seconds, and ``event: end`` once the match has ended and everything was sent.
- ``GET /api/stream``: an account's news — ``invited``, ``match_started``, ``your_turn``,
  ``round_started`` — with what waits for the account now sent first on every connection (so a
  client that reconnects misses nothing that still matters).

Same authorisation as the other endpoints: a bearer token or the browser's session. Fan-out across
processes: after a commit, the match's new position is published (``match_changed``: the store sends
``events_appended`` and ``games.apps`` hands it to ``games.publish``) and services publish account news
(``notify_user``); each server process has one hub that hands every
notice to the open streams of its channel, which read what is new from the database. With
``STREAMS_URL`` (Redis) the hub is one pattern subscription; without it (the no-server default of
``make run``, where the worker is another process) notices are rows of ``StreamNotice`` and the hub
reads the new ones every ``CARDLEAGUE_STREAM_POLL`` seconds, one query for all its streams. Served by
an ASGI server (``games.web.stream_edge``: no thread per stream); under WSGI there are no streams (503
``streams_unavailable``) and the pages poll instead.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from django.conf import settings
from django.http import JsonResponse, StreamingHttpResponse

log = logging.getLogger("games.web.streams")

# the publishing half (services call it on commit; the store does not): games.publish
from games.publish import _channel, publishing_down, through_redis  # noqa: E402,F401


#: Set in a request's WSGI environ by ``cardleague.asgi``: Django's pages run on threads behind an ASGI server
#: whose own front (``games.web.stream_edge``) serves the streams, so a page may open one.
STREAMS_SERVED = "cardleague.streams_served"


def available(request) -> bool:
    """A page served here may open a stream: the server holds streams open (ASGI: the stream front of
    ``cardleague.asgi``, or Django's own ASGI handler). Under a plain WSGI server, Django would have to read a
    stream to its end before sending anything."""
    return _holds_streams(request) or bool(request.META.get(STREAMS_SERVED))


def _holds_streams(request) -> bool:
    """This request itself can be answered with a stream held open (an ASGI request)."""
    from django.core.handlers.asgi import ASGIRequest

    return isinstance(request, ASGIRequest)


def _unavailable(request, what: str):
    """A 503 ``streams_unavailable`` when this server cannot hold the stream (the caller then polls:
    the pages never ask such a server, the reference client asks once and polls); an expected answer,
    kept out of the server's console (``cardleague.log_filters.ExpectedRefusals``)."""
    refusal = _refusal(request, what)
    if refusal is not None:
        request.expected_refusal = True
    return refusal


def _refusal(request, what: str):
    if not _holds_streams(request):
        return _error(503, {"code": "streams_unavailable", "rule": None,
                            "message": f"Streams need an ASGI server (uvicorn); this one is WSGI: {what}"})
    return None


# -- the stream views ---------------------------------------------------------------------------------

_readers: ThreadPoolExecutor | None = None

#: How many events a stream reads at once: a stream further behind reads page after page until it is
#: current (then waits for the next notice), and a finished match's stream ends with ``end``.
STREAM_PAGE = 500


def _reading(fn):
    """A database read for an open stream, run on this process's few stream-reader threads
    (``CARDLEAGUE_STREAM_DB_READS`` of them, each keeping its own connection): however many streams
    are open, and however many a move wakes at once, they use that many database connections."""
    async def on_reader(*args, **kwargs):
        global _readers
        if _readers is None:
            _readers = ThreadPoolExecutor(settings.CARDLEAGUE_STREAM_DB_READS, thread_name_prefix="stream-db")
        return await asyncio.get_running_loop().run_in_executor(_readers, functools.partial(_read, fn, *args,
                                                                                            **kwargs))
    return on_reader


def _read(fn, *args, **kwargs):
    """One read on a stream's thread. Without a connection pool the thread keeps its connection (opened
    again when it broke or grew too old); with one (``DB_POOL``) the connection goes back to the pool after
    the read, or the streams' threads would hold the whole pool between reads and the pages' and the API's
    requests would wait for a connection until they fail (the club night found it)."""
    from django.db import close_old_connections, connection

    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        if "pool" in connection.settings_dict.get("OPTIONS", {}):
            connection.close()


_authenticators: ThreadPoolExecutor | None = None


def _authenticating(fn):
    """Authentication of a new stream, on its own threads: a new stream's ``hello`` never waits behind
    the reads of streams that are behind (they have the readers, ``_reading``)."""
    async def on_thread(*args, **kwargs):
        global _authenticators
        if _authenticators is None:
            _authenticators = ThreadPoolExecutor(2, thread_name_prefix="stream-auth")
        return await asyncio.get_running_loop().run_in_executor(_authenticators,
                                                                functools.partial(_read, fn, *args, **kwargs))
    return on_thread


def _address(request) -> str:
    from games.web.access import client_address

    return client_address(None, request)


def _frame(data: dict, *, event: str = "message", id: int | None = None) -> str:
    head = (f"id: {id}\n" if id is not None else "") + f"event: {event}\n"
    return head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n"


def _error(status: int, body: dict) -> JsonResponse:
    return JsonResponse(body, status=status)


class _TooManyWrongTokens(Exception):
    def __init__(self, wait: int):
        self.wait = wait


def _authenticate(request):
    """The request's account: a bearer token (no CSRF: a stream only reads) or the session. Raises
    ``_TooManyWrongTokens`` when this address sent too many wrong tokens (a 429, not a 500)."""
    from games.web.auth import TooManyWrongTokens, attach_session_user, token_user

    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        try:
            user = token_user(request, header[7:].strip())
        except TooManyWrongTokens as exc:
            raise _TooManyWrongTokens(exc.wait) from None
        if user is not None:
            request.stream_token = hashlib.sha256(header[7:].strip().encode("utf-8")).hexdigest()
            request.stream_user_id = user.pk
        return user
    if getattr(request, "stream_edge", False):
        attach_session_user(request)  # served by the streams' own front: no middleware read the session
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        request.stream_user_id = user.pk
    return user


def _still_allowed(user_id: int, token_hash: str | None) -> bool:
    """Whether the account that opened a stream may still read it: active, and its token (if it came
    with one) not deleted. Checked at every read, so a revoked token's stream stops at once."""
    from django.contrib.auth import get_user_model

    from games.models import ApiToken

    if token_hash is not None:
        return ApiToken.objects.filter(key_hash=token_hash, user_id=user_id, user__is_active=True).exists()
    return get_user_model().objects.filter(pk=user_id, is_active=True).exists()


def _throttled(wait: int) -> JsonResponse:
    response = _error(429, {"code": "rate_limited", "rule": None, "message": "too many wrong tokens from this address"})
    response["Retry-After"] = str(wait)
    return response


# -- caps: how many streams one account, one address and this process hold open ------------------------

class _Caps:
    """Open streams counted per account, per address and in this process. A stream over the account's
    or the address's cap is a 429 with ``Retry-After``; over the process's (set below the process's file
    limit, ``RLIMIT_NOFILE``) a 503, so that the process never runs out of files for other requests."""

    def __init__(self):
        self.accounts: dict[object, int] = {}
        self.addresses: dict[str, int] = {}
        self.total = 0

    def refusal(self, account, address: str) -> JsonResponse | None:
        if self.total >= _process_cap():
            response = _error(503, {"code": "streams_full", "rule": None,
                                    "message": "this server holds as many streams as it can: try again soon"})
        elif account is not None and self.accounts.get(account, 0) >= settings.CARDLEAGUE_STREAMS_PER_ACCOUNT:
            response = _error(429, {"code": "too_many_streams", "rule": None,
                                    "message": "this account has as many streams open as it may"})
        elif self.addresses.get(address, 0) >= settings.CARDLEAGUE_STREAMS_PER_ADDRESS:
            response = _error(429, {"code": "too_many_streams", "rule": None,
                                    "message": "this address has as many streams open as it may"})
        else:
            return None
        response["Retry-After"] = str(settings.CARDLEAGUE_STREAM_RETRY_AFTER)
        return response

    def take(self, account, address: str) -> None:
        self.total += 1
        self.addresses[address] = self.addresses.get(address, 0) + 1
        if account is not None:
            self.accounts[account] = self.accounts.get(account, 0) + 1

    def give_back(self, account, address: str) -> None:
        self.total -= 1
        for table, key in ((self.addresses, address), (self.accounts, account)):
            if key is not None and key in table:
                table[key] -= 1
                if table[key] <= 0:
                    del table[key]


_caps = _Caps()


@lru_cache(maxsize=1)
def _process_cap() -> int:
    """``CARDLEAGUE_STREAMS_PER_PROCESS``, or else three quarters of the process's file limit (each open
    stream holds one file: its socket), keeping the rest for requests, the database and Redis."""
    if settings.CARDLEAGUE_STREAMS_PER_PROCESS:
        return settings.CARDLEAGUE_STREAMS_PER_PROCESS
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if soft == resource.RLIM_INFINITY or soft <= 0:
            soft = 65536
    except (ImportError, ValueError, OSError):  # pragma: no cover - not a Unix
        soft = 1024
    return max(16, soft * 3 // 4)


async def _capped(frames, account, address: str):
    """The frames of one stream, counted against the caps while it is open, and ended after
    ``CARDLEAGUE_STREAM_MAX_SECONDS`` (the client reconnects, with ``Last-Event-ID`` where it has one)."""
    _caps.take(account, address)
    deadline = asyncio.get_running_loop().time() + settings.CARDLEAGUE_STREAM_MAX_SECONDS
    try:
        async for frame in frames:
            yield frame
            if asyncio.get_running_loop().time() >= deadline:
                yield _frame({"after_seconds": settings.CARDLEAGUE_STREAM_MAX_SECONDS}, event="reconnect")
                return
    finally:
        _caps.give_back(account, address)
        await frames.aclose()


def _match_access(request, match_id: int, seat):
    """(match, seat) for a seat the account holds (or a spectator: seat None), else an error body."""
    from games.web.access import access_match, access_seat
    from games.errors import DomainError, http_error

    try:
        user = _authenticate(request)
    except _TooManyWrongTokens as exc:
        return None, None, exc
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


def _digits(text: str | None, most: int) -> int | None:
    """A count in a stream's request: the one parser of counts in requests (``games.web.params.count``)."""
    from games.web.params import count

    return count(text, digits=most)


def _position(request) -> int:
    """Where a stream starts: after ``Last-Event-ID`` (a reconnecting client), else ``?after=``, else 0."""
    text = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    return _digits(text, 9) or 0


async def match_stream(request, match_id: int):
    """``GET /api/matches/{id}/stream?seat=n``: Server-Sent Events of the seat's events."""
    refused = _unavailable(request, "poll /api/matches/{id}/events.")
    if refused is not None:
        return refused
    seat_text = request.GET.get("seat")
    seat_number = _digits(seat_text, 2)
    if seat_text is not None and seat_number is None:
        return _error(400, {"code": "malformed_request", "rule": None, "message": "seat is a seat number"})
    match, seat, failure = await _authenticating(_match_access)(request, match_id, seat_number)
    if isinstance(failure, _TooManyWrongTokens):
        return _throttled(failure.wait)
    if failure is not None:
        return _error(failure[0], failure[1])
    account, address = request.stream_user_id, _address(request)
    refused = _caps.refusal(account, address)
    if refused is not None:
        return refused
    after = _position(request)
    frames = _match_frames(match.pk, match.game, seat, after, account, getattr(request, "stream_token", None))
    return _stream_response(_capped(frames, account, address))


async def _match_frames(match_id: int, game: str, seat, after: int, user_id: int, token_hash: str | None):
    from games.selectors import feeds
    from games.models import Match

    def new_events(position):
        if not _still_allowed(user_id, token_hash):
            return None
        match = Match.objects.get(pk=match_id)
        rows = feeds.events_for_seat(match, seat, after=position, limit=STREAM_PAGE + 1)
        return match.has_ended, match.last_seq, rows[:STREAM_PAGE], len(rows) > STREAM_PAGE

    pubsub = await _subscribe(_channel("match", match_id))
    try:
        yield _frame({"match": match_id, "game": game, "seat": seat, "after": after}, event="hello")
        while True:
            read = await _reading(new_events)(after)
            if read is None:  # the token was deleted or the account deactivated
                yield _frame({"match": match_id, "reason": "access_revoked"}, event="end")
                return
            ended, last, events, more = read
            for e in events:
                yield _frame(e, event="match_event", id=e["seq"])
            if events:
                after = events[-1]["seq"]
            if more:
                continue  # behind by more than a page: read the next page at once, not at the next notice
            if ended:
                # everything the seat may know was sent (once a match has ended, that is every event)
                yield _frame({"match": match_id, "seq": max(after, last)}, event="end")
                return
            # read again on a notice; on silence, only say the stream is alive (and read again only
            # if this process's subscription is down: then the streams fall back to polling)
            while not await _wait(pubsub, settings.CARDLEAGUE_STREAM_HEARTBEAT):
                yield ": heartbeat\n\n"
                if not _listening(pubsub):
                    break
    finally:
        await _close(pubsub)


async def account_stream(request):
    """``GET /api/stream``: an account's news, what waits for it first."""
    refused = _unavailable(request, "poll /api/invitations.")
    if refused is not None:
        return refused
    try:
        user = await _authenticating(_authenticate)(request)
    except _TooManyWrongTokens as exc:
        return _throttled(exc.wait)
    if user is None:
        from games.errors import NotSignedIn

        response = _error(401, {"code": NotSignedIn.code, "rule": None, "message": str(NotSignedIn.message)})
        response["WWW-Authenticate"] = 'Bearer realm="cardleague"'
        return response
    address = _address(request)
    refused = _caps.refusal(user.pk, address)
    if refused is not None:
        return refused
    frames = _account_frames(user, getattr(request, "stream_token", None))
    return _stream_response(_capped(frames, user.pk, address))


async def _account_frames(user, token_hash: str | None = None):
    from games.selectors import people

    pubsub = await _subscribe(_channel("user", user.pk))
    try:
        # the start of a stream (its hello) never waits behind the reads of streams that are behind
        waiting = await _authenticating(people.account_news)(user)
        yield _frame({"user": user.get_username(), "waiting": len(waiting)}, event="hello")
        for news in waiting:
            yield _frame(news, event=news["kind"])
        while True:
            message = await _next_message(pubsub, settings.CARDLEAGUE_STREAM_HEARTBEAT)
            if not await _reading(_still_allowed)(user.pk, token_hash):
                yield _frame({"user": user.get_username(), "reason": "access_revoked"}, event="end")
                return
            if message is None:
                yield ": heartbeat\n\n"
                continue
            news = json.loads(message)
            yield _frame(news, event=news.get("kind", "message"))
    finally:
        await _close(pubsub)


async def tournament_stream(request, tournament_id: int):
    """``GET /api/tournaments/{id}/stream``: a ``changed`` notice whenever the tournament's standings
    or rounds change (public, like its page: it carries nothing but the notice). An id that names no
    tournament is a 404, not a stream held open for nothing."""
    refused = _unavailable(request, "reload the page.")
    if refused is not None:
        return refused
    if not await _authenticating(_tournament_exists)(tournament_id):
        return _error(404, {"code": "not_found", "rule": None, "message": "no such tournament"})
    address = _address(request)
    refused = _caps.refusal(None, address)
    if refused is not None:
        return refused
    frames = _notices(_channel("tournament", tournament_id), {"tournament": tournament_id})
    return _stream_response(_capped(frames, None, address))


def _tournament_exists(tournament_id: int) -> bool:
    from django.apps import apps

    return apps.get_model("league", "Tournament").objects.filter(pk=tournament_id).exists()


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


# -- Redis pub/sub, asynchronously: one subscription per process, fanned out to its open streams ------

class _Hub:
    """One Redis pattern subscription (``<prefix>:*``) per event loop (a uvicorn worker has one),
    handing each message to the queues of the open streams on its channel: a worker holding
    thousands of streams holds one Redis connection for them, not thousands."""

    def __init__(self):
        self.queues: dict[str, set[asyncio.Queue]] = {}
        self.reader: asyncio.Task | None = None
        self.pubsub = None
        self.lock = asyncio.Lock()

    def _up(self) -> bool:
        return self.reader is not None and not self.reader.done()

    async def open(self) -> None:
        """Subscribe once: streams that start together (after a deploy) wait for the first one's
        subscription under the lock instead of each opening their own."""
        if self._up():
            return
        async with self.lock:
            if self._up():
                return
            old, self.pubsub = self.pubsub, await self._connect()
            self.reader = asyncio.get_running_loop().create_task(self._read())
            if old is not None:  # the subscription that ended: let its connection go
                try:
                    await old.aclose()
                except Exception:
                    log.debug("closing the old streams subscription failed", exc_info=True)

    async def _connect(self):
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(settings.CARDLEAGUE_STREAMS_URL)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        await pubsub.psubscribe(f"{settings.CARDLEAGUE_STREAMS_PREFIX}:*")
        return pubsub

    async def _read(self) -> None:
        try:
            async for message in self.pubsub.listen():
                if message.get("type") != "pmessage":
                    continue
                channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
                data = message["data"].decode() if isinstance(message["data"], bytes) else str(message["data"])
                for queue in list(self.queues.get(channel, ())):
                    queue.put_nowait(data)
        except Exception:  # Redis went away: streams fall back to reading at each heartbeat
            log.warning("the streams' Redis subscription ended", exc_info=True)

    def join(self, channel: str) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        self.queues.setdefault(channel, set()).add(queue)
        return queue

    def leave(self, channel: str, queue: asyncio.Queue) -> None:
        waiting = self.queues.get(channel)
        if waiting is not None:
            waiting.discard(queue)
            if not waiting:
                del self.queues[channel]


class _DatabaseHub(_Hub):
    """The hub without Redis: every ``CARDLEAGUE_STREAM_POLL`` seconds one query reads the notices
    recorded since the last (by any process: the worker's bots too) and hands those of its streams'
    channels on; every half minute it deletes the notices older than a minute."""

    async def _connect(self):
        self.last = await _reading(_latest_notice)()
        self.swept = 0.0
        return None

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(settings.CARDLEAGUE_STREAM_POLL)
            try:
                if self.queues:
                    for pk, channel, message in await _reading(_notices_after)(self.last):
                        self.last = pk
                        for queue in list(self.queues.get(channel, ())):
                            queue.put_nowait(message)
                else:
                    self.last = await _reading(_latest_notice)()
                if loop.time() - self.swept > 30:
                    self.swept = loop.time()
                    await _reading(_notices_sweep)()
            except Exception:  # the database is away for a moment: the streams read at their heartbeat
                log.warning("reading the stream notices failed", exc_info=True)


def _latest_notice() -> int:
    from games.models import StreamNotice

    return StreamNotice.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def _notices_after(last: int) -> list[tuple[int, str, str]]:
    from games.models import StreamNotice

    return list(StreamNotice.objects.filter(pk__gt=last).order_by("pk").values_list("pk", "channel", "message")[:5000])


def _notices_sweep() -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games.models import StreamNotice

    StreamNotice.objects.filter(created_at__lt=timezone.now() - timedelta(minutes=1)).delete()


_hubs: dict[int, _Hub] = {}


async def _subscribe(channel: str):
    """A subscription to ``channel`` for one open stream (through this process's hub)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.setdefault(id(loop), _Hub() if through_redis() else _DatabaseHub())
    await hub.open()
    queue = hub.join(channel)
    return (hub, channel, queue)


async def _next_message(subscription, timeout: float) -> str | None:
    """The next message on the stream's channel, or None after ``timeout`` seconds of silence.

    ``asyncio.timeout``, not ``asyncio.wait_for``: on Python 3.11, ``wait_for`` returns the message
    when a notice arrives just as the client leaves and swallows the cancellation, so the stream of a
    client that left went on for ever. Here a cancellation always ends the stream."""
    _, _, queue = subscription
    if timeout <= 0:
        try:
            return queue.get_nowait()
        except asyncio.QueueEmpty:
            return None
    try:
        async with asyncio.timeout(timeout):
            return await queue.get()
    except TimeoutError:
        return None


async def _wait(subscription, timeout: float) -> bool:
    """Wait for the next notice on the channel (True), or ``timeout`` seconds (False); notices that
    arrived meanwhile are drained, since the stream reads everything new from the database."""
    got = await _next_message(subscription, timeout) is not None
    while got and await _next_message(subscription, 0) is not None:
        pass
    return got


def _listening(subscription) -> bool:
    """Whether this process's Redis subscription is up (its reader task runs)."""
    hub = subscription[0]
    return hub.reader is not None and not hub.reader.done()


async def _close(subscription) -> None:
    hub, channel, queue = subscription
    hub.leave(channel, queue)


def open_streams() -> int:
    """How many streams this process holds open now (``/readyz`` says it)."""
    return _caps.total
