"""Pure tie-break helpers (``league.rules.tiebreaks``) that the standings tests reach only through the database."""
from decimal import Decimal
from fractions import Fraction as F

from league.rules import tiebreaks
from league.rules.tiebreaks import Entry, Sitting, best_seat, exact, met, rank_entries


def test_points_are_read_exactly_from_ints_decimals_strings_and_floats_as_written():
    assert exact(3) == F(3)
    assert exact(Decimal("2.50")) == F(5, 2)
    assert exact("10/3") == F(10, 3)
    assert exact(0.1) == F(1, 10)


def test_the_best_place_goes_through_then_game_points_then_the_better_seed():
    # (entrant, place, game points, seed)
    assert best_seat([(1, 2, 90, 1), (2, 1, 10, 2)], higher_game_points=True) == 2
    assert best_seat([(1, 1, 10, 1), (2, 1, 90, 2)], higher_game_points=True) == 2
    assert best_seat([(1, 1, 10, 2), (2, 1, 90, 1)], higher_game_points=False) == 1
    assert best_seat([(1, 1, 50, 2), (2, 1, 50, 1)], higher_game_points=True) == 2


def test_a_seat_without_a_place_never_goes_through_ahead_of_a_placed_one():
    assert best_seat([(1, None, 500, 1), (2, 2, 0, 2)], higher_game_points=True) == 2
    assert best_seat([], higher_game_points=True) is None


def test_partners_have_not_met_but_opponents_have():
    table = [Sitting(1, 1, side=0), Sitting(2, 2, side=1), Sitting(3, 1, side=0), Sitting(4, 2, side=1)]
    assert not met(1, 3, [table])
    assert met(1, 2, [table])
    assert not met(1, 2, [[Sitting(1, None, played=False), Sitting(2, None, played=False)]])


def test_fewer_game_points_rank_first_when_the_game_ranks_lower_scores_first():
    entries = [Entry(1, 1, F(3), game_points=40), Entry(2, 2, F(3), game_points=10)]
    higher = rank_entries(entries, [], ["match_points", "game_points"])
    lower = rank_entries(entries, [], ["match_points", "game_points"], higher_game_points=False)
    assert [r.id for r in higher] == [1, 2]
    assert [r.id for r in lower] == [2, 1]


def test_a_further_knockout_stage_ranks_first_whatever_the_points():
    entries = [Entry(1, 1, F(9), stage=1), Entry(2, 2, F(0), stage=2)]
    assert [r.id for r in rank_entries(entries, [], ["match_points"])] == [2, 1]


def test_the_tie_break_module_imports_no_django():
    import sys
    source = open(tiebreaks.__file__).read()
    assert "django" not in source and "league.models" not in source
    assert "league.rules.tiebreaks" in sys.modules


def test_a_number_shows_rounded_to_two_decimals_with_its_exact_value_beside():
    assert tiebreaks.num(F(10, 3)) == "3.33"
    assert tiebreaks.exact_text(F(10, 3)) == "10/3"
    assert tiebreaks.num(F(5, 2)) == "2.5" and tiebreaks.exact_text(F(1, 8)) == "0.125"
    assert tiebreaks.number_cell(F(10, 3)) == {"text": "3.33", "exact": "10/3"}
    assert tiebreaks.number_cell(3) == {"text": "3", "exact": ""}
    assert tiebreaks.num(None) == "" and tiebreaks.exact_text(None) == ""
