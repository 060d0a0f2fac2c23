"""A drafted round in Debian's Chromium, on a 390-px phone: the organiser opens the draft from the
tournament's admin page, swaps two players, releases the round, and the public tournament page lists the
change and who made it. No page scrolls sideways; no JavaScript error, no Content-Security-Policy
violation (the ``browser`` fixture fails on either). Screenshot: var/screenshots/admin-draft-phone.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from league import services
from league.models import Round, TableSeat
from tests.league.conftest import FAST, make_tournament

PASSWORD = "organiser-drafts-9"
SHOTS = Path("var/screenshots")
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def drafted(transactional_db, django_user_model):
    django_user_model.objects.create_superuser(username="organiser", password=PASSWORD, email="o@example.org")
    club = services.club_create(name="Riga Card Club", slug="riga")
    league = services.league_create(club_id=club.pk, name="LIVOL nights", game="livol", options=dict(FAST))
    tournament = make_tournament(league, players=4, rounds=1)
    return services.round_pair(tournament_id=tournament.pk)


def seating(rnd: Round) -> list[list[int]]:
    out: dict[int, list[int]] = {}
    for number, entrant in (TableSeat.objects.filter(table__round=rnd).order_by("table__number", "position")
                            .values_list("table__number", "entrant_id")):
        out.setdefault(number, []).append(entrant)
    return list(out.values())


def no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_organiser_swaps_two_players_in_a_draft_then_releases_it(live_server, browser, drafted):
    page = browser.page
    page.set_viewport_size(PHONE)
    base = live_server.url
    (a, b), (c, d) = seating(drafted)
    # given the organiser signed in, on the tournament's admin page
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")
    page.goto(f"{base}/admin/league/tournament/{drafted.tournament_id}/change/")
    # when they open the draft
    page.click("text=Review and release round 1")
    page.wait_for_selector("#draft .lg-draft-table[data-table='2']")
    no_sideways_scroll(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "admin-draft-phone.png"), full_page=True)
    # and swap the second player of table 1 with the first of table 2
    page.select_option("#id_swap-first", str(b))
    page.select_option("#id_swap-second", str(c))
    page.click("#draft-swap input[type=submit]")
    page.wait_for_selector(".messagelist .success:has-text('changed places')")
    # then the draft shows them at their new tables, and the change
    assert page.locator(f".lg-draft-table[data-table='1'] li[data-entrant='{c}']").count() == 1
    assert page.locator(f".lg-draft-table[data-table='2'] li[data-entrant='{b}']").count() == 1
    assert "by organiser" in page.inner_text(".lg-draft-changes")
    # when they release the round
    page.click("#draft-release input[type=submit]")
    page.wait_for_selector(".messagelist .success:has-text('released')")
    assert page.locator("#draft-swap").count() == 0   # the tables are fixed now
    drafted.refresh_from_db()
    assert drafted.status != Round.Status.PAIRED
    assert seating(drafted) == [[a, c], [b, d]]
    # then the public tournament page lists the change and who made it
    page.goto(f"{base}/tournaments/{drafted.tournament_id}/")
    changes = page.locator("#round-changes")
    changes.wait_for()
    assert "changed places" in changes.inner_text() and "by organiser" in changes.inner_text()
    no_sideways_scroll(page)
