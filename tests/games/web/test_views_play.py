"""The play page a person understands in their first hour:
timeouts said as what they were, illegal picks explained, no internal codes, the clock in the turn
banner, a replay that jumps by rounds."""
from __future__ import annotations

import json
import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import timezone, translation

from engine import IllegalMove, registry
from games import services, store, words
from games.models import Event, Match, Seat
from games.selectors.board import match_board
from games.selectors.feeds import audit_events
from games.selectors.log import match_log
from games.selectors.replay import replay_positions
from games.services import SeatSpec, bots_advance, match_create, move_submit
from games.words.terms import time_left

LIVE = {"move_seconds": 60}


def signed_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def turn_of(match):
    match.refresh_from_db()
    state = store.load_state(match)
    return registry.get(match.game).view(state, None)["turn"], state


def expire(match):
    Seat.objects.filter(match=match, deadline__isnull=False).update(deadline=timezone.now() - timedelta(seconds=1))


def log_lines(match, seat) -> list[str]:
    return [line["text"] for r in match_log(match, seat)["rounds"] for line in r["lines"]]


class Visible(HTMLParser):
    """What a person meets on a page: its text, and the names and tooltips of its elements
    (``aria-label``, ``title``, ``alt``), not the markup's own data attributes."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.skip += tag != "template"
        for name, value in attrs:
            if name in ("aria-label", "title", "alt", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.parts.append(data)


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return "\n".join(parser.parts)


#: What must never reach a person: the engine's build ids, error codes, Python reprs, raw code tags.
INTERNAL = [(re.compile(r"\bb\d+\b"), "a build id"), (re.compile(r"stale_seq|must_capture_or_build"), "an error code"),
            (re.compile(r"\{'"), "a Python repr")]


def assert_no_internal_codes(html: str, where: str, record: bool = False):
    """``record``: the audit page, whose data column shows each event as the record has it (JSON, the
    engine's ids included, on purpose): every other text of it is checked."""
    if record:
        html = re.sub(r'<td><code class="wrap small">.*?</code></td>', "", html, flags=re.S)
    text = visible(html)
    for pattern, what in INTERNAL:
        found = pattern.search(text)
        assert found is None, f"{where} shows {what}: …{text[max(0, found.start() - 80):found.end() + 80]}…"
    assert not re.search(r'class="error"[^>]*>[^<]*<code>', html), f"{where}: an error notice ends in a raw <code>"


# ==========================================================================
# 9. Timeouts are not resignations
# ==========================================================================

def test_a_seat_given_up_after_three_timeouts_reads_as_given_up_not_resigned(people, settings):
    # given janis (seat 1) who lets his clock run out three times in a row in a three-seat match
    settings.CARDLEAGUE_ABANDON_AFTER = 3
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1]),
                                              SeatSpec(bot="greedy")], seed="away-words", clock=LIVE)
    away = 1
    for _ in range(300):
        match.refresh_from_db()
        if not match.is_running or Seat.objects.get(match=match, index=away).stand_in:
            break
        turn, state = turn_of(match)
        if turn == away:
            expire(match)
            services.clocks_run()
        elif turn == 0:
            move_submit(match_id=match.pk, seat=0, move=registry.get("livol").legal_moves(state, 0)[0],
                        expected_seq=match.last_seq)
        else:
            bots_advance(match_id=match.pk, budget=5)
    assert [e.payload["then"] for e in Event.objects.filter(match=match, type="seat_timed_out")] == \
        ["bot_move", "bot_move", "resign"]
    # when anna reads the log
    name = people[away].username
    lines = log_lines(match, 0)
    # then it says the seat was given up after three timeouts in a row, and never that janis resigned
    assert f"{name}'s seat was given up after 3 timeouts in a row" in lines
    assert f"{name} resigned" not in lines
    # and the audit page's words agree with the log
    audit = [e["words"] for e in audit_events(match, 0)]
    assert f"{name}'s seat was given up after 3 timeouts in a row" in audit


def test_under_the_forfeit_rule_one_timeout_gives_the_seat_up_and_says_so(people):
    # given a two-seat match whose rule forfeits a seat at its first timeout
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="forfeit-words",
                         clock=LIVE, timeout_rule=Match.TimeoutRule.FORFEIT)
    turn, _ = turn_of(match)
    expire(match)
    # when the clocks run
    services.clocks_run()
    match.refresh_from_db()
    # then the board's last move and the log say the seat was given up when the time ran out
    name = people[turn].username
    board = match_board(match, 1 - turn)
    assert f"{name}'s seat was given up: the time ran out" in board["last"]["lines"]
    assert f"{name} resigned" not in log_lines(match, 1 - turn)


def test_a_no_show_reads_as_not_taking_the_seat_in_time(people):
    # given a tournament's two seats, and janis who never takes his
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], seated=True),
                                              SeatSpec(user=people[1], seated=True)],
                         clock={"move_seconds": 30, "join_seconds": 60})
    services.seat_join(match_id=match.pk, user=people[0], entropy="0123456789abcdef" * 2)
    expire(match)
    # when the clocks run
    services.clocks_run()
    match.refresh_from_db()
    # then the log says he did not take the seat in time, and that it was given up for that
    name = people[1].username
    lines = log_lines(match, 0)
    assert f"{name} did not take the seat in time" in lines
    assert f"{name}'s seat was given up: it was not taken in time" in lines
    assert f"{name} resigned" not in lines


def test_an_organisers_forfeit_and_a_resign_pressed_read_as_what_they_were():
    names = ["anna", "janis"]
    # given the organiser's forfeit of janis's seat, then its resignation, in one feed
    context = words.EventContext()
    words.event_words("livol", {"type": "seat_forfeited", "seat": 1, "by": "organiser"}, names, context)
    # then the resignation says the organiser forfeited it
    assert words.event_words("livol", {"type": "seat_resigned", "seat": 1}, names, context) == \
        "janis's seat was given up: the organiser forfeited it"
    # and a Resign pressed afterwards, by anna, still reads "anna resigned"
    assert words.event_words("livol", {"type": "seat_resigned", "seat": 0}, names, context) == "anna resigned"


def test_a_person_who_presses_resign_still_reads_as_resigned(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="pressed")
    services.match_resign(match_id=match.pk, seat=0)
    match.refresh_from_db()
    assert f"{people[0].username} resigned" in log_lines(match, 1)


def test_the_banner_names_the_bot_that_plays_a_given_up_seat(people, monkeypatch):
    # given a three-seat match where janis resigns on his turn; the bot that takes his seat has not moved yet
    from games import dispatch

    monkeypatch.setattr(dispatch, "send_on_commit", lambda *args, **kwargs: None)
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1]),
                                              SeatSpec(user=people[2])], seed="stand-in-banner")
    turn, _ = turn_of(match)
    services.match_resign(match_id=match.pk, seat=turn)
    match.refresh_from_db()
    assert turn_of(match)[0] == turn
    # when another person looks at the board
    other = (turn + 1) % 3
    page = signed_in(people[other]).get(f"/matches/{match.pk}/").content.decode()
    # then the banner says a bot plays for him, and does not wait for him
    name = people[turn].username
    banner = page.split('class="turn-banner', 1)[1].split("</div>", 1)[0]
    assert f"A bot plays for {name}" in banner and "Waiting for" not in banner


# ==========================================================================
# 10. Illegal and dead-end picks are explained
# ==========================================================================

def _first_refusal(game_name: str, seats: int, move_of, attempts: int = 60):
    """A fresh match of ``game_name`` (anna, seat 1, acts first) where one of anna's hand cards is
    refused by the engine: ``(match, card, code)``."""
    from django.contrib.auth import get_user_model

    anna = get_user_model().objects.get_or_create(username="anna-reasons")[0]
    game = registry.get(game_name)
    for i in range(attempts):
        specs = [SeatSpec(bot="greedy") for _ in range(seats)]
        specs[1] = SeatSpec(user=anna)
        match = match_create(game=game_name, seats=specs, seed=f"reasons-{game_name}-{i}", wake_bots=False)
        state = store.load_state(match)
        if game.view(state, None)["turn"] != 1:
            continue
        legal_cards = {m.get("card") for m in game.legal_moves(state, 1)}
        for code in game.view(state, 1)["hand"]:
            if code in legal_cards:
                continue
            try:
                game.play(state, 1, move_of(code))
            except IllegalMove as exc:
                if exc.code != "color_required":
                    return match, anna, code, exc.code
    pytest.fail(f"no {game_name} deal with an unplayable card in {attempts} seeds")


@pytest.mark.parametrize("game_name,seats", [("livol", 3), ("uno_flip", 3)])
def test_an_unplayable_card_carries_the_engines_reason_in_words(db, game_name, seats):
    # given anna's turn, holding a card that the engine refuses
    match, anna, code, refusal = _first_refusal(game_name, seats, lambda c: {"type": "play", "card": c})
    # when she looks at her board
    page = signed_in(anna).get(f"/matches/{match.pk}/").content.decode()
    # then that card is a button that sends nothing and says why, in words (no code)
    reason = words.illegal_move_message(refusal)
    tag = re.search(r'<button[^>]*data-card="%s"[^>]*>' % re.escape(code), page)
    assert tag is not None, f"{code} is not on the board as a focusable card"
    assert 'aria-disabled="true"' in tag.group(0) and "hx-post" not in tag.group(0)
    assert f'data-reason="{reason}"' in tag.group(0)
    assert "data-reason-out" in page  # where the reason is said (a live region)


def test_a_karuselis_dead_end_card_carries_the_reason_trailing_is_forbidden(db):
    # given anna's turn, holding a card that can neither capture nor build while another can
    match, anna, code, refusal = _first_refusal("karuselis", 2, lambda c: {"type": "trail", "card": c})
    assert refusal == "must_capture_or_build"
    # when she looks at her board
    page = signed_in(anna).get(f"/matches/{match.pk}/").content.decode()
    # then the card carries the engine's reason in words
    tag = re.search(r'<button[^>]*class="item mine"[^>]*data-card="%s"[^>]*>' % re.escape(code), page)
    assert tag is not None
    assert 'data-reason="You can capture or build, so you may not put a card on the table."' in tag.group(0)


# ==========================================================================
# 11. No internal codes reach a person
# ==========================================================================

def _karuselis_with_a_build(anna):
    """A Karuselis match (anna at seat 1, greedy bot at seat 0) played until anna is to move with a
    build on the table; anna builds whenever she can."""
    game = registry.get("karuselis")
    for i in range(12):
        match = match_create(game="karuselis", seats=[SeatSpec(bot="greedy"), SeatSpec(user=anna)],
                             seed=f"builds-{i}", options={"deck": "small"})
        for _ in range(120):
            match.refresh_from_db()
            if not match.is_running:
                break
            turn, state = turn_of(match)
            if turn != 1:
                bots_advance(match_id=match.pk, budget=1)
                continue
            view = game.view(state, 1)
            if view["table"]["builds"] and any(m["type"] == "capture" and any(
                    x.startswith("b") for g in m["groups"] for x in g) for m in game.legal_moves(state, 1)):
                return match
            legal = game.legal_moves(state, 1)
            move = next((m for m in legal if m["type"] == "build"), legal[0])
            move_submit(match_id=match.pk, seat=1, move=move, expected_seq=match.last_seq)
    pytest.fail("no Karuselis position with a build to take")


def test_no_page_of_any_game_shows_build_ids_error_codes_or_python_reprs(people):
    anna = people[1]
    client = signed_in(anna)
    # given a Karuselis board with a build anna can take, and the log of the builds made so far
    match = _karuselis_with_a_build(anna)
    board = client.get(f"/matches/{match.pk}/").content.decode()
    assert "build of" in visible(board).lower()
    assert_no_internal_codes(board, "the Karuselis board")
    # a stale tab's move, and a refused move (trailing while a capture is possible), explained in words
    turn, state = turn_of(match)
    legal = registry.get("karuselis").legal_moves(state, 1)
    stale = client.post(f"/matches/{match.pk}/move/?seat=1", {"move": json.dumps(legal[0]), "expected_seq": 1},
                        HTTP_HX_REQUEST="true").content.decode()
    assert "moved on since you looked" in stale
    assert_no_internal_codes(stale, "a stale tab's notice")
    held = registry.get("karuselis").view(state, 1)["hand"]
    trail = next(c for c in held if c != "BR")
    refused = client.post(f"/matches/{match.pk}/move/?seat=1", {"move": json.dumps({"type": "trail", "card": trail}),
                                                                "expected_seq": match.last_seq},
                          HTTP_HX_REQUEST="true").content.decode()
    assert re.search(r'class="error"[^>]*>[^<]*(may not put a card on the table|must take it)', refused), \
        re.findall(r'class="error".{0,200}', refused)
    assert_no_internal_codes(refused, "a refused move's notice")
    # and, for every game, a whole match's replay (every 7th step and the last) and audit page
    for game_name in registry.names():
        seats = 3 if game_name == "cardavia" else 2
        options = {"deck": "small"} if game_name == "karuselis" else {"target": 60} if game_name in (
            "livol", "uno_flip") else {"variant": "short"} if game_name == "iota" else {}
        ended = match_create(game=game_name, seats=[SeatSpec(bot="greedy")] * seats, seed=f"codes-{game_name}",
                             options=options)
        bots_advance(match_id=ended.pk, budget=100000)
        ended.refresh_from_db()
        assert ended.has_ended
        last = len(replay_positions(ended)) - 1
        for step in list(range(0, last, 7)) + [last]:
            page = client.get(f"/matches/{ended.pk}/replay/?step={step}").content.decode()
            assert_no_internal_codes(page, f"the {game_name} replay at step {step}")
        audit = client.get(f"/matches/{ended.pk}/audit/").content.decode()
        assert_no_internal_codes(audit, f"the {game_name} audit page", record=True)
        assert "{'" not in visible(audit)
        assert "&quot;type&quot;: &quot;" in audit  # the event data as the record has it: JSON
        board = client.get(f"/matches/{ended.pk}/").content.decode()
        assert_no_internal_codes(board, f"the {game_name} board and log")


def test_iota_log_places_are_findable_on_the_grids_edges(people):
    # given an IOTA match after a few plays
    match = match_create(game="iota", seats=[SeatSpec(bot="greedy"), SeatSpec(user=people[0])], seed="places")
    for _ in range(6):
        turn, state = turn_of(match)
        if not match.is_running:
            break
        if turn == 1:
            legal = registry.get("iota").legal_moves(state, 1)
            move = next((m for m in legal if m["type"] == "play"), legal[0])
            move_submit(match_id=match.pk, seat=1, move=move, expected_seq=match.last_seq)
        else:
            bots_advance(match_id=match.pk, budget=1)
    page = signed_in(people[0]).get(f"/matches/{match.pk}/").content.decode()
    # when the log places a card "at (x, y)"
    places = {(int(x), int(y)) for x, y in re.findall(r" at \((-?\d+), (-?\d+)\)", " ".join(log_lines(match, 1)))}
    assert places
    # then the grid's edges carry that column's x and that row's y
    grid = page.split("data-iota-grid", 1)[1].split('class="iota-hand"', 1)[0]
    xs = set(map(int, re.findall(r'data-axis-x="(-?\d+)"', grid)))
    ys = set(map(int, re.findall(r'data-axis-y="(-?\d+)"', grid)))
    assert all(x in xs and y in ys for x, y in places), (places, xs, ys)


# ==========================================================================
# 12. The clock where the eye is
# ==========================================================================

def _banner(page: str) -> str:
    return page.split('class="turn-banner', 1)[1].split("</div>", 1)[0]


def test_the_turn_banner_holds_the_live_countdown_rendered_by_the_server(people):
    # given a live clock, and the seat to act
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="banner-clock",
                         clock=LIVE)
    turn = Seat.objects.get(match=match, deadline__isnull=False)
    # when that person opens the board
    banner = _banner(signed_in(people[turn.index]).get(f"/matches/{match.pk}/").content.decode())
    # then the banner holds the countdown, with the time really left (not 0), before any script runs
    assert f'data-deadline="{turn.deadline.isoformat()}"' in banner and 'data-allowance="60"' in banner
    shown = re.search(r'data-deadline="[^"]+" data-allowance="60">([^<]+)<', banner).group(1)
    assert re.fullmatch(r"[01]:\d\d", shown) and shown not in ("0:00", "0:01") and "minute" not in shown


def test_the_banners_correspondence_countdown_says_the_days_and_hours_left(people):
    # given a one-day correspondence clock
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])],
                         seed="banner-days", clock={"move_days": 1})
    turn = Seat.objects.get(match=match, deadline__isnull=False)
    # when the person to act opens the board
    page = signed_in(people[turn.index]).get(f"/matches/{match.pk}/").content.decode()
    # then the banner's countdown says the hours and minutes really left, in words the catalogues translate
    shown = re.search(r'data-deadline="[^"]+" data-allowance="86400">([^<]+)<', _banner(page)).group(1)
    assert shown in ("23 hours, 59 minutes", "23 hours, 58 minutes"), shown
    with translation.override("ru"):
        assert time_left(23 * 3600 + 59 * 60) == "%s, %s" % (
            translation.npgettext("time left", "%(n)d hour", "%(n)d hours", 23) % {"n": 23},
            translation.npgettext("time left", "%(n)d minute", "%(n)d minutes", 59) % {"n": 59})


# ==========================================================================
# 15. Replay by rounds
# ==========================================================================

def test_a_replay_steps_by_rounds(people):
    # given a finished LIVOL match of several rounds
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="greedy")], seed="rounds",
                         options={"target": 150})
    bots_advance(match_id=match.pk, budget=100000)
    positions = replay_positions(match)
    starts = list(Event.objects.filter(match=match, type="round_dealt").order_by("seq").values_list("seq", flat=True))
    assert len(starts) >= 3
    first_of = [next(i for i, p in enumerate(positions) if p["seq"] >= s) for s in starts]
    client = signed_in(people[0])
    # when the reader is in the middle of round 2
    middle = (first_of[1] + first_of[2]) // 2
    response = client.get(f"/matches/{match.pk}/replay/?step={middle}")
    # then PageDown goes to round 3's first position, PageUp to round 2's
    assert (response.context["round_forward"], response.context["round_back"]) == (first_of[2], first_of[1])
    page = response.content.decode()
    forward = re.search(r'<button[^>]*data-replay-key="PageDown"[^>]*>', page).group(0)
    assert f'hx-get="/matches/{match.pk}/replay/?step={first_of[2]}"' in forward
    assert "PageUp and PageDown jump a round" in page
