"""The Cardavia bots: the sensible policy plays legal moves and beats random play."""
from __future__ import annotations

import random

import pytest

from engine import registry
from engine.bots import choose, policies_for
from engine.bots.cardavia import POLICIES, sensible

GAME = registry.get("cardavia")


def play_match(seats, seed, policies):
    """A whole match, each seat moved by its policy through ``choose``; returns the outcome."""
    state = GAME.fold(GAME.start(seats, seed))
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = GAME.view(state, None)["to_act"][0]
        view, legal = GAME.view(state, seat), GAME.legal_moves(state, seat)
        move = choose("cardavia", policies[seat], view, legal, rng, view["turn"] == seat)
        assert move in legal
        for event in GAME.play(state, seat, move):
            state = GAME.apply(state, event)
    return GAME.outcome(state)


def test_policies_are_registered():
    assert {"greedy": sensible, "sensible": sensible} == POLICIES
    assert {"random", "greedy", "sensible"} <= set(policies_for("cardavia"))


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_sensible_bot_finishes_matches_against_random_bots(seats):
    for i in range(4):
        outcome = play_match(seats, f"bots-{seats}-{i}", ["greedy"] + ["random"] * (seats - 1))
        assert sorted(s for place in outcome["ranking"] for s in place) == list(range(seats))


def test_sensible_bot_returns_none_without_legal_moves():
    view = GAME.view(GAME.fold(GAME.start(4, "idle")), 2)
    assert sensible(view, [], random.Random(0), False) is None


def _view(hand, face_up=None, participants=(1, 2, 3, 0), seat=1, log=()):
    return {"seat": seat, "hand": [hand], "participants": list(participants), "set_aside": [],
            "face_up": face_up or [None] * 4, "log": list(log), "turn": seat}


LEGAL = [{"type": "keep"}, {"type": "ask"}]


def test_sensible_bot_swaps_low_cards_and_keeps_high_ones():
    rng = random.Random(0)
    assert sensible(_view("FOOL"), LEGAL, rng, True) == {"type": "ask"}
    assert sensible(_view("OWL"), LEGAL, rng, True) == {"type": "ask"}
    assert sensible(_view("11"), LEGAL, rng, True) == {"type": "keep"}
    assert sensible(_view("HORSE"), LEGAL, rng, True) == {"type": "keep"}


def test_sensible_bot_weighs_what_it_has_seen():
    rng = random.Random(0)
    # the neighbour showed a Dragoon: asking it costs a life
    assert sensible(_view("1", face_up=[None, None, "DRAGOON", None]), LEGAL, rng, True) == {"type": "keep"}
    # the neighbour holds a knocked Fool: never ask for it
    assert sensible(_view("2", face_up=[None, None, "FOOL", None]), LEGAL, rng, True) == {"type": "keep"}
    # with a knocked Fool elsewhere the next-lowest pays too (C10): a III kept alone is swapped
    alone = sensible(_view("3"), LEGAL, rng, True)
    with_fool = sensible(_view("3", face_up=[None, None, None, "FOOL"]), LEGAL, rng, True)
    assert (alone, with_fool) == ({"type": "keep"}, {"type": "ask"})
    # the card it gave away in a swap is lower than its own: keep
    log = [{"type": "cards_swapped", "seat": 0, "target": 1, "gave": "4", "got": "OWL"}]
    assert sensible(_view("4", seat=1, log=log), LEGAL, rng, True) == {"type": "keep"}


def test_sensible_bot_wins_clearly_more_than_its_share_against_random_bots():
    seats, matches, wins = 4, 40, 0
    for i in range(matches):
        me = i % seats
        policies = ["random"] * seats
        policies[me] = "sensible"
        outcome = play_match(seats, f"share-{i}", policies)
        wins += me in outcome["ranking"][0]
    assert wins >= 2 * matches // seats, f"{wins} wins of {matches}"
