"""Whether this server holds live streams open: the one thing the pages ask of the streams, answered here
so that a page imports nothing of the stream views (``games.web.streams``)."""
from __future__ import annotations

from django.core.handlers.asgi import ASGIRequest

#: Set in a request's WSGI environ by ``cardleague.asgi``: Django's pages run on threads behind an ASGI server
#: whose own front (``games.web.stream_edge``) serves the streams, so a page may open one.
STREAMS_SERVED = "cardleague.streams_served"


def available(request) -> bool:
    """A page served here may open a stream: the server holds streams open (ASGI: the stream front of
    ``cardleague.asgi``, or Django's own ASGI handler). Under a plain WSGI server, Django would have to read a
    stream to its end before sending anything."""
    return holds_streams(request) or bool(request.META.get(STREAMS_SERVED))


def holds_streams(request) -> bool:
    """This request itself can be answered with a stream held open (an ASGI request)."""
    return isinstance(request, ASGIRequest)
