"""The Karuselis greedy bot: always legal, finishes matches, beats random play."""
import random

import pytest

from engine.bots import choose
from engine.bots.karuselis import POLICIES, greedy
from engine.karuselis import game as GAME


def match(seats, seed, greedy_seats, options=None):
    """A whole match; ``greedy_seats`` play greedy, the others random. Returns the outcome."""
    state = GAME.fold(GAME.start(seats, seed, options=options))
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = GAME.view(state, None)["to_act"][0]
        view, legal = GAME.view(state, seat), GAME.legal_moves(state, seat)
        move = choose("karuselis", "greedy" if seat in greedy_seats else "random", view, legal, rng, True)
        assert move in legal
        for event in GAME.play(state, seat, move):
            state = GAME.apply(state, event)
    return GAME.outcome(state)


def test_greedy_is_registered():
    assert {"greedy": greedy} == POLICIES


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_always_plays_a_legal_move_and_finishes(seats):
    result = match(seats, f"all-greedy-{seats}", greedy_seats=set(range(seats)))
    assert sorted(s for place in result["ranking"] for s in place) == list(range(seats))


def test_greedy_prefers_the_richest_capture_then_builds_then_the_cheapest_trail():
    view = {"table": {"cards": ["AS", "4D", "5C", "10D"], "builds": [{"id": "b1", "cards": ["2S", "3H"],
                                                                        "value": 5, "owner": 1}]}}
    legal = [{"type": "capture", "card": "5H", "groups": [["5C"]]},
             {"type": "capture", "card": "5H", "groups": [["AS", "4D"]]},
             {"type": "capture", "card": "5H", "groups": [["b1"]]},
             {"type": "capture", "card": "10H", "groups": [["10D"]]},
             {"type": "sweep", "card": "BR"}]
    rng = random.Random(0)
    # the sweep takes everything: 2 (10D) + 1 (AS) + 2 (2S) points
    assert greedy(view, legal, rng, True) == {"type": "sweep", "card": "BR"}
    # b1 holds the 2 of spades: 2 points and a spade beat the 10 of diamonds' 2 points
    assert greedy(view, legal[:4], rng, True) == {"type": "capture", "card": "5H", "groups": [["b1"]]}
    assert greedy(view, legal[:2] + legal[3:4], rng, True) == {"type": "capture", "card": "10H", "groups": [["10D"]]}
    # equal points and spades: the capture with more cards
    assert greedy(view, legal[:2], rng, True) == {"type": "capture", "card": "5H", "groups": [["AS", "4D"]]}
    builds = [{"type": "build", "card": "AH", "onto": ["4D"], "value": 5},
              {"type": "build", "card": "AH", "onto": ["AS", "4D"], "value": 6}]
    assert greedy(view, builds, rng, True) == builds[1]
    trails = [{"type": "trail", "card": c} for c in ("AH", "X11", "7S", "7H", "KD")]
    assert greedy(view, trails, rng, True) == {"type": "trail", "card": "KD"}


@pytest.mark.parametrize("seats,greedy_seats,wins_needed", [(2, {0}, 19), (3, {1}, 15), (4, {0, 2}, 20)])
def test_greedy_beats_random_bots_clearly(seats, greedy_seats, wins_needed):
    # its fair share of 30 matches would be 15, 10 and 15 wins
    wins = 0
    for i in range(30):
        result = match(seats, f"duel-{seats}-{i}", greedy_seats)
        wins += bool(set(result["ranking"][0]) & greedy_seats)
    assert wins >= wins_needed, wins
