"""The admin's "Add tournament" form in Debian's Chromium, at a desktop's width and on a 390-px phone:
choosing a league fills in its match options (and says them in words) and names its clock and timeout rule
in the default choices; choosing another league replaces options that were only filled in, never typed
ones; "another clock" opens the JSON field with the clock chosen before. Saved as it stands, the
tournament plays the league's options and clock. No JavaScript error, no Content-Security-Policy
violation (the ``browser`` fixture fails on either). Screenshots: var/screenshots/admin-tournament-add-*.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from league import services
from league.models import Tournament

PASSWORD = "organiser-first-hour-9"
SHOTS = Path("var/screenshots")
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def leagues(transactional_db, django_user_model):
    django_user_model.objects.create_superuser(username="organiser", password=PASSWORD, email="o@example.org")
    club = services.club_create(name="Riga Card Club", slug="riga")
    livol = services.league_create(club_id=club.pk, name="LIVOL Tuesday", game="livol", options={"target": 100},
                                   clock={"move_days": 1})
    iota = services.league_create(club_id=club.pk, name="IOTA nights", game="iota", options={"variant": "short"},
                                  timeout_rule="forfeit")
    return {"livol": livol, "iota": iota}


def sign_in(page, base: str) -> None:
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")


def options_are(page, value: str) -> None:
    page.wait_for_function("(v) => document.getElementById('id_options').value.trim() === v", arg=value)


def selected_text(page, select_id: str) -> str:
    return page.eval_on_selector(f"#{select_id}", "s => s.options[s.selectedIndex].textContent.trim()")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_choosing_a_league_fills_in_its_options_and_shows_its_clock(live_server, browser, leagues):
    page = browser.page
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_in(page, live_server.url)
    for size, viewport in SIZES.items():
        # given the add form, no league chosen yet: nothing in "Match options"
        page.set_viewport_size(viewport)
        page.goto(f"{live_server.url}/admin/league/tournament/add/")
        assert page.input_value("#id_options").strip() == ""
        assert page.input_value("#id_clock_choice") == "league"
        assert not page.is_visible("#id_clock")  # the JSON is for "another clock" only
        # when the organiser chooses the LIVOL league
        page.select_option("#id_league", str(leagues["livol"].pk))
        # then its options are filled in and said in words, and the defaults name its clock and rule
        options_are(page, '{"target": 100}')
        assert "to 100 points" in page.inner_text("[data-options-words-for=options]")
        assert selected_text(page, "id_clock_choice") == "The league's clock: 1 day a move"
        assert selected_text(page, "id_timeout_rule").startswith("As the league says: a bot makes the move")
        page.fill("#id_name", "Tuesday Swiss")
        page.locator("#id_clock_choice").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"admin-tournament-add-{size}.png"), full_page=True)
        # when another league is chosen, the options only filled in follow it
        page.select_option("#id_league", str(leagues["iota"].pk))
        options_are(page, '{"variant": "short"}')
        assert selected_text(page, "id_clock_choice") == "The league's clock: no clock"
        assert selected_text(page, "id_timeout_rule").startswith("As the league says: the seat forfeits")
        # but options the organiser typed stay
        page.fill("#id_options", '{"variant": "standard"}')
        page.select_option("#id_league", str(leagues["livol"].pk))
        page.wait_for_function("() => document.querySelector(\"#id_clock_choice option[value='league']\")"
                               ".textContent.includes('1 day')")
        assert page.input_value("#id_options") == '{"variant": "standard"}'
        # and "another clock" opens the JSON field with the clock chosen before
        page.select_option("#id_clock_choice", "live-30")
        assert not page.is_visible("#id_clock")
        page.select_option("#id_clock_choice", "custom")
        page.wait_for_selector("#id_clock", state="visible")
        assert page.input_value("#id_clock") == '{"move_seconds":30}'
    # when the form is saved with the league's options as filled in
    page.set_viewport_size(SIZES["desktop"])
    page.goto(f"{live_server.url}/admin/league/tournament/add/")
    page.select_option("#id_league", str(leagues["livol"].pk))
    options_are(page, '{"target": 100}')
    page.fill("#id_name", "Tuesday Swiss")
    page.fill("#id_rounds", "3")
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success")
    # then the tournament plays the league's options and clock
    tournament = Tournament.objects.get(name="Tuesday Swiss")
    assert (tournament.options, tournament.clock, tournament.timeout_rule) == ({"target": 100}, {"move_days": 1}, "bot")
    # and its change page says them in words beside the JSON
    page.goto(f"{live_server.url}/admin/league/tournament/{tournament.pk}/change/")
    terms = page.inner_text(".field-terms")
    assert "to 100 points" in terms and "1 day a move" in terms
    page.screenshot(path=str(SHOTS / "admin-tournament-change-desktop.png"), full_page=True)
