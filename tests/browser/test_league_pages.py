"""League pages in Debian's Chromium, on a phone (390 × 844) and a desktop (1280 × 900).

No league page scrolls sideways on a phone (a wide table or the bracket scrolls inside its own
box); the bracket's connector lines meet; a running tournament's page, refreshed every few
seconds, keeps where the reader had scrolled the bracket; no page breaks the Content-Security-Policy.
Screenshots of every page go to var/screenshots/league-<page>-phone.png and -desktop.png.
``browser_page`` (Debian's Chromium, failing on JavaScript errors) comes from tests/browser/conftest.py.
"""
import os

import pytest

from league import services
from league.selectors import standings
from tests.league.conftest import FAST, make_tournament

SHOTS = "var/screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Every securitypolicyviolation on the page, recorded from the first script that runs.
RECORD_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(
  {directive: e.effectiveDirective, source: e.sourceFile, line: e.lineNumber, blocked: e.blockedURI}));
"""

SLOTS = """() => [...document.querySelectorAll(".lg-bracket-slot[data-table]")].map((slot) => {
  const r = slot.getBoundingClientRect();
  const out = getComputedStyle(slot, "::after"), into = getComputedStyle(slot, "::before");
  return {round: +slot.dataset.round, table: +slot.dataset.table, next: +slot.dataset.next || null,
          mid: r.top + r.height / 2, left: r.left, right: r.right,
          out: slot.classList.contains("has-next") ? parseFloat(out.width) : null,
          into: slot.classList.contains("has-prev") ? parseFloat(into.width) : null};
})"""

JOINS = """() => [...document.querySelectorAll(".lg-bracket-group.joined")].map((group) => {
  const r = group.getBoundingClientRect(), line = getComputedStyle(group, "::after");
  const slots = [...group.querySelectorAll(".lg-bracket-slot")].map((s) => {
    const b = s.getBoundingClientRect(); return b.top + b.height / 2; });
  return {top: r.top + parseFloat(line.top), bottom: r.bottom - parseFloat(line.bottom),
          x: r.left + parseFloat(line.left), first: slots[0], last: slots[slots.length - 1], right: r.right};
})"""


def _league(name: str = "LIVOL league"):
    club = services.club_create(name="Riga Card Club", slug="riga")
    return services.league_create(club_id=club.pk, name=name, game="livol", options=dict(FAST))


@pytest.fixture
def league_pages(transactional_db):
    """A club, its league, a finished Swiss and a finished knockout of 8: the pages to look at."""
    league = _league()
    swiss = services.tournament_run(tournament_id=make_tournament(league, format="swiss", players=6, rounds=3).pk)
    knockout = services.tournament_run(tournament_id=make_tournament(league, format="knockout", players=8).pk)
    champion = standings.standings(knockout)["rows"][0]["player_id"]
    return {"index": "/leagues/", "club": "/clubs/riga/", "league": f"/leagues/{league.pk}/",
            "tournament-swiss": f"/tournaments/{swiss.pk}/", "tournament-knockout": f"/tournaments/{knockout.pk}/",
            "player": f"/players/{champion}/", "ratings": "/ratings/livol/"}


def _open(page, url: str, viewport: dict) -> None:
    page.set_viewport_size(viewport)
    page.goto(url)
    page.wait_for_load_state("load")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_league_page_fits_a_phone_without_sideways_scrolling(live_server, browser_page, league_pages):
    page = browser_page
    page.add_init_script(RECORD_CSP)
    os.makedirs(SHOTS, exist_ok=True)
    for name, path in league_pages.items():
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            # when the page is opened at this size
            _open(page, live_server.url + path, viewport)
            page.screenshot(path=f"{SHOTS}/league-{name}-{size}.png", full_page=True)
            # then the page itself never scrolls sideways
            scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert scroll <= inner, f"{name} is {scroll}px wide in a {inner}px {size} window"
            # wide content scrolls inside its own box, which fits the window
            boxes = page.evaluate("[...document.querySelectorAll('.lg-scroll')].map((b) => "
                                  "b.getBoundingClientRect().right)")
            assert all(right <= inner for right in boxes), (name, size, boxes)
            # and nothing was blocked by the Content-Security-Policy
            assert page.evaluate("window.__csp") == [], (name, size)
    # on a phone the 8-player bracket and the standings are wider than the window: they scroll in their box
    _open(page, live_server.url + league_pages["tournament-knockout"], PHONE)
    widths = page.evaluate("['.lg-bracket-scroll', '.lg-standings'].map((s) => document.querySelector(s)"
                           ".closest('.lg-scroll')).map((b) => [b.scrollWidth, b.clientWidth])")
    assert all(scroll > client for scroll, client in widths), widths
    assert os.path.getsize(f"{SHOTS}/league-tournament-knockout-phone.png") > 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_bracket_lines_meet_between_rounds(live_server, browser_page, transactional_db, viewport):
    # given a finished knockout of 6 (two byes) on the page
    league = _league()
    t = services.tournament_run(tournament_id=make_tournament(league, format="knockout", players=6).pk)
    _open(browser_page, f"{live_server.url}/tournaments/{t.pk}/", viewport)
    slots = browser_page.evaluate(SLOTS)
    by_key = {(s["round"], s["table"]): s for s in slots}
    assert len(slots) == 4 + 2 + 1
    for s in slots:
        if s["next"] is None:
            continue
        target = by_key[(s["round"] + 1, s["next"])]
        feeders = [f for f in slots if f["round"] == s["round"] and f["next"] == s["next"]]
        # a table sits level with the middle of the two that feed it
        assert abs(target["mid"] - sum(f["mid"] for f in feeders) / len(feeders)) <= 1.5
        # the line out of a table and the line into the next one each cross half the gap: they meet
        gap = target["left"] - s["right"]
        assert gap > 0 and abs(s["out"] - gap / 2) <= 1 and abs(target["into"] - gap / 2) <= 1
    # and the vertical joining each pair runs from the middle of the first to the middle of the last
    joins = browser_page.evaluate(JOINS)
    assert len(joins) == 2 + 1
    for j in joins:
        assert abs(j["top"] - j["first"]) <= 1.5 and abs(j["bottom"] - j["last"]) <= 1.5
        assert j["x"] > j["right"]  # in the gap, right of the tables
    champion = browser_page.locator(".lg-bracket-champion .lg-bracket-seat.winner")
    assert champion.inner_text().strip() == standings.standings(t)["rows"][0]["name"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_running_tournament_refreshes_and_keeps_the_bracket_scrolled(live_server, browser_page, transactional_db):
    # given a knockout of 8 whose second round is paired and waiting (the page refreshes every 3 s)
    league = _league()
    t = make_tournament(league, format="knockout", players=8, auto_advance=False)
    services.round_start(round_id=services.round_pair(tournament_id=t.pk).pk)
    page = browser_page
    _open(page, f"{live_server.url}/tournaments/{t.pk}/", PHONE)
    assert page.locator("#tournament-live[hx-trigger='every 3s']").count() == 1
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/league-tournament-running-phone.png", full_page=True)
    # when the reader scrolls the bracket sideways and the live part is refreshed
    page.evaluate("document.querySelector('.lg-bracket-scroll').scrollLeft = 120;"
                  "document.querySelector('#tournament-live').dataset.old = 'yes'")
    page.evaluate("() => new Promise((done) => document.addEventListener('htmx:load', done, {once: true}))")
    page.wait_for_function("!document.querySelector('#tournament-live').dataset.old")
    # then the new bracket is scrolled where the old one was, and the page still fits the phone
    assert page.evaluate("document.querySelector('.lg-bracket-scroll').scrollLeft") == pytest.approx(120, abs=1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
