"""The shared engine pieces: seeded randomness, checks, rankings, the move guard, resigning."""
from collections import OrderedDict

import pytest

from engine.core import (
    MOVE_MAX_INT,
    MOVE_MAX_LIST,
    MOVE_MAX_NODES,
    MOVE_MAX_STRING,
    FewestWhenTarget,
    FirstToTarget,
    IllegalMove,
    SeededRandom,
    check_deck,
    check_options,
    guard_move,
    last_standing,
    may_resign,
    rank_by_scores,
    rank_with_resignations,
    short,
    shuffled,
)


def test_same_seed_and_counter_give_the_same_shuffle():
    assert shuffled("abc", 3, range(50)) == shuffled("abc", 3, range(50))


def test_another_counter_gives_another_shuffle():
    assert shuffled("abc", 3, range(50)) != shuffled("abc", 4, range(50))


def test_shuffle_is_a_permutation():
    assert sorted(shuffled("x", 0, range(108))) == list(range(108))


def test_randbelow_stays_in_range_and_covers_it():
    rng = SeededRandom("r", 0)
    seen = {rng.randbelow(6) for _ in range(500)}
    assert seen == set(range(6))


def test_unknown_option_and_bad_value_raise():
    allowed = {"target": (500, lambda v: isinstance(v, int) and v > 0), "variant": ("a", ("a", "b"))}
    assert check_options({}, allowed, "g") == {"target": 500, "variant": "a"}
    with pytest.raises(ValueError):
        check_options({"nope": 1}, allowed, "g")
    with pytest.raises(ValueError):
        check_options({"variant": "c"}, allowed, "g")


def test_stacked_deck_must_be_a_permutation():
    assert check_deck(["b", "a", "a"], ["a", "a", "b"], "g") == ["b", "a", "a"]
    with pytest.raises(ValueError):
        check_deck(["a", "b", "b"], ["a", "a", "b"], "g")


def test_equal_scores_share_a_place():
    assert rank_by_scores([10, 30, 10, 5]) == [[1], [0, 2], [3]]
    assert FirstToTarget(500).ranking([10, 600]) == [[1], [0]]
    assert FewestWhenTarget(500).ranking([10, 600]) == [[0], [1]]


# -- hostile input: the move guard and short quotes ---------------------------------------

KEYS = {"play": frozenset({"type", "card", "cards"}), "resign": frozenset({"type"})}


def malformed(move) -> bool:
    try:
        guard_move(move, KEYS)
    except IllegalMove as err:
        return err.code == "malformed_move"
    return False


def test_the_guard_accepts_values_up_to_each_bound_and_refuses_one_beyond():
    assert guard_move({"type": "play", "card": "x" * MOVE_MAX_STRING}, KEYS) == "play"
    assert malformed({"type": "play", "card": "x" * (MOVE_MAX_STRING + 1)})
    for n in (MOVE_MAX_INT, -MOVE_MAX_INT):
        assert not malformed({"type": "play", "card": n})
        assert malformed({"type": "play", "card": n + (1 if n > 0 else -1)})
    assert not malformed({"type": "play", "cards": [[1]]}) and malformed({"type": "play", "cards": [[[1]]]})
    assert not malformed({"type": "play", "cards": [0] * MOVE_MAX_LIST})
    assert malformed({"type": "play", "cards": [0] * (MOVE_MAX_LIST + 1)})
    assert not malformed({"type": "play", "cards": [[0] * 61] * 4})        # 1 + 2 + 4 + 244 = 251 values
    assert malformed({"type": "play", "cards": [[0] * 63] * 4})            # 259 values > MOVE_MAX_NODES
    assert MOVE_MAX_NODES == 256


def test_the_guard_refuses_other_types_shapes_and_fields():
    for bad in (None, [], "resign", 1, 1.0, ("type", "resign"), OrderedDict(type="resign"),
                {"type": 1}, {"type": None}, {}, {"type": "fly"}, {"type": "resign", "seat": 1},
                {"type": "resign", 1: 1}, {"type": "play", "card": 1.5}, {"type": "play", "card": (1,)},
                {"type": "play", "card": b"x"}, {"type": "play", "card": {1, 2}}, {"type": "play", "card": object()}):
        assert malformed(bad), bad
    assert guard_move({"type": "play", "card": True, "cards": None}, KEYS) == "play"   # bool and null are JSON
    with pytest.raises(IllegalMove) as err:
        guard_move({"type": "fly"}, KEYS, rule="C4")
    assert err.value.rule == "C4"


def test_the_guard_walks_iteratively_and_stops_at_the_first_violation():
    deep: list = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    assert malformed({"type": "play", "cards": deep})
    assert malformed(deep)


def test_short_quotes_any_value_briefly():
    assert short("abc") == "'abc'" and short(5) == "5" and short(None) == "None" and short(True) == "True"
    assert len(short("x" * 10 ** 6)) < 40 and short(2 ** 70) == "<71-bit int>"
    assert short(list(range(10))) == "[0, 1, 2, 3, ...]"
    assert short(object()) == "<object>"


# -- resigning --------------------------------------------------------------------------------

def test_resigned_seats_rank_below_all_others_the_latest_best_among_them():
    assert rank_with_resignations([[0], [1, 2], [3]], []) == [[0], [1, 2], [3]]
    assert rank_with_resignations([[2], [0, 1], [3]], [0, 2]) == [[1], [3], [2], [0]]
    assert rank_with_resignations([[0, 1, 2]], [1]) == [[0, 2], [1]]
    assert rank_with_resignations([[0], [1]], [0, 1]) == [[1], [0]]


def test_the_match_ends_when_at_most_one_contender_has_not_resigned():
    assert not last_standing(range(3), [0])
    assert last_standing(range(3), [0, 2])
    assert last_standing([1, 3], [3])


def test_a_seat_resigns_once_and_only_from_a_seat_at_the_table():
    may_resign(0, 2, ())
    for seat, code in ((0, "already_resigned"), (2, "malformed_move"), (-1, "malformed_move"),
                       (True, "malformed_move"), (None, "malformed_move")):
        with pytest.raises(IllegalMove) as err:
            may_resign(seat, 2, (0,))
        assert err.value.code == code
