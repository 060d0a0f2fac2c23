"""The live streams' own ASGI front, in front of Django's handler (no thread per stream).

Django's ASGI handler runs each request inside a ``ThreadSensitiveContext``: the first synchronous call
of the request (the ``request_started`` signal's receivers, a synchronous middleware) gives that request
a thread of its own, kept until the response ends — for a stream, for as long as it is open. 1,000 open
streams were 1,000 threads. Here the three stream paths are served by a small ASGI app instead: the
request is built from the scope, the account is read on ``streams``' own few threads (a bearer token,
or the session cookie as ``SessionMiddleware`` and ``AuthenticationMiddleware`` would read it), the
same stream views answer, and the frames are sent as they come, the stream cancelled the moment the
client leaves. Every other path goes to Django unchanged, and so do the streams under a WSGI server or
in tests (``games/urls`` keeps their routes).
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import re

from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.translation import gettext_lazy as _

from games.web import streams
from games.web.respond import EdgeRefusal, respond

ROUTES = (
    (re.compile(r"^/api/matches/(?P<match_id>[0-9]{1,18})/stream/?$"), "match"),
    (re.compile(r"^/api/stream/?$"), "account"),
    (re.compile(r"^/api/tournaments/(?P<tournament_id>[0-9]{1,18})/stream/?$"), "tournament"),
)


def with_streams(django_app):
    """``django_app`` with the stream paths (GET) served by ``serve``."""
    async def application(scope, receive, send):
        if scope["type"] == "http" and scope.get("method") == "GET":
            for pattern, kind in ROUTES:
                found = pattern.match(scope.get("path", ""))
                if found:
                    return await serve(scope, receive, send, kind, found.groupdict())
        return await django_app(scope, receive, send)
    return application


async def serve(scope, receive, send, kind: str, args: dict) -> None:
    request = ASGIRequest(scope, io.BytesIO())
    request.stream_edge = True  # the account is read from the session by ``streams._authenticate``
    try:
        request.get_host()
    except DisallowedHost:
        return await _send(respond(request, EdgeRefusal("bad_host", _("unknown host"))), receive, send)
    if kind == "match":
        response = await streams.match_stream(request, int(args["match_id"]))
    elif kind == "tournament":
        response = await streams.tournament_stream(request, int(args["tournament_id"]))
    else:
        response = await streams.account_stream(request)
    await _send(response, receive, send)


def _headers(response) -> list[tuple[bytes, bytes]]:
    headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in response.items()]
    headers.append((b"x-content-type-options", b"nosniff"))
    return headers


async def _send(response, receive, send) -> None:
    await send({"type": "http.response.start", "status": response.status_code, "headers": _headers(response)})
    if not response.streaming:
        await send({"type": "http.response.body", "body": response.content})
        return

    async def frames():
        async for chunk in response.streaming_content:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    async def gone():
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return

    sending = asyncio.ensure_future(frames())
    leaving = asyncio.ensure_future(gone())
    try:
        await asyncio.wait({sending, leaving}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sending, leaving):
            if not task.done():
                task.cancel()
        for task in (sending, leaving):
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await task
    if sending.done() and not sending.cancelled() and sending.exception() is not None:
        raise sending.exception()
