"""The site in the clubs' languages, in Chromium: a browser that asks for Latvian (or Russian) gets the
board, the move log and a refused move's message in that language, with the games' own words."""
from __future__ import annotations

from collections import Counter

import pytest
from django.utils import translation

from engine import registry
from games.models import Match
from games.services import SeatSpec, match_create
from games.words import card_name, illegal_move_message
from tests.browser.conftest import CHROMIUM_ARGS, CSP_LISTENER, DESKTOP, chromium_path
from tests.conftest import need

PASSWORD = "language-test-pass-7"


def _deck() -> list[str]:
    """The person (seat 1, first to play) holds reds; the starter is red: a play and a refused draw."""
    cards = registry.get("livol").cards()
    front = ["B0", "G0", "Y0", "Bskip", "Gskip", "Yskip", "Brev"] + ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
    front += ["R1", "R8", "R9", "R8", "R9", "R0"]
    rest = Counter(cards)
    rest.subtract(front)
    return front + sorted(rest.elements())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["lv", "ru"])
def test_a_browser_asking_for_a_language_plays_in_it(live_server, django_user_model, settings, language):
    path = chromium_path()
    need(path is not None, "Debian's chromium is not installed (apt-get install -y chromium)")
    settings.CARDLEAGUE_CALL_GRACE_SECONDS = 0
    person = django_user_model.objects.create_user(username="liga", password=PASSWORD)
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(user=person)], deck=_deck(),
                         seed=f"language-{language}")
    with translation.override(language):
        your_turn, moves = translation.gettext("Your turn"), translation.gettext("Moves")
        refused = str(illegal_move_message("playable_card_held", "L6"))
        red_one = card_name("livol", "R1")
    assert your_turn != "Your turn" and refused != "You hold a card you can play, so you may not draw."
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport=DESKTOP, locale=language,
                                      extra_http_headers={"Accept-Language": f"{language},en;q=0.3"})
        context.add_init_script(CSP_LISTENER)
        page = context.new_page()
        problems = []
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        page.goto(f"{live_server.url}/accounts/login/")
        assert page.locator("html").get_attribute("lang") == language
        page.fill("input[name=username]", "liga")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        # the board and the log speak the language
        assert your_turn in page.locator("#board .turn-banner").inner_text()
        assert moves in page.locator("#log-title").inner_text()
        assert red_one in page.locator("#board").inner_text()
        # a refused move (drawing while holding a card that matches) is explained in the language
        seq = page.locator("#board .board.live").get_attribute("data-seq")
        move_url = f"/matches/{match.pk}/move/?seat=1"
        page.evaluate("([url, seq]) => htmx.ajax('POST', url, {target: '#board', values: "
                      "{move: JSON.stringify({type: 'draw'}), expected_seq: seq}})", [move_url, seq])
        page.wait_for_selector("#board .error[data-code=playable_card_held]")
        assert refused in page.locator("#board .error").inner_text()
        # a move played on the board shows in the log, in words of the language
        page.locator("#board .board.live [data-hand] button.move.no-call[data-card=R1]").first.click()
        page.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq > {seq}")
        assert red_one in page.locator("aside.move-log").inner_text()
        browser.close()
        assert problems == []
    assert Match.objects.get(pk=match.pk).last_seq > int(seq)
