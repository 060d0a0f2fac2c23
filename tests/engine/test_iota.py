"""IOTA (tests/fixtures/rules/iota.md): one test per rule I1–I10 and the published examples.

Positions are built with stacked decks (seat 0's four cards, seat 1's, …, the starter,
then the stock top first) and real moves; seat 1 passes while seat 0 builds the grid.
A few end-of-stock positions are reached with ``dataclasses.replace`` (named ``rig``)
instead of fifty scripted turns.
"""
from __future__ import annotations

import copy
import itertools
import json
import random
from dataclasses import replace

import pytest

from engine import IllegalMove, registry
from engine.iota import (
    CARDS,
    FACES,
    FULL,
    INDEX,
    WILDS,
    enumerate_plays,
    fitting_faces,
    is_valid_line,
    placement_problem,
    score_play,
    touched_lines,
    turn_score,
    view_scorer,
    wild_candidates,
)
from engine.iota import game as GAME

SEED = "iota-test-seed"
PASS = {"type": "pass", "return": []}
FILLER = ["R4S", "R4T", "R4X", "Y4C"]


def stack(hands, starter, stock=()):
    front = [c for h in hands for c in h] + [starter] + list(stock)
    assert len(set(front)) == len(front)
    return front + [c for c in CARDS if c not in front]


def begin(hands, starter, stock=(), **options):
    return GAME.fold(GAME.start(len(hands), SEED, options or None, deck=stack(hands, starter, stock)))


def act(state, seat, move):
    events = GAME.play(state, seat, move)
    for e in events:
        state = GAME.apply(state, e)
    return state, events


def play(*cards):
    return {"type": "play", "cards": [{"card": c, "x": x, "y": y} for c, x, y in cards]}


def refused(state, seat, move):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, seat, move)
    assert state == before
    return err.value.code, err.value.rule


def grid_of(state):
    return {(p["x"], p["y"]): p["card"] for p in GAME.view(state, None)["grid"]}


def rig(state, **changes):
    """A shortcut to the end of the stock: change the state directly."""
    return replace(state, **changes)


def brute_force_plays(grid, hand):
    """Every legal placement, by trying every cell set near the grid with ``placement_problem``."""
    xs = [x for x, _ in grid]
    ys = [y for _, y in grid]
    cols = range(min(xs) - 4, max(xs) + 5)
    rows = range(min(ys) - 4, max(ys) + 5)
    found = set()
    for x in cols:
        for y in rows:
            for h in hand:
                if (x, y) not in grid and placement_problem(grid, {(x, y): h}) is None:
                    found.add((((x, y), h),))
    for horizontal in (True, False):
        for lane in rows if horizontal else cols:
            for s in cols if horizontal else rows:
                for k in range(2, min(4, len(hand)) + 1):
                    for rest in itertools.combinations(range(s + 1, s + 4), k - 1):
                        cells = [(t, lane) if horizontal else (lane, t) for t in (s, *rest)]
                        if any(c in grid for c in cells):
                            continue
                        for cards in itertools.permutations(hand, k):
                            placed = dict(zip(cells, cards))
                            if placement_problem(grid, placed) is None:
                                found.add(tuple(sorted(placed.items())))
    return found


# --------------------------------------------------------------------------
# I1 cards and seats
# --------------------------------------------------------------------------

def test_I1_sixty_four_unique_cards_two_wilds_and_two_to_four_seats():
    cards = GAME.cards()
    assert len(cards) == 66 and len(set(cards)) == 66
    assert cards[:3] == ["R1C", "R1S", "R1T"] and cards[-3:] == ["B4X", "W1", "W2"]
    assert {c[0] for c in cards[:64]} == set("RYGB")
    assert {c[1] for c in cards[:64]} == set("1234")
    assert {c[2] for c in cards[:64]} == set("CSTX")
    assert registry.get("iota") is GAME
    for seats in (1, 5):
        with pytest.raises(ValueError):
            GAME.start(seats, SEED)
    for seats in (2, 3, 4):
        state = GAME.fold(GAME.start(seats, SEED))
        assert GAME.view(state, None)["hand_sizes"] == [4] * seats
    with pytest.raises(ValueError):
        GAME.start(2, SEED, {"variant": "tiny"})


# --------------------------------------------------------------------------
# I2 wilds
# --------------------------------------------------------------------------

def _wild_row():
    """Seat 0 lays W1 next to the starter R1C, seat 1 passes, seat 0 adds G3T."""
    state = begin([["W1", "G3T", "Y2S", "B4X"], ["B2S", "R2C", "Y3T", "G4C"]], "R1C", FILLER)
    state, events = act(state, 0, play(("W1", 1, 0)))
    return state, events


def test_I2_a_wild_has_face_value_zero_and_keeps_its_exact_candidates():
    state, events = _wild_row()
    # a line of the starter and a wild scores the starter only
    assert events[0]["score"] == 1
    wild = [p for p in GAME.view(state, 0)["grid"] if p["card"] == "W1"][0]
    assert len(wild["candidates"]) == 63 and "R1C" not in wild["candidates"]
    state, _ = act(state, 1, PASS)
    state, events = act(state, 0, play(("G3T", 2, 0)))
    assert events[0]["score"] == 1 + 0 + 3
    wild = GAME.view(state, 1)["grid"][1]
    assert wild == {"card": "W1", "x": 1, "y": 0, "candidates": [
        "Y2S", "Y2X", "Y4S", "Y4X",
        "B2S", "B2X", "B4S", "B4X"]}
    # a card elsewhere on the grid does not matter, a card in its lines does
    state, _ = act(state, 1, PASS)
    state, _ = act(state, 0, play(("Y2S", 1, 1)))
    wild = GAME.view(state, 1)["grid"][1]
    assert len(wild["candidates"]) == 7 and "Y2S" not in wild["candidates"]


def test_I2_a_placement_must_leave_every_wild_an_identity():
    state, _ = _wild_row()
    state, _ = act(state, 1, PASS)
    state, _ = act(state, 0, play(("G3T", 2, 0)))
    state, _ = act(state, 1, PASS)
    # the column W1, Y2S, B4X needs a red or green wild; the row needs yellow or blue
    assert refused(state, 0, play(("Y2S", 1, 1), ("B4X", 1, 2))) == ("wild_without_identity", "I2")
    assert not any(m["type"] == "play" and len(m["cards"]) == 2
                   and {p["card"] for p in m["cards"]} == {"Y2S", "B4X"}
                   and all(p["x"] == 1 for p in m["cards"]) for m in GAME.legal_moves(state, 0))


def test_I2_two_wilds_in_one_line_are_solved_together():
    state = begin([["W1", "W2", "G3T", "Y1C"], FILLER], "R1C", ["Y4X", "B1T", "B2T"])
    state, events = act(state, 0, play(("W1", 1, 0), ("W2", 2, 0), ("G3T", 3, 0)))
    assert events[0]["score"] == (1 + 0 + 0 + 3) * 2          # a lot
    state, _ = act(state, 1, PASS)
    state, events = act(state, 0, play(("Y1C", 1, 1), ("Y4X", 1, 2)))
    assert events[0]["score"] == 0 + 1 + 4
    grid = GAME.view(state, None)["grid"]
    # the column pins W1 to a yellow 2 or 3, square or triangle: with the row, Y2S;
    # then the row leaves W2 only B4X
    assert grid[1] == {"card": "W1", "x": 1, "y": 0, "candidates": ["Y2S"]}
    assert grid[2] == {"card": "W2", "x": 2, "y": 0, "candidates": ["B4X"]}
    # the same by brute force over every pair of identities
    cells = {(p["x"], p["y"]): INDEX[p["card"]] for p in grid}
    pairs = set()
    for a, b in itertools.product(range(FACES), repeat=2):
        trial = {**cells, (1, 0): a, (2, 0): b}
        if all(is_valid_line([trial[c] for c in line]) for line in touched_lines(trial.get, [(1, 0), (2, 0)])):
            pairs.add((a, b))
    assert pairs == {(INDEX["Y2S"], INDEX["B4X"])}


def test_I2_the_quick_check_of_two_wilds_in_one_line_agrees_with_solving_them():
    # given a line of one or two faces and two wilds, each wild allowed some identities by
    # its cross line (none, the line's own fits, another line's fits, random sets)
    from engine.iota import _PACK, _wilds_pair_fit, wild_pair

    rng = random.Random(7)
    checked = 0
    while checked < 3000:
        faces = tuple(sorted(rng.sample(range(FACES), rng.choice((1, 2)))))
        if not is_valid_line(faces):
            continue
        alone = fitting_faces(faces)
        other = fitting_faces(tuple(sorted(rng.sample(range(FACES), 2))))
        first, second = (rng.choice((FULL, alone, other, rng.getrandbits(64) & rng.getrandbits(64)))
                         for _ in range(2))
        packed = 0
        for f in faces:
            packed |= _PACK[f]
        # then the check and the joint solution agree
        assert _wilds_pair_fit(len(faces), packed, first, second, alone) == bool(
            wild_pair(faces, first, second, check_only=True)[0]), (faces, first, second)
        checked += 1


def test_I2_fitting_faces_completes_a_line():
    assert fitting_faces(()) == FULL
    assert fitting_faces((INDEX["R1C"],)) == FULL & ~(1 << INDEX["R1C"])
    both = fitting_faces(tuple(sorted((INDEX["R1C"], INDEX["G3T"]))))
    assert sorted(CARDS[i] for i in range(FACES) if both >> i & 1) == [
        "B2S", "B2X", "B4S", "B4X", "Y2S", "Y2X", "Y4S", "Y4X"]
    assert fitting_faces(tuple(sorted((INDEX["R1C"], INDEX["R2C"], INDEX["B3C"])))) == 0
    assert wild_candidates({(0, 0): INDEX["R1C"], (1, 0): 64}.get, [(1, 0)]) == [
        FULL & ~(1 << INDEX["R1C"])]


# --------------------------------------------------------------------------
# I3 lines
# --------------------------------------------------------------------------

def test_I3_each_property_is_the_same_on_all_cards_or_different_on_all():
    ids = lambda text: [INDEX[c] for c in text.split()]  # noqa: E731
    assert is_valid_line(ids("R1C B4S"))                       # any two cards
    assert is_valid_line(ids("R1C R2C R3C R4C"))               # colour and shape same, numbers all different
    assert is_valid_line(ids("R1C Y2S G3T B4X"))               # everything different
    assert not is_valid_line(ids("R1C R2S B3T"))               # two reds and a blue
    assert not is_valid_line(ids("B4S Y2T R2C"))               # the FAQ: two 2s and a 4
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X")
    assert refused(state, 0, play(("B4S", 1, 0), ("Y2T", 1, 1), ("R2C", 1, 2))) == ("invalid_line", "I3")


def test_I3_no_line_may_be_longer_than_four():
    assert not is_valid_line([INDEX[c] for c in ("R1C", "R2C", "R3C", "R4C", "R1S")])
    state = begin([["R2C", "R3C", "R4C", "Y4X"], FILLER], "R1C", ["G4S", "B4T", "Y1S"])
    state, events = act(state, 0, play(("R2C", 1, 0), ("R3C", 2, 0), ("R4C", 3, 0)))
    assert events[0]["lots"] == 1
    state, _ = act(state, 1, PASS)
    assert refused(state, 0, play(("Y4X", 4, 0))) == ("line_too_long", "I3")
    assert refused(state, 0, play(("Y4X", -1, 0))) == ("line_too_long", "I3")
    assert not [m for m in GAME.legal_moves(state, 0)
                if m["type"] == "play" and any(p["y"] == 0 for p in m["cards"])]


# --------------------------------------------------------------------------
# I4 the deal
# --------------------------------------------------------------------------

def test_I4_four_cards_each_the_starter_at_the_origin_and_seat_zero_starts():
    state = begin([["R1C", "R1S", "R1T", "R1X"], ["Y1C", "Y1S", "Y1T", "Y1X"], ["G1C", "G1S", "G1T", "G1X"]],
                  "B2C", ["B3C", "B4C"])
    view = GAME.view(state, 1)
    assert view["hand"] == ["Y1C", "Y1S", "Y1T", "Y1X"]
    assert view["grid"] == [{"card": "B2C", "x": 0, "y": 0}]
    assert view["turn"] == 0 and view["to_act"] == [0]
    assert view["stock_size"] == 66 - 12 - 1
    assert state.stock[:2] == ("B3C", "B4C")
    assert GAME.legal_moves(state, 1) == []


def test_I4_a_wild_turned_as_the_starter_goes_under_the_stock():
    state = begin([FILLER, ["R1C", "R1S", "R1T", "R1X"]], "W2", ["W1", "G3T", "B1C"])
    assert grid_of(state) == {(0, 0): "G3T"}
    assert state.stock[0] == "B1C" and state.stock[-2:] == ("W2", "W1")
    assert len(GAME.all_cards(state)) == 66


# --------------------------------------------------------------------------
# I5 a turn
# --------------------------------------------------------------------------

def test_I5_a_play_lies_in_one_row_or_column_connected_to_the_grid():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X")
    assert refused(state, 0, play(("B4S", 1, 0), ("Y2T", 0, 1))) == ("not_in_one_line", "I5")
    assert refused(state, 0, play(("B4S", 2, 0))) == ("not_connected", "I5")
    assert refused(state, 0, play(("B4S", 0, 0))) == ("cell_taken", "I5")
    assert refused(state, 0, play(("B4S", 1, 0), ("Y2T", 3, 0))) == ("gap_in_line", "I5")
    assert refused(state, 0, play(("R1C", 1, 0)))[0] == "card_not_in_hand"
    assert refused(state, 0, play(("Z9Q", 1, 0)))[0] == "unknown_card"
    assert refused(state, 1, play(("R4S", 1, 0)))[0] == "not_your_turn"
    for bad in ({"type": "play"}, {"type": "play", "cards": []}, {"type": "play", "cards": [{"card": "B4S"}]},
                play(("B4S", 1, 0), ("B4S", 2, 0)), {"type": "dance"}, "play"):
        assert refused(state, 0, bad)[0] == "malformed_move"
    # the gap between placed cards may be filled by a card already there (the FAQ)
    state, events = act(state, 0, play(("B4S", -1, 0), ("Y2T", 1, 0)))
    assert events[0]["cards"] == [{"card": "B4S", "x": -1, "y": 0}, {"card": "Y2T", "x": 1, "y": 0}]
    assert events[0]["score"] == 4 + 3 + 2


def test_I5_after_a_play_the_seat_draws_back_up_to_four():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X", ["G2X", "B1T", "Y3C"])
    state, events = act(state, 0, play(("B4S", 1, 0), ("Y2T", 1, 1)))
    assert events[1] == {"type": "cards_drawn", "seat": 0, "cards": ["G2X", "B1T"]}
    assert state.hands[0] == ("G1C", "R2C", "G2X", "B1T")
    assert GAME.view(state, 0)["stock_size"] == 66 - 8 - 1 - 2
    assert GAME.view(state, None)["turn"] == 1
    assert GAME.redact(events[1], 1) == {"type": "cards_drawn", "seat": 0, "count": 2}


def test_I5_a_pass_may_put_cards_under_the_stock_and_draw_as_many():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X", ["G2X", "B1T", "Y3C"])
    # the order given does not matter: canonical card order under the stock
    state, events = act(state, 0, {"type": "pass", "return": ["Y2T", "R2C"]})
    assert events[0] == {"type": "passed", "seat": 0, "count": 2, "returned": ["R2C", "Y2T"]}
    assert events[1] == {"type": "cards_drawn", "seat": 0, "cards": ["G2X", "B1T"]}
    assert state.hands[0] == ("B4S", "G1C", "G2X", "B1T")
    assert state.stock[0] == "Y3C" and state.stock[-2:] == ("R2C", "Y2T")
    # a card put under the stock is known only to the seat that put it
    assert GAME.redact(events[0], 1) == {"type": "passed", "seat": 0, "count": 2}
    assert GAME.redact(events[0], None) == {"type": "passed", "seat": 0, "count": 2}
    assert GAME.redact(events[0], 0) == events[0]
    assert "R2C" in GAME.hidden_cards(state, 1) and "R2C" not in GAME.hidden_cards(state, 0)
    assert GAME.view(state, None)["passes"] == 1
    # a plain pass; every subset of the hand may go back while the stock is big enough
    passes = [m for m in GAME.legal_moves(state, 1) if m["type"] == "pass"]
    assert len(passes) == 16 and passes[0] == PASS
    assert {"type": "pass", "return": ["R4S", "R4T", "R4X", "Y4C"]} in passes
    state, events = act(state, 1, {"type": "pass"})
    assert events == [{"type": "passed", "seat": 1, "count": 0, "returned": []}]


def test_I5_a_pass_returns_no_more_cards_than_the_stock_holds():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X", ["G2X"])
    state = rig(state, stock=("G2X",))
    passes = [m["return"] for m in GAME.legal_moves(state, 0) if m["type"] == "pass"]
    assert passes == [[], ["R2C"], ["Y2T"], ["G1C"], ["B4S"]]          # canonical card order
    assert refused(state, 0, {"type": "pass", "return": ["R2C", "G1C"]}) == ("stock_too_small", "I5")
    state = rig(state, stock=())
    assert [m for m in GAME.legal_moves(state, 0) if m["type"] == "pass"] == [PASS]


def test_I5_legal_moves_list_each_play_once_with_cards_sorted_by_position():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X")
    legal = GAME.legal_moves(state, 0)
    plays = [m for m in legal if m["type"] == "play"]
    keys = [tuple((p["card"], p["x"], p["y"]) for p in m["cards"]) for m in plays]
    assert len(keys) == len(set(frozenset(k) for k in keys))
    assert all([(p["x"], p["y"]) for p in m["cards"]] == sorted((p["x"], p["y"]) for p in m["cards"])
               for m in plays)
    # one card: four cells × four cards
    assert sum(1 for m in plays if len(m["cards"]) == 1) == 16
    assert {"type": "recycle"} not in [{"type": m["type"]} for m in legal]
    # listed in canonical order, accepted in any order, with the same events
    move = play(("B4S", 1, 0), ("Y2T", 1, 1))
    assert move in legal
    assert GAME.play(state, 0, play(("Y2T", 1, 1), ("B4S", 1, 0))) == GAME.play(state, 0, move)
    for m in legal:
        GAME.play(state, 0, m)


def test_I5_legal_plays_match_a_brute_force_search():
    # given positions from random play, some with wilds in hand and on the grid
    rng = random.Random(5)
    checked = 0
    for _ in range(3):
        faces = list(CARDS[:FACES])
        rng.shuffle(faces)
        state = begin([["W1", *faces[:3]], ["W2", *faces[3:6]]], faces[6], faces[7:])
        for _ in range(6):
            hand = [INDEX[c] for c in state.hands[state.turn]]
            if checked % 2 == 0:
                fast = {tuple(sorted(p)) for p in enumerate_plays(state.grid, hand)}
                assert fast == brute_force_plays(state.grid, hand)
            checked += 1
            legal = GAME.legal_moves(state, state.turn)
            plays = [m for m in legal if m["type"] in ("play", "recycle")]
            state, _ = act(state, state.turn, rng.choice(plays or legal))
    assert checked == 18


# --------------------------------------------------------------------------
# I6 recycling a wild
# --------------------------------------------------------------------------

def test_I6_a_wild_may_be_recycled_once_per_turn_before_playing_or_passing():
    state, _ = _wild_row()
    state, _ = act(state, 1, PASS)
    state, _ = act(state, 0, play(("G3T", 2, 0)))
    # seat 1 holds B2S, one of the wild's eight candidates
    legal = GAME.legal_moves(state, 1)
    recycles = [m for m in legal if m["type"] == "recycle"]
    assert recycles == [{"type": "recycle", "card": "B2S", "x": 1, "y": 0}]
    assert refused(state, 1, {"type": "recycle", "card": "R2C", "x": 1, "y": 0}) == ("card_does_not_fit", "I6")
    assert refused(state, 1, {"type": "recycle", "card": "B2S", "x": 2, "y": 0}) == ("no_wild_there", "I6")
    state, events = act(state, 1, {"type": "recycle", "card": "B2S", "x": 1, "y": 0})
    assert events == [{"type": "wild_recycled", "seat": 1, "card": "B2S", "x": 1, "y": 0, "wild": "W1"}]
    # the replacing card scores nothing; the wild is in hand, and everyone knows it
    assert grid_of(state)[(1, 0)] == "B2S"
    assert state.hands[1] == ("R2C", "Y3T", "G4C", "W1")
    view = GAME.view(state, 0)
    assert view["scores"] == [5, 0] and view["shown"] == [[], ["W1"]] and view["turn"] == 1
    assert "W1" not in GAME.hidden_cards(state, 0)
    # at most once per turn; then play or pass
    assert refused(state, 1, {"type": "recycle", "card": "R2C", "x": 1, "y": 0}) == ("already_recycled", "I6")
    legal = GAME.legal_moves(state, 1)
    assert {m["type"] for m in legal} == {"play", "pass"}
    assert play(("W1", 3, 0)) in legal
    # a recycle followed by a pass is a pass
    state, _ = act(state, 1, PASS)
    assert GAME.view(state, None)["passes"] == 1 and state.recycled is False


# --------------------------------------------------------------------------
# I7, I8 scoring — the published examples
# --------------------------------------------------------------------------

def test_I7_a_card_in_two_lines_counts_twice_the_faq_13_and_14():
    # the FAQ: the starter (a 3), the blue square 4 next to it, a 2 below the 4:
    # (3 + 4) + (4 + 2) = 13, the 4 counted twice
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X")
    events = GAME.play(state, 0, play(("B4S", 1, 0), ("Y2T", 1, 1)))
    assert events[0]["score"] == 13 and events[0]["lots"] == 0
    # adding the green circle 1 to that line, below or above: 14
    assert GAME.play(state, 0, play(("B4S", 1, 0), ("Y2T", 1, 1), ("G1C", 1, 2)))[0]["score"] == 14
    assert GAME.play(state, 0, play(("G1C", 1, -1), ("B4S", 1, 0), ("Y2T", 1, 1)))[0]["score"] == 14
    assert score_play(state, 0, [{"card": "B4S", "x": 1, "y": 0}, {"card": "Y2T", "x": 1, "y": 1}]) == 13
    state, _ = act(state, 0, play(("B4S", 1, 0), ("Y2T", 1, 1)))
    assert GAME.view(state, 1)["scores"] == [13, 0]
    assert GAME.view(state, 1)["last_play"]["score"] == 13


def test_I7_a_two_card_play_touching_three_lines_scores_19():
    # starter G1S at (0, 0); seat 0 first lays R4C below it
    state = begin([["R4C", "B3T", "Y4X", "Y1C"], FILLER], "G1S", ["B2C"])
    state, events = act(state, 0, play(("R4C", 0, 1)))
    assert events[0]["score"] == 1 + 4
    state, _ = act(state, 1, PASS)
    # B3T beside the starter, Y4X beside R4C: the column (3+4), the rows (1+3) and (4+4)
    state, events = act(state, 0, play(("B3T", 1, 0), ("Y4X", 1, 1)))
    assert events[0]["score"] == (3 + 4) + (1 + 3) + (4 + 4) == 19
    assert GAME.view(state, None)["scores"] == [5 + 19, 0]


def test_I8_each_lot_doubles_and_so_does_playing_four_cards():
    # a lot: R1C + Y2S B4X G3T = 10, doubled
    state = begin([["Y2S", "B4X", "G3T", "Y1S"], FILLER], "R1C")
    events = GAME.play(state, 0, play(("Y2S", 1, 0), ("B4X", 2, 0), ("G3T", 3, 0)))
    assert (events[0]["score"], events[0]["lots"]) == (20, 1)
    # four cards in a column beside the starter: a lot and four cards, two doublings
    state = begin([["Y1S", "Y2S", "Y3S", "Y4S"], FILLER], "R1C")
    events = GAME.play(state, 0, play(("Y1S", 1, -1), ("Y2S", 1, 0), ("Y3S", 1, 1), ("Y4S", 1, 2)))
    assert events[0]["score"] == ((1 + 2 + 3 + 4) + (1 + 2)) * 2 * 2 == 52
    # one card completing two lots: doubled twice
    grid = {(0, 0): "R1C", (1, 0): "R2C", (2, 0): "R3C", (3, 1): "Y4S", (3, 2): "G4T", (3, 3): "B4X",
            (3, 0): "R4C"}
    ids = {cell: INDEX[c] for cell, c in grid.items()}
    lines = touched_lines(ids.get, [(3, 0)])
    assert turn_score(ids.get, lines, 1, False) == ((10 + 16) * 4, 2)
    assert turn_score(ids.get, lines, 1, True) == ((10 + 16) * 8, 2)


# --------------------------------------------------------------------------
# I9 the end
# --------------------------------------------------------------------------

def test_I9_the_last_card_on_an_empty_stock_ends_the_game_doubled():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X")
    state = rig(state, stock=(), hands=(("B4S",), state.hands[1]), scores=(3, 20))
    events = GAME.play(state, 0, play(("B4S", 1, 0)))
    assert events[0]["score"] == (3 + 4) * 2 and events[0]["final"] is True
    assert events[1] == {"type": "match_ended", "reason": "last_card", "ranking": [[1], [0]], "scores": [17, 20]}
    for e in events:
        state = GAME.apply(state, e)
    assert GAME.outcome(state) == {"ranking": [[1], [0]], "scores": [17, 20]}
    view = GAME.view(state, None)
    assert view["over"] and view["to_act"] == [] and view["hands"] == [[], FILLER]
    assert GAME.legal_moves(state, 0) == [] and GAME.legal_moves(state, 1) == []
    assert refused(state, 1, PASS)[0] == "match_over"
    # a short hand on an empty stock: no four-card bonus, only the final doubling
    state = begin([["Y1S", "Y2S", "Y3S", "Y4S"], FILLER], "R1C")
    state = rig(state, stock=(), hands=(("Y1S", "Y2S", "Y3S"), state.hands[1]))
    events = GAME.play(state, 0, play(("Y1S", 1, -1), ("Y2S", 1, 0), ("Y3S", 1, 1)))
    assert events[0]["score"] == ((1 + 2 + 3) + (1 + 2)) * 2
    # with cards left in the stock a seat that plays out draws again
    state = begin([["Y1S", "Y2S", "Y3S", "Y4S"], FILLER], "R1C")
    events = GAME.play(state, 0, play(("Y1S", 1, -1), ("Y2S", 1, 0), ("Y3S", 1, 1), ("Y4S", 1, 2)))
    assert [e["type"] for e in events] == ["cards_played", "cards_drawn"] and events[0]["final"] is False


def test_I9_the_game_ends_when_every_seat_has_passed_twice_in_a_row():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER, ["G2S", "G3S", "G4S", "B1T"]], "R3X")
    state, _ = act(state, 0, PASS)
    state, _ = act(state, 1, {"type": "pass", "return": ["R4S"]})      # an exchange is a pass
    state, _ = act(state, 2, PASS)
    state, _ = act(state, 0, play(("B4S", 1, 0)))                       # a play starts the count again
    assert GAME.view(state, None)["passes"] == 0
    for seat in (1, 2, 0, 1, 2):
        state, events = act(state, seat, PASS)
        assert GAME.outcome(state) is None
    state, events = act(state, 0, PASS)
    assert events[-1] == {"type": "match_ended", "reason": "all_passed", "ranking": [[0], [1, 2]],
                          "scores": [7, 0, 0]}


# --------------------------------------------------------------------------
# I10 variants
# --------------------------------------------------------------------------

def test_I10_short_uses_32_random_faces_and_both_wilds():
    state = GAME.fold(GAME.start(3, SEED, {"variant": "short"}))
    cards = GAME.all_cards(state)
    assert len(cards) == 34 and len(set(cards)) == 34 and set(WILDS) <= set(cards)
    assert GAME.view(state, None)["stock_size"] == 34 - 12 - 1
    other = GAME.fold(GAME.start(3, "another seed", {"variant": "short"}))
    assert set(GAME.all_cards(other)) != set(cards)
    deck = ["W1", "W2"] + list(CARDS[:32])
    state = GAME.fold(GAME.start(2, SEED, {"variant": "short"}, deck=deck))
    assert state.hands[0] == ("W1", "W2", "R1C", "R1S") and grid_of(state) == {(0, 0): "R2T"}
    for bad in (list(CARDS), deck[:-1], list(CARDS[:34]), deck[:-1] + ["W1"]):
        with pytest.raises(ValueError):
            GAME.start(2, SEED, {"variant": "short"}, deck=bad)


def test_I10_kids_keep_no_score_and_rank_by_cards_left():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X", variant="kids")
    state, events = act(state, 0, play(("B4S", 1, 0), ("Y2T", 1, 1)))
    assert events[0]["score"] == 0 and GAME.view(state, 0)["scores"] == [0, 0]
    state = rig(state, stock=(), hands=(("G1C",), ("R4S", "R4T")))
    state, _ = act(state, 1, PASS)
    state, events = act(state, 0, play(("G1C", 1, 2)))
    assert events[-1] == {"type": "match_ended", "reason": "last_card", "ranking": [[0], [1]], "scores": [0, 2]}


# --------------------------------------------------------------------------
# Resigning (docs/engine-contract.md "Resigning (every game)")
# --------------------------------------------------------------------------

RESIGN = {"type": "resign"}
HANDS3 = [["B4S", "Y2T", "G1C", "R2C"], FILLER, ["G2S", "G3S", "G4S", "B1T"]]


def test_resign_is_never_a_legal_move_listed_and_legal_out_of_turn():
    state = begin(HANDS3, "R3X")
    assert all(RESIGN not in GAME.legal_moves(state, s) for s in range(3))
    state, events = act(state, 2, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 2}]
    view = GAME.view(state, 2)
    assert view["resigned"] == [2] and view["to_act"] == [0] and view["hand"] == HANDS3[2]
    # the resigned seat keeps its cards and its turns
    state, _ = act(state, 0, PASS)
    state, _ = act(state, 1, PASS)
    assert GAME.view(state, None)["to_act"] == [2] and GAME.legal_moves(state, 2)


def test_resigning_leaves_one_seat_and_ends_the_match():
    state = begin(HANDS3, "R3X")
    state, _ = act(state, 0, play(("B4S", 1, 0)))
    state, _ = act(state, 0, RESIGN)
    state, events = act(state, 1, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 1},
                      {"type": "match_ended", "reason": "resigned", "ranking": [[2], [1], [0]],
                       "scores": [7, 0, 0]}]
    assert GAME.outcome(state) == {"ranking": [[2], [1], [0]], "scores": [7, 0, 0]}
    view = GAME.view(state, None)
    assert view["over"] and view["to_act"] == [] and view["outcome"] == GAME.outcome(state)
    assert refused(state, 2, RESIGN)[0] == "match_over"


def test_a_resigned_seat_ranks_below_all_others():
    state = begin(HANDS3, "R3X")
    state = rig(state, stock=(), hands=(("B4S",), state.hands[1], state.hands[2]), scores=(30, 20, 10))
    state, _ = act(state, 0, RESIGN)
    state, events = act(state, 0, play(("B4S", 1, 0)))
    assert events[-1] == {"type": "match_ended", "reason": "last_card", "ranking": [[1], [2], [0]],
                          "scores": [44, 20, 10]}
    assert GAME.outcome(state)["ranking"] == [[1], [2], [0]]


def test_latest_to_resign_ranks_best_among_resigned():
    state = begin(HANDS3 + [["Y1C", "Y3C", "Y4T", "B2X"]], "R3X")
    state = rig(state, stock=(), hands=(("B4S",), *state.hands[1:]), scores=(30, 20, 10, 5))
    state, _ = act(state, 2, RESIGN)
    state, _ = act(state, 0, RESIGN)
    state, events = act(state, 0, play(("B4S", 1, 0)))
    assert events[-1]["ranking"] == [[1], [3], [0], [2]]


def test_kids_rank_resigned_seats_below_all_others_too():
    state = begin(HANDS3, "R3X", variant="kids")
    state = rig(state, stock=(), hands=(("G1C",), ("R4S", "R4T"), ("G2S", "G3S", "G4S")))
    state, _ = act(state, 0, RESIGN)
    state, events = act(state, 0, play(("G1C", 1, 0)))
    assert events[-1] == {"type": "match_ended", "reason": "last_card", "ranking": [[1], [2], [0]],
                          "scores": [0, 2, 3]}


def test_a_seat_resigns_once_and_only_from_a_seat_at_the_table():
    state = begin(HANDS3, "R3X")
    state, _ = act(state, 1, RESIGN)
    assert refused(state, 1, RESIGN)[0] == "already_resigned"
    for seat in (3, -1, True, None):
        assert refused(state, seat, RESIGN)[0] == "malformed_move"
    event = {"type": "seat_resigned", "seat": 1}
    assert all(GAME.redact(event, s) == event for s in (None, 0, 1, 2))


# --------------------------------------------------------------------------
# Protocol: redact, views, seeds
# --------------------------------------------------------------------------

def test_redact_hides_the_seed_the_stock_and_other_hands():
    events = GAME.start(2, SEED, deck=stack([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X"))
    assert GAME.redact(events[0], 0) == {"type": "match_started", "seats": 2, "options": {"variant": "standard"},
                                         "rules_version": 1}
    assert GAME.redact(events[1], 1) == {"type": "cards_dealt", "starter": "R3X", "hand_sizes": [4, 4],
                                         "stock_size": 57, "hand": FILLER}
    assert GAME.redact(events[1], None) == {"type": "cards_dealt", "starter": "R3X", "hand_sizes": [4, 4],
                                            "stock_size": 57}
    for seat in (None, 0, 1):
        text = json.dumps([GAME.redact(e, seat) for e in events])
        assert SEED not in text
    assert "B4S" not in json.dumps(GAME.redact(events[1], 1))


def test_view_is_allow_listed():
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X")
    view = GAME.view(state, 0)
    assert set(view) == {"variant", "seats", "round", "turn", "over", "outcome", "to_act", "grid", "layout",
                         "scores", "stock_size", "hand_sizes", "shown", "passes", "recycled", "last_play", "hand",
                         "resigned"}
    assert view["layout"] == {"dx": 2, "dy": 2, "cols": 3, "rows": 3}
    spectator = GAME.view(state, None)
    assert spectator["hand"] == [] and "B4S" not in json.dumps(spectator)
    assert "R4S" not in json.dumps(GAME.view(state, 0)) and SEED not in json.dumps(view)


def test_the_same_seed_deals_the_same_and_the_bots_scorer_agrees():
    assert GAME.start(2, "s1") == GAME.start(2, "s1")
    assert GAME.start(2, "s1")[1] != GAME.start(2, "s2")[1]
    state = begin([["B4S", "Y2T", "G1C", "R2C"], FILLER], "R3X")
    scorer = view_scorer(GAME.view(state, 0))
    for m in GAME.legal_moves(state, 0):
        if m["type"] == "play":
            assert scorer(m["cards"]) == score_play(state, 0, m["cards"])
