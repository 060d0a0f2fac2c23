"""People at the table, in Chromium: two people in two browsers — one invites, the other accepts, they play
and each move reaches the other's page through the live stream (no polling), then one resigns; and a
person who forgot to call LIVOL! presses "call" within the grace against a bot and keeps their card."""
from __future__ import annotations

from collections import Counter

import pytest

from engine import registry
from games.models import Event, Match, Seat
from games.services import SeatSpec, match_create
from tests.browser.conftest import CHROMIUM_ARGS, CSP_LISTENER, DESKTOP, chromium_path, run_timers_for
from tests.browser.test_play import click_a_move
from tests.conftest import need

PASSWORD = "table-test-pass-7"


@pytest.fixture
def two_browsers(monkeypatch):
    path = chromium_path()
    need(path is not None, "Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        pages, problems = [], []
        for _ in range(2):
            context = browser.new_context(viewport=DESKTOP)
            context.add_init_script(CSP_LISTENER)
            page = context.new_page()
            page.on("pageerror", lambda exc: problems.append(str(exc)))
            page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
            pages.append(page)
        yield pages
        browser.close()
        assert problems == []


def sign_in(page, base: str, username: str):
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def seq_of(page) -> int:
    return int(page.locator("#board .board.live").get_attribute("data-seq"))


#: In the page: the highest event id its match stream brought (``__streamSeq``) and the requests in flight
#: (``__inflight``), so that the test can wait until every frame of the last move has been answered.
STREAM_WATCH = """
(() => {
  window.__streamSeq = 0;
  window.__inflight = 0;
  const Native = window.EventSource;
  if (!Native) return;
  window.EventSource = function (url, options) {
    const source = new Native(url, options);
    source.addEventListener("match_event", (e) => {
      window.__streamSeq = Math.max(window.__streamSeq, +e.lastEventId || 0);
    });
    return source;
  };
  window.EventSource.prototype = Native.prototype;
  window.EventSource.CLOSED = Native.CLOSED;
  const send = XMLHttpRequest.prototype.send;  // htmx's requests (a swapped part's own events never bubble)
  XMLHttpRequest.prototype.send = function (...args) {
    window.__inflight += 1;
    this.addEventListener("loadend", () => { window.__inflight -= 1; });
    return send.apply(this, args);
  };
})();
"""


def answered_every_frame(page, match: Match, seat: int) -> None:
    """Wait until the page's stream has brought the last event its seat may know and every board fetch it
    set off has been answered (a frame still on its way would set off a fetch the test could take for a poll)."""
    from games.selectors.feeds import events_for_seat

    last = events_for_seat(match, seat)[-1]["seq"]
    page.wait_for_function(f"() => window.__streamSeq >= {last} && window.__inflight === 0", timeout=10_000)


def board_requests(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "/board/" in r.url else None)
    return seen


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_people_invite_accept_play_live_and_one_resigns(asgi_server, two_browsers, django_user_model):
    for name in ("anna", "janis"):
        django_user_model.objects.create_user(username=name, password=PASSWORD)
    anna, janis = two_browsers
    for page in (anna, janis):
        page.add_init_script(STREAM_WATCH)
        page.clock.install()  # their timers run as usual, until the test runs them forward (run_timers_for)
    sign_in(anna, asgi_server, "anna")
    sign_in(janis, asgi_server, "janis")
    # anna starts a LIVOL match for two and invites janis
    anna.check("#game-livol")
    anna.fill("input[name=livol-seats]", "2")
    anna.fill("input[name=people]", "janis")
    anna.click("#new-match button[type=submit]")
    anna.wait_for_selector(".table-panel")
    match = Match.objects.get()
    assert match.status == Match.Status.WAITING
    assert Event.objects.get(match=match, seat=0, type="entropy_contributed").payload["by"] == "player"
    # janis sees the invitation on his home page and accepts it
    janis.goto(f"{asgi_server}/")
    janis.click(f"form[action='/matches/{match.pk}/join/'] button")
    janis.wait_for_selector("#board .board.live .turn-banner")
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert Event.objects.get(match=match, seat=1, type="entropy_contributed").payload["by"] == "player"
    # anna's page learns it from the stream, without polling
    anna.wait_for_function("() => document.documentElement.getAttribute('data-live') === 'stream'",
                           timeout=10_000)
    anna.wait_for_selector("#board .board.live .turn-banner", timeout=10_000)
    polls = {"anna": board_requests(anna), "janis": board_requests(janis)}
    game = registry.get("livol")
    from games import store

    for _ in range(6):
        match.refresh_from_db()
        turn = game.view(store.load_state(match), None)["turn"]
        mover, watcher = (anna, janis) if turn == 0 else (janis, anna)
        before = match.last_seq
        mover.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq >= {before}")
        # the mover plays a card (or draws) as a player does, on the board
        assert click_a_move(mover, "livol")
        # the other page shows the new position within a moment
        watcher.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq > {before}",
                                  timeout=5_000)
    # nothing happens for a while (half a minute of the pages' timers: many poll intervals): no page asks
    # the server for its board, once each has answered every frame of the last move
    match.refresh_from_db()
    answered_every_frame(anna, match, 0)
    answered_every_frame(janis, match, 1)
    for seen in polls.values():
        seen.clear()
    for page in (anna, janis):
        run_timers_for(page, 30_000)
    assert polls == {"anna": [], "janis": []}
    # anna resigns; both pages show the end
    anna.click("[data-confirm-open=resign-confirm]")
    anna.click("#resign-confirm button[type=submit]")
    anna.wait_for_selector(".result")
    janis.wait_for_selector(".result", timeout=10_000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"] == [[1], [0]]


def _stacked_livol_deck() -> list[str]:
    """Seat 0 (a bot) holds cards it cannot play on red; seat 1 (the person, first to play) holds
    R1–R7; the draw pile begins with reds for the bot: the person plays down to one card."""
    cards = registry.get("livol").cards()
    bot = ["B0", "G0", "Y0", "Bskip", "Gskip", "Yskip", "Brev"]
    person = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
    front = bot + person + ["R1"] + ["R8", "R9", "R8", "R9", "R0", "R2", "R3", "R4", "R5", "R6"]
    rest = Counter(cards)
    rest.subtract(front)
    return front + sorted(rest.elements())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_person_who_forgot_to_call_presses_call_within_the_grace_and_keeps_the_card(live_server, browser,
                                                                                        django_user_model,
                                                                                        settings):
    settings.CARDLEAGUE_CALL_GRACE_SECONDS = 3
    person = django_user_model.objects.create_user(username="liga", password=PASSWORD)
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(user=person)],
                         deck=_stacked_livol_deck(), seed="grace-browser")
    page = browser.page
    sign_in(page, live_server.url, "liga")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    from games import store

    hand = None
    for _ in range(12):
        hand = Seat.objects.get(match=match, index=1)
        match.refresh_from_db()
        view = registry.get("livol").view(store.load_state(match), 1)
        if len(view["hand"]) == 1:
            break
        if view["turn"] != 1:  # the bot's move comes as a new board
            page.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq > {match.last_seq}",
                                   timeout=15_000)
            continue
        # play the lowest red card, without calling
        card = view["hand"][0]
        button = f"#board .board.live [data-hand] button.move.no-call[data-card='{card}']"
        page.wait_for_selector(button)
        page.locator(button).first.click()
        page.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq > {match.last_seq}")
    assert hand is not None and len(view["hand"]) == 1
    # within the grace, the person presses "call" (the bot would otherwise catch them)
    match.refresh_from_db()
    before_call = match.last_seq
    page.locator("#board .board.live button.move[data-move=call]").first.click(timeout=2_500)
    # the call is recorded when the board shows a later position (a signal, not a fixed wait)
    page.wait_for_function(f"() => +document.querySelector('#board .board.live').dataset.seq > {before_call}")
    assert Event.objects.filter(match=match, type="livol_called", seat=1).exists()
    assert not Event.objects.filter(match=match, type="seat_caught").exists()
    match.refresh_from_db()
    assert registry.get("livol").view(store.load_state(match), None)["hand_sizes"][1] <= 1
