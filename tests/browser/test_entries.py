"""Entries in Debian's Chromium: three people, each in their own browser context on a 390-px phone, sign up
for a tournament for two from its page; the third lands on the waiting list. Check-in is open: one entrant and
the waiting person check in with the page's button, the other entrant does not. The organiser closes check-in
in the admin; the person who did not check in is dropped and the waiting person moves up, as their pages say.
No page scrolls sideways on the phone; no JavaScript error, no Content-Security-Policy violation.
Screenshots: var/screenshots/entries-*.png.
"""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from league import services

PASSWORD = "entries-pass-4821"
SHOTS = Path("var/screenshots")


@pytest.fixture
def club_night(transactional_db, django_user_model):
    for name in ("anna", "janis", "liga"):
        django_user_model.objects.create_user(username=name, password=PASSWORD)
    django_user_model.objects.create_superuser(username="organiser", password=PASSWORD, email="o@example.org")
    club = services.club_create(name="Riga Card Club", slug="riga")
    league = services.league_create(club_id=club.pk, name="LIVOL league", game="livol")
    t = services.tournament_create(league_id=league.pk, name="Friday club night")
    return services.entry_terms_set(tournament_id=t.pk, entries_open=True, capacity=2,
                                    starts_at=timezone.now() + timedelta(minutes=20), checkin_minutes=30)


def sign_in(page, base: str, username: str, next_url: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}{next_url}")


def no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


def press(page, name: str, expect: str) -> None:
    """Press a button of the entries panel and wait for the panel htmx brings back to say ``expect``."""
    page.click(f"#entries button[name={name}]")
    page.wait_for_function("(t) => document.querySelector('#my-entry')?.textContent.includes(t)", arg=expect)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_people_sign_up_one_waits_one_misses_check_in_and_the_waiting_person_moves_up(live_server, chromium,
                                                                                     club_night):
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = f"/tournaments/{club_night.pk}/"
    pages = {}
    # given three people on their phones, each signing up from the tournament's page
    for name in ("anna", "janis", "liga"):
        page = pages[name] = chromium()
        sign_in(page, live_server.url, name, url)
        assert "2 places left" in page.inner_text("#entries") or name != "anna"
        press(page, "signup", "on the waiting list" if name == "liga" else "you are in")
        no_sideways_scroll(page)
    # then the third is on the waiting list, number 1
    assert "on the waiting list, number 1" in pages["liga"].inner_text("#my-entry")
    pages["liga"].screenshot(path=str(SHOTS / "entries-waiting-phone.png"), full_page=True)
    # when anna and liga check in with the page's button, and janis does not
    press(pages["anna"], "checkin", "Checked in.")
    press(pages["liga"], "checkin", "Checked in")
    pages["anna"].reload()
    assert "1 checked in" in pages["anna"].inner_text("#entries")
    # and the organiser closes check-in in the admin
    admin = chromium({"width": 1280, "height": 900})
    sign_in(admin, live_server.url, "organiser", "/admin/")
    admin.goto(f"{live_server.url}/admin/league/tournament/")
    admin.check(f"input[name=_selected_action][value='{club_night.pk}']")
    admin.select_option("select[name=action]", "close_checkin")
    admin.click("button[name=index]")
    admin.wait_for_selector("ul.messagelist")
    assert "dropped: janis" in admin.inner_text("ul.messagelist")
    # then liga, who waited and checked in, is in; janis is dropped, with the reason
    pages["liga"].reload()
    assert "you are in" in pages["liga"].inner_text("#my-entry")
    assert "liga" in pages["liga"].inner_text(".lg-entries-field")
    assert "janis" not in pages["liga"].inner_text(".lg-entries-field")
    pages["janis"].reload()
    assert "did not check in" in pages["janis"].inner_text("#my-entry")
    for page in pages.values():
        no_sideways_scroll(page)
    pages["liga"].screenshot(path=str(SHOTS / "entries-moved-up-phone.png"), full_page=True)
