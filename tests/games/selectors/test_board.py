"""The live board's cost does not grow with the match: the board builds its log from a
window of the newest rounds and keeps the older, folded rounds (which never change) in the cache. The
board a seat sees is the same as the whole log built from event 1, at every position of long matches."""
from __future__ import annotations

import pytest
from django.core.cache import cache

from games.kits import kit
from games.models import Event
from games.selectors import log_tail
from games.selectors.log import INLINE_ROUNDS, recent_summary
from games.selectors.log_tail import _board_log, windowed_games
from games.selectors.people import players
from games.services import SeatSpec, bots_advance, match_create


def comparable(log: dict) -> list[dict]:
    return [{k: r[k] for k in ("number", "title", "first", "index", "lines", "summary", "newest", "count", "lazy",
                               "hidden")} for r in log["rounds"]]


@pytest.mark.slow
@pytest.mark.parametrize("game", windowed_games())
def test_the_windowed_board_log_is_the_whole_log(db, game):
    cache.clear()
    seats = kit(game).default_seats
    match = match_create(game=game, seats=[SeatSpec(bot="random") for _ in range(seats)], seed=f"window-{game}",
                         wake_bots=False)
    names = players(match)
    windowed_checks = 0
    for step in range(150):
        bots_advance(match_id=match.pk, budget=61)
        match.refresh_from_db()
        if step % 3 and not match.has_ended:
            continue  # every third position is enough: each is compared in full
        for seat in (None, step % seats):
            whole, whole_groups = _board_log(match, seat, names, window=False)
            window, window_groups = _board_log(match, seat, names)
            assert comparable(window) == comparable(whole), (game, match.last_seq, seat)
            assert window["options"] == whole["options"]
            assert recent_summary(window_groups, match.last_seq, seat) == \
                recent_summary(whole_groups, match.last_seq, seat)
            if len(window["rounds"]) > INLINE_ROUNDS:
                windowed_checks += 1
        if match.has_ended:
            break
    assert windowed_checks, "the match never had more rounds than the window"


def test_the_board_of_a_long_match_reads_only_its_window(db, django_assert_max_num_queries):
    """After the first board of a round (which builds the folded rounds once), a board reads a fixed
    number of queries, and only the window's events."""
    cache.clear()
    match = match_create(game="livol", seats=[SeatSpec(bot="random") for _ in range(3)], seed="window-reads",
                         wake_bots=False)
    for _ in range(40):
        bots_advance(match_id=match.pk, budget=50)
        match.refresh_from_db()
        starts = Event.objects.filter(match=match, type="round_dealt").count()
        if starts > INLINE_ROUNDS + 1 or match.has_ended:
            break
    names = players(match)
    _board_log(match, 0, names)  # builds and keeps the folded rounds
    with django_assert_max_num_queries(6):
        log, groups = _board_log(match, 0, names)
    assert groups[0]["start"] > 1  # the window, not the whole match
    assert any(r["lazy"] for r in log["rounds"])


def test_when_the_window_moves_on_only_the_round_it_left_is_built(db, monkeypatch):
    """A page followed through a long match: when a new round moves the window on, the folded rounds are the
    ones kept for the previous window plus the round between the two, built from its own events; the whole
    log is never built again (and the board is still the whole log's)."""
    cache.clear()
    match = match_create(game="livol", seats=[SeatSpec(bot="random") for _ in range(3)], seed="window-moves",
                         wake_bots=False)
    names = players(match)

    def rounds() -> int:
        return Event.objects.filter(match=match, type="round_dealt").count()

    while rounds() <= INLINE_ROUNDS and not match.has_ended:
        bots_advance(match_id=match.pk, budget=40)
        match.refresh_from_db()
    _board_log(match, 0, names)                 # the first board of the window: the whole log, once
    whole_builds = []
    real = log_tail._board_log

    def counting(m, seat, n, *, window=True):
        whole_builds.append(not window)
        return real(m, seat, n, window=window)

    monkeypatch.setattr(log_tail, "_board_log", counting)
    moved = 0
    while moved < 3 and not match.has_ended:
        before = rounds()
        while rounds() == before and not match.has_ended:
            bots_advance(match_id=match.pk, budget=5)
            match.refresh_from_db()
            counting(match, 0, names)            # the page's board after each move
        moved += rounds() > before
    assert moved, "the match never moved the window on"
    assert not any(whole_builds), "the whole log was built again"
    monkeypatch.setattr(log_tail, "_board_log", real)
    assert comparable(_board_log(match, 0, names)[0]) == comparable(_board_log(match, 0, names, window=False)[0])
