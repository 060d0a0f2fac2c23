"""The searching bots (``engine/bots/search.py``) and their ladder (``engine/bots/ladder.py``).

A search bot decides from its seat's view, its legal moves and its generator, nothing
else: it cannot peek (one view over two different hidden deals gives one decision), it
decides the same again from the same inputs, it always picks a legal move, and it plays
whole matches. Its worlds come from each game's ``sample_state`` (determinization), which
must give back the seat's view exactly, keep its legal moves and conserve the cards.

Budgets are cut to a few iterations (``small_budgets``) so that the file runs in seconds;
positions come from seeded matches of greedy play with a random move now and then.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import registry
from engine.bots import POLICY_NAMES, SEARCH_LEVELS, choose, ladder, policies_for, search

#: Every registered game: a game registered beside the five (``tests/sixth_game``) is searched here too.
GAMES = registry.names()
#: The seats the positions are played at where a game's fewest do not suit (another game: its ``MIN_SEATS``).
SEATS = {"livol": 3, "uno_flip": 3, "cardavia": 4}
#: Match options that keep a whole match short (another game: its defaults).
SHORT = {"livol": {"target": 100}, "uno_flip": {"target": 100}, "karuselis": {"target": 11},
         "iota": {"variant": "short"}, "cardavia": {"lives": 2}}
SMALL = {"search-easy": 4, "search": 8, "search-strong": 12}


def seats_of(name: str) -> int:
    return SEATS.get(name, registry.get(name).MIN_SEATS)


def searchable(name: str) -> None:
    """Skips a game the search cannot play (no ``sample_state`` method or no greedy bot: random bots only,
    as the contract allows; ``manage.py check`` warns of it, ``games.W001``)."""
    if not search.searchable(name):
        pytest.skip(f"{name} has no searching bots (a sample_state method on its game object and a greedy bot)")


@pytest.fixture
def small_budgets(monkeypatch):
    """Every search level at a few iterations per decision, in every game."""
    for level, iterations in SMALL.items():
        budget(monkeypatch, level, iterations)


def budget(monkeypatch, level: str, iterations: int) -> None:
    """``level`` searches ``iterations`` per decision in every game (for this test)."""
    for name in filter(search.searchable, GAMES):
        monkeypatch.setitem(search.spec_of(name).budgets, level, iterations)


def key(move: dict) -> str:
    return json.dumps(move, sort_keys=True)


def moves_as_set(moves: list[dict]) -> list[str]:
    return sorted(key(m) for m in moves)


def choices(legal: list[dict]) -> int:
    """How many different moves ``legal`` offers (LIVOL lists every play with and without a call)."""
    return len({key({k: v for k, v in m.items() if k != "call"}) for m in legal})


def turn_holder(game, state) -> int:
    acting = game.view(state, None)["to_act"]
    return next((s for s in acting if game.view(state, s).get("turn") == s), acting[0])


def step(game, state, seat: int, move: dict):
    for event in game.play(state, seat, move):
        state = game.apply(state, event)
    return state


def positions(name: str, count: int = 4, seed: str = "search", start: int = 3, every: int = 5,
              options: dict | None = None) -> list[tuple]:
    """``count`` positions ``(state, seat)`` of seeded matches, ``start`` moves in and then at
    least ``every`` moves apart, in which ``seat`` holds the turn and has a choice (of more
    than a call). The seat
    holding the turn moves by the greedy rule, every fourth move at random (so that the
    positions vary); a match that ends is followed by the next seed's."""
    game = registry.get(name)
    found: list[tuple] = []
    match = 0
    while len(found) < count:
        assert match < 20, f"{name}: not enough positions with a choice"
        state = game.fold(game.start(seats_of(name), f"{seed}-{match}", options=options))
        rng = random.Random(f"{seed}-{match}")
        moves, due = 0, start
        while game.outcome(state) is None and len(found) < count:
            seat = turn_holder(game, state)
            view, legal = game.view(state, seat), game.legal_moves(state, seat)
            if moves >= due and choices(legal) > 1 and view.get("turn") == seat:
                found.append((state, seat))
                due = moves + every
            policy = "random" if moves % 4 == 3 else "greedy"
            state = step(game, state, seat, choose(name, policy, view, legal, rng, True))
            moves += 1
        match += 1
    return found


def random_play(name: str, seed: str, moves: int, seats: int | None = None, options: dict | None = None):
    """The states of a seeded match of random play, every seat that may act picked at random
    (so catches, calls, challenges and drawn cards come up), with the seat that moves next."""
    game = registry.get(name)
    state = game.fold(game.start(seats or seats_of(name), seed, options=options))
    rng = random.Random(seed)
    for _ in range(moves):
        if game.outcome(state) is not None:
            return
        seat = rng.choice(game.view(state, None)["to_act"])
        yield state, seat
        state = step(game, state, seat, rng.choice(game.legal_moves(state, seat)))


def other_hands(name: str, state, seat: int) -> list[list[str]]:
    """What ``seat`` cannot see of the other hands: each other seat's cards, sorted."""
    game = registry.get(name)
    return [sorted(game.view(state, t)["hand"]) for t in range(seats_of(name)) if t != seat]


def other_deal(name: str, state, seat: int):
    """A state that ``seat`` cannot tell from ``state`` (the same view) in which the other seats
    hold other cards; None when every sample deals them the same (all their cards are known)."""
    game = registry.get(name)
    view = game.view(state, seat)
    legal = game.legal_moves(state, seat)
    for k in range(1, 6):
        sample = game.sample_state(view, seat, random.Random(k), legal)
        if other_hands(name, sample, seat) != other_hands(name, state, seat):
            return sample
    return None


# --------------------------------------------------------------------------
# Determinization: ``sample_state``
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_a_sampled_state_gives_back_the_seats_view(name):
    searchable(name)
    game = registry.get(name)
    for state, _ in positions(name, count=4):
        for seat in range(seats_of(name)):           # the seat holding the turn and every other
            view = game.view(state, seat)
            legal = game.legal_moves(state, seat)
            for k in range(3):
                sample = game.sample_state(view, seat, random.Random(k), legal)
                assert game.view(sample, seat) == view


@pytest.mark.parametrize("name", GAMES)
def test_a_sampled_state_gives_back_the_view_in_every_phase_of_random_play(name):
    searchable(name)
    # random play reaches what greedy play seldom does: catches and calls, a Wild Draw Four
    # to answer, a drawn card to play or keep, a starter's colour to name
    game = registry.get(name)
    phases = Counter()
    for i in range(2):
        for state, seat in random_play(name, f"phases-{i}", 120):
            phases[getattr(state, "phase", None)] += 1
            view = game.view(state, seat)
            sample = game.sample_state(view, seat, random.Random(i), game.legal_moves(state, seat))
            assert game.view(sample, seat) == view, getattr(state, "phase", None)
    if name == "livol":
        assert {"play", "drawn", "respond"} <= set(phases)
    if name == "uno_flip":
        assert {"play", "drawn", "challenge"} <= set(phases)


@pytest.mark.parametrize("name", GAMES)
def test_a_sampled_state_keeps_the_seats_legal_moves(name):
    searchable(name)
    # as a set: UNO FLIP lists a seat's plays in the order of its hand as dealt and drawn,
    # which the view (sorted) does not show; the search sorts the moves (see below)
    game = registry.get(name)
    for state, seat in positions(name, count=4):
        view, legal = game.view(state, seat), game.legal_moves(state, seat)
        for k in range(3):
            sample = game.sample_state(view, seat, random.Random(k), legal)
            assert moves_as_set(game.legal_moves(sample, seat)) == moves_as_set(legal)


@pytest.mark.parametrize("name,options", [(name, None) for name in GAMES] + [("iota", {"variant": "kids"})])
def test_a_sampled_state_conserves_the_cards(name, options):
    searchable(name)
    # IOTA's ``short`` variant is left out on purpose: its deck is 32 faces drawn from the 64,
    # which nobody sees, so a sample deals unseen faces from all of them (I10). So does a game that
    # leaves part of its deck out of play unseen (Tally's undealt cards): the same number of cards, from
    # the deck
    game = registry.get(name)
    for state, seat in positions(name, count=3, options=options):
        view = game.view(state, seat)
        sample = game.sample_state(view, seat, random.Random(1), game.legal_moves(state, seat))
        if len(game.all_cards(state)) == len(game.cards()):
            assert Counter(game.all_cards(sample)) == Counter(game.all_cards(state))
        else:
            assert len(game.all_cards(sample)) == len(game.all_cards(state))
            assert not Counter(game.all_cards(sample)) - Counter(game.cards())


@pytest.mark.parametrize("name", GAMES)
def test_a_sampled_state_deals_the_unseen_cards_by_its_generator(name):
    searchable(name)
    game = registry.get(name)
    dealt = set()
    for state, seat in positions(name, count=3):
        view, legal = game.view(state, seat), game.legal_moves(state, seat)
        again = [game.sample_state(view, seat, random.Random(5), legal) for _ in range(2)]
        assert again[0] == again[1]
        dealt.add(other_deal(name, state, seat) is not None)
    assert True in dealt, "different generators never dealt the other hands differently"


# --------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------

class Counting(search.Search):
    """The search, keeping how many iterations each decision ran (none: a single candidate)."""
    iterations_run: list[int] = []

    def decide(self, view, legal, seat):
        move = super().decide(view, legal, seat)
        Counting.iterations_run.append(self.stats["iterations"])
        return move


@pytest.mark.parametrize("name", GAMES)
def test_the_search_bot_cannot_peek(name, monkeypatch):
    searchable(name)
    # given one view over two different hidden deals
    budget(monkeypatch, "search", 24)
    monkeypatch.setattr(search, "Search", Counting)
    Counting.iterations_run = []
    game = registry.get(name)
    policy = policies_for(name)["search"]
    compared = 0
    for state, seat in positions(name, count=4):
        other = other_deal(name, state, seat)
        if other is None:
            continue
        view, other_view = game.view(state, seat), game.view(other, seat)
        legal, other_legal = game.legal_moves(state, seat), game.legal_moves(other, seat)
        assert other_view == view
        assert other_hands(name, other, seat) != other_hands(name, state, seat)
        assert moves_as_set(other_legal) == moves_as_set(legal)
        # when the search bot decides from each with the same generator
        move = policy(view, legal, random.Random(7), True)
        other_move = policy(other_view, other_legal, random.Random(7), True)
        # then it decides the same
        assert move == other_move
        compared += 1
    assert compared >= 2
    assert any(Counting.iterations_run), "no position called for a search"


@pytest.mark.parametrize("name", GAMES)
def test_the_search_decides_the_same_from_the_same_view_moves_and_seed(name, monkeypatch):
    searchable(name)
    budget(monkeypatch, "search", 24)
    game = registry.get(name)
    policy = policies_for(name)["search"]
    for state, seat in positions(name, count=3):
        view, legal = game.view(state, seat), game.legal_moves(state, seat)
        decisions = [policy(view, legal, random.Random("same"), True) for _ in range(3)]
        assert decisions[0] in legal
        assert decisions == [decisions[0]] * 3


@pytest.mark.parametrize("name", GAMES)
def test_the_search_decision_does_not_depend_on_the_order_of_the_legal_moves(name, monkeypatch):
    searchable(name)
    budget(monkeypatch, "search", 16)
    game = registry.get(name)
    policy = policies_for(name)["search"]
    for state, seat in positions(name, count=3):
        view, legal = game.view(state, seat), game.legal_moves(state, seat)
        shuffled = list(legal)
        random.Random(3).shuffle(shuffled)
        assert policy(view, legal, random.Random(1), True) == policy(view, shuffled[::-1], random.Random(1), True)


@pytest.mark.parametrize("name", GAMES)
def test_the_search_plays_every_iteration_in_a_world_where_its_moves_are_legal(name):
    searchable(name)
    game = registry.get(name)
    searched = 0
    for state, seat in positions(name, count=3):
        view, legal = game.view(state, seat), game.legal_moves(state, seat)
        decider = search.Search(name, 8, random.Random(2))
        move = decider.decide(view, legal, seat)
        assert move in legal
        assert decider.stats["inconsistent"] == 0
        if decider.stats["iterations"]:           # none when a single candidate is left
            done = decider.stats["iterations"]
            plies = decider.spec.plies_per_iteration
            # every iteration of the budget, unless the game bounds the plies and they were played
            assert done == 8 or (plies is not None and done < 8 and decider.stats["plies"] >= 8 * plies)
            assert sum(child.visits for child in decider.root.children.values()) == done
            searched += 1
    assert searched, "no position called for a search"


@pytest.mark.parametrize("name", GAMES)
def test_every_level_is_registered_for_every_game(name):
    searchable(name)
    assert set(POLICY_NAMES) <= set(policies_for(name))
    assert set(SEARCH_LEVELS) == set(search.LEVELS)
    budgets = search.spec_of(name).budgets
    assert [budgets[level] for level in SEARCH_LEVELS] == sorted(budgets[level] for level in SEARCH_LEVELS), \
        "stronger levels search more"


@pytest.mark.parametrize("name", GAMES)
def test_every_level_chooses_a_legal_move(name, small_budgets):
    searchable(name)
    game = registry.get(name)
    for state, seat in positions(name, count=4, seed="legal"):
        view, legal = game.view(state, seat), game.legal_moves(state, seat)
        for level in POLICY_NAMES:
            move = choose(name, level, view, legal, random.Random(f"{level}"), True)
            assert move in legal, (level, move)


@pytest.mark.parametrize("name", GAMES)
def test_the_search_bot_plays_whole_matches(name, small_budgets):
    searchable(name)
    policies = ["search", "greedy", "search-easy", "random"][:seats_of(name)]
    timing: dict = {}
    outcome = ladder.play_match(name, policies, f"whole-{name}", f"whole-{name}", SHORT.get(name), timing)
    assert outcome is not None
    assert sorted(s for place in outcome["ranking"] for s in place) == list(range(len(policies)))
    assert timing["search"].moves > 0


def urgent_positions(name: str) -> list[tuple]:
    """Positions of random play where a seat may catch or call: (state, seat, holds the turn)."""
    game = registry.get(name)
    found: dict = {}
    for i in range(10):
        for state, _ in random_play(name, f"urgent-{i}", 400):
            for seat in game.view(state, None)["to_act"]:
                kinds = {m["type"] for m in game.legal_moves(state, seat)}
                if kinds & {"catch", "call"}:
                    found.setdefault(game.view(state, seat).get("turn") == seat, (state, seat))
            if len(found) == 2:
                return [(state, seat, turn) for turn, (state, seat) in found.items()]
    return [(state, seat, turn) for turn, (state, seat) in found.items()]


@pytest.mark.parametrize("name", ["livol", "uno_flip"])
def test_a_catch_or_call_on_offer_is_decided_by_the_greedy_rule_without_a_search(name, monkeypatch):
    def no_search(*args, **kwargs):
        raise AssertionError("searched a move the greedy rule makes")

    monkeypatch.setattr(search, "Search", no_search)
    game = registry.get(name)
    greedy = policies_for(name)["greedy"]
    found = urgent_positions(name)
    assert {turn for _, _, turn in found} == {True, False}, "no catch or call on offer, in or out of turn"
    for state, seat, turn in found:
        view, legal = game.view(state, seat), game.legal_moves(state, seat)
        for level in SEARCH_LEVELS:
            move = choose(name, level, view, legal, random.Random(4), turn)
            assert move == greedy(view, legal, random.Random(4), turn)


@pytest.mark.parametrize("name", GAMES)
def test_out_of_turn_the_search_bot_makes_only_the_greedy_rules_moves(name, monkeypatch):
    searchable(name)
    def no_search(*args, **kwargs):
        raise AssertionError("searched out of turn")

    monkeypatch.setattr(search, "Search", no_search)
    game = registry.get(name)
    greedy = policies_for(name)["greedy"]
    for state, turn in positions(name, count=2):
        for seat in range(seats_of(name)):
            legal = game.legal_moves(state, seat)
            if seat == turn or not legal:
                continue
            view = game.view(state, seat)
            assert choose(name, "search", view, legal, random.Random(6), False) == \
                greedy(view, legal, random.Random(6), False)


def test_a_single_legal_move_is_played_without_a_search(monkeypatch):
    def no_search(*args, **kwargs):
        raise AssertionError("searched a forced move")

    monkeypatch.setattr(search, "Search", no_search)
    move = {"type": "draw"}
    view = {"turn": 0, "hand": ["R5"]}
    assert choose("livol", "search", view, [move], random.Random(0), True) == move


# --------------------------------------------------------------------------
# The ladder
# --------------------------------------------------------------------------

def test_the_ladder_pairs_each_level_with_the_one_below_strongest_first():
    assert ladder.pairs(["greedy", "search", "random"]) == [("search", "greedy"), ("greedy", "random")]
    assert ladder.pairs(list(POLICY_NAMES))[0] == ("search-strong", "search")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_ladder_seats_both_levels_in_every_position_over_two_matches(seats):
    first, second = ladder.seating(("a", "b"), seats, 0), ladder.seating(("a", "b"), seats, 1)
    assert first == ["a", "b", "a", "b"][:seats]
    assert [{x, y} for x, y in zip(first, second)] == [{"a", "b"}] * seats


def test_the_ladders_interval_holds_the_share():
    low, high = ladder.wilson(30, 40)
    assert low < 30 / 40 < high
    assert ladder.wilson(0, 0) == (0.0, 1.0)
    assert ladder.wilson(0, 10)[0] == 0.0 and ladder.wilson(10, 10)[1] == 1.0


def test_a_ladder_duel_gives_every_match_one_first_place():
    row = ladder.duel("karuselis", "greedy", "random", 2, seed="t", options={"target": 11})
    assert row.matches == 2
    assert row.first + row.opponent_first == 2
    assert set(row.timing) == {"greedy", "random"}
    text = ladder.table([row])
    assert text.splitlines()[0].split()[:4] == ["game", "level", "opponent", "matches"]
    assert text.splitlines()[2].split()[:4] == ["karuselis", "greedy", "random", "2"]


@pytest.mark.parametrize("hand,calls", [(["R1", "R2", "G5", "B7", "Y3"], False), (["R1", "R2"], True)])
def test_the_search_bot_calls_livol_only_with_a_play_that_leaves_one_card(hand, calls):
    """L10: a call with the play counts only if the play leaves one card; the bot's candidates carry
    it exactly then (so the log never says "called LIVOL!" of a seat with five cards left)."""
    legal = [{"type": "play", "card": "R1"}, {"type": "play", "card": "R1", "call": True},
             {"type": "play", "card": "R2"}, {"type": "play", "card": "R2", "call": True}, {"type": "draw"}]
    candidates = search.spec_of("livol").candidates({"hand": hand}, legal, random.Random(1))
    plays = [m for m in candidates if m["type"] == "play"]
    assert [m["card"] for m in plays] == ["R1", "R2"]
    assert all(bool(m.get("call")) is calls for m in plays)
    assert {"type": "draw"} in candidates


def decided(name: str, seed: str, iterations: int):
    """(state, seat, the search that decided there) at three positions of seeded matches; each decision legal."""
    game = registry.get(name)
    for state, seat in positions(name, count=3, seed=seed):
        view, legal = game.view(state, seat), game.legal_moves(state, seat)
        decider = search.Search(name, iterations, random.Random(seed))
        assert decider.decide(view, legal, seat) in legal
        yield state, seat, decider


@pytest.mark.parametrize("name", GAMES)
def test_a_game_that_declares_no_search_spec_is_searched_from_the_contract(name, monkeypatch):
    """docs/engine-contract.md's contract alone (``to_act``, ``outcome``, ``score_order``, the view's ``scores``) is enough to
    search a game that has a greedy bot and ``sample_state``: every world consistent, every decision legal."""
    searchable(name)
    spec = search.contract_spec(name)
    spec.budgets["search"] = 8
    monkeypatch.setattr(search, "spec_of", lambda game_name: spec)
    searched = 0
    for state, seat, decider in decided(name, "contract", 8):
        assert decider.stats["inconsistent"] == 0
        searched += bool(decider.stats["iterations"])
        assert 0.0 <= spec.reward(state, state, [], seat) <= 1.0
    assert searched, "no position called for a search"


@pytest.mark.parametrize("name", ["livol", "uno_flip"])
def test_a_decision_stops_once_it_has_played_its_plies(name, monkeypatch):
    """Where rollouts run long (a round's first turns), a decision plays at most ``iterations ×
    plies_per_iteration`` plies (plus the iteration that crossed the bound): its time is bounded by a count."""
    monkeypatch.setattr(search.spec_of(name), "plies_per_iteration", 10)
    bounded = 0
    for _state, _seat, decider in decided(name, "plies", 40):
        if decider.stats["iterations"]:
            assert decider.stats["plies"] < 40 * 10 + search.spec_of(name).max_plies
            bounded += decider.stats["iterations"] < 40
    assert bounded, "no decision reached its bound of plies"
