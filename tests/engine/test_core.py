"""The shared engine pieces: seeded randomness, checks, rankings."""
import pytest

from engine.core import (FewestWhenTarget, FirstToTarget, SeededRandom, check_deck,
                         check_options, rank_by_scores, shuffled)


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
