"""The ASGI application: uvicorn (`make run`), gunicorn's uvicorn workers (the image). Pages, the API and
the live streams.

The live streams have their own asynchronous front (``games.stream_edge``: no thread per open stream).
Every other request is Django's synchronous (WSGI) handler on fixed pools of threads (through a2wsgi):
Django's own ASGI handler gives each request a new thread and runs each middleware through a sync/async
hop, which at a club night cost the web process as much CPU as the views themselves
(``tests.bench.club_night``; the README's *A club night*). Reads (GET, HEAD, OPTIONS) and writes (a move,
a form) have pools of their own (``CARDLEAGUE_WEB_THREADS``, ``CARDLEAGUE_WEB_WRITE_THREADS``): a busy
evening's board fetches, one after each event for every seat, never make a move wait behind them."""
import os

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
django_application = get_wsgi_application()

from django.conf import settings  # noqa: E402 - after Django is set up

from games.stream_edge import with_streams  # noqa: E402 - after Django is set up
from games.streams import STREAMS_SERVED  # noqa: E402 - after Django is set up


def _streams_served_here(environ, start_response):
    """Django's handler, told that this server's front serves the streams (the pages then open them)."""
    environ[STREAMS_SERVED] = True
    return django_application(environ, start_response)


_reads = WSGIMiddleware(_streams_served_here, workers=settings.CARDLEAGUE_WEB_THREADS)
_writes = WSGIMiddleware(_streams_served_here, workers=settings.CARDLEAGUE_WEB_WRITE_THREADS)
READS = frozenset({"GET", "HEAD", "OPTIONS"})


async def django_threads(scope, receive, send):
    """Django on the reads' threads or the writes' (by the request's method)."""
    threads = _writes if scope["type"] == "http" and scope.get("method") not in READS else _reads
    await threads(scope, receive, send)


application = with_streams(django_threads)
