"""The API's assembly: the NinjaAPI with its routers, its throttle, and every refusal answered in the project's
one error shape (``{"code", "rule", "message"}``) by the edge's one responder (``games.web.respond``)."""
from django.conf import settings
from django_ratelimit.core import get_usage
from ninja import NinjaAPI
from ninja.throttling import BaseThrottle

from games.web.access import account_or_address
from games.web.openapi import extend
from games.web.respond import REFUSALS, respond


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
api.add_router("/tournaments", "league.web.entries_api.router")


# Every refusal in the one error shape (``games.web.respond``): a domain error or an illegal move, a body of the
# wrong shape, no or a wrong authentication, a rate exceeded, a body too large, the framework's own HTTP errors.
for _refusal in REFUSALS:
    api.add_exception_handler(_refusal, respond)
