"""The person's own language: a signed-in person who chose one (the switcher or their settings) gets it
on every device; otherwise Django's LocaleMiddleware decides (the language cookie, then the browser's
Accept-Language). URLs stay the same in every language."""
from __future__ import annotations

from django.conf import settings
from django.utils import translation

SESSION_KEY = "cardleague_language"


class PersonLanguageMiddleware:
    """After LocaleMiddleware and AuthenticationMiddleware: a signed-in person's chosen language
    (remembered in the session, read from their profile once) wins over the browser's, unless this
    browser has its own choice (the language cookie)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES and request.user.is_authenticated:
            language = request.session.get(SESSION_KEY)
            if language is None:
                from league.models import PlayerProfile

                language = PlayerProfile.objects.filter(user=request.user).values_list("language", flat=True).first()
                request.session[SESSION_KEY] = language or ""
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
