"""The ASGI application: uvicorn (`make run`), gunicorn's uvicorn workers (the image). Pages, the API and
the live streams.

The live streams have their own asynchronous front (``games.web.stream_edge``: no thread per open stream).
Every other request is Django's synchronous (WSGI) handler on fixed pools of threads (through a2wsgi):
Django's own ASGI handler gives each request a new thread and runs each middleware through a sync/async
hop, which at a club night cost the web process as much CPU as the views themselves
(``tests.bench.club_night``; docs/benchmarks.md, "A club night"). Reads (GET, HEAD, OPTIONS) and writes (a move,
a form) have pools of their own (``CARDLEAGUE_WEB_THREADS``, ``CARDLEAGUE_WEB_WRITE_THREADS``): a busy
evening's board fetches, one after each event for every seat, never make a move wait behind them."""
import os
import tempfile

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")
django_application = get_wsgi_application()

from django.conf import settings  # noqa: E402 - after Django is set up

from games.web.stream_edge import with_streams  # noqa: E402 - after Django is set up
from games.web.streaming import STREAMS_SERVED  # noqa: E402 - after Django is set up


def _streams_served_here(environ, start_response):
    """Django's handler, told that this server's front serves the streams (the pages then open them)."""
    environ[STREAMS_SERVED] = True
    return django_application(environ, start_response)


_reads = WSGIMiddleware(_streams_served_here, workers=settings.CARDLEAGUE_WEB_THREADS)
_writes = WSGIMiddleware(_streams_served_here, workers=settings.CARDLEAGUE_WEB_WRITE_THREADS)
READS = frozenset({"GET", "HEAD", "OPTIONS"})


async def django_threads(scope, receive, send):
    """Django on the reads' threads or the writes' (by the request's method), a request's body read to its
    end first (``_whole_body``)."""
    if scope["type"] != "http":
        return await _reads(scope, receive, send)
    if _has_body(scope):
        receive = await _whole_body(receive)
        if receive is None:  # the client left while sending
            return None
    threads = _writes if scope.get("method") not in READS else _reads
    await threads(scope, receive, send)


def _has_body(scope) -> bool:
    for name, value in scope.get("headers") or ():
        if (name == b"content-length" and value.strip() not in (b"", b"0")) or \
                (name == b"transfer-encoding" and b"chunked" in value.lower()):
            return True
    return False


async def _whole_body(receive):
    """Read a request's body to its end on the event loop before a thread takes the request, as Django's
    own ASGI handler does (in memory up to ``FILE_UPLOAD_MAX_MEMORY_SIZE``, then in a temporary file): a
    slow sender holds no thread, and a refusal sent before the body is read (a 401, a 413, a 415) reaches
    a client still sending instead of a reset connection. Returns the ``receive`` that hands the body to
    the thread, or None when the client left."""
    # the body outlives this function: the handler reads it, then closes it
    body = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)  # noqa: SIM115
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            body.close()
            return None
        body.write(message.get("body", b""))
        if not message.get("more_body", False):
            break
    size = body.tell()
    body.seek(0)

    async def replay():
        chunk = body.read(1 << 16)
        more = bool(chunk) and body.tell() < size
        if not more:
            body.close()
        return {"type": "http.request", "body": chunk, "more_body": more}

    return replay


application = with_streams(django_threads)
