"""The protocol test: every registered game through the same checks (docs/style.md "Tests").

For many seeds, random legal play from ``start`` to the end of the match, and at
every step: the fold of all events equals the incrementally applied state;
``play`` leaves its input untouched; ``to_act`` matches ``legal_moves``; views
and redacted events are JSON-ready and never carry a card hidden from that seat,
nor the seed; cards are conserved; the match ends within ``MAX_EVENTS``; and the
same seed with the same moves gives the same events, byte for byte.

Some matches also resign seats at random points (docs/engine-contract.md "Resigning (every
game)"): the same checks hold, and the outcome ranks resigned seats (or Karuselis
sides) last, in reverse order of resigning, every seat exactly once.

``PROTOCOL_SEEDS`` (env) sets how many seeds per seat count (default 6; half as
many matches with resignations).
"""
from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine import IllegalMove, registry
from engine.core import copies_hidden_everywhere
from engine.protocol import VIEW_KEYS

ROOT = Path(__file__).resolve().parents[2]


def _seat_counts(name: str) -> list[int]:
    """The fewest seats a game takes, a middle count and the most (UNO FLIP's middle is 4: its table of
    ten is the rare one)."""
    game = registry.get(name)
    middle = 4 if name == "uno_flip" else (game.MIN_SEATS + game.MAX_SEATS) // 2
    return sorted({game.MIN_SEATS, middle, game.MAX_SEATS})


#: The seat counts every game is tried at (any registered game: none is named here but for UNO FLIP's middle).
SEAT_COUNTS = {name: _seat_counts(name) for name in registry.names()}
SEEDS = int(os.environ.get("PROTOCOL_SEEDS", "6"))
CASES = [(g, n, f"protocol-{g}-{n}-{i}") for g in registry.names() for n in SEAT_COUNTS[g] for i in range(SEEDS)]
RESIGN_CASES = [(g, n, f"resign-{g}-{n}-{i}") for g in registry.names() for n in SEAT_COUNTS[g]
                for i in range(max(1, SEEDS // 2))]
RESIGN = {"type": "resign"}


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


def resignation_plan(seats, seed) -> dict[int, int]:
    """Steps at which some seat resigns: 1 to seats - 1 resignations, the first among the
    first 20 steps, the others among the first 200 (all of them end the match at once;
    fewer leave it to its natural end, with resigned seats still playing)."""
    rng = random.Random(f"{seed}/resign")
    count = rng.randint(1, seats - 1)
    steps = [rng.randrange(20)]
    steps += rng.sample([s for s in range(200) if s != steps[0]], count - 1)
    return {step: rng.randrange(1 << 30) for step in steps}


def sides_of(game, state, seats) -> list[int]:
    """The side of each seat: Karuselis's view lists it; elsewhere a side is a seat."""
    return game.view(state, None).get("sides", list(range(seats)))


def resigned_sides(sides, resigned) -> list[int]:
    """Sides with a resigned seat, in the order their first seat resigned (docs/engine-contract.md: in Karuselis
    partnerships a seat's resignation resigns its side)."""
    return list(dict.fromkeys(sides[seat] for seat in resigned))


def play_random_match(game, seats, seed, check=True, resign=False):  # noqa: C901 - every check of the contract on each event of a random match
    events = game.start(seats, seed)
    state = game.fold(events)
    rng = random.Random(seed)
    plan = resignation_plan(seats, seed) if resign else {}
    resigned: list[int] = []
    moves = []
    cards = Counter(game.all_cards(state))
    totals = card_totals(game, state)  # copies per code: constant, since cards are conserved
    step = 0
    while game.outcome(state) is None:
        assert len(events) <= game.MAX_EVENTS, f"{game.name} did not end within MAX_EVENTS"
        spectator = game.view(state, None)
        actors = spectator["to_act"]
        assert actors, "a running match must have someone to act"
        assert game.to_act(state) == actors, "to_act(state) is the spectator view's to_act"
        if check:
            for s in range(seats):
                legal = game.legal_moves(state, s)
                assert (s in actors) == bool(legal), f"to_act disagrees with legal_moves for seat {s}"
                json.dumps(legal)
        if step in plan:
            # a resignation, in or out of turn, by any seat that has not resigned
            candidates = [s for s in range(seats) if s not in resigned]
            seat, move = candidates[plan[step] % len(candidates)], RESIGN
            assert RESIGN not in game.legal_moves(state, seat), "resign is never listed"
            resigned.append(seat)
        else:
            seat = rng.choice(actors)
            legal = game.legal_moves(state, seat)
            move = rng.choice(legal)
        before = copy.deepcopy(state) if check and (step % 7 == 0 or move is RESIGN) else None
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
        if move is RESIGN:
            assert new[0] == {"type": "seat_resigned", "seat": seat}
            assert game.view(state, None)["resigned"] == resigned
            sides = sides_of(game, state, seats)
            if len(set(sides)) - len(resigned_sides(sides, resigned)) == 1:
                assert game.outcome(state) is not None, "one side left not resigned ends the match"
                assert new[-1]["type"] == "match_ended"
        if check:
            assert Counter(game.all_cards(state)) == cards, "cards are not conserved"
            if game.outcome(state) is None:
                for s in [None, *range(seats)]:
                    v = game.view(state, s)
                    # docs/engine-contract.md "Views": every game's view has these keys; a spectator's hand is []
                    assert set(VIEW_KEYS) <= set(v), sorted(set(VIEW_KEYS) - set(v))
                    if s is None:
                        assert v["hand"] == []
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
    assert game.view(state, None)["to_act"] == [] == game.to_act(state)
    assert all(game.legal_moves(state, s) == [] for s in range(seats))
    # and the scores rank the way score_order says: the first place's score is the best
    order = game.score_order(state_options(events))
    first = [result["scores"][s] for s in result["ranking"][0]]
    rest = [result["scores"][s] for place in result["ranking"][1:] for s in place]
    if rest and not resigned_in(events):
        assert (min(first) >= max(rest)) if order == "higher" else (max(first) <= min(rest)), (order, result)


def state_options(events: list[dict]) -> dict:
    return dict(events[0].get("options") or {})


def resigned_in(events: list[dict]) -> bool:
    return any(e["type"] == "seat_resigned" for e in events)


@pytest.mark.parametrize("name", registry.names())
def test_protocol_every_game_is_the_contract_of_engine_protocol(name):
    """docs/engine-contract.md's surface as code (engine/protocol.py): the calls of a game, and of a searchable game
    where it deals unseen cards; the module attributes; score_order answers for each option value."""
    from engine.protocol import MODULE_ATTRIBUTES, Game, SearchableGame

    game = registry.get(name)
    # given a registered game
    # then it offers every call of the contract, and the searching bots' sampling
    assert isinstance(game, Game)
    assert isinstance(game, SearchableGame)
    module = registry.module(name)
    for attribute in MODULE_ATTRIBUTES:
        assert hasattr(module, attribute), f"{module.__name__} lacks {attribute}"
    assert name == module.GAME
    assert game.score_order(None) in ("higher", "lower")
    # and score_order answers for every choice of every option that has choices
    for option, (default, check) in module.OPTIONS.items():
        for value in (check if isinstance(check, tuple) else (default,)):
            assert game.score_order({option: value}) in ("higher", "lower")


def test_score_order_follows_the_rules_that_count_down():
    """L15: LIVOL's own-hand scoring ranks fewest points first; I10: IOTA's kids' variant ranks by
    cards left, fewest first; everything else ranks most first."""
    assert registry.get("livol").score_order({"variant": "own_hand"}) == "lower"
    assert registry.get("livol").score_order({"variant": "winner_scores"}) == "higher"
    assert registry.get("iota").score_order({"variant": "kids"}) == "lower"
    assert [registry.get(g).score_order(None) for g in ("uno_flip", "karuselis", "iota", "cardavia")] == \
        ["higher"] * 4


def assert_ranking_with_resignations(game, state, seats, resigned):
    """Every seat ranked exactly once; resigned sides last, the latest to resign best among
    them, each side's seats sharing one place; the other sides above them."""
    result = game.outcome(state)
    ranking = result["ranking"]
    ranked = [s for place in ranking for s in place]
    assert sorted(ranked) == list(range(seats)), "every seat is ranked exactly once"
    sides = sides_of(game, state, seats)
    gone = resigned_sides(sides, resigned)
    tail = [sorted(s for s in range(seats) if sides[s] == side) for side in reversed(gone)]
    assert [sorted(p) for p in ranking[len(ranking) - len(tail):]] == tail
    assert game.view(state, None)["resigned"] == resigned
    standing = [side for side in dict.fromkeys(sides) if side not in gone]
    if len(standing) == 1:
        assert ranking[0] == [s for s in range(seats) if sides[s] == standing[0]]


@pytest.mark.parametrize("name,seats,seed", RESIGN_CASES)
def test_protocol_random_play_with_resignations(name, seats, seed):
    game = registry.get(name)
    # given a match played to the end with random legal moves and resignations at random points
    events, moves, state = play_random_match(game, seats, seed, resign=True)
    resigned = [seat for seat, move in moves if move == RESIGN]
    assert resigned
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
    # and the outcome ranks resigned seats last, in reverse order of resigning
    assert_ranking_with_resignations(game, state, seats, resigned)
    # and seat_resigned is public; after the end nobody acts, nor may resign
    assert all(game.redact(e, s) == e for e in events if e["type"] == "seat_resigned" for s in [None, 0])
    assert game.view(state, None)["to_act"] == []
    with pytest.raises(IllegalMove) as err:
        game.play(state, next(s for s in range(seats) if s not in resigned), RESIGN)
    assert err.value.code == "match_over"


@pytest.mark.parametrize("name", registry.names())
def test_protocol_resign_again_or_from_no_seat_is_refused(name):
    game = registry.get(name)
    # the most seats at which one resignation leaves the match running (in Karuselis partnerships a
    # resignation resigns the side, and with two sides the match ends at once)
    seats = max(n for n in SEAT_COUNTS[name] if not (name == "karuselis" and n == 4))
    state = game.fold(game.start(seats, "resign-codes"))
    idle = next(s for s in range(seats) if s not in game.view(state, None)["to_act"])
    for seat in (-1, seats, True, None, "0", 2 ** 70):
        with pytest.raises(IllegalMove) as err:
            game.play(state, seat, RESIGN)
        assert err.value.code == "malformed_move"
    new = game.play(state, idle, RESIGN)
    assert new == [{"type": "seat_resigned", "seat": idle}]
    after = game.apply(state, new[0])
    snapshot = copy.deepcopy(after)
    with pytest.raises(IllegalMove) as err:
        game.play(after, idle, RESIGN)
    assert err.value.code == "already_resigned"
    assert after == snapshot
    # the resigned seat keeps its part: its legal moves and to_act are unchanged
    assert game.view(after, None)["to_act"] == game.view(state, None)["to_act"]
    assert all(game.legal_moves(after, s) == game.legal_moves(state, s) for s in range(seats))


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
def test_protocol_cards_are_codes_in_one_order_in_every_process(name):
    """docs/engine-contract.md: ``cards()`` lists the codes "in a fixed canonical order", the order a seed's deal and a
    stacked deck start from, so a record verifies in another process. Another process, with other string
    hashes, gets the same list: no order comes from a set or a hash."""
    cards = registry.get(name).cards()
    assert cards and all(isinstance(c, str) for c in cards)
    show = "import importlib, json, sys; print(json.dumps(importlib.import_module(sys.argv[1]).game.cards()))"
    for hash_seed in ("1", "2"):
        other = subprocess.run([sys.executable, "-c", show, registry.module(name).__name__], cwd=ROOT,
                               env={**os.environ, "PYTHONHASHSEED": hash_seed}, capture_output=True, text=True,
                               timeout=60)
        assert other.returncode == 0, other.stderr
        assert json.loads(other.stdout) == cards


def test_the_registry_lists_its_games_once_each_in_order():
    """``registry.names()`` is sorted and has no repeats, whatever games are registered (``tests/sixth_game``
    registers one beside the five): the order every per-game table of the site follows."""
    assert registry.names() == sorted(set(registry.names()))

