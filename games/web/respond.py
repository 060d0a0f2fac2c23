"""Every refusal in one shape, rendered in one place: pages, the API and the streams all answer through
``respond``.

``games.errors.http_error`` maps a domain error or an illegal move to its status and the one error shape,
``{"code", "rule", "message"}`` (and its details). Here the web framework's own refusals become domain errors
too (``refusal``: ninja's validation, authentication and throttling, an ``HttpError``, Django's body size), and
``respond`` renders the result:

- ``json``: the shape as JSON (the API; a stream refused before it opens);
- ``page``: ``code: message`` as plain text (a page's fetch or form post), and a missing match the site's
  Not Found page.

Whatever the form, every 401 says how to authenticate (``WWW-Authenticate``), and every 429 when to come back
(``Retry-After``: the refusal's own ``wait``, else a minute); any other refusal with a ``wait`` (a full
server's 503) says it too.
"""
from __future__ import annotations

import functools
from typing import Literal

from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy as _
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from engine import IllegalMove, registry
from games.error_codes import EDGE_CODES
from games.errors import (
    BadMatchSettings,
    DomainError,
    MalformedRequest,
    MatchNotFound,
    NotSignedIn,
    RateLimited,
    RequestTooLarge,
    http_error,
)

WWW_AUTHENTICATE = 'Bearer realm="cardleague"'
#: How long a 429 asks a client to wait when the refusal does not know (a rate's window is a minute).
RETRY_AFTER = 60
JSON = "application/json; charset=utf-8"

#: What ``respond`` renders: a domain error, an illegal move, or one of the framework's refusals.
FRAMEWORK_REFUSALS = (ValidationError, AuthenticationError, Throttled, HttpError, RequestDataTooBig)
REFUSALS = (DomainError, IllegalMove, *FRAMEWORK_REFUSALS)


class EdgeRefusal(DomainError):
    """A refusal of the edge's own (``games.error_codes.EDGE_CODES``: a body of the wrong shape, a missing
    route, the streams' caps). Its status is the table's unless given; ``wait``: seconds until a retry may
    succeed (``Retry-After``)."""

    def __init__(self, code: str, message, *, status: int | None = None, wait: int | None = None, **details):
        super().__init__(message, **details)
        self.code = code
        self.status = status if status is not None else EDGE_CODES[code][0]
        self.wait = wait


def respond(request, exc: Exception, as_: Literal["json", "page"] = "json") -> HttpResponse:
    """``exc`` (any of ``REFUSALS``) as an answer to ``request``. A ninja exception handler as it is."""
    error = refusal(request, exc)
    status, body = http_error(error)
    if as_ == "page":
        if isinstance(error, MatchNotFound):
            raise Http404() from None  # the site's Not Found page, as for any page that is not there
        response = HttpResponse(f"{body['code']}: {body['message']}", status=status, content_type="text/plain")
    elif as_ == "json":
        response = JsonResponse(body, status=status, content_type=JSON)
    else:
        raise ValueError(as_)
    wait = getattr(error, "wait", None)
    if status == 401:
        response["WWW-Authenticate"] = WWW_AUTHENTICATE
    if status == 429 or wait is not None:
        response["Retry-After"] = str(max(1, int(wait or RETRY_AFTER)))
    return response


def refusal(request, exc: Exception) -> DomainError | IllegalMove:
    """The domain error a refusal is: itself, or the one a framework's refusal stands for."""
    if isinstance(exc, (DomainError, IllegalMove)):
        return exc
    if isinstance(exc, ValidationError):
        return _invalid(request, exc)
    if isinstance(exc, AuthenticationError):
        return NotSignedIn()
    if isinstance(exc, Throttled):
        limited = RateLimited()
        limited.wait = getattr(exc, "wait", None)
        return limited
    if isinstance(exc, HttpError):
        code = {400: "malformed_request", 404: "not_found", 405: "method_not_allowed"}.get(exc.status_code,
                                                                                             "http_error")
        return EdgeRefusal(code, str(exc), status=exc.status_code)
    if isinstance(exc, RequestDataTooBig):
        return RequestTooLarge()
    raise TypeError(exc)


def _invalid(request, exc: ValidationError) -> DomainError:
    """A request of the wrong shape: ``malformed_move`` when the move is at fault, ``bad_match_settings`` when
    a game's options are, else ``malformed_request``; ``errors`` says where (never the input itself: it may
    be huge)."""
    locs = [list(e.get("loc", ())) for e in exc.errors]
    a_move = request.path.rstrip("/").endswith("/moves")
    no_game = any(e.get("type") in ("union_tag_not_found", "union_tag_invalid") and loc == ["body", "payload"]
                  for e, loc in zip(exc.errors, locs))
    if any("move" in loc[2:4] for loc in locs) or (no_game and a_move):
        kind = MalformedRequest
    elif any(loc[3:4] == ["options"] for loc in locs):
        kind = BadMatchSettings  # a game's options outside what it declares: as the engine's own refusal of them
    else:
        kind = functools.partial(EdgeRefusal, "malformed_request")
    games = ", ".join(registry.names())
    if no_game and a_move:
        message = _("Leave \"game\" out, or name the match's game in it: %(games)s.") % {"games": games}
    elif no_game:
        message = _("Name one of the games in \"game\": %(games)s.") % {"games": games}
    else:
        message = _("invalid request")
    return kind(message, errors=[{"loc": loc[:8], "msg": str(e.get("msg", ""))[:200], "type": e.get("type")}
                                 for e, loc in zip(exc.errors[:20], locs)])
