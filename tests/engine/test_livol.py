"""LIVOL rules L1–L16 (tests/fixtures/rules/livol.md), one or more tests per rule, plus views and redact.

Positions come from stacked decks (``stack``) or, for mid-round situations (one card
left, an empty draw pile), from a dealt state with its piles replaced (``position``).
"""
from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from engine import IllegalMove, core
from engine.livol import DECK, card_points, replace, sort_hand
from engine.livol import game as GAME

# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def cards(text: str) -> list[str]:
    return text.split()


def stack(hands: list[str], starter: str, stock: str = "") -> list[str]:
    """A full deck: seat 0's 7 cards first, then the starter, then the stock top first,
    then every remaining card in canonical order."""
    head = [c for h in hands for c in cards(h)] + [starter] + cards(stock)
    rest = Counter(DECK) - Counter(head)
    assert sum(Counter(head).values()) == len(head) and not (Counter(head) - Counter(DECK))
    return head + [c for c in DECK if rest[c] and not rest.subtract([c])]


def started(hands, starter, stock="", seed="t", options=None):
    events = GAME.start(len(hands), seed, options=options, deck=stack(hands, starter, stock))
    return GAME.fold(events), events


def position(hands, top="R5", color=None, draw="", discard="", turn=1, seed="pos",
             options=None, **changes):
    """A mid-round state: the given hands, discard pile (``discard`` under ``top``) and
    draw pile (top first); the turn in the ``play`` phase unless told otherwise."""
    base = GAME.fold(GAME.start(len(hands), seed, options=options))
    fields = dict(hands=tuple(sort_hand(cards(h)) for h in hands), draw=tuple(cards(draw)),
                  discard=tuple(cards(discard)) + (top,), color=color or top[0], turn=turn,
                  phase="play", pending=None, direction=1, called=(False,) * len(hands),
                  window=None, w4=None, shown=None)
    fields.update(changes)
    return replace(base, **fields)


def do(state, seat, move):
    """Play a move; return the new state and the events."""
    before = copy.deepcopy(state)
    events = GAME.play(state, seat, move)
    assert state == before, "play must not change its input"
    json.dumps(events)
    new = state
    for e in events:
        new = GAME.apply(new, e)
    return new, events


def refused(state, seat, move):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, seat, move)
    assert state == before
    return err.value.code, err.value.rule


def types(events):
    return [e["type"] for e in events]


def plays(state, seat):
    return [m for m in GAME.legal_moves(state, seat) if m["type"] == "play"]


HANDS3 = ["R1 R2 R3 R4 R6 R7 R8", "Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G8"]


# --------------------------------------------------------------------------
# L1 cards and seats
# --------------------------------------------------------------------------

def test_L1_the_deck_has_108_cards_in_a_fixed_canonical_order():
    deck = GAME.cards()
    assert len(deck) == 108 and deck == GAME.cards()
    count = Counter(deck)
    assert count["R0"] == 1 and count["Y5"] == 2 and count["G+2"] == 2 and count["Bskip"] == 2
    assert count["Rrev"] == 2 and count["W"] == 4 and count["W+4"] == 4
    assert sum(n for c, n in count.items() if c.startswith("B")) == 25
    assert deck[:4] == ["R0", "R1", "R1", "R2"]
    assert deck[19:26] == ["Rskip", "Rskip", "Rrev", "Rrev", "R+2", "R+2", "Y0"]
    assert deck[-8:] == ["W"] * 4 + ["W+4"] * 4


def test_L1_two_to_six_seats():
    for n in (1, 7, 0):
        with pytest.raises(ValueError):
            GAME.start(n, "s")
    assert GAME.fold(GAME.start(2, "s")).seats == 2
    assert GAME.fold(GAME.start(6, "s")).seats == 6


def test_L1_unknown_card_and_bad_moves_are_refused():
    state, _ = started(HANDS3, "B5")
    assert refused(state, 1, {"type": "play", "card": "P9"}) == ("unknown_card", "L1")
    assert refused(state, 1, {"type": "play"})[0] == "malformed_move"
    assert refused(state, 1, {"type": "fly"})[0] == "malformed_move"
    assert refused(state, 1, ["draw"])[0] == "malformed_move"
    assert refused(state, 1, {"type": "draw", "extra": 1})[0] == "malformed_move"
    assert refused(state, 1, {"type": "play", "card": "Y1", "call": "yes"})[0] == "malformed_move"


# --------------------------------------------------------------------------
# L2 the deal, dealer and first player
# --------------------------------------------------------------------------

def test_L2_seven_cards_each_then_the_starter_and_the_seat_left_of_the_dealer_starts():
    state, events = started(HANDS3, "B5", "R9 Y9")
    assert types(events) == ["match_started", "round_dealt", "starter_turned", "turn_started"]
    assert events[1]["round"] == 1 and events[1]["dealer"] == 0
    assert events[2] == {"type": "starter_turned", "card": "B5"}
    v = GAME.view(state, 0)
    assert v["hand"] == cards("R1 R2 R3 R4 R6 R7 R8")
    assert GAME.view(state, 2)["hand"] == cards("G1 G2 G3 G4 G6 G7 G8")
    assert v["hand_sizes"] == [7, 7, 7]
    assert (v["top"], v["color"], v["dealer"], v["turn"], v["round"]) == ("B5", "B", 0, 1, 1)
    assert (v["draw_size"], v["discard_size"], v["direction"]) == (108 - 22, 1, 1)
    assert state.draw[:2] == ("R9", "Y9")
    assert v["to_act"] == [1]


def test_L2_turns_go_clockwise():
    state, _ = started(HANDS3, "Y5")
    state, events = do(state, 1, {"type": "play", "card": "Y1"})
    assert events[-1] == {"type": "turn_started", "turn": 2, "phase": "play"}
    assert refused(state, 1, {"type": "play", "card": "Y2"}) == ("not_your_turn", "L2")
    assert refused(state, 0, {"type": "draw"}) == ("not_your_turn", "L2")


def test_L2_the_next_round_is_dealt_by_play_and_the_dealer_rotates():
    before = position(["R9 R8", "R3", "G1 G2"], top="R5", turn=1, seed="rounds")
    state, events = do(before, 1, {"type": "play", "card": "R3"})
    assert types(events)[:3] == ["card_played", "round_scored", "round_dealt"]
    assert "starter_turned" in types(events) and events[-1]["type"] == "turn_started"
    deal = events[2]
    assert (deal["round"], deal["dealer"]) == (2, 1)
    assert deal["deck"] == core.shuffled("rounds", before.counter, DECK)
    assert (state.round, state.dealer) == (2, 1)
    assert sorted(len(h) for h in state.hands) in ([7, 7, 7], [7, 7, 9])
    assert state.scores == (0, 20, 0)
    # same state, same move: the same events, byte for byte
    assert json.dumps(GAME.play(position(["R9 R8", "R3", "G1 G2"], seed="rounds"), 1,
                                {"type": "play", "card": "R3"})) == json.dumps(events)
    # and round 3 is dealt by seat 2
    again = position(["R9 R8", "R3", "G1 G2"], top="R5", turn=1, seed="rounds", round=2, dealer=1)
    _, events = do(again, 1, {"type": "play", "card": "R3"})
    assert (events[2]["round"], events[2]["dealer"]) == (3, 2)


# --------------------------------------------------------------------------
# L3 the start card
# --------------------------------------------------------------------------

def test_L3_plus_two_starter_first_player_draws_two_and_loses_the_turn():
    state, events = started(HANDS3, "G+2", "B1 B2 B3")
    assert types(events)[-2:] == ["cards_drawn", "turn_started"]
    assert events[-2]["seat"] == 1 and events[-2]["cards"] == ["B1", "B2"]
    assert events[-2]["reason"] == "plus_two"
    assert GAME.view(state, 1)["hand_sizes"] == [7, 9, 7]
    assert state.turn == 2 and state.color == "G"


def test_L3_skip_starter_first_player_loses_the_turn():
    state, _ = started(HANDS3, "Gskip")
    assert (state.turn, state.direction) == (2, 1)


def test_L3_reverse_starter_reverses_and_the_dealer_plays_first():
    state, events = started(HANDS3, "Yrev")
    assert "direction_reversed" in types(events)
    assert (state.turn, state.direction) == (0, -1)
    # with two seats the dealer plays first and the direction stays
    two, events = started(HANDS3[:2], "Yrev")
    assert "direction_reversed" not in types(events)
    assert (two.turn, two.direction) == (0, 1)


def test_L3_wild_starter_first_player_names_the_colour_then_plays():
    state, _ = started(HANDS3, "W")
    v = GAME.view(state, 1)
    assert (v["top"], v["color"], v["turn"], v["phase"]) == ("W", None, 1, "color")
    assert GAME.legal_moves(state, 1) == [{"type": "color", "color": c} for c in "RYGB"]
    assert refused(state, 1, {"type": "play", "card": "Y1"}) == ("must_name_color", "L3")
    assert refused(state, 1, {"type": "draw"}) == ("must_name_color", "L3")
    assert refused(state, 1, {"type": "color", "color": "P"})[0] == "malformed_move"
    state, events = do(state, 1, {"type": "color", "color": "Y"})
    assert events == [{"type": "color_named", "seat": 1, "color": "Y"}]
    assert (state.turn, state.color, state.phase) == (1, "Y", "play")
    assert [m["card"] for m in plays(state, 1)][::2] == cards("Y1 Y2 Y3 Y4 Y6 Y7 Y8")
    assert refused(state, 1, {"type": "color", "color": "G"}) == ("no_color_to_name", "L3")


def test_L3_wild_draw_four_starter_goes_back_and_the_pile_is_reshuffled():
    state, events = started(HANDS3, "W+4", seed="w4start")
    assert types(events)[2] == "starter_reshuffled"
    first = events[2]
    assert first["size"] == 108 - 21 and len(first["pile"]) == 87
    assert first["pile"] == core.shuffled("w4start", 1, ["W+4"] + list(stack(HANDS3, "W+4")[22:]))
    turned = [e for e in events if e["type"] == "starter_turned"]
    assert len(turned) == 1 and turned[0]["card"] == state.top != "W+4"
    assert types(events).index("starter_turned") > types(events).index("starter_reshuffled")
    assert Counter(GAME.all_cards(state)) == Counter(DECK)
    for seat in (None, 0, 1, 2):
        assert "pile" not in GAME.redact(first, seat)
        assert "deck" not in GAME.redact(events[1], seat)


# --------------------------------------------------------------------------
# L4 matching; Wild
# --------------------------------------------------------------------------

def test_L4_a_card_matches_by_colour_number_or_symbol_and_a_wild_always():
    state = position(["R1", "R9 Y5 G3 Bskip W Rskip", "G1"], top="Gskip", turn=1)
    assert plays(state, 1) == [
        {"type": "play", "card": "Rskip"}, {"type": "play", "card": "Rskip", "call": True},
        {"type": "play", "card": "G3"}, {"type": "play", "card": "G3", "call": True},
        {"type": "play", "card": "Bskip"}, {"type": "play", "card": "Bskip", "call": True},
    ] + [m for k in "RYGB" for m in ({"type": "play", "card": "W", "color": k},
                                    {"type": "play", "card": "W", "color": k, "call": True})]
    assert refused(state, 1, {"type": "play", "card": "Y5"}) == ("card_does_not_match", "L4")
    assert refused(state, 1, {"type": "play", "card": "B3"})[0] == "card_not_in_hand"
    assert refused(state, 1, {"type": "play", "card": "W"}) == ("color_required", "L4")
    assert refused(state, 1, {"type": "play", "card": "G3", "color": "R"})[0] == "malformed_move"


def test_L4_after_a_wild_the_named_colour_counts():
    state = position(["R1", "R9 Y5 W", "G1 B2"], top="R5", turn=1)
    state, events = do(state, 1, {"type": "play", "card": "W", "color": "B"})
    assert events[0] == {"type": "card_played", "seat": 1, "card": "W", "call": False, "color": "B"}
    assert (state.top, state.color, state.turn) == ("W", "B", 2)
    assert plays(state, 2) == [{"type": "play", "card": "B2"}, {"type": "play", "card": "B2", "call": True}]


# --------------------------------------------------------------------------
# L5 / L9 Wild +4 and the challenge
# --------------------------------------------------------------------------

def test_L5_wild_draw_four_is_a_legal_bluff_that_a_challenge_punishes():
    state = position(["R1 R2", "R9 Y3 W+4", "G1 G2"], top="R5", draw="B1 B2 B3 B4 B5 B6", turn=1)
    assert {"type": "play", "card": "W+4", "color": "Y"} in GAME.legal_moves(state, 1)
    state, events = do(state, 1, {"type": "play", "card": "W+4", "color": "Y"})
    assert events[-1] == {"type": "turn_started", "turn": 2, "phase": "respond"}
    assert GAME.legal_moves(state, 2) == [{"type": "accept"}, {"type": "challenge"}]
    assert refused(state, 2, {"type": "play", "card": "G1"}) == ("must_respond", "L9")
    assert refused(state, 2, {"type": "draw"}) == ("must_respond", "L9")
    state, events = do(state, 2, {"type": "challenge"})
    assert events[0] == {"type": "challenged", "seat": 2, "target": 1, "fair": False,
                         "hand": ["R9", "Y3"]}
    assert events[1]["seat"] == 1 and events[1]["cards"] == cards("B1 B2 B3 B4")
    assert events[2] == {"type": "turn_started", "turn": 2, "phase": "play"}
    assert GAME.view(state, 0)["hand_sizes"] == [2, 6, 2]
    assert state.color == "Y"


def test_L5_a_wild_in_hand_makes_a_wild_draw_four_unfair_but_another_wild_draw_four_does_not():
    unfair = position(["R1", "Y3 W W+4", "G1 G2"], top="R5", draw="B1 B2 B3 B4", turn=1)
    unfair, _ = do(unfair, 1, {"type": "play", "card": "W+4", "color": "G"})
    _, events = do(unfair, 2, {"type": "challenge"})
    assert events[0]["fair"] is False
    fair = position(["R1", "Y3 W+4 W+4", "G1 G2"], top="R5", draw="B1 B2 B3 B4", turn=1)
    fair, _ = do(fair, 1, {"type": "play", "card": "W+4", "color": "G"})
    fair, events = do(fair, 2, {"type": "challenge"})
    assert events[0]["fair"] is True and events[0]["hand"] == ["Y3", "W+4"]
    assert events[1]["seat"] == 2 and events[1]["count"] == 4 and events[1]["reason"] == "challenge"
    assert events[2] == {"type": "turn_started", "turn": 0, "phase": "play"}


def test_L5_accepting_a_wild_draw_four_draws_four_and_loses_the_turn():
    state = position(["R1", "Y3 W+4", "G1 G2"], top="R5", draw="B1 B2 B3 B4 B5", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "W+4", "color": "B", "call": True})
    state, events = do(state, 2, {"type": "accept"})
    assert types(events) == ["wild_draw_four_accepted", "cards_drawn", "turn_started"]
    assert events[1]["cards"] == cards("B1 B2 B3 B4") and events[1]["reason"] == "wild_draw_four"
    assert (state.turn, state.color, GAME.view(state, None)["hand_sizes"]) == (0, "B", [1, 1, 6])
    assert refused(state, 0, {"type": "accept"}) == ("nothing_to_accept", "L9")
    assert refused(state, 0, {"type": "challenge"}) == ("nothing_to_challenge", "L9")


def test_L9_the_challenged_hand_is_shown_to_the_challenger_alone_until_its_next_turn_move():
    state = position(["R1 R2", "R9 Y3 W+4", "G1 G2"], top="R5", draw="B1 B2 B3 B4", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "W+4", "color": "G"})
    state, events = do(state, 2, {"type": "challenge"})
    assert GAME.view(state, 2)["shown_hand"] == ["R9", "Y3"]
    assert GAME.view(state, 0)["shown_hand"] is None and GAME.view(state, None)["shown_hand"] is None
    assert GAME.view(state, 1)["shown_hand"] is None
    assert "hand" not in GAME.redact(events[0], 0) and "hand" not in GAME.redact(events[0], None)
    assert "hand" not in GAME.redact(events[0], 1)
    assert GAME.redact(events[0], 2)["hand"] == ["R9", "Y3"]
    # another seat's call or catch does not end it; the challenger's turn move does
    state, _ = do(state, 2, {"type": "play", "card": "G1"})
    assert GAME.view(state, 2)["shown_hand"] is None


def test_L9_a_failed_challenge_keeps_the_shown_hand_until_the_challenger_moves_again():
    state = position(["R1 R2", "Y3 W+4", "G1 G2", "B7"], top="R5", draw="B1 B2 B3 B4 Y1 Y2", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "W+4", "color": "Y"})
    state, events = do(state, 2, {"type": "challenge"})
    assert events[0]["fair"] is True and state.turn == 3
    assert GAME.view(state, 2)["shown_hand"] == ["Y3"]
    state, _ = do(state, 3, {"type": "draw"})  # seat 3 draws Y1 and must play it
    state, _ = do(state, 3, {"type": "play", "card": "Y1"})
    assert GAME.view(state, 2)["shown_hand"] == ["Y3"]


def test_L9_challenge_extra_penalty_adds_cards_to_a_failed_challenge():
    opts = {"challenge_extra_penalty": 2}
    state = position(["R1", "Y3 W+4", "G1 G2"], top="R5", draw="B1 B2 B3 B4 B5 B6 B7",
                     turn=1, options=opts)
    state, _ = do(state, 1, {"type": "play", "card": "W+4", "color": "Y"})
    state, events = do(state, 2, {"type": "challenge"})
    assert events[1]["count"] == 6 and GAME.view(state, None)["hand_sizes"] == [1, 1, 8]


# --------------------------------------------------------------------------
# L6 drawing
# --------------------------------------------------------------------------

def test_L6_a_player_without_a_playable_card_draws_until_a_playable_card_and_must_play_it():
    state, _ = started(HANDS3, "B5", "R9 G9 Y5 B1")
    assert GAME.legal_moves(state, 1) == [{"type": "draw"}]
    state, events = do(state, 1, {"type": "draw"})
    assert events == [{"type": "cards_drawn", "seat": 1, "count": 3, "cards": ["R9", "G9", "Y5"],
                       "reason": "draw", "must_play": True}]
    v = GAME.view(state, 1)
    assert (v["must_play"], v["phase"], v["turn"]) == ("Y5", "drawn", 1)
    assert GAME.view(state, 0)["must_play"] is None
    assert GAME.legal_moves(state, 1) == [{"type": "play", "card": "Y5"},
                                          {"type": "play", "card": "Y5", "call": True}]
    assert refused(state, 1, {"type": "draw"}) == ("must_play_drawn_card", "L6")
    state, events = do(state, 1, {"type": "play", "card": "Y5"})
    assert state.turn == 2 and state.top == "Y5"


def test_L6_no_drawing_while_holding_a_playable_card_and_a_wild_draw_four_counts():
    state = position(["R1", "Y3 W+4", "G1"], top="R5", turn=1)
    assert {"type": "draw"} not in GAME.legal_moves(state, 1)
    assert refused(state, 1, {"type": "draw"}) == ("playable_card_held", "L6")
    state = position(["R1", "Y3 Y9", "G1"], top="R5", turn=1)
    assert refused(state, 1, {"type": "play", "card": "Y3"}) == ("card_does_not_match", "L4")


def test_L6_drawing_stops_at_a_drawn_wild_draw_four_and_it_needs_a_colour():
    state = position(["R1", "Y3 Y9", "G1"], top="R5", draw="G7 W+4 R2", turn=1)
    state, events = do(state, 1, {"type": "draw"})
    assert events[0]["cards"] == ["G7", "W+4"] and state.pending == "W+4"
    assert len(GAME.legal_moves(state, 1)) == 8
    assert refused(state, 1, {"type": "play", "card": "Y3"}) == ("must_play_drawn_card", "L6")
    assert refused(state, 1, {"type": "play", "card": "W+4"}) == ("color_required", "L4")
    state, _ = do(state, 1, {"type": "play", "card": "W+4", "color": "Y"})
    _, events = do(state, 2, {"type": "challenge"})
    assert events[0]["fair"] is True


def test_L6_when_the_piles_run_out_before_a_playable_card_the_turn_passes():
    state = position(["R1", "Y3 Y9", "G1"], top="R5", draw="G7", discard="B2", turn=1)
    state, events = do(state, 1, {"type": "draw"})
    assert types(events) == ["cards_drawn", "pile_reshuffled", "cards_drawn", "turn_started"]
    assert events[0]["cards"] == ["G7"] and events[2]["cards"] == ["B2"]
    assert events[3] == {"type": "turn_started", "turn": 2, "phase": "play"}
    assert GAME.view(state, None)["hand_sizes"] == [1, 4, 1]
    # nothing at all to draw: the draw records an empty draw and the turn passes
    state = position(["R1", "Y3 Y9", "G1"], top="R5", turn=1)
    state, events = do(state, 1, {"type": "draw"})
    assert events == [{"type": "cards_drawn", "seat": 1, "count": 0, "cards": [], "reason": "draw"},
                      {"type": "turn_started", "turn": 2, "phase": "play"}]


# --------------------------------------------------------------------------
# L7 +2; L8 Reverse and Skip
# --------------------------------------------------------------------------

def test_L7_plus_two_next_player_draws_two_and_loses_the_turn():
    state = position(["R1 R2", "Y+2 Y3", "G1 G2"], top="R+2", draw="B1 B2 B3", turn=1)
    state, events = do(state, 1, {"type": "play", "card": "Y+2", "call": True})
    assert types(events) == ["card_played", "cards_drawn", "turn_started"]
    assert events[1] == {"type": "cards_drawn", "seat": 2, "count": 2, "cards": ["B1", "B2"],
                         "reason": "plus_two"}
    assert state.turn == 0 and GAME.view(state, None)["hand_sizes"] == [2, 1, 4]
    # no stacking: seat 2 never got to answer with a +2
    assert GAME.legal_moves(state, 2) == []


def test_L7_plus_two_matches_by_colour_or_another_plus_two_only():
    state = position(["R1", "Y+2 G+2 B7", "G1"], top="B7", turn=1)
    assert [m["card"] for m in plays(state, 1)][::2] == ["B7"]
    state = position(["R1", "Y+2 G+2 B7", "G1"], top="R+2", turn=1)
    assert [m["card"] for m in plays(state, 1)][::2] == ["Y+2", "G+2"]


def test_L8_reverse_changes_the_direction():
    state = position(["R1 R2", "Rrev R3", "G1 G2", "B1 B2"], top="R5", turn=1)
    state, events = do(state, 1, {"type": "play", "card": "Rrev"})
    assert events[1] == {"type": "direction_reversed", "seat": 1}
    assert (state.turn, state.direction, GAME.view(state, 0)["direction"]) == (0, -1, -1)
    state, _ = do(state, 0, {"type": "play", "card": "R1"})
    assert state.turn == 3


def test_L8_with_two_seats_reverse_acts_as_skip():
    state = position(["R1 R2", "Rrev R3"], top="R5", turn=1)
    state, events = do(state, 1, {"type": "play", "card": "Rrev"})
    assert types(events) == ["card_played", "turn_started"]
    assert (state.turn, state.direction) == (1, 1)


def test_L8_skip_the_next_player_loses_the_turn():
    state = position(["R1 R2", "Rskip R3", "G1 G2", "B1 B2"], top="R5", turn=1)
    state, events = do(state, 1, {"type": "play", "card": "Rskip"})
    assert events[-1] == {"type": "turn_started", "turn": 3, "phase": "play"}


# --------------------------------------------------------------------------
# L10 the LIVOL call and the catch
# --------------------------------------------------------------------------

def test_L10_a_play_with_call_leaving_one_card_counts_and_cannot_be_caught():
    state = position(["R1 R2", "R3 R4", "G1 G2"], top="R5", turn=1)
    state, events = do(state, 1, {"type": "play", "card": "R3", "call": True})
    assert events[0]["call"] is True
    v = GAME.view(state, 0)
    assert (v["called"], v["catchable"]) == ([False, True, False], None)
    assert {"type": "catch", "target": 1} not in GAME.legal_moves(state, 0)
    assert refused(state, 0, {"type": "catch", "target": 1}) == ("nothing_to_catch", "L10")


def test_L10_a_call_on_a_play_that_leaves_more_cards_does_not_count():
    state = position(["R1 R2", "R3 R4 R6", "G1 G2"], top="R5", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "R3", "call": True})
    assert GAME.view(state, 0)["called"] == [False, False, False]


def test_L10_an_uncalled_single_card_can_be_caught_by_any_other_seat_and_draws_four():
    state = position(["R1 R2", "R3 R4", "G1 G2"], top="R5", draw="B1 B2 B3 B4", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "R3"})
    assert GAME.view(state, None)["to_act"] == [0, 1, 2]
    assert GAME.legal_moves(state, 0) == [{"type": "catch", "target": 1}]
    assert GAME.legal_moves(state, 1) == [{"type": "call"}]
    assert GAME.legal_moves(state, 2)[-1] == {"type": "catch", "target": 1}
    assert refused(state, 1, {"type": "catch", "target": 1}) == ("nothing_to_catch", "L10")
    assert refused(state, 0, {"type": "catch", "target": 2}) == ("nothing_to_catch", "L10")
    assert refused(state, 0, {"type": "catch", "target": 9})[0] == "malformed_move"
    state, events = do(state, 0, {"type": "catch", "target": 1})
    assert events == [{"type": "seat_caught", "seat": 0, "target": 1},
                      {"type": "cards_drawn", "seat": 1, "count": 4, "cards": cards("B1 B2 B3 B4"),
                       "reason": "catch"}]
    assert GAME.view(state, None)["hand_sizes"] == [2, 5, 2] and state.turn == 2
    assert refused(state, 2, {"type": "catch", "target": 1}) == ("nothing_to_catch", "L10")


def test_L10_a_separate_call_is_legal_with_one_card_and_stops_the_catch():
    state = position(["R1 R2", "R3 R4", "G1 G2"], top="R5", turn=1)
    assert refused(state, 1, {"type": "call"}) == ("cannot_call", "L10")
    state, _ = do(state, 1, {"type": "play", "card": "R3"})
    state, events = do(state, 1, {"type": "call"})
    assert events == [{"type": "livol_called", "seat": 1}]
    assert GAME.view(state, 2)["called"] == [False, True, False]
    assert refused(state, 2, {"type": "catch", "target": 1}) == ("nothing_to_catch", "L10")
    assert refused(state, 1, {"type": "call"}) == ("cannot_call", "L10")


def test_L10_the_window_closes_when_the_next_seat_makes_a_turn_move_but_a_call_stays_legal():
    state = position(["R1 R2", "R3 R4", "G1 G2"], top="R5", draw="Y1 G9", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "R3"})
    state, _ = do(state, 2, {"type": "draw"})  # a turn move: Y1 G9, then the reshuffled R5
    assert state.pending == "R5"
    assert GAME.view(state, None)["catchable"] is None
    assert refused(state, 0, {"type": "catch", "target": 1}) == ("nothing_to_catch", "L10")
    assert {"type": "call"} in GAME.legal_moves(state, 1)
    assert 1 in GAME.view(state, None)["to_act"]


def test_L10_forced_draws_and_lost_turns_are_not_actions():
    state = position(["R1 R2", "R+2 R4", "G1 G2"], top="R5", draw="B1 B2 B3 B4 B5 B6", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "R+2"})
    assert state.turn == 0 and GAME.view(state, None)["catchable"] == 1
    state, _ = do(state, 2, {"type": "catch", "target": 1})  # the skipped seat still catches
    assert GAME.view(state, None)["hand_sizes"] == [2, 5, 4]
    state = position(["R1 R2 R3", "Rskip R4", "G1 G2"], top="R5", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "Rskip"})
    assert state.turn == 0 and state.window == 1
    assert GAME.legal_moves(state, 2) == [{"type": "catch", "target": 1}]
    state, _ = do(state, 0, {"type": "play", "card": "R1"})
    assert state.window is None and GAME.legal_moves(state, 2) == []


def test_L10_calls_and_catches_of_others_do_not_close_the_window():
    state = position(["R1", "R3 R4", "G1 G2"], top="R5", turn=1)
    state, _ = do(state, 1, {"type": "play", "card": "R3"})
    state, _ = do(state, 0, {"type": "call"})
    assert state.window == 1 and {"type": "catch", "target": 1} in GAME.legal_moves(state, 0)


def test_L10_a_call_lapses_when_the_seat_holds_more_than_one_card_again():
    state = position(["R1 R2", "Y3", "G1 G2"], top="R5", draw="Y1 R7 B2", turn=1,
                     called=(False, True, False))
    assert GAME.view(state, 0)["called"] == [False, True, False]
    state, _ = do(state, 1, {"type": "draw"})
    assert state.hands[1] == ("R7", "Y1", "Y3")
    assert GAME.view(state, 0)["called"] == [False, False, False]


# --------------------------------------------------------------------------
# L11 reshuffles
# --------------------------------------------------------------------------

def test_L11_an_empty_draw_pile_takes_the_discards_but_the_top_reshuffled():
    state = position(["R1", "R+2 Y3", "G1 G2"], top="R5", discard="B2 B3", turn=1, seed="re")
    counter = state.counter
    state, events = do(state, 1, {"type": "play", "card": "R+2"})
    assert types(events) == ["card_played", "pile_reshuffled", "cards_drawn", "turn_started"]
    assert events[1]["pile"] == core.shuffled("re", counter, ["B2", "B3", "R5"]) and events[1]["size"] == 3
    assert events[2]["cards"] == events[1]["pile"][:2]
    assert (state.discard, len(state.draw)) == (("R+2",), 1)
    for seat in (None, 0, 1, 2):
        assert GAME.redact(events[1], seat) == {"type": "pile_reshuffled", "size": 3}


def test_L11_a_forced_draw_takes_what_remains_and_the_rest_is_forgiven():
    state = position(["R1", "R+2 Y3", "G1 G2"], top="R5", draw="B7", turn=1)
    state, events = do(state, 1, {"type": "play", "card": "R+2"})
    drawn = [e for e in events if e["type"] == "cards_drawn"]
    assert [e["cards"] for e in drawn] == [["B7"], ["R5"]]
    state2 = position(["R1", "R+2 Y3", "G1 G2"], top="R5", turn=1)
    state2, events = do(state2, 1, {"type": "play", "card": "R+2"})
    assert [e["cards"] for e in events if e["type"] == "cards_drawn"] == [["R5"]]
    assert GAME.view(state2, None)["hand_sizes"] == [1, 1, 3] and state2.turn == 0


# --------------------------------------------------------------------------
# L12 the end of a round; L13 points; L14/L15 scoring; L16 options
# --------------------------------------------------------------------------

def test_L12_the_round_ends_with_the_last_card_and_a_last_plus_two_is_still_drawn():
    state = position(["R1 Y9", "R+2", "G1"], top="R5", draw="B7 G8", turn=1, called=(False, True, False))
    state, events = do(state, 1, {"type": "play", "card": "R+2"})
    assert types(events)[:3] == ["card_played", "cards_drawn", "round_scored"]
    assert events[0]["final"] is True and events[1]["final"] is True
    assert events[1]["cards"] == ["B7", "G8"]
    assert events[2] == {"type": "round_scored", "round": 1, "winner": 1, "points": [10, 0, 16],
                         "gains": [0, 26, 0], "scores": [0, 26, 0]}
    # the last card lies face up; the drawn cards are the drawer's alone
    for seat in (None, 0, 1, 2):
        assert GAME.redact(events[0], seat)["card"] == "R+2"
        assert ("cards" in GAME.redact(events[1], seat)) == (seat == events[1]["seat"])


def test_L12_a_last_wild_draw_four_is_drawn_without_a_challenge():
    state = position(["R1", "W+4", "G1"], top="R5", draw="B7 G8 Y1 Y2", turn=1)
    _, events = do(state, 1, {"type": "play", "card": "W+4", "color": "R"})
    assert types(events)[:3] == ["card_played", "cards_drawn", "round_scored"]
    assert events[1]["seat"] == 2 and events[1]["count"] == 4
    assert events[2]["points"] == [1, 0, 1 + 7 + 8 + 1 + 2]


def test_L13_card_points():
    assert [card_points(c) for c in cards("R0 Y7 G9 Bskip Rrev Y+2 W W+4")] == [0, 7, 9, 20, 20, 20, 50, 50]


def test_L14_winner_scores_the_other_hands_and_the_match_ends_at_500():
    state = position(["R3", "Y9 W", "G2"], top="R5", turn=0, scores=(490, 10, 10))
    state, events = do(state, 0, {"type": "play", "card": "R3"})
    assert events[-2] == {"type": "round_scored", "round": 1, "winner": 0, "points": [0, 59, 2],
                          "gains": [61, 0, 0], "scores": [551, 10, 10]}
    assert events[-1] == {"type": "match_ended", "ranking": [[0], [1, 2]], "scores": [551, 10, 10]}
    assert GAME.outcome(state) == {"ranking": [[0], [1, 2]], "scores": [551, 10, 10]}
    v = GAME.view(state, None)
    assert v["over"] is True and v["to_act"] == [] and v["turn"] is None
    assert v["hands"] == [[], ["Y9", "W"], ["G2"]]
    assert v["outcome"] == GAME.outcome(state)
    assert all(GAME.legal_moves(state, s) == [] for s in range(3))
    assert refused(state, 1, {"type": "call"})[0] == "match_over"
    assert GAME.hidden_cards(state, 0) == []


def test_L14_below_the_target_the_match_goes_on():
    state = position(["R3", "Y9 W", "G2"], top="R5", turn=0, scores=(400, 10, 10))
    state, events = do(state, 0, {"type": "play", "card": "R3"})
    assert events[1]["scores"] == [461, 10, 10] and "match_ended" not in types(events)
    assert GAME.outcome(state) is None and state.round == 2


def test_L15_own_hand_every_seat_scores_its_hand_and_the_fewest_points_win():
    opts = {"variant": "own_hand"}
    state = position(["R3", "Y9 W", "G2"], top="R5", turn=0, scores=(100, 480, 202), options=opts)
    state, events = do(state, 0, {"type": "play", "card": "R3"})
    assert events[-2]["gains"] == [0, 59, 2] and events[-2]["scores"] == [100, 539, 204]
    assert GAME.outcome(state) == {"ranking": [[0], [2], [1]], "scores": [100, 539, 204]}
    tie = position(["R3", "Y9 W", "G2"], top="R5", turn=0, scores=(102, 480, 100), options=opts)
    tie, _ = do(tie, 0, {"type": "play", "card": "R3"})
    assert GAME.outcome(tie)["ranking"] == [[0, 2], [1]]


def test_L16_options_target_variant_and_extra_penalty():
    events = GAME.start(3, "o")
    assert events[0]["options"] == {"variant": "winner_scores", "target": 500, "challenge_extra_penalty": 0}
    state = position(["R3", "Y9", "G2"], top="R5", turn=0, options={"target": 10})
    state, events = do(state, 0, {"type": "play", "card": "R3"})
    assert events[-1]["type"] == "match_ended" and events[-1]["scores"] == [11, 0, 0]
    for bad in ({"target": 0}, {"target": "500"}, {"variant": "fastest"},
                {"challenge_extra_penalty": -1}, {"challenge_extra_penalty": True}, {"house": 1}):
        with pytest.raises(ValueError):
            GAME.start(3, "o", options=bad)


# --------------------------------------------------------------------------
# Resigning (docs/engine-contract.md "Resigning (every game)")
# --------------------------------------------------------------------------

RESIGN = {"type": "resign"}


def test_resign_is_never_a_legal_move_listed_and_never_puts_a_seat_in_to_act():
    state, _ = started(HANDS3, "B5")
    assert all(RESIGN not in GAME.legal_moves(state, s) for s in range(3))
    assert GAME.view(state, None)["to_act"] == [1]


def test_resign_is_legal_out_of_turn_and_the_resigned_seat_keeps_its_cards_and_turns():
    state, _ = started(HANDS3 + ["B1 B2 B3 B4 B6 B7 B8"], "B5")
    state, events = do(state, 2, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 2}]
    assert GAME.view(state, None)["resigned"] == [2] and GAME.view(state, None)["to_act"] == [1]
    assert GAME.view(state, 2)["hand"] == cards(HANDS3[2])
    state, _ = do(state, 1, {"type": "draw"})
    assert state.turn == 1 and state.phase == "drawn"
    # in turn, too: the seat to act may resign, and still holds the turn
    state, events = do(state, 1, RESIGN)
    assert types(events) == ["seat_resigned"] and state.turn == 1 and GAME.legal_moves(state, 1)


def test_resigning_leaves_one_seat_and_ends_the_match():
    state, _ = started(HANDS3, "B5")
    state, _ = do(state, 0, RESIGN)
    state, events = do(state, 2, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 2},
                      {"type": "match_ended", "ranking": [[1], [2], [0]], "scores": [0, 0, 0]}]
    assert GAME.outcome(state) == {"ranking": [[1], [2], [0]], "scores": [0, 0, 0]}
    v = GAME.view(state, None)
    assert v["over"] is True and v["to_act"] == [] and v["outcome"] == GAME.outcome(state)
    assert refused(state, 1, RESIGN)[0] == "match_over"


def test_a_resigned_seat_ranks_below_all_others():
    state = position(["R3", "Y9 W", "G2"], top="R5", turn=0, scores=(490, 10, 10))
    state, _ = do(state, 0, RESIGN)
    state, events = do(state, 0, {"type": "play", "card": "R3"})
    assert events[-1] == {"type": "match_ended", "ranking": [[1, 2], [0]], "scores": [551, 10, 10]}
    assert GAME.outcome(state)["ranking"] == [[1, 2], [0]]


def test_latest_to_resign_ranks_best_among_resigned():
    state = position(["R3", "Y9 W", "G2", "B7"], top="R5", turn=0, scores=(490, 10, 30, 20))
    state, _ = do(state, 3, RESIGN)
    state, _ = do(state, 0, RESIGN)
    state, events = do(state, 0, {"type": "play", "card": "R3"})
    assert events[-1]["ranking"] == [[2], [1], [0], [3]]


def test_a_seat_resigns_once_and_only_from_a_seat_at_the_table():
    state, _ = started(HANDS3, "B5")
    state, _ = do(state, 1, RESIGN)
    assert refused(state, 1, RESIGN)[0] == "already_resigned"
    for seat in (3, -1, True, None):
        assert refused(state, seat, RESIGN)[0] == "malformed_move"
    assert refused(state, 0, {"type": "resign", "seat": 0})[0] == "malformed_move"


def test_seat_resigned_is_public():
    event = {"type": "seat_resigned", "seat": 1}
    assert all(GAME.redact(event, s) == event for s in (None, 0, 1, 2))


# --------------------------------------------------------------------------
# What each seat may see
# --------------------------------------------------------------------------

VIEW_KEYS = {"game", "seat", "seats", "to_act", "turn", "phase", "hand", "must_play", "hand_sizes",
             "called", "catchable", "top", "color", "draw_size", "discard_size", "direction",
             "dealer", "round", "scores", "options", "shown_hand", "over", "outcome", "hands",
             "resigned"}


def test_views_are_allow_listed_and_hide_other_hands_and_the_seed():
    state, _ = started(HANDS3, "B5", seed="secret-seed")
    for seat in (None, 0, 1, 2):
        v = GAME.view(state, seat)
        assert set(v) == VIEW_KEYS
        text = json.dumps(v)
        assert "secret-seed" not in text
        assert v["hands"] is None
    assert GAME.view(state, None)["hand"] == []
    text = json.dumps(GAME.view(state, 0))
    assert "Y1" not in text and "G1" not in text and "R1" in text


def test_redact_hides_the_seed_the_deck_and_other_seats_drawn_cards():
    state, events = started(HANDS3, "B5", "R9 G9 Y5", seed="secret-seed")
    assert "seed" not in GAME.redact(events[0], 1) and "seed" in events[0]
    assert GAME.redact(events[1], 1) == {"type": "round_dealt", "round": 1, "dealer": 0,
                                         "hand": cards("Y1 Y2 Y3 Y4 Y6 Y7 Y8")}
    assert GAME.redact(events[1], None) == {"type": "round_dealt", "round": 1, "dealer": 0}
    _, drawn = do(state, 1, {"type": "draw"})
    assert GAME.redact(drawn[0], 1) == drawn[0]
    for seat in (None, 0, 2):
        assert GAME.redact(drawn[0], seat) == {"type": "cards_drawn", "seat": 1, "count": 3,
                                               "reason": "draw", "must_play": True}


def test_apply_never_changes_its_input_and_fold_matches():
    events = GAME.start(4, "fold")
    state = GAME.fold(events)
    snapshot = copy.deepcopy(state)
    seat = GAME.view(state, None)["to_act"][0]
    new_events = GAME.play(state, seat, GAME.legal_moves(state, seat)[0])
    after = state
    for e in new_events:
        after = GAME.apply(after, e)
    assert state == snapshot
    assert GAME.fold(events + new_events) == after
