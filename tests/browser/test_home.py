"""The first hour of a player on the home page, in Chromium: an invitation's
Accept button is on the first screen, on a 390×844 phone and on a 1280×800 desktop, without scrolling;
and an open home page shows a new invitation without reload — by polling where the server has no
streams, through the account stream where it has — keeping what was typed in the new-match form and
the focus, and announcing the invitation politely. Screenshots: var/screenshots/home-waits-*.png."""
from __future__ import annotations

from pathlib import Path

import pytest

from games.services import SeatSpec, bots_advance, match_create
from tests.browser.conftest import run_timers_for
from tests.browser.test_people_at_the_table import PASSWORD, sign_in

SHOTS = Path("var/screenshots")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def people(django_user_model):
    return {name: django_user_model.objects.create_user(username=name, password=PASSWORD)
            for name in ("anna", "janis", "ruta")}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size,viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_first_invitations_accept_button_is_on_the_first_screen(live_server, chromium, django_user_model,
                                                                    size, viewport):
    from league.services import bot_account_create

    who = people(django_user_model)
    annabot, _ = bot_account_create(owner=who["anna"], name="annabot")
    # given janis has an invitation with every term to say (four seats, an outside bot, a server bot,
    # a target, a correspondence clock), another one, and matches where it is his turn
    invitation = match_create(game="livol", seats=[SeatSpec(user=who["anna"]), SeatSpec(user=who["janis"], invite=True),
                                                   SeatSpec(user=annabot, invite=True), SeatSpec(bot="greedy")],
                              options={"target": 100}, clock={"move_days": 1}, created_by=who["anna"])
    match_create(game="karuselis", seats=[SeatSpec(user=who["ruta"]), SeatSpec(user=who["janis"], invite=True)],
                 clock={"move_seconds": 30, "bank_seconds": 300}, created_by=who["ruta"])
    for i in range(4):
        match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(user=who["janis"])], seed=f"t{i}")
        bots_advance(match_id=match.pk)
    page = chromium(viewport)
    # when he opens his home page
    sign_in(page, live_server.url, "janis")
    accept = page.locator(f"form[action='/matches/{invitation.pk}/join/'] button")
    accept.wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"home-waits-{size}.png"), full_page=True)
    # then the first invitation's Accept button is on the first screen, without scrolling
    assert page.evaluate("window.scrollY") == 0
    box = accept.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    assert accept.inner_text() == "Accept"


def _typed_in_the_form_then_invited(page, base: str, who) -> object:
    """janis, on his open home page with nothing waiting, types into the new-match form (the focus
    stays in it); then anna invites him. Returns the match."""
    sign_in(page, base, "janis")
    page.locator("#waits-body .nothing-waits").wait_for()
    page.fill("input[name=people]", "ruta")
    page.select_option("select[name=clock]", "days-2")
    page.focus("input[name=people]")
    return match_create(game="livol", seats=[SeatSpec(user=who["anna"]), SeatSpec(user=who["janis"], invite=True)],
                        options={"target": 200}, clock={"move_days": 1}, created_by=who["anna"])


def _shows_it_keeping_the_form_and_the_focus(page, match, timeout: int):
    # the invitation appears in place of "nothing waits", on the page as it is
    page.locator(f"#waits-body [data-invitation='{match.pk}'] form[action='/matches/{match.pk}/join/'] button"
                 ).wait_for(timeout=timeout)
    assert page.locator("#waits-body .nothing-waits").count() == 0
    # what janis typed is still there, and the focus did not move
    assert page.input_value("input[name=people]") == "ruta"
    assert page.input_value("select[name=clock]") == "days-2"
    assert page.evaluate("document.activeElement.name") == "people"
    # a screen reader hears of it, politely
    page.wait_for_function("() => document.getElementById('waits-news').textContent.includes('New invitation')")
    assert page.get_attribute("#waits-news", "role") == "status"
    news = page.inner_text("#waits-news")
    assert "anna" in news and f"LIVOL #{match.pk}" in news and "1 day a move" in news


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_open_home_page_shows_a_new_invitation_by_polling_where_the_server_has_no_streams(live_server, chromium,
                                                                                           django_user_model):
    who = people(django_user_model)
    page = chromium(DESKTOP)
    streams: list[str] = []
    page.on("request", lambda r: streams.append(r.url) if "/api/stream" in r.url else None)
    # given janis's home page is open, on a server without streams, and he is filling in the form
    match = _typed_in_the_form_then_invited(page, live_server.url, who)
    # then within a poll (every 10 s) the invitation shows, without reload and without a stream
    _shows_it_keeping_the_form_and_the_focus(page, match, timeout=25_000)
    assert page.get_attribute("html", "data-waits-live") == "polling"
    assert streams == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_open_home_page_shows_a_new_invitation_through_the_account_stream(asgi_server, chromium,
                                                                            django_user_model):
    who = people(django_user_model)
    page = chromium(DESKTOP)
    page.clock.install()  # its timers run as usual, until the test runs them forward (run_timers_for)
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "/waits/" in r.url else None)
    # given janis's home page follows his account stream (and does not poll): the stream's hello makes
    # the page ask once for what waits (whatever changed while it had no stream)
    with page.expect_response(lambda r: "/waits/" in r.url, timeout=15_000):
        sign_in(page, asgi_server, "janis")
    assert page.get_attribute("html", "data-waits-live") == "stream"
    polls.clear()
    run_timers_for(page, 30_000)  # half a minute of the page's timers (three poll intervals): nobody asks again
    assert polls == []
    # when anna invites him while he types into the form
    page.fill("input[name=people]", "ruta")
    page.select_option("select[name=clock]", "days-2")
    page.focus("input[name=people]")
    match = match_create(game="livol", seats=[SeatSpec(user=who["anna"]), SeatSpec(user=who["janis"], invite=True)],
                         options={"target": 200}, clock={"move_days": 1}, created_by=who["anna"])
    # then the stream's notice brings it at once, well before any poll would have
    _shows_it_keeping_the_form_and_the_focus(page, match, timeout=5_000)
    assert page.get_attribute("html", "data-waits-live") == "stream"
