"""The play page on a phone and by ear, in Debian's Chromium: each game's
board fits one 390×844 screen — whose turn it is, the top card or the table, and the hand — and a move
does not scroll the page; a card that cannot be played says why; the replay jumps by rounds with the
focus on its board; the live region reads every move since the person's last."""
from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.models import STORE_EVENTS, Match
from games.selectors.feeds import move_starts
from games.selectors.log import match_log
from games.selectors.replay import replay_positions, round_steps
from games.services import SeatSpec, bots_advance, match_create
from tests.browser.test_play import PHONE, click_a_move, live_seq, settled, sign_in, start

#: Per game: the top card or the table, and the first card of the hand (Cardavia: the seat's own card).
TABLE = {"livol": ".lv-table .pile:nth-child(2) .card", "uno_flip": ".uf-table .pile:nth-child(2) .card",
         "karuselis": ".k-table", "iota": ".grid-scroll", "cardavia": ".ring"}
HAND = {"livol": "[data-hand] .slot > *", "uno_flip": "[data-hand] .slot > *", "karuselis": ".k-hand .item",
        "iota": ".iota-hand .card", "cardavia": ".me .card"}
FIELDS = {"livol": {"seats": 3}, "uno_flip": {"seats": 3}, "karuselis": {"seats": 2, "deck": "small"},
          "iota": {"seats": 2}, "cardavia": {"seats": 3}}
BOX = """(selector) => { const e = document.querySelector('#board .board.live ' + selector);
  if (!e) return null; const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }"""


@pytest.fixture(autouse=True)
def _bots_do_not_wait(settings):
    settings.CARDLEAGUE_CALL_GRACE_SECONDS = 0


#: The live board is settled (its answer in, no playback running) and offers the person a move.
MY_TURN = ("() => { const l = document.querySelector('#board .play-layout'); return !!l && l.dataset.ready === '1'"
           " && !document.querySelector('[data-playback]')"
           " && !!document.querySelector('#board .board.live .turn-banner.turn-mine'); }")


def my_turn(page, game: str, timeout: float = 30_000) -> None:
    """Wait until the live board offers the person a move: a DOM signal, not a poll."""
    try:
        page.wait_for_function(MY_TURN, timeout=timeout)
    except PlaywrightTimeoutError:
        pytest.fail(f"{game}: the person's turn never came")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["livol", "uno_flip", "karuselis", "iota", "cardavia"])
def test_on_a_phone_the_turn_the_table_and_the_hand_fit_one_screen_and_a_move_does_not_scroll(
        live_server, browser, django_user_model, game):
    page = browser.page
    browser.fast_playback()
    sign_in(page, live_server, django_user_model)
    start(page, game, **FIELDS[game])
    # given the person's turn, on a 390×844 phone
    page.set_viewport_size(PHONE)
    page.reload()
    my_turn(page, game)
    height = page.evaluate("innerHeight")
    # then whose turn it is, the top card (or the table) and the first hand card are all on the first screen
    for what, selector in (("the turn", ".turn-banner"), ("the table", TABLE[game]), ("the hand", HAND[game])):
        box = page.evaluate(BOX, selector)
        assert box is not None, f"{game}: no {what} on the board"
        assert box["top"] >= 0 and box["bottom"] <= height, f"{game}: {what} is off the first screen: {box}"
    # and when the person, scrolled a little, makes a move, the page stays where it was
    page.evaluate("window.scrollTo(0, 60)")
    before = page.evaluate("window.scrollY")
    assert before > 0
    seq = live_seq(page)
    assert click_a_move(page, game)
    page.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq > {seq}",
                           timeout=15000)
    settled(page)
    assert page.evaluate("window.scrollY") == before


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_card_that_cannot_be_played_says_why_and_sends_nothing(live_server, browser, django_user_model):
    page = browser.page
    browser.fast_playback()
    sign_in(page, live_server, django_user_model)
    start(page, "livol", seats=2)
    for _ in range(30):
        my_turn(page, "livol")
        if page.locator("#board .board.live [data-hand] .unplayable").count():
            break
        seq = live_seq(page)
        click_a_move(page, "livol")
        page.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq > {seq}",
                               timeout=15000)
    else:
        pytest.fail("never a card that cannot be played")
    seq = live_seq(page)
    card = page.locator("#board .board.live [data-hand] .unplayable").first
    reason = card.get_attribute("data-reason")
    assert reason
    out = page.locator("#board .board.live [data-reason-out]")
    assert out.inner_text().strip() == "" and out.get_attribute("aria-live") == "polite"
    # when the person reaches it from the keyboard, the reason is said where the board's hint is (a live region)
    card.focus()
    assert out.inner_text().strip() == reason
    # and when they click it (it is aria-disabled: Playwright would wait for it to be enabled)
    page.evaluate("document.querySelector('#board .board.live [data-reason-out]').textContent = ''")
    # (every request htmx or a form would make starts within the click's own dispatch: counted in the page)
    page.evaluate("""() => { window.sentOnClick = 0;
        document.addEventListener('htmx:beforeRequest', () => { window.sentOnClick += 1; });
        document.addEventListener('submit', () => { window.sentOnClick += 1; }); }""")
    card.click(force=True)
    # then the reason is said again, and no move was sent
    assert out.inner_text().strip() == reason
    assert page.evaluate("window.sentOnClick") == 0
    assert live_seq(page) == seq and page.locator("#board .error").count() == 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_replay_jumps_by_rounds_with_page_down_and_starts_with_the_focus_on_its_board(
        live_server, browser, django_user_model):
    page = browser.page
    sign_in(page, live_server, django_user_model)
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="greedy")], seed="page-keys",
                         options={"target": 150})
    bots_advance(match_id=match.pk, budget=100000)
    positions = replay_positions(match)
    rounds = round_steps(match, positions)
    assert len(rounds) >= 3
    # when the reader opens the replay
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    # then the focus is on the board, and the keys are listed
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('.board.replay')")
    assert "PageUp and PageDown jump a round" in page.locator(".match-head").inner_text()

    def step_is(n):
        page.wait_for_function(f"() => document.querySelector('.replay-controls').dataset.step === '{n}'")

    # and PageDown goes to each next round's first position, PageUp back to the one before
    page.keyboard.press("PageDown")
    step_is(rounds[1])
    page.keyboard.press("PageDown")
    step_is(rounds[2])
    page.keyboard.press("ArrowRight")
    step_is(rounds[2] + 1)
    page.keyboard.press("PageUp")
    step_is(rounds[2])
    page.keyboard.press("PageUp")
    step_is(rounds[1])
    # and the focus stays on the board (it is swapped with each step)
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#replay .board.replay')")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_live_region_reads_every_bot_move_since_the_persons_last(live_server, browser, django_user_model):
    page = browser.page
    browser.fast_playback()
    sign_in(page, live_server, django_user_model)
    start(page, "livol", seats=4)
    match = Match.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    for _ in range(12):
        my_turn(page, "livol")
        seq = live_seq(page)
        # when the person moves and the three bots answer
        assert click_a_move(page, "livol")
        page.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq > {seq}",
                               timeout=15000)
        settled(page)
        match.refresh_from_db()
        bot_moves = [first for first, seat in move_starts(match, upto=live_seq(page))
                     if first > seq and seat != 0]
        if len(bot_moves) >= 2:
            break
    else:
        pytest.fail("the bots never made two moves in a row")
    # then the live region names each of their moves, not only the last one
    said = page.locator("#announcer").inner_text()
    first_line = {}  # each move's first line in the log (the move itself), as the person's seat reads it
    for r in match_log(match, 0)["rounds"]:
        for line in reversed(r["lines"]):
            if line["type"] not in STORE_EVENTS:
                first_line.setdefault(line["move"], line["text"])
    for first in bot_moves:
        assert first_line[first] in said, (first_line[first], said)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_banners_countdown_speaks_the_pages_language(live_server, browser, django_user_model):
    page = browser.page
    anna = sign_in(page, live_server, django_user_model)
    # given anna's turn in a one-day correspondence match
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(user=anna)], seed="russian-clock",
                         clock={"move_days": 1})
    # when she reads the board in Russian
    page.context.set_extra_http_headers({"Accept-Language": "ru"})
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    assert page.locator("html").get_attribute("lang") == "ru"
    # then the banner's countdown, ticking, says hours and minutes in Russian (not "23h 59m")
    clock = page.locator("#board .board.live .turn-clock [data-deadline]")
    page.wait_for_function("() => /^23 часа, 5\\d минут/.test("
                           "document.querySelector('#board .board.live .turn-clock [data-deadline]').textContent)")
    assert "h" not in clock.inner_text()
    assert "clock-ok" in page.locator("#board .board.live .turn-clock").get_attribute("class")
