"""Each reader's own time zone (``cardleague/middleware.py``): a known zone from the browser's cookie is
the request's, any other leaves the club's; the admin's offset is the reader's, and every page loads the
script that sets the cookie."""
from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
from django.test import Client, RequestFactory
from django.utils import timezone

from cardleague.middleware import TIME_ZONE_COOKIE, ReaderTimeZoneMiddleware, reader_zone


def _offset(zone: str) -> int:
    return int(timezone.now().astimezone(ZoneInfo(zone)).utcoffset().total_seconds())


def test_the_time_zone_middleware_activates_a_known_cookie_zone_and_ignores_others():
    # given requests with a good, a bad and no time zone cookie
    seen = {}

    def view(request):
        seen[request.COOKIES.get(TIME_ZONE_COOKIE)] = timezone.get_current_timezone_name()
        return None

    middleware = ReaderTimeZoneMiddleware(view)
    for value in ("America/New_York", "Mars/Olympus", "../../etc/passwd", "", None):
        request = RequestFactory().get("/")
        if value is not None:
            request.COOKIES[TIME_ZONE_COOKIE] = value
        # when each passes the middleware
        middleware(request)
        # then afterwards the club's zone is back
        assert timezone.get_current_timezone_name() == "Europe/Riga"
    # then the known zone was the request's, the others left the club's
    assert seen == {"America/New_York": "America/New_York", "Mars/Olympus": "Europe/Riga",
                    "../../etc/passwd": "Europe/Riga", "": "Europe/Riga", None: "Europe/Riga"}
    assert reader_zone("Europe/Vilnius") == ZoneInfo("Europe/Vilnius") and reader_zone("x" * 100) is None


@pytest.mark.django_db
def test_the_admin_pages_offset_is_the_readers_own(admin_user):
    # given an organiser whose browser is in New York, and one whose cookie names no zone
    client = Client()
    client.force_login(admin_user)
    # when they open the admin
    client.cookies[TIME_ZONE_COOKIE] = "America/New_York"
    readers = client.get("/admin/").content.decode()
    client.cookies[TIME_ZONE_COOKIE] = "Nowhere/Atall"
    unknown = client.get("/admin/").content.decode()
    # then the page's offset (what the admin's date fields compare with the browser's) is the reader's:
    # no "You are 7 hours behind server time"; an unknown zone gets the club's
    assert f'data-admin-utc-offset="{_offset("America/New_York")}"' in readers
    assert f'data-admin-utc-offset="{_offset("Europe/Riga")}"' in unknown


@pytest.mark.django_db
def test_every_page_loads_the_time_zone_script(admin_user):
    # given an anonymous reader and an organiser
    organiser = Client()
    organiser.force_login(admin_user)
    # when they open the sign-in page, a public page, the admin's login and the admin
    pages = [Client().get("/accounts/login/"), Client().get("/rules/livol/"), Client().get("/admin/login/"),
             organiser.get("/admin/"), organiser.get("/admin/league/season/add/")]
    # then each loads static/js/tz.js
    assert all(p.status_code == 200 and "js/tz.js" in p.content.decode() for p in pages)
