"""The API's assembly: the NinjaAPI with its routers, its throttle, and the handlers that render every
refusal in the project's one error shape (``{"code", "rule", "message"}``, ``games.errors.http_error``)."""
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import get_usage
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.throttling import BaseThrottle

from engine import IllegalMove, registry
from games.errors import (
    DomainError,
    NotSignedIn,
    RateLimited,
    RequestTooLarge,
    http_error,
)
from games.web.access import account_or_address
from games.web.openapi import extend


class RateThrottle(BaseThrottle):
    """Requests per account (or per address for nobody signed in) in a fixed window, counted with one
    cache increment (django-ratelimit) — ninja's own throttles keep every request's time in a list,
    which costs more the busier a client is."""

    def __init__(self, rate_name: str, signed_in: bool):
        self.rate_name, self.signed_in = rate_name, signed_in
        self.left = 0

    def allow_request(self, request) -> bool:
        if bool(getattr(request, "auth", None)) != self.signed_in:
            return True
        usage = get_usage(request, group=f"api-{self.rate_name}", key=account_or_address,
                          rate=settings.CARDLEAGUE_RATES[self.rate_name], increment=True)
        if usage is None or not usage["should_limit"]:
            return True
        self.left = usage["time_left"]
        return False

    def wait(self):
        return max(1, self.left)


class CardleagueAPI(NinjaAPI):
    """ninja's schema, plus the live streams and the enum of every error code (``games.web.openapi``)."""

    def get_openapi_operation_id(self, operation) -> str:
        """The operation's function name (``match_move``, ``challenge``): what a generated client calls."""
        return operation.view_func.__name__

    def get_openapi_schema(self, *args, **kwargs):
        return extend(super().get_openapi_schema(*args, **kwargs))


api = CardleagueAPI(title="cardleague API", version="1", urls_namespace="api",
                    throttle=[RateThrottle("api_anon", signed_in=False), RateThrottle("api_user", signed_in=True)])
api.add_router("/matches", "games.web.api.router")
api.add_router("/invitations", "games.web.api.invitations_router")
api.add_router("/challenges", "games.web.api.challenges_router")
api.add_router("/account", "games.web.api.account_router")
api.add_router("/account/challenge-rules", "league.web.api.account_rules_router")
api.add_router("/league", "league.web.api.router")


WWW_AUTHENTICATE = 'Bearer realm="cardleague"'


def _error(request, code: str, message: str, status: int, **extra):
    return _headers(api.create_response(request, {"code": code, "rule": None, "message": message, **extra},
                                        status=status))


def _headers(response, wait: int | None = None):
    """Every 401 says how to authenticate (``WWW-Authenticate``), every 429 when to come back
    (``Retry-After``)."""
    if response.status_code == 401:
        response["WWW-Authenticate"] = WWW_AUTHENTICATE
    if response.status_code == 429 and not response.has_header("Retry-After"):
        response["Retry-After"] = str(max(1, int(wait or 60)))
    return response


@api.exception_handler(IllegalMove)
@api.exception_handler(DomainError)
def domain_error(request, exc):
    status, body = http_error(exc)
    return _headers(api.create_response(request, body, status=status))


@api.exception_handler(ValidationError)
def validation_error(request, exc):
    """A request of the wrong shape: ``malformed_move`` when the move is at fault, else ``malformed_request``."""
    move_at_fault = any("move" in list(e.get("loc", ()))[2:4] for e in exc.errors)
    no_game = any(e.get("type") in ("union_tag_not_found", "union_tag_invalid")
                  and list(e.get("loc", ())) == ["body", "payload"] for e in exc.errors)
    a_move = request.path.rstrip("/").endswith("/moves")
    # a game's options outside what it declares: the same code as the engine's own refusal of them
    options_at_fault = any(list(e.get("loc", ()))[3:4] == ["options"] for e in exc.errors)
    code = ("malformed_move" if move_at_fault or (no_game and a_move)
            else "bad_match_settings" if options_at_fault else "malformed_request")
    details = [{"loc": list(e.get("loc", ()))[:8], "msg": str(e.get("msg", ""))[:200], "type": e.get("type")}
               for e in exc.errors[:20]]  # never the input itself: it may be huge
    if no_game and a_move:
        message = _("Name the match's game in \"game\" beside the move (livol, uno_flip, karuselis, iota or cardavia).")
    elif no_game:
        message = _("Name one of the games in \"game\": %(games)s.") % {"games": ", ".join(registry.names())}
    else:
        message = _("invalid request")
    return _error(request, code, str(message), 400, errors=details)


@api.exception_handler(HttpError)
def http_error_json(request, exc):
    code = {400: "malformed_request", 404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return _error(request, code, str(exc), exc.status_code)


@api.exception_handler(AuthenticationError)
def auth_error(request, exc):
    return _error(request, NotSignedIn.code, str(NotSignedIn.message), 401)


@api.exception_handler(Throttled)
def throttled(request, exc):
    response = api.create_response(request, {"code": RateLimited.code, "rule": None,
                                              "message": str(RateLimited.message)}, status=429)
    return _headers(response, wait=getattr(exc, "wait", None))


@api.exception_handler(RequestDataTooBig)
def too_big(request, exc):
    return _error(request, RequestTooLarge.code, str(RequestTooLarge.message), 413)
