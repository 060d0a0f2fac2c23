"""The first hour of a local copy, in Debian's Chromium: the token page
fits a desktop and a phone and copies the token; no page of a server without streams asks for one; a
reader in another time zone gets their own zone from the first page on, and the admin's date fields
no longer say "You are 7 hours behind server time". Screenshots: var/screenshots/token-page-*.png,
admin-season-new-york.png."""
from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tests.browser.conftest import CSP_LISTENER, DESKTOP

SHOTS = Path("var/screenshots")
PHONE = {"width": 390, "height": 844}
PASSWORD = "first-hour-pass-7"
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def sign_in(page, base: str, username: str, *, path: str = "/accounts/login/", then: str = "/"):
    page.goto(f"{base}{path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("[type=submit]")
    page.wait_for_url(f"{base}{then}")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_token_page_fits_a_desktop_and_a_phone_and_copies_the_token(live_server, browser, django_user_model):
    # given a person signed in on a desktop, whose browser lets the page use the clipboard
    django_user_model.objects.create_user(username="anna", password=PASSWORD)
    page = browser.page
    browser.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    sign_in(page, live_server.url, "anna")
    # when they create an outside bot on their settings page
    page.goto(f"{live_server.url}/accounts/settings/")
    page.fill("#bots input[name=name]", "annabot")
    page.click("#bots button[type=submit]")
    page.wait_for_selector("code#token")
    token = page.inner_text("code#token").strip()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "token-page-desktop.png"), full_page=True)
    # then nothing scrolls sideways, and the commands carry no token
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert token not in page.inner_text("pre.command") and "CARDLEAGUE_TOKEN" in page.inner_text("pre.command")
    # and the copy button puts the token on the clipboard
    page.click("button[data-copy]")
    page.wait_for_selector(".copy-status:has-text('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == token
    # and on a phone nothing scrolls sideways either, and the token and the commands are inside the screen
    page.set_viewport_size(PHONE)
    page.wait_for_function(f"() => window.innerWidth === {PHONE['width']}")
    page.screenshot(path=str(SHOTS / "token-page-phone.png"), full_page=True)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    for selector in ("code#token", "pre.command", "button[data-copy]"):
        box = page.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], selector


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_page_of_a_server_without_streams_asks_for_one(live_server, browser, django_user_model):
    # given a server without streams (the tests' server: no ASGI, whatever Redis there is), and a person
    django_user_model.objects.create_user(username="anna", password=PASSWORD)
    page = browser.page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/stream" in r.url else None)
    # when they sign in, start a match against bots from the home page and play it a while, and look at
    # the league and the rules
    sign_in(page, live_server.url, "anna")
    page.check("#game-livol")
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#board .board")
    page.wait_for_load_state("load")  # the page's scripts have run (a stream would be asked for by now)
    for path in ("/", "/leagues/", "/rules/livol/", "/accounts/settings/"):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("load")
    # then no page asked for a stream: the pages know, and poll
    assert asked == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_reader_in_another_time_zone_sees_their_own_and_the_admin_does_not_warn(live_server, browser,
                                                                                  django_user_model):
    # given an organiser whose browser is in New York (the club's zone is Riga: 7 hours ahead in winter)
    django_user_model.objects.create_superuser(username="organiser", password=PASSWORD, email="o@example.org")
    context = browser.browser.new_context(viewport=DESKTOP, timezone_id="America/New_York")
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    # when they sign in to the admin and open a form with date fields
    sign_in(page, live_server.url, "organiser", path="/admin/login/?next=/admin/", then="/admin/")
    zones = [c["value"] for c in context.cookies() if c["name"] == "cardleague_tz"]
    page.goto(f"{live_server.url}/admin/league/season/add/")
    page.wait_for_selector("input.vDateField")
    page.wait_for_function("() => document.querySelector('.datetimeshortcuts')")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "admin-season-new-york.png"), full_page=True)
    # then the browser's zone went to the server from the sign-in page on, the page's offset is New York's,
    # and no date field says the reader is hours behind the server
    assert zones == ["America/New_York"]
    offset = int(timezone.now().astimezone(ZoneInfo("America/New_York")).utcoffset().total_seconds())
    assert page.get_attribute("body", "data-admin-utc-offset") == str(offset)
    assert page.locator(".timezonewarning").count() == 0
    context.close()
    assert problems == []
