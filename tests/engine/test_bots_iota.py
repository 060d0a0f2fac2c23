"""The IOTA greedy bot: always legal, finishes matches, beats random bots clearly."""
from __future__ import annotations

import random

import pytest

from engine.bots import choose
from engine.bots.iota import greedy
from engine.iota import CARDS
from engine.iota import game as GAME

FILLER = ["R4S", "R4T", "R4X", "Y4C"]


def begin(hands, starter, stock=()):
    front = [c for h in hands for c in h] + [starter] + list(stock)
    deck = front + [c for c in CARDS if c not in front]
    return GAME.fold(GAME.start(len(hands), "bots", deck=deck))


def run_match(seats, seed, greedy_seat, options=None):
    state = GAME.fold(GAME.start(seats, seed, options))
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = state.turn
        view, legal = GAME.view(state, seat), GAME.legal_moves(state, seat)
        move = choose("iota", "greedy" if seat == greedy_seat else "random", view, legal, rng, True)
        if seat == greedy_seat:
            assert move in legal
        for e in GAME.play(state, seat, move):
            state = GAME.apply(state, e)
    return GAME.outcome(state)


def test_greedy_makes_the_highest_scoring_play():
    # the FAQ position: three cards in the column (14) beat two (13)
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X")
    move = greedy(GAME.view(state, 0), GAME.legal_moves(state, 0), random.Random(0), True)
    assert move["type"] == "play" and len(move["cards"]) == 3


def test_greedy_recycles_a_wild_it_can_replace():
    state = begin([["W1", "G3T", "Y2S", "B4X"], ["B2S", "R2C", "Y3T", "G4C"]], "R1C", FILLER)
    for seat, move in ((0, {"type": "play", "cards": [{"card": "W1", "x": 1, "y": 0}]}),
                       (1, {"type": "pass", "return": []}),
                       (0, {"type": "play", "cards": [{"card": "G3T", "x": 2, "y": 0}]})):
        for e in GAME.play(state, seat, move):
            state = GAME.apply(state, e)
    move = greedy(GAME.view(state, 1), GAME.legal_moves(state, 1), random.Random(0), True)
    assert move == {"type": "recycle", "card": "B2S", "x": 1, "y": 0}


def test_greedy_with_no_play_returns_every_card_but_the_wilds():
    view = {"hand": ["W1", "R1C", "Y2S", "B3T"], "grid": [], "stock_size": 30, "variant": "standard"}
    legal = [{"type": "pass", "return": r} for r in ([], ["R1C"], ["R1C", "Y2S"], ["R1C", "Y2S", "B3T"],
                                                    ["R1C", "Y2S", "B3T", "W1"])]
    assert greedy(view, legal, random.Random(0), True) == {"type": "pass", "return": ["R1C", "Y2S", "B3T"]}
    assert greedy(view, [], random.Random(0), False) is None


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_finishes_matches_against_random_bots(seats):
    for variant in ("standard", "short", "kids"):
        outcome = run_match(seats, f"finish-{seats}-{variant}", 0, {"variant": variant})
        assert sorted(s for place in outcome["ranking"] for s in place) == list(range(seats))


def test_greedy_wins_clearly_more_than_its_share():
    wins, share = 0, 0.0
    for i in range(30):
        seats = 2 + i % 3
        outcome = run_match(seats, f"greedy-{i}", i % seats)
        wins += (i % seats) in outcome["ranking"][0]
        share += 1 / seats
    assert wins >= 2 * share          # about 11 expected by chance
