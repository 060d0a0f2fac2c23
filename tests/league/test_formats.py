"""The tournament formats (``league.formats``): one object each behind a registry, each owning its pairing,
byes, stages and bracket. Pure: no database (a format asks a ``Field``/``Results`` for what it needs, here a
stand-in)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from league.formats import base
from league.formats.base import CannotPair, Setup
from league.rules import pairing

BUILT_IN = ["round_robin", "double_round_robin", "swiss", "knockout", "league", "groups_knockout", "double_elimination",
            "arena", "team_match"]


class Stub:
    """A tournament's past as a format asks for it."""

    def __init__(self, starters=(), contenders=(), winners=None, last=None):
        self._starters, self._contenders = list(starters), list(contenders)
        self._winners, self._last = winners or {}, last or {}

    def starters(self):
        return list(self._starters)

    def contenders(self):
        return list(self._contenders)

    def winners(self, number):
        return list(self._winners.get(number, []))

    def last_rounds(self):
        return dict(self._last)

    def teams(self):
        return []


def test_the_registry_holds_the_built_in_formats_by_their_stored_names():
    assert base.names() == BUILT_IN
    assert [name for name, _label in base.format_choices()] == BUILT_IN
    assert all(base.get(name).name == name for name in BUILT_IN)


def test_an_unknown_format_is_refused():
    with pytest.raises(KeyError):
        base.get("ladder")


def test_every_format_names_and_describes_itself():
    for f in base.formats().values():
        assert str(f.label) and str(f.description).endswith(".")


def test_the_formats_fixed_at_the_start_are_the_round_robins_and_the_league_season():
    fixed = [name for name, f in base.formats().items() if f.fixtures(Setup(), 6)]
    assert fixed == ["round_robin", "double_round_robin", "league"]
    single = base.get("round_robin").fixtures(Setup(), 6)
    assert len(base.get("double_round_robin").fixtures(Setup(), 6)) == len(base.get("league").fixtures(Setup(), 6)) \
        == 2 * len(single)


def test_only_a_swiss_bye_scores_the_leagues_bye_points():
    scoring = [name for name, f in base.formats().items() if f.bye_points(Fraction(3)) == 3]
    assert scoring == ["swiss"]
    assert "scores 3" in base.get("swiss").bye_rule("3")
    assert "through to the next round" in base.get("knockout").bye_rule("3")
    assert "rest" in base.get("round_robin").bye_rule("3")


def test_of_the_formats_without_brackets_of_their_own_only_a_knockout_has_stages_and_a_bracket():
    # groups then play-offs and double elimination have theirs (tests/league/formats/test_properties.py)
    results = Stub(winners={2: [7]}, last={5: 1, 6: 2, 7: 2})
    staged = {name: base.get(name).stages(Setup(rounds=2), results, True) for name in BUILT_IN[:5]}
    assert {name: s for name, s in staged.items() if s is not None} == {"knockout": {5: 1, 6: 2, 7: 3}}
    knockout = base.get("knockout")
    assert [knockout.stage_label(s, Setup(rounds=3)) for s in (1, 2, 3, 4)] == [
        "Quarter-final", "Semi-final", "Final", "Winner"]
    with_bracket = [name for name in BUILT_IN if base.get(name).bracket(Setup(rounds=1), [], True, lambda n: None)]
    assert with_bracket == ["knockout"]


@pytest.mark.parametrize("field", [2, 3, 4, 5, 8, 9])
def test_a_round_robin_plans_as_many_rounds_as_its_schedule_has(field):
    for name, double in (("round_robin", False), ("double_round_robin", True), ("league", True)):
        assert base.get(name).planned_rounds(Setup(rounds=99), field) == len(pairing.round_robin(field, 2,
                                                                                                 double=double))


@pytest.mark.parametrize("field,seats", [(2, 2), (5, 2), (8, 2), (9, 3), (16, 4)])
def test_a_knockout_plans_its_stages(field, seats):
    assert base.get("knockout").planned_rounds(Setup(seats=seats, rounds=1), field) == \
        pairing.knockout_rounds(field, seats)


def test_a_swiss_plays_the_rounds_set_or_enough_to_single_out_a_winner():
    swiss = base.get("swiss")
    assert swiss.planned_rounds(Setup(rounds=3), 10) == 3
    assert swiss.planned_rounds(Setup(), 8) == 3
    assert swiss.planned_rounds(Setup(), 9) == 4
    assert swiss.planned_rounds(Setup(), 1) == 1


def test_a_round_robin_pairs_its_schedules_round_with_the_entrants_in_seed_order():
    field = Stub(starters=[11, 12, 13])
    first = base.get("round_robin").pair(1, Setup(), field)
    schedule = pairing.round_robin(3)[0]
    assert [(s.number, s.entrants, s.bye) for s in first] == (
        [(i, tuple(10 + p + 1 for p in t), False) for i, t in enumerate(schedule.tables, start=1)]
        + [(len(schedule.tables) + 1, (10 + schedule.byes[0] + 1,), True)])


def test_a_swiss_pairs_the_contenders_and_stops_when_too_few_are_left():
    swiss = base.get("swiss")
    drawn = swiss.pair(2, Setup(), Stub(contenders=[pairing.Contender(i, score=10 - i) for i in (1, 2, 3)]))
    assert sorted(p for s in drawn for p in s.entrants) == [1, 2, 3]
    assert [s.bye for s in drawn].count(True) == 1
    assert swiss.pair(2, Setup(), Stub(contenders=[pairing.Contender(1)])) is None


def test_a_knockout_seeds_its_first_round_and_then_seats_the_winners_of_neighbouring_tables():
    knockout = base.get("knockout")
    first = knockout.pair(1, Setup(), Stub(starters=[1, 2, 3, 4, 5, 6]))
    assert [(s.number, s.entrants, s.bye) for s in first] == [
        (1, (1,), True), (2, (4, 5), False), (3, (2,), True), (4, (3, 6), False)]
    second = knockout.pair(2, Setup(), Stub(winners={1: [1, 5, 3, 2]}))
    assert [(s.number, s.entrants) for s in second] == [(1, (1, 5)), (2, (3, 2))]


def test_a_knockout_refuses_a_field_that_leaves_a_first_round_table_too_small():
    with pytest.raises(CannotPair, match="fewer than 3 seats"):
        base.get("knockout").pair(1, Setup(seats=4, min_seats=3), Stub(starters=[1, 2]))
