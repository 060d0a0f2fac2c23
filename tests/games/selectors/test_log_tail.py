"""A live board appends its log: after a move the board carries only the log lines after
the page's position, and the page adds them to the log it has. What the page then shows is what the whole
log says, and the board around it (its last move, its round table, what is read out, the positions played
back) is the board built from scratch; the board's reads do not grow with the match."""
from __future__ import annotations

import random

import pytest
from django.core.cache import cache

from engine import registry
from games import store
from games.models import Match
from games.selectors.board import match_board
from games.selectors.log import match_log
from games.selectors.log_tail import _tail_key
from games.services import SeatSpec, bots_advance, match_create, move_submit

SEATS = {"cardavia": 3}
OPTIONS = {"cardavia": {"lives": 6}}  # a longer match: more positions to compare


def page_log(log: dict) -> dict[int, dict]:
    """The log as a page holds it: each round (by its first event) with its lines, newest first."""
    return {r["first"]: {"title": r["title"], "summary": r["summary"],
                         "lines": [(line["seq"], line["text"]) for line in r["lines"]]} for r in log["rounds"]}


def appended(page: dict[int, dict], log: dict) -> dict[int, dict]:
    """What static/js/app.js does with a board's ``log-append``: the lines after the page's own, the rounds
    that began, each round's table as it now stands."""
    shown = max((seq for r in page.values() for seq, _text in r["lines"]), default=0)
    out = {first: {**r, "lines": list(r["lines"])} for first, r in page.items()}
    for r in reversed(log["rounds"]):
        new = [(line["seq"], line["text"]) for line in r["lines"] if line["seq"] > shown]
        if r["first"] not in out:
            out[r["first"]] = {"title": r["title"], "summary": r["summary"], "lines": new}
            continue
        out[r["first"]]["lines"] = new + out[r["first"]]["lines"]
        if r["summary"] is not None:
            out[r["first"]].update(title=r["title"], summary=r["summary"])
    return out


def board_of(board: dict) -> dict:
    return {"summary": board["summary"], "last": board["last"], "news": board["news"], "from": board["from"],
            "frames": [(f["seq"], f["from"], f["summary"], f["last"]) for f in board["frames"]]}


@pytest.mark.parametrize("game", registry.names())
def test_a_boards_appended_lines_make_the_whole_log(db, game):
    cache.clear()
    seats = SEATS.get(game, 2)
    match = match_create(game=game, seats=[SeatSpec(bot="random") for _ in range(seats)], seed=f"append-{game}",
                         options=OPTIONS.get(game), wake_bots=False)
    rng = random.Random(game)
    checked = 0
    for _step in range(60):
        match = Match.objects.get(pk=match.pk)
        if match.has_ended or match.last_seq > 280:
            break
        seat = rng.choice([None, *range(seats)])
        before = match_board(match, seat)  # the page's board: its tail is kept
        page = page_log(match_log(match, seat))
        since = match.last_seq
        bots_advance(match_id=match.pk, budget=rng.randint(1, 4))
        match = Match.objects.get(pk=match.pk)
        if match.last_seq == since:
            continue
        board = match_board(match, seat, since=since)
        assert before["log"].get("append") is None
        if match.has_ended:  # every event is now public: the log is built whole, with what was hidden
            assert not board["log"].get("append")
            break
        assert board["log"].get("append")
        got, want = appended(page, board["log"]), page_log(match_log(match, seat))
        for first in want:
            assert got.get(first) == want[first], (game, since, seat, first, got.get(first), want[first])
        assert got == want, (game, since, seat)
        cache.delete(_tail_key(match, seat, since))  # the tail gone: the board built from scratch
        whole = match_board(match, seat, since=since)
        assert not whole["log"].get("append")
        assert board_of(board) == board_of(whole), (game, since, seat)
        checked += 1
    assert checked >= 10


def test_a_board_whose_tail_is_gone_carries_the_whole_log(client, django_user_model):
    person = django_user_model.objects.create_user(username="anna", password="x")
    match = match_create(game="livol", seats=[SeatSpec(user=person), SeatSpec(bot="random")], seed="tail-gone",
                         wake_bots=False)
    client.force_login(person)
    client.get(f"/matches/{match.pk}/")
    since = match.last_seq
    _move(match)
    cache.clear()
    html = client.get(f"/matches/{match.pk}/board/?since={since}").content.decode()
    assert "log-append" not in html and 'id="move-log"' in html and "hx-preserve" not in html


def _move(match: Match) -> None:
    """The person's move if it is theirs (the first legal one), else the bots'."""
    match = Match.objects.get(pk=match.pk)
    state = store.load_state(match)
    game = registry.get(match.game)
    if 0 in game.view(state, None)["to_act"]:
        move_submit(match_id=match.pk, seat=0, move=game.legal_moves(state, 0)[0], expected_seq=match.last_seq,
                    wake_bots=False)
    else:
        bots_advance(match_id=match.pk, budget=1)


def test_a_live_boards_reads_do_not_grow_with_the_match(client, django_user_model, django_assert_num_queries):
    """The board a page fetches after a move (``?since=`` its position) reads the same number of queries
    early in a match and two thousand events later, and carries only the new lines. Five: the session's
    account, the match, the seats with their accounts (read once for the whole board), the seat's new
    events and where their moves start (where the match belongs was kept from the page's first board)."""
    person = django_user_model.objects.create_user(username="anna", password="x")
    match = match_create(game="livol", seats=[SeatSpec(user=person), SeatSpec(bot="random"),
                                              SeatSpec(bot="random")],
                         seed="reads-flat", options={"target": 10_000}, wake_bots=False)
    client.force_login(person)
    counts = []
    for position in (40, 2000):
        while Match.objects.get(pk=match.pk).last_seq < position:
            _move(match)
        since = Match.objects.get(pk=match.pk).last_seq
        client.get(f"/matches/{match.pk}/board/")  # the page at its position (its log's tail is kept)
        _move(match)
        with django_assert_num_queries(5) as queries:
            html = client.get(f"/matches/{match.pk}/board/?since={since}").content.decode()
        counts.append(len(queries))
        assert 'class="log-append"' in html and 'hx-preserve="true"' in html
        assert html.count("<li data-seq=") <= Match.objects.get(pk=match.pk).last_seq - since
    assert counts[0] == counts[1]
