"""The tournament formats as one object each (``league.tournament_formats``): pure, no database."""
import pytest

from league import tournament_formats
from league.rules import pairing
from league.models import Tournament


def test_every_tournament_format_has_exactly_one_format_object():
    assert set(tournament_formats.FORMATS) == set(Tournament.Format.values)
    assert all(tournament_formats.of(key).key == key for key in Tournament.Format.values)


def test_an_unknown_format_is_refused():
    with pytest.raises(KeyError):
        tournament_formats.of("ladder")


def test_only_the_round_robins_and_the_league_season_are_paired_from_a_schedule():
    scheduled = {key for key, f in tournament_formats.FORMATS.items() if f.scheduled}
    assert scheduled == {"round_robin", "double_round_robin", "league"}


def test_the_double_round_robin_and_the_league_season_play_every_meeting_twice():
    repeats = {key for key, f in tournament_formats.FORMATS.items() if f.repeats}
    assert repeats == {"double_round_robin", "league"}
    single = tournament_formats.ROUND_ROBIN.schedule(6, 2)
    double = tournament_formats.LEAGUE.schedule(6, 2)
    assert len(double) == 2 * len(single)


def test_only_a_swiss_bye_scores_the_leagues_bye_points():
    assert [key for key, f in tournament_formats.FORMATS.items() if f.bye_scores] == ["swiss"]


def test_only_a_knockout_has_a_bracket():
    assert [key for key, f in tournament_formats.FORMATS.items() if f.bracket] == ["knockout"]


@pytest.mark.parametrize("field", [2, 3, 4, 5, 8, 9])
def test_a_round_robin_plans_as_many_rounds_as_its_schedule_has(field):
    for f in (tournament_formats.ROUND_ROBIN, tournament_formats.DOUBLE_ROUND_ROBIN, tournament_formats.LEAGUE):
        assert f.planned_rounds(field, 2, rounds=99) == len(pairing.round_robin(field, 2, double=f.repeats))


@pytest.mark.parametrize("field,seats", [(2, 2), (5, 2), (8, 2), (9, 3), (16, 4)])
def test_a_knockout_plans_its_stages(field, seats):
    assert tournament_formats.KNOCKOUT.planned_rounds(field, seats, rounds=1) == pairing.knockout_rounds(field, seats)


def test_a_swiss_plays_the_rounds_set_or_enough_to_single_out_a_winner():
    swiss = tournament_formats.SWISS
    assert swiss.planned_rounds(10, 2, rounds=3) == 3
    assert swiss.planned_rounds(8, 2) == 3
    assert swiss.planned_rounds(9, 2) == 4
    assert swiss.planned_rounds(1, 2) == 1
