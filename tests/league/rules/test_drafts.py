"""The flags of a drafted round (``league.rules.drafts``), one test per rule: pure, no database."""
from __future__ import annotations

from league.rules.drafts import (
    Flag,
    History,
    club_flags,
    first_turn_flags,
    forbidden_flags,
    repeat_flags,
    score_gap_flags,
    seat_flags,
    second_bye_flags,
    table_flags,
    team_flags,
)

WIN = 300   # the points for a win, in hundredths


def h(pid: int, **kw) -> History:
    return History(pid, **kw)


def test_repeat_meeting_flags_two_who_met_and_says_how_often():
    history = {1: h(1, opponents=(2, 3, 2)), 2: h(2, opponents=(1, 1)), 3: h(3, opponents=(1,))}
    assert repeat_flags((1, 2), history) == [Flag("repeat", (1, 2), 2)]
    assert repeat_flags((2, 3), history) == []


def test_seat_imbalance_flags_the_same_position_for_the_third_game_in_a_row():
    history = {1: h(1, seats=(1, 1)), 2: h(2, seats=(0, 1))}
    assert seat_flags((2, 1), history) == [Flag("seat", (1,), 1)]
    assert seat_flags((1, 2), history) == []


def test_seat_imbalance_flags_a_position_held_three_times_more_than_another():
    history = {1: h(1, seats=(0, 1, 0, 0)), 2: h(2, seats=(1, 0, 1, 0))}
    assert seat_flags((1, 2), history) == [Flag("seat", (1,), 0)]


def test_first_turn_flags_moving_first_again_after_more_than_half_of_the_games():
    history = {1: h(1, seats=(0, 1, 0)), 2: h(2, seats=(0, 1)), 3: h(3, seats=(0,))}
    assert first_turn_flags((1, 2), history) == [Flag("first_turn", (1,), 2)]
    assert first_turn_flags((2, 1), history) == []   # first in half of them: fair
    assert first_turn_flags((3, 1), history) == []   # one game is too few to tell


def test_second_bye_flags_a_bye_to_a_player_who_had_one():
    history = {1: h(1, byes=1), 2: h(2)}
    assert second_bye_flags((1,), history) == [Flag("second_bye", (1,), 1)]
    assert second_bye_flags((2,), history) == []


def test_score_gap_flags_a_table_further_apart_than_one_win():
    history = {1: h(1, score=900), 2: h(2, score=300), 3: h(3, score=600)}
    assert score_gap_flags((1, 2), history, WIN) == [Flag("score_gap", (1, 2), 600)]
    assert score_gap_flags((1, 3), history, WIN) == []   # exactly one win apart: not large


def test_forbidden_pair_flags_two_who_are_not_to_be_seated_together():
    assert forbidden_flags((1, 2, 3), frozenset({frozenset((1, 3))})) == [Flag("forbidden", (1, 3))]


def test_team_mates_flag_two_of_one_team_unless_they_are_partners():
    history = {1: h(1, team=7), 2: h(2), 3: h(3, team=7), 4: h(4)}
    assert team_flags((1, 2, 3, 4), history) == [Flag("team", (1, 3))]
    # Karuselis at four: seats 0 and 2 are partners
    assert team_flags((1, 2, 3, 4), history, of_seat=(0, 1, 0, 1)) == []


def test_clubmates_flag_only_in_the_first_rounds_kept_apart():
    history = {1: h(1, clubs=frozenset({5})), 2: h(2, clubs=frozenset({5, 6})), 3: h(3)}
    assert club_flags((1, 2, 3), history, number=2, same_club_rounds=2) == [Flag("club", (1, 2))]
    assert club_flags((1, 2, 3), history, number=3, same_club_rounds=2) == []


def test_a_bye_table_is_flagged_only_for_a_second_bye():
    history = {1: h(1, byes=2, seats=(1, 1))}
    assert table_flags((1,), history, bye=True, gap=WIN) == [Flag("second_bye", (1,), 2)]
