"""The UNO FLIP bots: legal moves only, matches that finish, and a greedy bot that beats random play."""
from __future__ import annotations

import random

from engine.bots import SEARCH_LEVELS, choose, policies_for
from engine.uno_flip import game as G

TARGET = 200  # shorter matches keep the file fast; the rules are the same


def run_match(policies: list[str], seed: str, target: int = TARGET, check: bool = False):
    """Every seat asks its policy in a random order; the turn holder must act."""
    state = G.fold(G.start(len(policies), seed, options={"target": target}))
    rng = random.Random(seed)
    steps = 0
    while G.outcome(state) is None:
        actors = G.view(state, None)["to_act"]
        rng.shuffle(actors)
        for seat in actors:
            view = G.view(state, seat)
            legal = G.legal_moves(state, seat)
            must_act = view["turn"] == seat
            move = choose("uno_flip", policies[seat], view, legal, rng, must_act)
            if check:
                assert move in legal or (move is None and not must_act), (move, legal)
            if move is not None:
                for event in G.play(state, seat, move):
                    state = G.apply(state, event)
                steps += 1
                break
        assert steps < 200_000
    return G.outcome(state), steps


def test_greedy_is_registered_next_to_random_and_the_search_levels():
    assert set(policies_for("uno_flip")) == {"greedy", "random", *SEARCH_LEVELS}


def test_greedy_always_returns_a_legal_move_and_matches_finish():
    for i, seats in enumerate((2, 3, 4, 10)):
        outcome, _ = run_match(["greedy"] * (seats - 1) + ["random"], f"legal-{i}", check=True)
        assert sorted(s for place in outcome["ranking"] for s in place) == list(range(seats))


def test_greedy_passes_on_optional_moves_it_does_not_want_and_takes_catches():
    view = {"side": "light", "turn": 0, "seats": 3, "direction": 1, "hand": ["R2/V7", "G3/T+5"],
            "hand_sizes": [2, 1, 5], "color": "R"}
    rng = random.Random(0)
    assert policies_for("uno_flip")["greedy"](view, [{"type": "catch", "target": 1}], rng, False) == \
        {"type": "catch", "target": 1}
    assert policies_for("uno_flip")["greedy"](view, [], rng, False) is None


def test_greedy_calls_with_its_second_last_card_and_does_not_bluff():
    greedy = policies_for("uno_flip")["greedy"]
    view = {"side": "light", "turn": 0, "seats": 2, "direction": 1, "hand": ["R2/V7", "W+2/T9"],
            "hand_sizes": [2, 6], "color": "R"}
    legal = [{"type": "play", "card": "R2"}, {"type": "play", "card": "R2", "call": True}]
    legal += [{"type": "play", "card": "W+2", "color": c, **extra} for extra in ({}, {"call": True}) for c in "RYGB"]
    assert greedy(view, legal + [{"type": "draw"}], random.Random(1), True) == \
        {"type": "play", "card": "R2", "call": True}


def test_greedy_wins_clearly_more_than_its_share_against_random_bots():
    wins = 0
    games = 30
    for i in range(games):
        outcome, _ = run_match(["greedy", "random"] if i % 2 == 0 else ["random", "greedy"], f"duel-{i}")
        greedy_seat = 0 if i % 2 == 0 else 1
        wins += outcome["ranking"][0] == [greedy_seat]
    assert wins >= 25, wins
