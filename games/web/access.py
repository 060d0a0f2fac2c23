"""``access_*`` helpers: fetch and authorise in one call, so no view forgets a check."""
from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django_ratelimit.core import is_ratelimited

from games.errors import MatchNotFound, NotSignedIn, RateLimited, SeatForbidden
from games.models import Match


def access_match(user, match_id) -> Match:
    """A match any signed-in user may watch (as a spectator: views hide every hand)."""
    if not getattr(user, "is_authenticated", False):
        raise NotSignedIn()
    try:
        pk = int(match_id)
        if not 1 <= pk < 2**63:  # beyond the id column's range: no such match, not a database error
            raise ValueError(pk)
        return Match.objects.get(pk=pk)
    except (Match.DoesNotExist, TypeError, ValueError):
        raise MatchNotFound(match_id=str(match_id)[:20]) from None


def seats_of(user, match: Match) -> list[int]:
    if not getattr(user, "is_authenticated", False):
        return []
    return sorted(match.seats.filter(user=user).values_list("index", flat=True))


def access_seat(user, match_id, seat: int | None = None) -> tuple[Match, int]:
    """The match and a seat the user holds; ``seat=None`` means the user's first seat.

    Raises ``NotSignedIn`` (401), ``MatchNotFound`` (404) or ``SeatForbidden`` (403).
    """
    match = access_match(user, match_id)
    held = seats_of(user, match)
    if seat is None:
        if not held:
            raise SeatForbidden()
        return match, held[0]
    if seat not in held:
        raise SeatForbidden(seat=seat)
    return match, seat


def access_play(request, match_id, seat: int | None = None) -> tuple[Match, int]:
    """The one entry for moves and resignations, pages and API alike: the request counts against the
    account's move budget first (``moves_rate_check``: a refused request counts too, so a flood of moves
    without a seat ends in 429s, not endless 403s), then the match and a seat the user holds
    (``access_seat``)."""
    moves_rate_check(request)
    return access_seat(request.user, match_id, seat)


def client_address(group, request) -> str:
    """The client's address (a django-ratelimit key): behind ``PROXY_COUNT`` proxies, the address
    the nearest trusted proxy saw in X-Forwarded-For; else the connection's own address."""
    meta = request.META
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if settings.CARDLEAGUE_PROXY_COUNT and forwarded:
        addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
        if addresses:
            return addresses[-min(settings.CARDLEAGUE_PROXY_COUNT, len(addresses))]
    return meta.get("REMOTE_ADDR") or "unknown"


def account_or_address(group, request) -> str:
    """A signed-in account (session or token), else the client's address. An outside bot counts as its
    owner: a person with five bots has one person's budget, not five."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{_budget_holder(user)}"
    return client_address(group, request)


def _budget_holder(user) -> int:
    """The account whose limits a request counts against: the owner of an outside bot, else itself.
    Remembered in the cache (an account's owner never changes): no query on a request's path. The profile is
    the league's, asked of the app registry: the games app imports nothing of the league."""
    joined = getattr(user, "date_joined", None)
    key = f"budget-holder:{user.pk}:{joined.timestamp() if joined else ''}"  # a reused id is another account
    held = cache.get(key)
    if held is None:
        owner = (apps.get_model("league", "PlayerProfile").objects
                 .filter(user_id=user.pk, is_bot_account=True).values_list("owner_id", flat=True).first())
        held = owner or user.pk
        cache.set(key, held, 24 * 3600)
    return held


def moves_rate_check(request) -> None:
    """A person (or a token's account) submits at most ``CARDLEAGUE_RATES["moves"]`` moves, through
    the pages and the API together; beyond it ``RateLimited`` (429) and nothing is recorded."""
    if is_ratelimited(request, group="moves", key=account_or_address, rate=settings.CARDLEAGUE_RATES["moves"],
                      increment=True):
        raise RateLimited()
