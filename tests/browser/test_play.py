"""End to end in Debian's Chromium: sign in, start a match against bots, play moves on the page.

A player finishes a match of every game against bots on that game's own board
(IOTA by placing cards on lit cells), and replays a finished LIVOL match.
"""
import os
import shutil

import pytest

from tests.conftest import need

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def browser_page(tmp_path):
    path = chromium_path()
    need(path is not None, "Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 420, "height": 900})
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        browser.close()
        assert errors == [], f"JavaScript errors on the page: {errors}"


def sign_in_and_start(page, live_server, django_user_model, game: str, seats: int, target: int | None = None):
    django_user_model.objects.create_user(username="anna", password="secret-pass-1")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "anna")
    page.fill("input[name=password]", "secret-pass-1")
    page.click("button[type=submit]")
    page.wait_for_selector("#new-match")
    page.select_option("select[name=game]", game)
    page.fill("input[name=seats]", str(seats))
    if target:
        page.fill("input[name=target]", str(target))
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#board .board")


def click_a_move(page, game: str) -> bool:
    """Make one move the way a player would on this game's board; False if none is offered yet."""
    if game == "iota" and page.locator("#iota-confirm").count():
        # pick a hand card, tap a lit cell; a lone card that completes a legal play enables "Play"
        hand = page.locator(".iota-hand button.card")
        for i in range(hand.count()):
            hand.nth(i).click()
            for j in range(min(page.locator("#iota-grid .target").count(), 8)):
                if j:
                    hand.nth(i).click()
                page.locator("#iota-grid .target").nth(j).click()
                if page.locator("#iota-confirm:not([disabled])").count():
                    page.click("#iota-confirm")
                    return True
                page.click("#iota-clear")
    if game == "karuselis" and page.locator("#board button.move:visible").count() == 0:
        # with many moves on offer: pick a hand card, then the table cards it may take or build on
        mine = page.locator("#k-board .k-mine[role=button]")
        for i in range(mine.count()):
            mine.nth(i).click()
            reachable = page.locator("#k-board .k-item.is-reachable")
            for j in range(-1, reachable.count()):
                if j >= 0:
                    reachable.nth(j).click()
                if page.locator("#board button.move:visible").count():
                    page.locator("#board button.move:visible").first.click()
                    return True
            mine.nth(i).click()  # put it back and try the next card
    buttons = page.locator("#board button.move:visible")
    wilds = page.locator("#board details.wild-pick summary")
    if buttons.count() == 0 and wilds.count() > 0:
        wilds.first.click()  # a LIVOL Wild opens its four colours
        buttons = page.locator("#board button.move:visible")
    if buttons.count() == 0:
        return False
    buttons.first.click()
    return True


def play_moves(page, game: str, wanted: int, tries: int = 60) -> int:
    played = 0
    for _ in range(tries):
        board = page.locator("#board .board")
        if board.get_attribute("data-over") == "1" or played >= wanted:
            break
        seq = int(board.get_attribute("data-seq"))
        if not click_a_move(page, game):
            page.wait_for_timeout(300)
            continue
        page.wait_for_function(
            f"document.querySelector('#board .board') && +document.querySelector('#board .board').dataset.seq > {seq}",
            timeout=10000)
        assert page.locator("#board .error").count() == 0, page.locator("#board .error").inner_text()
        played += 1
    return played


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_signs_in_starts_livol_against_bots_and_plays_moves(live_server, browser_page, django_user_model):
    # given a signed-in player who starts a LIVOL match against two bots
    sign_in_and_start(browser_page, live_server, django_user_model, "livol", 3)
    # then she plays by clicking, and each move shows up applied on the board
    assert play_moves(browser_page, "livol", 6) >= 6
    os.makedirs("var/test", exist_ok=True)
    browser_page.screenshot(path="var/test/livol-play.png", full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_finishes_a_short_livol_match_against_bots_and_replays_it(live_server, browser_page,
                                                                            django_user_model):
    page = browser_page
    sign_in_and_start(page, live_server, django_user_model, "livol", 2, target=40)
    play_moves(page, "livol", wanted=10_000, tries=600)
    assert page.locator("#board .board").get_attribute("data-over") == "1"
    # the finished match offers its replay, which steps forward move by move
    page.click("#board .result a[href$='/replay/']")
    page.wait_for_selector(".replay-controls")
    assert page.locator(".replay-controls").get_attribute("data-step") == "0"
    page.click(".replay-controls button[title='Forward']")
    page.wait_for_function("document.querySelector('.replay-controls').dataset.step === '1'")
    page.click(".replay-controls button[title='Last']")
    page.wait_for_function("document.querySelector('.replay-controls').dataset.step === "
                           "document.querySelector('.replay-controls input[type=range]').max")
    assert int(page.locator(".replay-controls").get_attribute("data-step")) > 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game,seats,target", [("uno_flip", 2, 40), ("karuselis", 2, 30), ("karuselis", 4, 30),
                                               ("iota", 2, None), ("cardavia", 4, None)])
def test_a_player_finishes_a_match_of_every_game_against_bots(live_server, browser_page, django_user_model,
                                                             game, seats, target):
    sign_in_and_start(browser_page, live_server, django_user_model, game, seats, target=target)
    play_moves(browser_page, game, wanted=10_000, tries=600)
    assert browser_page.locator("#board .board").get_attribute("data-over") == "1"
    os.makedirs("var/test", exist_ok=True)
    browser_page.screenshot(path=f"var/test/{game}-{seats}-finished.png", full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game,seats", [("uno_flip", 3), ("karuselis", 4), ("iota", 2), ("cardavia", 4)])
def test_every_game_can_be_played_on_its_board(live_server, browser_page, django_user_model, game, seats):
    sign_in_and_start(browser_page, live_server, django_user_model, game, seats)
    assert play_moves(browser_page, game, 3) >= 3
    os.makedirs("var/test", exist_ok=True)
    browser_page.screenshot(path=f"var/test/{game}-play.png", full_page=True)
