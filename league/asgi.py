"""The ASGI application: uvicorn (`make run`), gunicorn's uvicorn workers (the image). Pages, the API and
the live streams.

The live streams have their own asynchronous front (``games.stream_edge``: no thread per open stream).
Every other request is Django's synchronous (WSGI) handler on a fixed pool of threads
(``CARDLEAGUE_WEB_THREADS``, through a2wsgi): Django's own ASGI handler gives each request a new thread
and runs each middleware through a sync/async hop, which at a club night cost the web process as much CPU
as the views themselves (``tests.bench.club_night``; the README's *A club night*)."""
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


application = with_streams(WSGIMiddleware(_streams_served_here, workers=settings.CARDLEAGUE_WEB_THREADS))
