"""Chromium for the browser tests (Debian's, driven by Playwright; never a downloaded browser).

``browser``: a page that records JavaScript errors and Content-Security-Policy violations (both
from Chromium's console and from a ``securitypolicyviolation`` listener installed before any page
script), and fails the test on either. ``browser_page``: a bare page that fails on JavaScript
errors (the league pages' tests use it). ``chromium``: a launcher of pages at a given size, each in a browser
context of its own (one person each), failing the test on a JavaScript error or a CSP violation in any.
"""
from __future__ import annotations

import os
import shutil

import pytest

from tests.conftest import need

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
#: Reported to the console by the page, so that page.on("console") collects it with Chromium's own reports.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", function (e) {
  console.error("Content Security Policy violation: " + e.violatedDirective + " " + e.blockedURI);
});
"""


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def chromium(monkeypatch):
    """``chromium(viewport=PHONE)``: a new page in a browser context of its own (a person of its own)."""
    path = chromium_path()
    need(path is not None, "Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)

        def page_of(viewport=PHONE):
            context = browser.new_context(viewport=viewport)
            context.add_init_script(CSP_LISTENER)
            page = context.new_page()
            page.on("pageerror", lambda exc: problems.append(str(exc)))
            page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
            return page

        yield page_of
        browser.close()
    assert problems == []


def run_timers_for(page, ms: int) -> None:
    """Runs the page's timers ``ms`` forward at once — every poll, watchdog and retry the page's scripts set
    in that time fires — and returns once every request they started has been seen by the test's listeners.
    The page's clock must have been installed (``page.clock.install()``) before the page loaded. Instead of
    an observation window of real seconds ("nobody polls for 4 s"): it covers more than any poll interval
    and waits for a signal (a fence request sent after the timers ran), never for time."""
    page.clock.run_for(ms)
    with page.expect_request(lambda request: "clock-fence" in request.url):
        page.evaluate("() => { fetch('/static/robots.txt?clock-fence').catch(function () {}); }")


class Browser:
    """One page, with what went wrong on it: JavaScript errors and CSP violations."""

    def __init__(self, playwright, path):
        self.browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        self.context = self.browser.new_context(viewport=DESKTOP)
        self.context.add_init_script(CSP_LISTENER)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.csp: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", self._console)

    def _console(self, message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.csp.append(message.text)

    def fast_playback(self):
        """Bot moves played back quickly (the player's own choice on the page, kept in localStorage)."""
        self.context.add_init_script("try { localStorage.setItem('cardleague.playback', 'fast'); } catch (e) {}")


@pytest.fixture
def browser(tmp_path, monkeypatch):
    path = chromium_path()
    need(path is not None, "Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread (set for this test only)
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        b = Browser(p, path)
        yield b
        b.browser.close()
        assert b.errors == [], f"JavaScript errors on the page: {b.errors}"
        assert b.csp == [], f"Content-Security-Policy violations: {b.csp}"


@pytest.fixture
def browser_page(tmp_path, monkeypatch):
    path = chromium_path()
    need(path is not None, "Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        page = b.new_page(viewport={"width": 420, "height": 900})
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        b.close()
        assert errors == [], f"JavaScript errors on the page: {errors}"
