"""Who is asking (one place authenticates, for the API, the pages and the streams): a
bearer token, looked up by its SHA-256, and what it may do (``needs_scope``)."""
from __future__ import annotations

import hashlib
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import get_usage

from games.errors import RateLimited, TokenScope
from games.models import ApiToken
from games.web.access import client_address


class TooManyWrongTokens(RateLimited):
    """This address sent too many wrong tokens: refused (429) for ``wait`` seconds."""
    message = _("too many wrong tokens from this address")

    def __init__(self, wait: int):
        super().__init__()
        self.wait = int(wait or 60)


def token_user(request, token: str):
    """The active account a token belongs to (setting ``request.user`` and ``request.token_scopes``), or
    None for a wrong token. A right token always works: the wrong-token limit of an address (a club's
    shared network, say) refuses only further wrong tokens from it (``TooManyWrongTokens``)."""
    rate = settings.CARDLEAGUE_RATES["token_failures"]
    digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
    found = ApiToken.objects.select_related("user").filter(key_hash=digest, user__is_active=True).first()
    if found is None:
        failures = get_usage(request, group="token_failures", key=client_address, rate=rate)
        if failures and failures["count"] >= failures["limit"]:
            raise TooManyWrongTokens(failures["time_left"])
        get_usage(request, group="token_failures", key=client_address, rate=rate, increment=True)
        return None
    now = timezone.now()
    if found.last_used_at is None or (now - found.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)  # to the minute: no write per request
    request.user = found.user
    request.token_scopes = frozenset(found.scopes or ())
    return found.user


def needs_scope(request, scope: str) -> None:
    """A token may do what its scopes say (``games.models.TOKEN_SCOPES``); the browser's session may do
    everything its account may. Raises ``TokenScope`` (403)."""
    scopes = getattr(request, "token_scopes", None)
    if scopes is not None and scope not in scopes:
        raise TokenScope(scope=scope)


def attach_session_user(request) -> None:
    """``request.session`` and ``request.user`` from the session cookie, as Django's middleware would
    (synchronous: called on the streams' authentication threads)."""
    engine = import_module(settings.SESSION_ENGINE)
    request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    request.user = get_user(request)
