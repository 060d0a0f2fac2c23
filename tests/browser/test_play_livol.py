"""End to end in Debian's Chromium: sign in, start LIVOL against bots, play moves on the page."""
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
        yield page
        browser.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_signs_in_starts_livol_against_bots_and_plays_moves(live_server, browser_page, django_user_model):
    django_user_model.objects.create_user(username="anna", password="secret-pass-1")
    page = browser_page
    # given a signed-in player
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "anna")
    page.fill("input[name=password]", "secret-pass-1")
    page.click("button[type=submit]")
    page.wait_for_selector("#new-match")
    # when she starts a LIVOL match against two bots
    page.select_option("select[name=game]", "livol")
    page.fill("input[name=seats]", "3")
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#board .board")
    # then she can play moves by clicking, and each one shows up applied on the board
    played = 0
    for _ in range(40):
        board = page.locator("#board .board")
        if board.get_attribute("data-over") == "1":
            break
        seq = int(board.get_attribute("data-seq"))
        buttons = page.locator("#board button.move:visible")
        wilds = page.locator("#board details.wild-pick summary")
        if buttons.count() == 0 and wilds.count() > 0:
            wilds.first.click()  # a Wild opens its four colours
            buttons = page.locator("#board button.move:visible")
        if buttons.count() == 0:
            page.wait_for_timeout(300)
            continue
        buttons.first.click()
        page.wait_for_function(
            f"document.querySelector('#board .board') && +document.querySelector('#board .board').dataset.seq > {seq}",
            timeout=10000)
        assert page.locator("#board .error").count() == 0, page.locator("#board .error").inner_text()
        played += 1
        if played >= 6:
            break
    assert played >= 6
    os.makedirs("var/test", exist_ok=True)
    page.screenshot(path="var/test/livol-play.png", full_page=True)
