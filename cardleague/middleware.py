"""The reader's own language and time zone.

- Language: a signed-in person who chose one (the switcher or their settings) gets it on every device;
  otherwise Django's LocaleMiddleware decides (the language cookie, then the browser's Accept-Language).
  URLs stay the same in every language.
- Time zone: the browser's (static/js/tz.js keeps it in a cookie), else the club's (``TIME_ZONE``).
"""
from __future__ import annotations

import zoneinfo
from functools import lru_cache

from django.conf import settings
from django.utils import timezone, translation

from games.web.respond import EdgeRefusal, respond
from league.models import LANGUAGE_SESSION_KEY, PlayerProfile


class PersonLanguageMiddleware:
    """After LocaleMiddleware and AuthenticationMiddleware: a signed-in person's chosen language
    (remembered in the session, read from their profile once) wins over the browser's, unless this
    browser has its own choice (the language cookie)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES and request.user.is_authenticated:
            language = request.session.get(LANGUAGE_SESSION_KEY)
            if language is None:
                language = PlayerProfile.objects.filter(user=request.user).values_list("language", flat=True).first()
                request.session[LANGUAGE_SESSION_KEY] = language or ""
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)


#: The cookie static/js/tz.js keeps the browser's IANA time zone in (e.g. ``Europe/Riga``).
TIME_ZONE_COOKIE = "cardleague_tz"


@lru_cache(maxsize=1)
def _known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def reader_zone(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The time zone a cookie names, if it is one this server knows; else None."""
    if not name or len(name) > 64 or name not in _known_zones():
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class ReaderTimeZoneMiddleware:
    """Times in the reader's own zone: the zone the browser keeps in the ``cardleague_tz`` cookie
    (static/js/tz.js, on every page, the admin's too) is active for the request; a missing or unknown
    one leaves the club's (``TIME_ZONE``). So the admin's date fields no longer say "You are 2 hours
    behind server time": the page's offset is the reader's own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = reader_zone(request.COOKIES.get(TIME_ZONE_COOKIE))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class ApiJsonBodiesMiddleware:
    """The API reads JSON only: a request under ``/api/`` that sends a body of another type (a form, plain
    text, XML) is a 415 ``unsupported_media_type`` with the project's error shape, before any parsing
    (it was a 400 with pydantic's words about the fields it could not find)."""

    JSON_TYPES = ("application/json",)

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (request.path.startswith("/api/") and request.method in ("POST", "PUT", "PATCH")
                and _has_body(request) and request.content_type not in self.JSON_TYPES
                and not request.content_type.endswith("+json")):
            response = respond(request, EdgeRefusal("unsupported_media_type", translation.gettext(
                "Send the request's body as JSON (Content-Type: application/json).")))
            response["Accept-Post"] = "application/json"
            return response
        return self.get_response(request)


def _has_body(request) -> bool:
    length = request.META.get("CONTENT_LENGTH") or ""
    return (length.isascii() and length.isdigit() and int(length) > 0) or "chunked" in \
        request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
