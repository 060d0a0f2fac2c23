"""Live streams (Server-Sent Events): a seat's events as they are recorded, an account's news, a tournament's
changes.

- ``GET /api/matches/{id}/stream?seat=n``: the seat's redacted events (the one selector that builds
  every feed, ``selectors.feeds.events_for_seat``), each with its ``seq`` as the SSE id, resumable with
  ``Last-Event-ID`` (or ``?after=``), a heartbeat comment every ``CARDLEAGUE_STREAM_HEARTBEAT``
  seconds, and ``event: end`` once the match has ended and everything was sent.
- ``GET /api/stream``: an account's news — ``invited``, ``match_started``, ``your_turn``,
  ``round_started`` — with what waits for the account now sent first on every connection (so a
  client that reconnects misses nothing that still matters).
- ``GET /api/tournaments/{id}/stream``: a ``changed`` notice (public, like the tournament's page).

Same authorisation as the other endpoints: a bearer token or the browser's session. A stream refused before
it opens is answered like any refusal (``games.web.respond``). Each stream is counted against caps per account,
per address and per process, and wakes on its channel's notices (``games.web.stream_hubs``) to read what is new
from the database. Served by an ASGI server (``games.web.stream_edge``: no thread per stream); under WSGI there
are no streams (503 ``streams_unavailable``) and the pages poll instead (``games.web.streaming.available``).
"""
from __future__ import annotations

import asyncio
import hashlib
import json
from functools import lru_cache

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import StreamingHttpResponse
from django.utils.translation import gettext_lazy as _

from games.errors import DomainError, NotSignedIn
from games.models import ApiToken, Match
from games.publish import _channel
from games.selectors import feeds, people
from games.web import auth
from games.web.access import access_match, access_seat, client_address
from games.web.params import count
from games.web.respond import EdgeRefusal, respond
from games.web.stream_hubs import authenticating, close, listening, next_message, reading, subscribe, wait
from games.web.streaming import holds_streams

try:
    import resource
except ImportError:  # pragma: no cover - not a Unix: no file limit to read
    resource = None

#: How many events a stream reads at once: a stream further behind reads page after page until it is
#: current (then waits for the next notice), and a finished match's stream ends with ``end``.
STREAM_PAGE = 500


def _unavailable(request, instead):
    """A 503 ``streams_unavailable`` when this server cannot hold the stream (the caller then polls:
    the pages never ask such a server, the reference client asks once and polls); an expected answer,
    kept out of the server's console (``cardleague.log_filters.ExpectedRefusals``). ``instead``: what to do."""
    if holds_streams(request):
        return None
    request.expected_refusal = True
    return respond(request, EdgeRefusal("streams_unavailable", instead))


def _frame(data: dict, *, event: str = "message", id: int | None = None) -> str:
    head = (f"id: {id}\n" if id is not None else "") + f"event: {event}\n"
    return head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n"


def _authenticate(request):
    """The request's account, or None: a bearer token (no CSRF: a stream only reads) or the session.
    Raises ``auth.TooManyWrongTokens`` when this address sent too many wrong tokens (a 429, not a 500)."""
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        user = auth.token_user(request, header[7:].strip())
        if user is not None:
            request.stream_token = hashlib.sha256(header[7:].strip().encode("utf-8")).hexdigest()
            request.stream_user_id = user.pk
        return user
    if getattr(request, "stream_edge", False):
        auth.attach_session_user(request)  # served by the streams' own front: no middleware read the session
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        request.stream_user_id = user.pk
    return user


def _still_allowed(user_id: int, token_hash: str | None) -> bool:
    """Whether the account that opened a stream may still read it: active, and its token (if it came
    with one) not deleted. Checked at every read, so a revoked token's stream stops at once."""
    if token_hash is not None:
        return ApiToken.objects.filter(key_hash=token_hash, user_id=user_id, user__is_active=True).exists()
    return get_user_model().objects.filter(pk=user_id, is_active=True).exists()


# -- caps: how many streams one account, one address and this process hold open ------------------------

class _Caps:
    """Open streams counted per account, per address and in this process. A stream over the account's
    or the address's cap is a 429 with ``Retry-After``; over the process's (set below the process's file
    limit, ``RLIMIT_NOFILE``) a 503, so that the process never runs out of files for other requests."""

    def __init__(self):
        self.accounts: dict[object, int] = {}
        self.addresses: dict[str, int] = {}
        self.total = 0

    def refusal(self, account, address: str) -> EdgeRefusal | None:
        """Why one more stream of ``account`` (None: a public stream) from ``address`` is refused, if it is."""
        wait = settings.CARDLEAGUE_STREAM_RETRY_AFTER
        if self.total >= _process_cap():
            return EdgeRefusal("streams_full", _("this server holds as many streams as it can: try again soon"),
                               wait=wait)
        if account is not None and self.accounts.get(account, 0) >= settings.CARDLEAGUE_STREAMS_PER_ACCOUNT:
            return EdgeRefusal("too_many_streams", _("this account has as many streams open as it may"), wait=wait)
        if self.addresses.get(address, 0) >= settings.CARDLEAGUE_STREAMS_PER_ADDRESS:
            return EdgeRefusal("too_many_streams", _("this address has as many streams open as it may"), wait=wait)
        return None

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
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if soft == resource.RLIM_INFINITY or soft <= 0:
            soft = 65536
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not a Unix
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


def _match_access(request, match_id: int, seat) -> tuple[Match, int | None]:
    """The match and a seat the account holds (or a spectator's: seat None); raises the domain error that
    refuses it (``auth.TooManyWrongTokens`` too)."""
    user = _authenticate(request)
    if user is None:
        raise NotSignedIn()
    if seat is None:
        return access_match(user, match_id), None
    return access_seat(user, match_id, seat)


def _position(request) -> int:
    """Where a stream starts: after ``Last-Event-ID`` (a reconnecting client), else ``?after=``, else 0."""
    text = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    return count(text, digits=9) or 0


async def match_stream(request, match_id: int):
    """``GET /api/matches/{id}/stream?seat=n``: Server-Sent Events of the seat's events."""
    refused = _unavailable(request, _("Streams need an ASGI server (uvicorn); this one is WSGI: poll %(url)s.")
                           % {"url": "/api/matches/{id}/events"})
    if refused is not None:
        return refused
    seat_text = request.GET.get("seat")
    seat_number = count(seat_text, digits=2)
    if seat_text is not None and seat_number is None:
        return respond(request, EdgeRefusal("malformed_request", _("seat is a seat number")))
    try:
        match, seat = await authenticating(_match_access)(request, match_id, seat_number)
    except DomainError as exc:
        return respond(request, exc)
    account, address = request.stream_user_id, client_address(None, request)
    refused = _caps.refusal(account, address)
    if refused is not None:
        return respond(request, refused)
    after = _position(request)
    frames = _match_frames(match.pk, match.game, seat, after, account, getattr(request, "stream_token", None))
    return _stream_response(_capped(frames, account, address))


async def _match_frames(match_id: int, game: str, seat, after: int, user_id: int, token_hash: str | None):
    def new_events(position):
        if not _still_allowed(user_id, token_hash):
            return None
        match = Match.objects.get(pk=match_id)
        rows = feeds.events_for_seat(match, seat, after=position, limit=STREAM_PAGE + 1)
        return match.has_ended, match.last_seq, rows[:STREAM_PAGE], len(rows) > STREAM_PAGE

    pubsub = await subscribe(_channel("match", match_id))
    try:
        yield _frame({"match": match_id, "game": game, "seat": seat, "after": after}, event="hello")
        while True:
            read = await reading(new_events)(after)
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
            while not await wait(pubsub, settings.CARDLEAGUE_STREAM_HEARTBEAT):
                yield ": heartbeat\n\n"
                if not listening(pubsub):
                    break
    finally:
        await close(pubsub)


async def account_stream(request):
    """``GET /api/stream``: an account's news, what waits for it first."""
    refused = _unavailable(request, _("Streams need an ASGI server (uvicorn); this one is WSGI: poll %(url)s.")
                           % {"url": "/api/invitations"})
    if refused is not None:
        return refused
    try:
        user = await authenticating(_authenticate)(request)
    except DomainError as exc:
        return respond(request, exc)
    if user is None:
        return respond(request, NotSignedIn())
    address = client_address(None, request)
    refused = _caps.refusal(user.pk, address)
    if refused is not None:
        return respond(request, refused)
    frames = _account_frames(user, getattr(request, "stream_token", None))
    return _stream_response(_capped(frames, user.pk, address))


async def _account_frames(user, token_hash: str | None = None):
    pubsub = await subscribe(_channel("user", user.pk))
    try:
        # the start of a stream (its hello) never waits behind the reads of streams that are behind
        waiting = await authenticating(people.account_news)(user)
        yield _frame({"user": user.get_username(), "waiting": len(waiting)}, event="hello")
        for news in waiting:
            yield _frame(news, event=news["kind"])
        while True:
            message = await next_message(pubsub, settings.CARDLEAGUE_STREAM_HEARTBEAT)
            if not await reading(_still_allowed)(user.pk, token_hash):
                yield _frame({"user": user.get_username(), "reason": "access_revoked"}, event="end")
                return
            if message is None:
                yield ": heartbeat\n\n"
                continue
            news = json.loads(message)
            yield _frame(news, event=news.get("kind", "message"))
    finally:
        await close(pubsub)


async def tournament_stream(request, tournament_id: int):
    """``GET /api/tournaments/{id}/stream``: a ``changed`` notice whenever the tournament's standings
    or rounds change (public, like its page: it carries nothing but the notice). An id that names no
    tournament is a 404, not a stream held open for nothing."""
    refused = _unavailable(request, _("Streams need an ASGI server (uvicorn); this one is WSGI: reload the page."))
    if refused is not None:
        return refused
    if not await authenticating(_tournament_exists)(tournament_id):
        return respond(request, EdgeRefusal("not_found", _("no such tournament")))
    address = client_address(None, request)
    refused = _caps.refusal(None, address)
    if refused is not None:
        return respond(request, refused)
    frames = _notices(_channel("tournament", tournament_id), {"tournament": tournament_id})
    return _stream_response(_capped(frames, None, address))


def _tournament_exists(tournament_id: int) -> bool:
    """Asked of the app registry: the games app imports nothing of the league."""
    return apps.get_model("league", "Tournament").objects.filter(pk=tournament_id).exists()


async def _notices(channel: str, hello: dict):
    pubsub = await subscribe(channel)
    try:
        yield _frame(hello, event="hello")
        while True:
            if await wait(pubsub, settings.CARDLEAGUE_STREAM_HEARTBEAT):
                yield _frame(hello, event="changed")
            else:
                yield ": heartbeat\n\n"
    finally:
        await close(pubsub)


def _stream_response(frames) -> StreamingHttpResponse:
    response = StreamingHttpResponse(frames, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each frame on at once
    return response


def open_streams() -> int:
    """How many streams this process holds open now (``/readyz`` says it)."""
    return _caps.total
