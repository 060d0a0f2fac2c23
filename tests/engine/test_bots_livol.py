"""The LIVOL greedy bot: always legal, finishes matches, beats random bots clearly."""
from __future__ import annotations

import random

from engine import registry
from engine.bots import choose, policies_for
from engine.bots.livol import greedy

GAME = registry.get("livol")


def run_match(policies: list[str], seed: str, options=None, checks=False):
    """Bots play to the end: out-of-turn seats are offered their optional moves first,
    then the seat holding the turn must act. Returns the final state."""
    n = len(policies)
    state = GAME.fold(GAME.start(n, seed, options=options))
    rng = random.Random(seed)
    steps = 0
    while GAME.outcome(state) is None:
        steps += 1
        assert steps < 20_000, "the match did not end"
        view = GAME.view(state, None)
        moved = False
        for seat in view["to_act"]:
            if seat == state.turn:
                continue
            legal = GAME.legal_moves(state, seat)
            move = choose("livol", policies[seat], GAME.view(state, seat), legal, rng, False)
            if move is not None:
                if checks:
                    assert move in legal
                for e in GAME.play(state, seat, move):
                    state = GAME.apply(state, e)
                moved = True
                break
        if moved:
            continue
        seat = state.turn
        legal = GAME.legal_moves(state, seat)
        move = choose("livol", policies[seat], GAME.view(state, seat), legal, rng, True)
        if checks:
            assert move in legal, (move, legal)
        for e in GAME.play(state, seat, move):
            state = GAME.apply(state, e)
    return state


def test_greedy_is_registered():
    assert policies_for("livol")["greedy"] is greedy
    assert "random" in policies_for("livol")


def test_greedy_always_returns_a_legal_move_and_finishes_matches():
    for i, n in enumerate((2, 3, 4, 6)):
        policies = ["greedy"] * n
        policies[-1] = "random"
        state = run_match(policies, f"legal-{i}", options={"target": 300}, checks=True)
        assert GAME.outcome(state) is not None


def test_greedy_out_of_turn_only_catches_or_calls():
    view = {"hand": ["R1", "R2"], "turn": 0, "seats": 3, "direction": 1,
            "hand_sizes": [2, 2, 1]}
    assert greedy(view, [{"type": "catch", "target": 2}], random.Random(0), False) == \
        {"type": "catch", "target": 2}
    assert greedy(view, [], random.Random(0), False) is None


def test_greedy_calls_livol_with_its_second_to_last_card():
    state = GAME.fold(GAME.start(2, "call"))
    # find a position in a greedy self-play where greedy holds two cards on its turn
    rng = random.Random(1)
    for _ in range(5000):
        seat = state.turn
        view = GAME.view(state, seat)
        legal = GAME.legal_moves(state, seat)
        move = greedy(view, legal, rng, True)
        if move["type"] == "play" and len(view["hand"]) == 2:
            assert move.get("call") is True
            return
        for e in GAME.play(state, seat, move):
            state = GAME.apply(state, e)
    raise AssertionError("no two-card position reached")


def test_greedy_wins_clearly_more_than_its_share_against_random_bots():
    wins = 0
    seeds = 30
    for i in range(seeds):
        seat = i % 3
        policies = ["random"] * 3
        policies[seat] = "greedy"
        state = run_match(policies, f"duel-{i}")
        if seat in GAME.outcome(state)["ranking"][0]:
            wins += 1
    assert wins >= 18, f"greedy won {wins} of {seeds} three-seat matches"
