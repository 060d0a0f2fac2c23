"""End to end in Debian's Chromium: sign in, start a match against bots, play on the page.

Per game, a player plays to the end of a round against bots on that game's own board; the log
then holds a line for every bot move and the round's table, and the board fits a phone without
sideways scrolling (screenshots of each board at desktop and phone size go to var/screenshots/,
which CI keeps). No page breaks the Content-Security-Policy while this happens (every test
records violations). LIVOL is played from the keyboard alone, with the bots' moves played back
one by one; a replay steps with the arrow keys.
"""
from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import DESKTOP, browser_page  # noqa: F401  (the league pages' tests import it from here)

SCREENSHOTS = Path("var/screenshots")
LOW_CONTRAST = (Path(__file__).parent / "contrast.js").read_text()
PHONE = {"width": 390, "height": 844}
PASSWORD = "secret-pass-1"


@pytest.fixture(autouse=True)
def _bots_do_not_wait(settings):
    """Bots give a person a few seconds to call LIVOL!/UNO! before they may catch; tests run the bots
    eagerly, where nothing wakes them after that grace, so here they do not wait."""
    settings.CARDLEAGUE_CALL_GRACE_SECONDS = 0


def sign_in(page, live_server, django_user_model, username="anna"):
    user = django_user_model.objects.create_user(username=username, password=PASSWORD)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("#new-match")
    return user


def start(page, game: str, **fields):
    """Choose the game on the home page and fill in its own fields (``seats``, ``target``…)."""
    page.check(f"#game-{game}")
    for name, value in fields.items():
        selector = f"[name={game}-{name}]"
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, str(value))
        else:
            page.fill(selector, str(value))
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#board .board.live")


def live_seq(page) -> int:
    return int(page.locator("#board .board.live").get_attribute("data-seq"))


def settled(page):
    """Wait until a move's answer is in and its playback is over."""
    page.wait_for_function("() => { const l = document.querySelector('#board .play-layout'); "
                           "return !!l && l.dataset.ready === '1' && !document.querySelector('[data-playback]'); }",
                           timeout=20000)


def click_a_move(page, game: str) -> bool:  # noqa: C901 - one branch per game's board
    """Make one move the way a player would on this game's board; False if none is offered now."""
    board = page.locator("#board .board.live")
    if game == "iota":
        if not page.locator("[data-iota-confirm]").count():
            return False
        hand = board.locator(".iota-hand button.card")
        for i in range(hand.count()):
            hand.nth(i).click()
            for j in range(min(board.locator("[data-iota-grid] .target").count(), 6)):
                if j:
                    hand.nth(i).click()
                board.locator("[data-iota-grid] .target").nth(j).click()
                if board.locator("[data-iota-confirm]:not([disabled])").count():
                    board.locator("[data-iota-confirm]").click()
                    return True
                board.locator("[data-iota-clear]").click()
        passing = board.locator("button.move.pass")
        if passing.count():
            passing.click()
            return True
        return False
    if game == "karuselis" and board.locator("button.move:visible").count() == 0:
        mine = board.locator("button.item.mine")
        for i in range(mine.count()):
            mine.nth(i).click()
            reachable = board.locator("button.item.is-reachable")
            for j in range(-1, reachable.count()):
                if j >= 0:
                    reachable.nth(j).click()
                if board.locator("button.move:visible").count():
                    board.locator("button.move:visible").first.click()
                    return True
            mine.nth(i).click()  # put it back and try the next card
        return False
    toggle = board.locator(".call-toggle")
    if toggle.count() and not toggle.is_checked():
        board.locator(".call-label").click()  # two cards left: play with LIVOL! / UNO!
    cards = board.locator("[data-hand] button.move:visible")
    if cards.count():
        cards.first.click()
        return True
    wilds = board.locator("[data-hand] summary.playable:visible")
    if wilds.count():
        wilds.first.click()
        board.locator(".colors button.move:visible").first.click()
        return True
    buttons = board.locator("button.move:visible")
    if buttons.count():
        buttons.first.click()
        return True
    return False


def play_until(page, game: str, done: str, tries: int = 400) -> int:
    """Play until the page's JavaScript condition ``done`` holds (or the match is over)."""
    played = 0
    for _ in range(tries):
        settled(page)
        if page.evaluate(done) or page.locator("#board .board.live").get_attribute("data-over") == "1":
            break
        seq = live_seq(page)
        if not click_a_move(page, game):  # not the seat's turn: the others' moves arrive as a new board
            page.wait_for_function(
                f"() => {{ const b = document.querySelector('#board .board.live'); "
                f"return b && (+b.dataset.seq > {seq} || b.dataset.over === '1'); }}", timeout=30000)
            continue
        page.wait_for_function(
            f"() => {{ const b = document.querySelector('#board .board.live'); return b && +b.dataset.seq > {seq}; }}",
            timeout=15000)
        assert page.locator("#board .board.live .error").count() == 0, page.locator("#board .error").inner_text()
        played += 1
    settled(page)
    return played


def shoot(page, name: str):
    """Screenshots at desktop and phone size; on the phone nothing scrolls sideways."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_function("w => window.innerWidth === w", arg=PHONE["width"])
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    page.screenshot(path=str(SCREENSHOTS / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert width[0] <= width[1], f"{name} scrolls sideways on a phone: {width}"


ROUND_TABLE_IN_LOG = "!!document.querySelector('.move-log .round-summary')"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game,fields", [
    ("livol", {"seats": 2, "target": 30}),
    ("uno_flip", {"seats": 2, "target": 30}),
    ("karuselis", {"seats": 2, "deck": "small", "target": 20}),
    ("iota", {"seats": 2, "variant": "short"}),
    ("cardavia", {"seats": 3, "lives": 3}),
])
def test_a_player_plays_a_round_against_bots_and_the_log_tells_every_bot_move(live_server, browser,
                                                                               django_user_model, game, fields):
    from games.models import Match
    from games.selectors.feeds import move_starts
    from games.selectors.log import match_log

    page = browser.page
    browser.fast_playback()
    sign_in(page, live_server, django_user_model)
    start(page, game, **fields)
    page.evaluate("document.getElementById('move-log').dataset.kept = 'yes'")  # the first board's log
    # when the player plays to the end of a round
    played = play_until(page, game, ROUND_TABLE_IN_LOG)
    for _ in range(3):
        if played or page.locator("#board .board.live").get_attribute("data-over") == "1":
            break
        # a deal may end before the person's turn (Cardavia: a bot asks them and meets a Cuckoo, or they
        # rest after two Fools): play on to the end of the next one
        tables = page.locator(".move-log .round-summary").count()
        played = play_until(page, game, f"document.querySelectorAll('.move-log .round-summary').length > {tables}")
    assert played > 0
    assert page.evaluate(ROUND_TABLE_IN_LOG), "the log shows no round table"
    # then the log has a line in words for every bot move, and the round's table
    match = Match.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    # a long round shows its newest lines; the earlier ones come with "Show n earlier lines"
    for _ in range(5):
        more = page.locator(".move-log li.more button")
        if not more.count():
            break
        more.first.click()
        page.wait_for_function("() => !document.querySelector('.move-log li.more button')", timeout=10000)
    # the board's position, the log's lines and where its unfolded rounds begin, read at one instant (bots
    # may still move and the board be swapped); rounds older than the newest three come folded, their
    # lines loaded when opened (Cardavia's loop above may have played through several deals)
    shown = page.evaluate("""() => ({
        seq: +document.querySelector('#board .board.live').dataset.seq,
        first: Math.min(...[...document.querySelectorAll('.move-log details.log-round:not([hx-get])')]
                             .map(d => +d.dataset.first)),
        over: document.querySelector('#board .board.live').dataset.over === '1',
        kept: document.getElementById('move-log').dataset.kept || null,
        lines: [...document.querySelectorAll('.move-log li[data-move]')]
                 .map(e => [+e.dataset.move, e.textContent.trim(), +e.dataset.seq])})""")
    # the log was appended to, move after move, never rebuilt (until the match ended: then every hidden
    # detail is told, and the log comes whole), and it says what the whole log says
    assert shown["over"] or shown["kept"] == "yes"
    whole = [[line["move"], line["text"], line["seq"]] for r in match_log(match, 0, upto=shown["seq"])["rounds"]
             if r["first"] >= shown["first"] for line in r["lines"]]
    assert [line for line in shown["lines"] if line[2] <= shown["seq"]] == whole
    lines = [(move, text) for move, text, _seq in shown["lines"]]
    moves_with_lines = {m for m, _ in lines}
    bot_moves = [seq for seq, seat in move_starts(match, upto=shown["seq"])
                 if seat != 0 and seq >= shown["first"]]
    assert bot_moves and all(seq in moves_with_lines for seq in bot_moves), (
        shown["first"], [seq for seq in bot_moves if seq not in moves_with_lines])
    assert all(text and not text.startswith("{") for _, text in lines)
    headline = page.locator(".move-log .round-summary .headline").first.inner_text()
    assert headline
    assert page.locator(".move-log .round-summary tbody tr").count() >= 2
    # the board names whose turn it is (or that the match is over), and every text on it is readable
    assert page.locator("#board .board.live .turn-banner").count() == 1
    assert page.evaluate(LOW_CONTRAST) == []
    shoot(page, game)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_page_left_open_folds_the_rounds_it_appends_past_the_newest_three(live_server, browser,
                                                                           django_user_model):
    from games.models import Match
    from games.selectors.log import match_log
    from games.services import SeatSpec, bots_advance, match_create

    page = browser.page
    browser.fast_playback()
    sign_in(page, live_server, django_user_model)
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], seed="fold-open",
                         wake_bots=False)
    # given a spectator's page open at the first deal
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("#board .board.live")
    page.evaluate("document.getElementById('move-log').dataset.kept = 'yes'")
    # when the bots play on through five more rounds while the page stays open
    while len(match_log(match, None)["rounds"]) < 6 and not match.has_ended:
        bots_advance(match_id=match.pk, budget=25)
        match = Match.objects.get(pk=match.pk)
    page.wait_for_function(f"() => +document.getElementById('move-log').dataset.seq >= {match.last_seq}",
                           timeout=30_000)
    # then the page kept its log (appended, never rebuilt), it has every round, and only the newest three
    # show their lines: the older ones keep their title and table and load their lines when opened
    rounds = match_log(match, None)["rounds"]
    shown = page.evaluate("""() => ({
        kept: document.getElementById('move-log').dataset.kept || null,
        firsts: [...document.querySelectorAll('.move-log .log-round')].map(d => +d.dataset.first),
        inline: document.querySelectorAll('.move-log .log-round:not([hx-get])').length,
        lines: document.querySelectorAll('.move-log li[data-seq]').length})""")
    assert match.has_ended or shown["kept"] == "yes"
    assert shown["firsts"] == [r["first"] for r in rounds]
    assert shown["inline"] == 3
    assert shown["lines"] == sum(len(r["lines"]) for r in rounds[:3])
    oldest = page.locator(".move-log .log-round").last
    oldest.locator("summary").click()
    oldest.locator("li[data-seq]").first.wait_for(timeout=10_000)
    texts = [t.strip() for t in oldest.locator("li[data-seq]").all_inner_texts()]
    assert texts == [line["text"] for line in rounds[-1]["lines"]][:len(texts)] and texts


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_livol_is_played_from_the_keyboard_and_bot_moves_are_played_back_one_by_one(live_server, browser,
                                                                                    django_user_model):
    page = browser.page
    sign_in(page, live_server, django_user_model)
    start(page, "livol", seats=3)
    played_back = False
    for _ in range(4):
        settled(page)
        seq = live_seq(page)
        if page.locator("#board .board.live .turn-banner.turn-mine").count():
            assert page.title().startswith("(your turn) LIVOL #")
        # Tab to a playable card (or, with none, to the Draw button) and press Enter
        target = ("#board .board.live [data-hand] button.move, #board .board.live [data-hand] summary.playable"
                  if page.locator("#board .board.live [data-hand] .playable:visible").count()
                  else "#board .board.live .moves button.move")
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate(f"(() => {{ const e = document.activeElement; "
                             f"return !!e && e.matches({target!r}) && e.offsetParent !== null; }})()"):
                break
        else:
            pytest.fail("no playable card or move reachable with Tab")
        label = page.evaluate("document.activeElement.getAttribute('aria-label') || document.activeElement.textContent")
        assert label.strip() and not label.strip().isdigit()
        page.keyboard.press("Enter")
        if page.evaluate("document.activeElement.tagName") == "SUMMARY":
            page.keyboard.press("Tab")  # the first colour of the Wild
            page.keyboard.press("Enter")
        # then the two bots' moves are played back one by one, their log lines highlighted
        page.wait_for_function(
            f"() => +document.querySelector('#board .board.live').dataset.seq > {seq}", timeout=15000)
        page.wait_for_function("() => document.querySelector('#board .play-layout').dataset.ready === '1'")
        if page.locator("[data-playback]").count():
            assert page.locator(".move-log li.is-current").count() >= 1
            played_back = True
        settled(page)
        assert page.locator("#board .board.live .error").count() == 0
        # and the focus comes back to the hand (a board the stream swapped in just now takes it over once
        # its script has run: wait for that, not for a moment)
        try:
            page.wait_for_function("() => !!document.activeElement.closest('#board .board.live')", timeout=10000)
        except PlaywrightError:
            pytest.fail("the focus did not come back to the board: "
                        + page.evaluate("document.activeElement.outerHTML.slice(0, 200)"))
        if page.locator("#board .board.live").get_attribute("data-over") == "1":
            break
    assert played_back, "the bots' moves were never played back one by one"
    assert page.locator("#announcer").inner_text().strip()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_content_security_policy_violation_while_playing(live_server, browser, django_user_model):
    page = browser.page
    browser.fast_playback()
    # the detector works: an inline script is refused and reported
    page.goto(f"{live_server.url}/rules/livol/")
    # the signal: the page's own report of the refusal (tests/browser/conftest.py CSP_LISTENER), which comes
    # after Chromium's message of it
    reported = lambda m: m.text.startswith("Content Security Policy violation: ")  # noqa: E731
    with page.expect_console_message(reported, timeout=10_000):
        with contextlib.suppress(PlaywrightError):  # Playwright may report the refusal itself
            page.add_script_tag(content="window.inlineRan = true;")
    assert browser.csp and not page.evaluate("window.inlineRan === true")
    browser.csp.clear()
    # when a player signs in, switches games on the form, plays, reads the rules and changes language
    sign_in(page, live_server, django_user_model)
    for game in ("iota", "karuselis", "cardavia", "uno_flip"):
        page.check(f"#game-{game}")
        assert page.locator(f".game-options[data-game={game}]").is_visible()
        assert not page.locator(".game-options[data-game=livol]").is_visible()
    start(page, "uno_flip", seats=3)
    play_until(page, "uno_flip", "false", tries=6)
    assert page.locator("a[href='/rules/uno_flip/']").count() == 1
    page.goto(f"{live_server.url}/rules/uno_flip/")
    page.wait_for_selector("#flip")
    page.locator(".rule-languages button[name=language][value=lt]").click()
    page.wait_for_selector("html[lang=lt]")
    page.locator(".rule-languages button[name=language][value=en]").click()
    page.wait_for_selector("html[lang=en]")
    # then nothing was refused
    assert browser.csp == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_replay_steps_with_the_arrow_keys(live_server, browser, django_user_model):
    from games.services import SeatSpec, bots_advance, match_create

    page = browser.page
    sign_in(page, live_server, django_user_model)
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], seed="keys",
                         options={"target": 30})
    bots_advance(match_id=match.pk, budget=100000)
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    controls = page.locator(".replay-controls")
    last = int(controls.get_attribute("data-last"))

    def step_is(n):
        page.wait_for_function(f"() => document.querySelector('.replay-controls').dataset.step === '{n}'")

    step_is(0)
    page.keyboard.press("ArrowRight")
    step_is(1)
    page.keyboard.press("ArrowRight")
    step_is(2)
    assert page.locator(".replay-move").inner_text().split(": ", 1)[1].startswith(("Play", "Draw", "Name",
                                                                                    "Call", "Catch", "Challenge",
                                                                                    "Accept"))
    page.keyboard.press("ArrowLeft")
    step_is(1)
    page.keyboard.press("End")
    step_is(last)
    assert "The match is over" in page.locator(".move-log").inner_text()
    page.keyboard.press("Home")
    step_is(0)
    assert page.locator(f"a[href='/matches/{match.pk}/audit/']").count() >= 1
