"""The protocol test: every registered game through the same checks (STYLE.md "Tests").

For many seeds, random legal play from ``start`` to the end of the match, and at
every step: the fold of all events equals the incrementally applied state;
``play`` leaves its input untouched; ``to_act`` matches ``legal_moves``; views
and redacted events are JSON-ready and never carry a card hidden from that seat,
nor the seed; cards are conserved; the match ends within ``MAX_EVENTS``; and the
same seed with the same moves gives the same events, byte for byte.

``PROTOCOL_SEEDS`` (env) sets how many seeds per seat count (default 6).
"""
from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter

import pytest

from engine import IllegalMove, registry
from engine.core import copies_hidden_everywhere

SEAT_COUNTS = {
    "livol": [2, 4, 6],
    "uno_flip": [2, 4, 10],
    "karuselis": [2, 3, 4],
    "iota": [2, 3, 4],
    "cardavia": [3, 4, 6],
}
SEEDS = int(os.environ.get("PROTOCOL_SEEDS", "6"))
CASES = [(g, n, f"protocol-{g}-{n}-{i}") for g in registry.names() for n in SEAT_COUNTS[g] for i in range(SEEDS)]


def strings_in(value) -> list[str]:
    """Every string in a JSON value, plus both faces of a ``light/dark`` code."""
    out: list[str] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.append(v)
            if "/" in v:
                out.extend(v.split("/"))
        elif isinstance(v, dict):
            # a wild's candidates (IOTA) are identities it may stand for, not cards shown
            stack.extend(val for key, val in v.items() if key != "candidates")
            stack.extend(v.keys())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return out


def card_totals(game, state) -> Counter:
    """How many copies of each code (and of each face of a ``light/dark`` code) the match holds."""
    total = Counter()
    for code in game.all_cards(state):
        total[code] += 1
        if "/" in code:
            total.update(code.split("/"))
    return total


def assert_no_leak(game, state, seat, payload, seed, what, total):
    text = json.dumps(payload, sort_keys=True)
    assert seed not in text, f"{what} for seat {seat} carries the seed"
    forbidden = copies_hidden_everywhere(game.hidden_cards(state, seat), total)
    leaked = forbidden.intersection(strings_in(payload))
    assert not leaked, f"{what} for seat {seat} shows hidden {sorted(leaked)}"


def play_random_match(game, seats, seed, check=True):
    events = game.start(seats, seed)
    state = game.fold(events)
    rng = random.Random(seed)
    moves = []
    cards = Counter(game.all_cards(state))
    totals = card_totals(game, state)  # copies per code: constant, since cards are conserved
    step = 0
    while game.outcome(state) is None:
        assert len(events) <= game.MAX_EVENTS, f"{game.name} did not end within MAX_EVENTS"
        spectator = game.view(state, None)
        actors = spectator["to_act"]
        assert actors, "a running match must have someone to act"
        if check:
            for s in range(seats):
                legal = game.legal_moves(state, s)
                assert (s in actors) == bool(legal), f"to_act disagrees with legal_moves for seat {s}"
                json.dumps(legal)
        seat = rng.choice(actors)
        legal = game.legal_moves(state, seat)
        move = rng.choice(legal)
        before = copy.deepcopy(state) if check and step % 7 == 0 else None
        new = game.play(state, seat, move)
        if before is not None:
            assert state == before, "play mutated its input state"
        assert new, "a legal move must record at least one event"
        json.dumps(new)
        for event in new:
            assert isinstance(event.get("type"), str)
            state = game.apply(state, event)
            if check and game.outcome(state) is None:
                # each redacted event is judged against the state right after it
                for s in [None, *range(seats)]:
                    redacted = game.redact(event, s)
                    if redacted is not None:
                        assert_no_leak(game, state, s, redacted, seed, f"redacted {event['type']}", totals)
        events.extend(new)
        moves.append((seat, move))
        if check:
            assert Counter(game.all_cards(state)) == cards, "cards are not conserved"
            if game.outcome(state) is None:
                for s in [None, *range(seats)]:
                    v = game.view(state, s)
                    assert "to_act" in v
                    if s is not None:
                        assert "hand" in v
                    assert_no_leak(game, state, s, v, seed, "view", totals)
        step += 1
    return events, moves, state


@pytest.mark.parametrize("name,seats,seed", CASES)
def test_protocol_random_play(name, seats, seed):
    game = registry.get(name)
    # given a match played to the end with random legal moves
    events, moves, state = play_random_match(game, seats, seed)
    # then the fold of every event equals the incremental state
    assert game.fold(events) == state
    # and the same seed with the same moves gives the same events, byte for byte
    again = game.start(seats, seed)
    replayed = game.fold(again)
    for seat, move in moves:
        new = game.play(replayed, seat, move)
        for e in new:
            replayed = game.apply(replayed, e)
        again.extend(new)
    assert json.dumps(again, sort_keys=True) == json.dumps(events, sort_keys=True)
    # and the outcome ranks every seat exactly once
    result = game.outcome(state)
    ranked = [s for place in result["ranking"] for s in place]
    assert sorted(ranked) == list(range(seats))
    assert len(result["scores"]) == seats
    # and after the end nobody acts and every event is public
    assert game.view(state, None)["to_act"] == []
    assert all(game.legal_moves(state, s) == [] for s in range(seats))


@pytest.mark.parametrize("name", registry.names())
def test_protocol_unknown_move_is_refused_without_change(name):
    game = registry.get(name)
    seats = SEAT_COUNTS[name][0]
    state = game.fold(game.start(seats, "bad-move"))
    snapshot = copy.deepcopy(state)
    seat = game.view(state, None)["to_act"][0]
    for bad in ({"type": "teleport"}, {}, {"type": "play", "card": "ZZ9"}):
        with pytest.raises(IllegalMove) as err:
            game.play(state, seat, bad)
        assert isinstance(err.value.code, str) and err.value.code
    assert state == snapshot


@pytest.mark.parametrize("name", registry.names())
def test_protocol_out_of_turn_is_refused(name):
    game = registry.get(name)
    seats = SEAT_COUNTS[name][0]
    state = game.fold(game.start(seats, "out-of-turn"))
    idle = [s for s in range(seats) if s not in game.view(state, None)["to_act"]]
    actor = game.view(state, None)["to_act"][0]
    move = game.legal_moves(state, actor)[0]
    for seat in idle:
        with pytest.raises(IllegalMove):
            game.play(state, seat, move)


@pytest.mark.parametrize("name", registry.names())
def test_protocol_start_checks_options_seats_and_deck(name):
    game = registry.get(name)
    low = SEAT_COUNTS[name][0]
    with pytest.raises(ValueError):
        game.start(low, "s", options={"no_such_option": 1})
    with pytest.raises(ValueError):
        game.start(1, "s")
    with pytest.raises(ValueError):
        game.start(99, "s")
    with pytest.raises(ValueError):
        game.start(low, "s", deck=game.cards()[:-1])
    # a stacked deck that is a permutation is accepted and deals seat 0 first
    deck = list(reversed(game.cards()))
    state = game.fold(game.start(low, "s", deck=deck))
    assert game.outcome(state) is None


@pytest.mark.parametrize("name", registry.names())
def test_protocol_cards_are_canonical_and_stable(name):
    game = registry.get(name)
    assert game.cards() == game.cards()
    assert all(isinstance(c, str) for c in game.cards())


def test_registry_lists_the_five_games():
    assert registry.names() == ["cardavia", "iota", "karuselis", "livol", "uno_flip"]


def test_engine_never_imports_django():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "engine")
    for folder, _, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                text = open(os.path.join(folder, f), encoding="utf-8").read()
                assert "import django" not in text and "from django" not in text, f
