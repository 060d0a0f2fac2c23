"""Printing a tournament's page (Chromium's print to PDF, A4): the pairings, standings and bracket stay, the
site's menus, forms and buttons go, and the tables fit the page's width.

What is checked: under print media, the navigation, every form and button are hidden, every player of the
standings and of the round's tables is visible text, no table is wider than the printed page; and Chromium's
``page.pdf`` makes an A4 PDF of at least one page (counted by its ``/Type /Page`` objects). The PDF's own text
is not read (its fonts are subset and compressed; no PDF reader is installed).
"""
from __future__ import annotations

import re

import pytest

from league import services
from league.selectors import standings
from tests.league.conftest import FAST, make_tournament

A4_WIDTH_MM, MARGINS_MM = 210, 20
PX_PER_MM = 96 / 25.4


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_printing_the_tournament_page_keeps_pairings_and_standings_and_drops_the_menus(live_server, browser_page):
    # given a finished knockout of eight bots
    club = services.club_create(name="Riga Card Club", slug="riga")
    league = services.league_create(club_id=club.pk, name="LIVOL league", game="livol", options=dict(FAST))
    tournament = services.tournament_run(tournament_id=make_tournament(league, format="knockout", players=8).pk)
    names = [r["name"] for r in standings.standings(tournament)["rows"]]
    page = browser_page
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.wait_for_load_state("load")
    # when the page is laid out for print
    page.emulate_media(media="print")
    page.set_viewport_size({"width": round((A4_WIDTH_MM - MARGINS_MM) * PX_PER_MM), "height": 1100})
    # then the menus, forms and buttons are gone
    shown = page.evaluate("""() => [...document.querySelectorAll('header.top, footer, form, button')]
        .filter((e) => e.getClientRects().length > 0).map((e) => e.outerHTML.slice(0, 60))""")
    assert shown == []
    # and every player is on the printed page (the standings and the tables)
    text = page.inner_text("main")
    assert all(name in text for name in names)
    # and no table is wider than the printed page
    widths = page.evaluate("() => [...document.querySelectorAll('main table')].map((t) => t.scrollWidth)")
    inner = page.evaluate("document.documentElement.clientWidth")
    assert widths and max(widths) <= inner, (widths, inner)
    # and Chromium prints it as an A4 PDF
    pdf = page.pdf(format="A4", print_background=False)
    assert pdf.startswith(b"%PDF-")
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert 1 <= pages <= 6, pages
    box = re.search(rb"/MediaBox\s*\[([^\]]*)\]", pdf)
    width, height = (float(v) for v in box.group(1).split()[2:])
    assert abs(width - 595.3) < 2 and abs(height - 841.9) < 2, box   # A4 in points (Chromium rounds to pixels)
