"""UNO FLIP (tests/fixtures/rules/uno_flip.md): one test per rule at least, on stacked decks.

A stacked deck is built by ``stack``: each hand (filled to 7 with yellow/blue
numbers), the starter, the named stock cards (top first), the rest of the deck
and finally ``bottom`` (its last card is the very bottom of the draw pile: the
top after a Flip). Cards are named by their light face (the first unused copy
in canonical order) or as a physical ``light/dark`` code.
"""
from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from engine import IllegalMove, registry
from engine import uno_flip as uf

G = uf.game
ALL = G.cards()
FILLER = [c for c in ALL if c[0] in "YB" and c.split("/")[0][1:].isdigit()]
LIGHT = "RYGB"
DARK = "PTOV"


def take(code: str, pool: list[str]) -> str:
    if "/" in code:
        pool.remove(code)
        return code
    for card in pool:
        if card.split("/")[0] == code:
            pool.remove(card)
            return card
    raise AssertionError(f"no {code} left in the deck")


def stack(hands, starter, stock=(), bottom=()):
    pool = list(ALL)
    held = [[take(c, pool) for c in h] for h in hands]
    first = take(starter, pool)
    top = [take(c, pool) for c in stock]
    low = [take(c, pool) for c in bottom]
    for hand in held:
        while len(hand) < uf.HAND_SIZE:
            filler = next(c for c in FILLER if c in pool)
            pool.remove(filler)
            hand.append(filler)
    deck = [c for h in held for c in h] + [first] + top + pool + low
    assert Counter(deck) == Counter(ALL)
    return deck


def new(hands, starter, stock=(), bottom=(), options=None, seed="t"):
    events = G.start(len(hands), seed, options=options, deck=stack(hands, starter, stock, bottom))
    return G.fold(events), events


def move(state, seat, m):
    events = G.play(state, seat, m)
    for e in events:
        state = G.apply(state, e)
    return state, events


def types(events):
    return [e["type"] for e in events]


def refused(state, seat, m, code, rule=None):
    snapshot = dataclasses.replace(state)
    with pytest.raises(IllegalMove) as err:
        G.play(state, seat, m)
    assert err.value.code == code
    if rule is not None:
        assert err.value.rule == rule
    assert state == snapshot


def trim(state, seat, n):
    """Keep the seat's first n cards; the others go to the bottom of the draw pile (cards are conserved)."""
    hands = list(state.hands)
    extra = hands[seat][n:]
    hands[seat] = hands[seat][:n]
    return dataclasses.replace(state, hands=tuple(hands), draw=state.draw + extra)


def faces(cards, side):
    return [c.split("/")[side] for c in cards]


def dark(state):
    """Seat 1 plays Rflip/V1 on the starter R5/Oflip: the dark side, colour O, seat 1 done."""
    return move(state, 1, {"type": "play", "card": "Rflip"})[0]


# --------------------------------------------------------------------------
# Cards and seats
# --------------------------------------------------------------------------

def test_F1_two_to_ten_seats_and_112_double_faced_cards():
    assert len(ALL) == 112 and all(c.count("/") == 1 for c in ALL)
    for bad in (0, 1, 11, "2", True, None):
        with pytest.raises(ValueError):
            G.start(bad, "s")
    for seats in (2, 10):
        view = G.view(G.fold(G.start(seats, "s")), None)
        assert view["hand_sizes"] == [7] * seats
        assert view["side"] == "light"
        assert view["draw_size"] == 112 - 7 * seats - 1


def test_F1_every_round_starts_on_the_light_side():
    # given the table turned to the dark side in round 1 and seat 0 down to its G5/O9
    state, _ = new([["G5/O9"], ["Rflip/V1"]], "R5/Oflip")
    state = trim(dark(state), 0, 1)
    assert (G.view(state, None)["side"], state.turn) == ("dark", 0)
    # when seat 0 plays its last card, O9 on Oflip
    state, events = move(state, 0, {"type": "play", "card": "O9"})
    # then the round is scored on the dark side and round 2 starts light side up
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["side"] == "dark"
    view = G.view(state, None)
    assert (view["round"], view["side"], view["dealer"]) == (2, "light", 1)


def test_F2_light_faces_are_four_colours_of_1_to_9_and_actions_with_eight_wilds():
    counts = Counter(uf.light_faces())
    assert counts == Counter(faces(ALL, 0))
    assert sum(counts.values()) == 112
    for colour in LIGHT:
        for kind in ["1", "5", "9", "+1", "rev", "skip", "flip"]:
            assert counts[colour + kind] == 2
        assert counts[colour + "0"] == 0
    assert counts["W"] == 4 and counts["W+2"] == 4
    assert len(counts) == 4 * 13 + 2


def test_F3_dark_faces_are_four_colours_of_1_to_9_and_actions_with_eight_wilds():
    counts = Counter(uf.dark_faces())
    assert counts == Counter(faces(ALL, 1))
    for colour in DARK:
        for kind in ["1", "5", "9", "+5", "rev", "skipall", "flip"]:
            assert counts[colour + kind] == 2
        assert counts[colour + "0"] == 0
    assert counts["DW"] == 4 and counts["DW+C"] == 4
    assert len(counts) == 4 * 13 + 2


def test_F4_the_pairing_table_is_versioned_data_and_recorded_by_each_match():
    assert uf.DECK_VERSION == "1"
    assert ALL == list(uf.pairing_table("1")) == list(uf.PAIRINGS["1"])
    assert ALL[:4] == ["R1/O8", "R1/P3", "R2/V7", "R2/Pflip"]
    assert ALL[-4:] == ["W+2/V7", "W+2/T9", "W+2/V+5", "W+2/Orev"]
    assert Counter(ALL)["Rrev/DW"] == 2 and Counter(ALL)["W/P5"] == 2
    ALL_copy = G.cards()
    ALL_copy.append("x")
    assert len(G.cards()) == 112
    started = G.start(2, "s")[0]
    assert started["type"] == "match_started" and started["deck_version"] == "1"


# --------------------------------------------------------------------------
# A round
# --------------------------------------------------------------------------

def test_F5_deal_seven_each_starter_light_side_up_and_the_draw_piles_dark_back_visible():
    deck = stack([[], [], []], "R8/O9", stock=["G7/O+5"])
    state = G.fold(G.start(3, "s", deck=deck))
    view = G.view(state, 0)
    assert sorted(view["hand"]) == sorted(deck[:7])
    assert sorted(view["backs"][1]) == sorted(faces(deck[7:14], 1))
    assert (view["top"], view["color"], view["draw_back"]) == ("R8", "R", "O+5")
    assert (view["dealer"], view["turn"], view["round"], view["direction"]) == (0, 1, 1, 1)
    assert uf.dealer_of_round(2, 3) == 1 and uf.dealer_of_round(4, 3) == 0


def test_F5_the_dealer_moves_one_seat_clockwise_and_its_left_neighbour_starts():
    start, _ = new([[], ["R9/Vskipall"], []], "R8/O9")
    state, events = move(trim(start, 1, 1), 1, {"type": "play", "card": "R9"})
    i = types(events).index("round_dealt")
    assert (events[i]["round"], events[i]["dealer"]) == (2, 1)
    # right after the deal, seat 2 (left of dealer 1) holds the turn
    partial = trim(start, 1, 1)
    for e in events[:i + 1]:
        partial = G.apply(partial, e)
    assert (partial.turn, partial.dealer, partial.round) == (2, 1, 2)


def test_F6_a_draw_one_starter_makes_the_first_player_draw_and_lose_the_turn():
    state, events = new([[], [], []], "R+1", stock=["G9/O8"])
    assert types(events) == ["match_started", "round_dealt", "cards_drawn", "turn_skipped"]
    assert events[2]["seat"] == 1 and events[2]["cards"] == ["G9/O8"] and events[2]["cause"] == "draw_one"
    assert state.turn == 2 and G.view(state, None)["hand_sizes"] == [7, 8, 7]


def test_F6_a_reverse_starter_lets_the_dealer_start_the_other_way():
    state, events = new([[], [], []], "Rrev")
    assert types(events)[-1] == "direction_reversed"
    assert (state.turn, state.direction) == (0, -1)
    # with 2 seats the dealer starts and the direction stays
    state, _ = new([[], []], "Rrev")
    assert (state.turn, state.direction) == (0, 1)


def test_F6_a_skip_starter_skips_the_first_player():
    state, events = new([[], [], []], "Rskip")
    assert events[-1] == {"type": "turn_skipped", "seat": 1, "turn": 2}
    assert state.turn == 2


def test_F6_a_wild_starter_lets_the_first_player_name_the_colour_then_play():
    state, _ = new([[], ["R2"], []], "W/V2")
    assert G.legal_moves(state, 1) == [{"type": "color", "color": c} for c in LIGHT]
    assert G.view(state, None)["color"] is None
    refused(state, 1, {"type": "play", "card": "R2"}, "must_name_color", "F6")
    refused(state, 1, {"type": "color", "color": "P"}, "bad_color", "F6")
    refused(state, 2, {"type": "color", "color": "R"}, "not_your_turn")
    state, events = move(state, 1, {"type": "color", "color": "R"})
    assert events == [{"type": "color_named", "seat": 1, "color": "R"}]
    assert (state.turn, state.color) == (1, "R")
    assert {"type": "play", "card": "R2"} in G.legal_moves(state, 1)
    refused(state, 1, {"type": "color", "color": "G"}, "no_color_to_name", "F6")


@pytest.mark.parametrize("starter", ["W+2/V7", "Rflip/V1"])
def test_F6_a_wild_draw_two_or_flip_starter_is_reshuffled_into_the_pile(starter):
    state, events = new([[], []], starter)
    assert types(events)[:3] == ["match_started", "round_dealt", "starter_reshuffled"]
    shuffled = events[2]
    assert shuffled["card"] == starter
    assert sorted(shuffled["pile"]) == sorted(stack([[], []], starter)[14:])
    assert not uf.starter_must_be_replaced(G.view(state, None)["top"])
    assert state.discard == (shuffled["pile"][0],) and len(state.draw) == 112 - 15
    assert Counter(G.all_cards(state)) == Counter(ALL)


def test_F7_a_card_matches_the_top_by_number_colour_or_symbol():
    state, _ = new([[], ["G9", "R2", "G3", "Gskip", "Y+1"]], "R9/Vskipall")
    legal = G.legal_moves(state, 1)
    assert legal == [{"type": "play", "card": "G9"}, {"type": "play", "card": "R2"}, {"type": "draw"}]
    refused(state, 1, {"type": "play", "card": "G3"}, "card_does_not_match", "F7")
    refused(state, 1, {"type": "play", "card": "Gskip"}, "card_does_not_match", "F7")
    # by symbol: after a Skip starter seat 2 plays first
    state, _ = new([[], [], ["Gskip", "G3"]], "Rskip/P8")
    assert G.legal_moves(state, 2) == [{"type": "play", "card": "Gskip"}, {"type": "draw"}]
    assert uf.card_matches("Pskipall", "Oskipall", "O") and not uf.card_matches("P3", "Oskipall", "O")


def test_F7_a_player_may_draw_while_holding_a_playable_card_then_only_play_that_card_or_pass():
    state, _ = new([[], ["R2", "G3"], []], "R9/Vskipall", stock=["G4/P+5"])
    state, events = move(state, 1, {"type": "draw"})
    assert events == [{"type": "card_drawn", "seat": 1, "card": "G4/P+5", "back": "P+5"}]
    assert state.turn == 1
    assert G.legal_moves(state, 1) == [{"type": "pass"}]
    refused(state, 1, {"type": "play", "card": "R2"}, "only_drawn_card", "F7")
    refused(state, 1, {"type": "draw"}, "already_drawn", "F7")
    state, events = move(state, 1, {"type": "pass"})
    assert events == [{"type": "turn_passed", "seat": 1}] and state.turn == 2
    # a drawn card that matches may be played at once
    state, _ = new([[], ["G3"], []], "R9/Vskipall", stock=["R4/DW"])
    state, _ = move(state, 1, {"type": "draw"})
    assert G.legal_moves(state, 1) == [{"type": "play", "card": "R4"}, {"type": "pass"}]
    state, events = move(state, 1, {"type": "play", "card": "R4"})
    assert state.turn == 2 and G.view(state, None)["top"] == "R4"


def test_F7_with_nothing_to_draw_a_player_without_a_playable_card_passes():
    state, _ = new([[], ["G3", "R2"], []], "R9/Vskipall")
    # every card of the draw pile goes to seat 2's hand: nothing can be drawn
    hands = list(state.hands)
    hands[2] = hands[2] + state.draw
    state = dataclasses.replace(state, hands=tuple(hands), draw=())
    assert G.legal_moves(state, 1) == [{"type": "play", "card": "R2"}]
    refused(state, 1, {"type": "draw"}, "nothing_to_draw", "F7")
    refused(state, 1, {"type": "pass"}, "cannot_pass", "F7")
    state = trim(state, 1, 1)   # only G3 left, the R2 goes to the (empty) draw pile
    state = dataclasses.replace(state, hands=(state.hands[0], state.hands[1], state.hands[2] + state.draw), draw=())
    assert G.legal_moves(state, 1) == [{"type": "pass"}, {"type": "call"}]
    state, events = move(state, 1, {"type": "pass"})
    assert events == [{"type": "turn_passed", "seat": 1}] and state.turn == 2


def test_F7_a_face_held_with_two_different_backs_must_be_named_physically():
    state, _ = new([[], ["R7/T4", "R7/P+5", "W/P5", "W/P5"]], "R9/Vskipall")
    legal = G.legal_moves(state, 1)
    plays = [m for m in legal if m["type"] == "play"]
    assert plays[:2] == [{"type": "play", "card": "R7/T4"}, {"type": "play", "card": "R7/P+5"}]
    # two identical copies are not ambiguous
    assert {"type": "play", "card": "W", "color": "G"} in plays
    refused(state, 1, {"type": "play", "card": "R7"}, "ambiguous_card", "F4")
    refused(state, 1, {"type": "play", "card": "R8/O9"}, "card_not_in_hand", "F7")
    refused(state, 1, {"type": "play", "card": "R7/X1"}, "unknown_card", "F4")
    refused(state, 1, {"type": "play", "card": "ZZ9"}, "unknown_card", "F4")
    refused(state, 1, {"type": "play", "card": "G8"}, "card_not_in_hand", "F7")
    state, events = move(state, 1, {"type": "play", "card": "R7/P+5"})
    assert events[0] == {"type": "card_played", "seat": 1, "card": "R7/P+5", "face": "R7"}
    assert "R7/T4" in state.hands[1] and "R7/P+5" not in state.hands[1]
    # the physical code is accepted for an unambiguous card as well
    state, _ = new([[], ["R2/V7"]], "R9/Vskipall")
    assert G.play(state, 1, {"type": "play", "card": "R2/V7"}) == G.play(state, 1, {"type": "play", "card": "R2"})


def test_F8_draw_one_reverse_and_skip():
    # Draw One: the next player draws 1 and loses the turn
    state, _ = new([[], ["R+1"], []], "R9/Vskipall", stock=["G9/O8"])
    state, events = move(state, 1, {"type": "play", "card": "R+1"})
    assert types(events) == ["card_played", "cards_drawn", "turn_skipped"]
    assert events[1]["seat"] == 2 and events[1]["cards"] == ["G9/O8"]
    assert state.turn == 0 and len(state.hands[2]) == 8
    # Reverse: the direction changes
    state, _ = new([[], ["Rrev"], []], "R9/Vskipall")
    state, events = move(state, 1, {"type": "play", "card": "Rrev"})
    assert events[-1] == {"type": "direction_reversed", "seat": 1, "direction": -1, "turn": 0}
    assert (state.turn, state.direction) == (0, -1)
    # with 2 seats it acts only as a Skip and the direction stays
    state, _ = new([[], ["Rrev"]], "R9/Vskipall")
    state, events = move(state, 1, {"type": "play", "card": "Rrev"})
    assert events[-1] == {"type": "turn_skipped", "seat": 0, "turn": 1}
    assert (state.turn, state.direction) == (1, 1)
    # Skip: the next player loses the turn
    state, _ = new([[], ["Rskip"], []], "R9/Vskipall")
    state, events = move(state, 1, {"type": "play", "card": "Rskip"})
    assert events[-1] == {"type": "turn_skipped", "seat": 2, "turn": 0} and state.turn == 0


def test_F8_a_wild_is_playable_at_any_time_and_names_a_colour():
    state, _ = new([[], ["R2", "W"], []], "R9/Vskipall")
    legal = G.legal_moves(state, 1)
    assert [m for m in legal if m.get("card") == "W"] == [
        {"type": "play", "card": "W", "color": c} for c in LIGHT]
    refused(state, 1, {"type": "play", "card": "W"}, "color_required", "F8")
    refused(state, 1, {"type": "play", "card": "W", "color": "P"}, "bad_color", "F8")
    refused(state, 1, {"type": "play", "card": "R2", "color": "G"}, "color_not_allowed", "F8")
    state, events = move(state, 1, {"type": "play", "card": "W", "color": "G"})
    assert events == [{"type": "card_played", "seat": 1, "card": "W/V2", "face": "W", "color": "G"}]
    assert (state.color, state.turn) == ("G", 2)


def test_F8_wild_draw_two_is_fair_only_without_a_card_of_the_colour_in_force():
    # a matching number or action and other Wilds do not make it unfair
    assert uf.wild_draw_is_fair(("G9/O8", "Gskip/P7", "W/V2"), "R", uf.LIGHT)
    assert not uf.wild_draw_is_fair(("G9/O8", "R2/V7"), "R", uf.LIGHT)
    # on the dark side the active faces count: R2/V7 is a V card there
    assert uf.wild_draw_is_fair(("R2/V7",), "R", uf.DARK)
    # an unfair one is a legal bluff
    state, _ = new([[], ["W+2", "R2"], []], "R9/Vskipall")
    assert {"type": "play", "card": "W+2", "color": "B"} in G.legal_moves(state, 1)
    state, events = move(state, 1, {"type": "play", "card": "W+2", "color": "B"})
    assert types(events) == ["card_played"]
    assert state.turn == 2 and G.legal_moves(state, 2) == [{"type": "challenge"}, {"type": "accept"}]


def test_F9_a_flip_turns_the_discards_the_draw_pile_and_every_hand():
    state, _ = new([[], ["Rflip/V1", "G5/O9"]], "R5/Oflip", bottom=["B6/O7", "G4/P+5"])
    before = state
    state, events = move(state, 1, {"type": "play", "card": "Rflip"})
    assert events == [
        {"type": "card_played", "seat": 1, "card": "Rflip/V1", "face": "Rflip"},
        {"type": "table_flipped", "seat": 1, "side": "dark", "top": "Oflip", "color": "O", "draw_back": "G4"},
    ]
    # the discard pile turned as a stack: the Flip at the bottom, the old bottom's other face on top
    assert state.discard == ("Rflip/V1", "R5/Oflip")
    assert state.draw == tuple(reversed(before.draw))
    view = G.view(state, 1)
    assert (view["side"], view["top"], view["color"], view["draw_back"]) == ("dark", "Oflip", "O", "G4")
    # every hand is turned: the same physical cards, the light faces are now the backs
    assert sorted(view["hand"]) == sorted(before.hands[1][1:])
    assert sorted(view["backs"][0]) == sorted(faces(before.hands[0], 0))
    # seat 0's fillers Y1/O3 and Y2/O6 are orange cards now
    assert [m["card"] for m in G.legal_moves(state, 0) if m["type"] == "play"] == ["O3", "O6"]
    # a face that becomes the top by a flip has no action effect: Oflip does not flip again, turn passes on
    assert state.turn == 0 and state.side == uf.DARK


def test_F9_a_flip_that_turns_up_a_wild_names_the_new_sides_colour():
    state, _ = new([[], ["Rflip/V1"]], "R4/DW")
    legal = [m for m in G.legal_moves(state, 1) if m.get("card") == "Rflip"]
    assert legal == [{"type": "play", "card": "Rflip", "color": c} for c in DARK]
    refused(state, 1, {"type": "play", "card": "Rflip"}, "color_required", "F9")
    refused(state, 1, {"type": "play", "card": "Rflip", "color": "R"}, "bad_color", "F9")
    state, events = move(state, 1, {"type": "play", "card": "Rflip", "color": "T"})
    assert events[1]["top"] == "DW" and events[1]["color"] == "T"
    assert (G.view(state, None)["color"], state.turn) == ("T", 0)
    # a Flip that turns up no Wild takes no colour
    state, _ = new([[], ["Rflip/V1"]], "R5/Oflip")
    refused(state, 1, {"type": "play", "card": "Rflip", "color": "P"}, "color_not_allowed", "F9")


def test_F9_a_flip_played_as_the_last_card_ends_the_round_and_turns_nothing():
    state, _ = new([[], ["Rflip/V1"]], "R4/DW")
    state = trim(state, 1, 1)
    assert G.legal_moves(state, 1)[0] == {"type": "play", "card": "Rflip"}
    state, events = move(state, 1, {"type": "play", "card": "Rflip"})
    assert "table_flipped" not in types(events)
    scored = events[types(events).index("round_scored")]
    assert scored["side"] == "light" and scored["seat"] == 1


def test_F10_draw_five_skip_everyone_and_wild_draw_color():
    # Draw Five: next draws 5, loses the turn (dark side, 3 seats; seat 2 holds G7/O+5)
    bottom = ["R8/P7", "R6/P1", "R1/P3", "B6/DW", "G6/T8", "G4/V1"]
    state, _ = new([[], ["Rflip/V1"], ["G7/O+5", "R5/Oskipall", "Y6/DW+C"]], "R5/Oflip", bottom=bottom)
    state = dark(state)
    assert state.turn == 2
    after, events = move(state, 2, {"type": "play", "card": "O+5"})
    assert events[1] == {"type": "cards_drawn", "seat": 0, "cards": ["G4/V1", "G6/T8", "B6/DW", "R1/P3", "R6/P1"],
                         "cause": "draw_five", "backs": ["G4", "G6", "B6", "R1", "R6"]}
    assert events[2] == {"type": "turn_skipped", "seat": 0, "turn": 1} and after.turn == 1
    # Skip Everyone: the same player plays again
    after, events = move(state, 2, {"type": "play", "card": "Oskipall"})
    assert events[1] == {"type": "everyone_skipped", "seat": 2, "turn": 2} and after.turn == 2
    # Wild Draw Color: the next player draws until the named colour appears (a Wild does not count)
    after, events = move(state, 2, {"type": "play", "card": "DW+C", "color": "P"})
    assert after.phase == "challenge" and after.turn == 0
    after, events = move(after, 0, {"type": "accept"})
    assert types(events) == ["accepted", "cards_drawn", "turn_skipped"]
    assert events[1]["cards"] == ["G4/V1", "G6/T8", "B6/DW", "R1/P3"]
    assert events[1]["cause"] == "wild_draw_color" and after.turn == 1


def test_F10_wild_draw_color_stops_cleanly_when_no_card_of_the_colour_is_left():
    state, _ = new([[], ["Rflip/V1"], ["Y6/DW+C"]], "R5/Oflip")
    state = dark(state)
    state, _ = move(state, 2, {"type": "play", "card": "DW+C", "color": "P"})
    # every card with a pink active face in the draw pile goes to seat 1
    pink = tuple(c for c in state.draw if c.split("/")[1][0] == "P")
    hands = list(state.hands)
    hands[1] = hands[1] + pink
    state = dataclasses.replace(state, hands=tuple(hands), draw=tuple(c for c in state.draw if c not in pink))
    assert not uf.colour_left_to_draw(state, "P")
    state, events = move(state, 0, {"type": "accept"})
    assert types(events) == ["accepted", "turn_skipped"]
    assert len(state.hands[0]) == 7 and Counter(G.all_cards(state)) == Counter(ALL)


def test_F10_wild_draw_color_reshuffles_the_discards_when_the_pile_runs_out():
    state, _ = new([[], ["Rflip/V1"], ["Y6/DW+C"]], "R5/Oflip")
    state = dark(state)
    state, _ = move(state, 2, {"type": "play", "card": "DW+C", "color": "P"})
    # the draw pile holds one orange card; every other card lies in the discards below the top
    keep = next(c for c in state.draw if c.split("/")[1][0] == "O")
    rest = list(state.draw)
    rest.remove(keep)
    state = dataclasses.replace(state, draw=(keep,), discard=tuple(rest) + state.discard)
    state, events = move(state, 0, {"type": "accept"})
    assert types(events) == ["accepted", "cards_drawn", "discards_reshuffled", "cards_drawn", "turn_skipped"]
    assert events[1]["cards"] == [keep]
    drawn = events[3]["cards"]
    assert drawn[-1].split("/")[1][0] == "P"
    assert all(c.split("/")[1][0] != "P" for c in drawn[:-1])
    assert state.side == uf.DARK and state.discard[-1] == "Y6/DW+C"


def test_F11_a_guilty_wild_draw_two_makes_its_player_draw_and_the_challenger_plays():
    state, _ = new([[], ["W+2", "R2", "G3"], []], "R9/Vskipall", stock=["B6/O7", "G4/P+5", "R6/P1"])
    state, _ = move(state, 1, {"type": "play", "card": "W+2", "color": "G"})
    refused(state, 0, {"type": "challenge"}, "not_your_turn")
    refused(state, 2, {"type": "play", "card": "Y1"}, "must_answer_challenge", "F11")
    refused(state, 2, {"type": "draw"}, "must_answer_challenge", "F11")
    state, events = move(state, 2, {"type": "challenge"})
    shown = list(state.hands[1][:6])
    assert events[0] == {"type": "challenged", "seat": 2, "target": 1, "guilty": True, "hand": shown}
    assert events[1]["seat"] == 1 and events[1]["cards"] == ["B6/O7", "G4/P+5"]
    assert len(events) == 2
    assert (state.turn, state.color) == (2, "G")
    # the challenger alone is shown the hand, until its next turn move
    assert sorted(G.view(state, 2)["shown_hand"]) == sorted(shown)
    assert G.view(state, 0)["shown_hand"] is None and G.view(state, None)["shown_hand"] is None
    assert "hand" not in G.redact(events[0], 0) and G.redact(events[0], 2)["hand"] == shown
    state, _ = move(state, 2, {"type": "draw"})
    assert G.view(state, 2)["shown_hand"] is None


def test_F11_an_innocent_wild_draw_two_costs_the_challenger_four_cards_and_the_turn():
    state, _ = new([[], ["W+2", "G9", "Gskip"], []], "R9/Vskipall",
                   stock=["B6/O7", "G4/P+5", "R6/P1", "R8/P7", "G6/T8"])
    state, _ = move(state, 1, {"type": "play", "card": "W+2", "color": "G"})
    state, events = move(state, 2, {"type": "challenge"})
    assert events[0]["guilty"] is False
    assert events[1] == {"type": "cards_drawn", "seat": 2, "cards": ["B6/O7", "G4/P+5", "R6/P1", "R8/P7"],
                         "cause": "challenge", "backs": ["O7", "P+5", "P1", "P7"]}
    assert events[2] == {"type": "turn_skipped", "seat": 2, "turn": 0} and state.turn == 0


def test_F11_accepting_a_wild_draw_two_draws_two_and_loses_the_turn():
    state, _ = new([[], ["W+2", "R2"], []], "R9/Vskipall", stock=["B6/O7", "G4/P+5"])
    state, _ = move(state, 1, {"type": "play", "card": "W+2", "color": "G"})
    state, events = move(state, 2, {"type": "accept"})
    assert events == [
        {"type": "accepted", "seat": 2, "target": 1},
        {"type": "cards_drawn", "seat": 2, "cards": ["B6/O7", "G4/P+5"], "cause": "wild_draw_two",
         "backs": ["O7", "P+5"]},
        {"type": "turn_skipped", "seat": 2, "turn": 0},
    ]
    refused(state, 0, {"type": "challenge"}, "nothing_to_challenge", "F11")


def test_F11_wild_draw_color_challenges_draw_until_the_colour_guilty_or_plus_two_innocent():
    bottom = ["R8/P7", "R6/P1", "R1/P3", "B6/DW", "G6/T8", "G4/V1"]
    # guilty: seat 2 still holds an orange card (G5/O9) when the colour in force is O
    state, _ = new([[], ["Rflip/V1"], ["Y6/DW+C", "G5/O9"]], "R5/Oflip", bottom=bottom)
    state = dark(state)
    state, _ = move(state, 2, {"type": "play", "card": "DW+C", "color": "P"})
    after, events = move(state, 0, {"type": "challenge"})
    assert events[0]["guilty"] is True
    assert events[1]["seat"] == 2 and events[1]["cards"] == ["G4/V1", "G6/T8", "B6/DW", "R1/P3"]
    assert after.turn == 0 and after.color == "P"
    # innocent: seat 2 holds no orange card; the challenger draws until pink plus 2 more
    state, _ = new([[], ["Rflip/V1"], ["Y6/DW+C", "G3/T+5"]], "R5/Oflip", bottom=bottom)
    state = dark(state)
    hands = list(state.hands)
    hands[2] = tuple(c for c in hands[2] if c.split("/")[1][0] != "O")
    moved = tuple(c for c in state.hands[2] if c not in hands[2])
    state = dataclasses.replace(state, hands=tuple(hands), draw=state.draw + moved)
    state, _ = move(state, 2, {"type": "play", "card": "DW+C", "color": "P"})
    after, events = move(state, 0, {"type": "challenge"})
    assert events[0]["guilty"] is False
    assert events[1]["seat"] == 0 and events[1]["cards"] == ["G4/V1", "G6/T8", "B6/DW", "R1/P3", "R6/P1", "R8/P7"]
    assert events[2] == {"type": "turn_skipped", "seat": 0, "turn": 1}


def test_F12_the_call_flag_with_the_play_protects_the_last_card():
    state, _ = new([[], ["R2", "R3"], []], "R9/Vskipall")
    state = trim(state, 1, 2)
    legal = G.legal_moves(state, 1)
    assert {"type": "play", "card": "R2"} in legal and {"type": "play", "card": "R2", "call": True} in legal
    state, events = move(state, 1, {"type": "play", "card": "R2", "call": True})
    assert events[0]["call"] is True and G.view(state, None)["called"] == [False, True, False]
    assert G.legal_moves(state, 0) == [] and G.view(state, None)["to_act"] == [2]
    refused(state, 0, {"type": "catch", "target": 1}, "nothing_to_catch", "F12")


def test_F12_an_uncalled_last_card_is_caught_for_two_cards_until_the_window_closes():
    state, _ = new([[], ["R2", "R3"], []], "R9/Vskipall", stock=["B6/O7", "G4/P+5"])
    state = trim(state, 1, 2)
    state, events = move(state, 1, {"type": "play", "card": "R2"})
    assert "call" not in events[0]
    assert G.view(state, None)["to_act"] == [0, 1, 2]
    assert G.legal_moves(state, 0) == [{"type": "catch", "target": 1}]
    assert G.legal_moves(state, 1) == [{"type": "call"}]
    refused(state, 1, {"type": "catch", "target": 1}, "nothing_to_catch", "F12")
    caught, events = move(state, 0, {"type": "catch", "target": 1})
    assert events == [{"type": "uno_caught", "seat": 0, "target": 1},
                      {"type": "cards_drawn", "seat": 1, "cards": ["B6/O7", "G4/P+5"], "cause": "caught",
                       "backs": ["O7", "P+5"]}]
    refused(caught, 2, {"type": "catch", "target": 1}, "nothing_to_catch", "F12")
    # a separate call protects the card too
    called, _ = move(state, 1, {"type": "call"})
    refused(called, 0, {"type": "catch", "target": 1}, "nothing_to_catch", "F12")
    refused(called, 1, {"type": "call"}, "cannot_call", "F12")
    # the window closes when the seat whose turn comes next makes a turn move; the call stays possible
    state, _ = move(state, 2, {"type": "draw"})
    refused(state, 0, {"type": "catch", "target": 1}, "nothing_to_catch", "F12")
    assert G.legal_moves(state, 1) == [{"type": "call"}]


def test_F12_forced_draws_do_not_close_the_window_and_skip_everyone_keeps_it_for_the_same_player():
    # a Draw One as the second-last card: seat 2 draws and loses its turn, seat 0 holds the next turn
    state, _ = new([[], ["R+1", "R3"], []], "R9/Vskipall")
    state = trim(state, 1, 2)
    state, _ = move(state, 1, {"type": "play", "card": "R+1"})
    assert state.turn == 0 and {"type": "catch", "target": 1} in G.legal_moves(state, 2)
    state, _ = move(state, 0, {"type": "draw"})
    refused(state, 2, {"type": "catch", "target": 1}, "nothing_to_catch", "F12")
    # after a Skip Everyone the seat whose turn comes next is the same player
    state, _ = new([[], ["Rflip/V1"], ["R5/Oskipall", "G5/O9"]], "R5/Oflip")
    state = trim(dark(state), 2, 2)
    state, _ = move(state, 2, {"type": "play", "card": "Oskipall"})
    assert state.turn == 2 and state.window == 2
    assert G.legal_moves(state, 0) == [{"type": "catch", "target": 2}]
    state, _ = move(state, 1, {"type": "catch", "target": 2})
    assert len(state.hands[2]) == 3


def test_F13_an_empty_draw_pile_is_refilled_from_the_discards_below_the_top():
    state, _ = new([[], ["G3"], []], "R9/Vskipall")
    state = dataclasses.replace(state, draw=(), discard=state.draw + state.discard)
    state, events = move(state, 1, {"type": "draw"})
    assert types(events) == ["discards_reshuffled", "card_drawn"]
    assert sorted(events[0]["pile"]) == sorted(stack([[], ["G3"], []], "R9/Vskipall")[22:])
    assert events[1]["card"] == events[0]["pile"][0]
    assert state.discard == ("R9/Vskipall",) and state.side == uf.LIGHT
    assert G.redact(events[0], 0) == {"type": "discards_reshuffled", "count": 112 - 22}


def test_F13_a_forced_draw_takes_what_remains_and_the_rest_is_forgiven():
    state, _ = new([[], ["R+1"], []], "R9/Vskipall")
    last = state.draw[0]
    hands = list(state.hands)
    hands[0] = hands[0] + state.draw[1:]
    state = dataclasses.replace(state, hands=tuple(hands), draw=(last,))
    state, events = move(state, 1, {"type": "play", "card": "R+1"})
    assert types(events) == ["card_played", "cards_drawn", "turn_skipped"]
    assert events[1]["cards"] == [last]


def test_F14_the_last_cards_pending_draws_are_carried_out_and_count():
    state, _ = new([[], ["R+1"], ["B9", "B8", "B7", "B6", "B5", "B4", "B3"]], "R9/Vskipall", stock=["G9/O8"])
    state = trim(state, 1, 1)
    state, events = move(state, 1, {"type": "play", "card": "R+1"})
    assert types(events)[:3] == ["card_played", "cards_drawn", "round_scored"]
    scored = events[2]
    # seat 0 holds Y1 Y1 Y2 Y2 Y3 Y3 Y4; seat 2 its blues and the drawn G9
    assert scored["points"] == [16, 0, 9 + 8 + 7 + 6 + 5 + 4 + 3 + 9]
    assert scored["gained"] == 16 + 51 and scored["scores"] == [0, 67, 0]
    assert "turn_skipped" not in types(events)
    # a final Wild Draw Two cannot be challenged: the next player just draws
    state, _ = new([[], ["W+2"], []], "R9/Vskipall", stock=["G9/O8", "G8/O1"])
    state = trim(state, 1, 1)
    state, events = move(state, 1, {"type": "play", "card": "W+2", "color": "B"})
    assert types(events)[:3] == ["card_played", "cards_drawn", "round_scored"]
    assert events[1]["cards"] == ["G9/O8", "G8/O1"] and events[1]["seat"] == 2


def test_F15_points_by_the_side_in_play():
    light = {"R7": 7, "R+1": 10, "Rrev": 20, "Rskip": 20, "Rflip": 20, "W": 40, "W+2": 50}
    dark_ = {"P7": 7, "P+5": 20, "Prev": 20, "Pflip": 20, "Pskipall": 30, "DW": 40, "DW+C": 60}
    assert {f: uf.card_points(f) for f in {**light, **dark_}} == {**light, **dark_}
    hand = ["R7/T4", "R+1/V6", "Rrev/DW", "Rskip/P8", "Rflip/O4", "W/V2", "W+2/V7"]
    # light side: 7 + 10 + 20 + 20 + 20 + 40 + 50
    state, _ = new([hand, ["R9/Vskipall"]], "R8/O9")
    state, events = move(trim(state, 1, 1), 1, {"type": "play", "card": "R9"})
    scored = events[1]
    assert (scored["side"], scored["points"], scored["gained"]) == ("light", [167, 0], 167)
    # dark side: T4 4 + V6 6 + P8 8 + O4 4 + V2 2 + V7 7 after seat 0 plays its DW
    state, _ = new([hand, ["Rflip/V1", "G5/O9"]], "R8/O9")
    state = trim(state, 1, 2)
    state, _ = move(state, 1, {"type": "play", "card": "Rflip", "call": True})
    state, _ = move(state, 0, {"type": "play", "card": "DW", "color": "O"})
    state, events = move(state, 1, {"type": "play", "card": "O9"})
    scored = events[1]
    assert (scored["side"], scored["points"], scored["gained"]) == ("dark", [31, 0], 31)


def test_F16_the_first_seat_to_reach_the_target_wins_and_the_others_rank_by_points():
    hand = ["R7/T4", "R+1/V6", "Rrev/DW", "Rskip/P8", "Rflip/O4", "W/V2", "W+2/V7"]
    state, _ = new([hand, ["R9/Vskipall"], []], "R8/O9", options={"target": 150})
    assert state.options == {"target": 150}
    state, events = move(trim(state, 1, 1), 1, {"type": "play", "card": "R9"})
    assert types(events) == ["card_played", "round_scored", "match_ended"]
    # seat 2 holds Y4 Y4 Y5 Y5 Y6 Y6 Y7
    assert events[-1] == {"type": "match_ended", "reason": "target", "scores": [0, 167 + 37, 0],
                          "ranking": [[1], [0, 2]]}
    assert G.outcome(state) == {"ranking": [[1], [0, 2]], "scores": [0, 204, 0]}
    assert all(G.legal_moves(state, s) == [] for s in range(3))
    view = G.view(state, 0)
    assert view["over"] is True and view["to_act"] == [] and view["turn"] is None
    assert [len(h) for h in view["hands"]] == [7, 0, 7]
    refused(state, 0, {"type": "draw"}, "match_over", "F16")
    assert G.hidden_cards(state, 0) == []
    # below the target the next round is dealt instead
    state, _ = new([hand, ["R9/Vskipall"], []], "R8/O9")
    state, events = move(trim(state, 1, 1), 1, {"type": "play", "card": "R9"})
    assert "round_dealt" in types(events) and G.outcome(state) is None


def test_F16_target_option_is_checked():
    for bad in (0, -5, "500", 1.5, True):
        with pytest.raises(ValueError):
            G.start(2, "s", options={"target": bad})
    with pytest.raises(ValueError):
        G.start(2, "s", options={"variant": "x"})
    assert G.fold(G.start(2, "s")).options == {"target": 500}


# --------------------------------------------------------------------------
# Resigning (docs/engine-contract.md "Resigning (every game)")
# --------------------------------------------------------------------------

RESIGN = {"type": "resign"}
WINNING_HAND = ["R7/T4", "R+1/V6", "Rrev/DW", "Rskip/P8", "Rflip/O4", "W/V2", "W+2/V7"]


def test_resign_is_never_a_legal_move_listed_and_legal_out_of_turn():
    state, _ = new([[], [], [], []], "R8/O9")
    assert all(RESIGN not in G.legal_moves(state, s) for s in range(4))
    state, events = move(state, 3, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 3}]
    view = G.view(state, 3)
    assert view["resigned"] == [3] and view["to_act"] == [1] and len(view["hand"]) == 7
    # the resigned seat keeps its turns and its part in the rules
    state, _ = move(state, 1, {"type": "draw"})
    state, _ = move(state, 1, {"type": "pass"})
    state, _ = move(state, 2, {"type": "draw"})
    state, _ = move(state, 2, {"type": "pass"})
    assert G.view(state, None)["to_act"] == [3] and G.legal_moves(state, 3)


def test_resigning_leaves_one_seat_and_ends_the_match():
    state, _ = new([[], [], []], "R8/O9")
    state, _ = move(state, 1, RESIGN)
    state, events = move(state, 0, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 0},
                      {"type": "match_ended", "reason": "resigned", "scores": [0, 0, 0],
                       "ranking": [[2], [0], [1]]}]
    assert G.outcome(state) == {"ranking": [[2], [0], [1]], "scores": [0, 0, 0]}
    view = G.view(state, None)
    assert view["over"] is True and view["to_act"] == [] and view["outcome"] == G.outcome(state)
    refused(state, 2, RESIGN, "match_over")


def test_a_resigned_seat_ranks_below_all_others():
    state, _ = new([WINNING_HAND, ["R9/Vskipall"], []], "R8/O9", options={"target": 150})
    state, _ = move(state, 1, RESIGN)
    state, events = move(trim(state, 1, 1), 1, {"type": "play", "card": "R9"})
    assert events[-1] == {"type": "match_ended", "reason": "target", "scores": [0, 204, 0],
                          "ranking": [[0, 2], [1]]}
    assert G.outcome(state)["ranking"] == [[0, 2], [1]]


def test_latest_to_resign_ranks_best_among_resigned():
    state, _ = new([WINNING_HAND, ["R9/Vskipall"], [], []], "R8/O9", options={"target": 150})
    state, _ = move(state, 1, RESIGN)
    state, _ = move(state, 3, RESIGN)
    state, events = move(trim(state, 1, 1), 1, {"type": "play", "card": "R9"})
    assert events[-1]["ranking"] == [[0, 2], [3], [1]]


def test_a_seat_resigns_once_and_only_from_a_seat_at_the_table():
    state, _ = new([[], [], []], "R8/O9")
    state, _ = move(state, 0, RESIGN)
    refused(state, 0, RESIGN, "already_resigned")
    for seat in (3, -1, True, None):
        refused(state, seat, RESIGN, "malformed_move")
    event = {"type": "seat_resigned", "seat": 0}
    assert all(G.redact(event, s) == event for s in (None, 0, 1, 2))


def test_a_colour_is_exactly_one_of_the_sides_colour_letters():
    state, _ = new([[], [], []], "W/V2")
    for bad in ("", "RY", "RYGB", "r"):
        refused(state, 1, {"type": "color", "color": bad}, "bad_color", "F6")


# --------------------------------------------------------------------------
# The engine contract
# --------------------------------------------------------------------------

def test_registry_finds_uno_flip_and_a_stacked_deck_must_be_a_permutation():
    assert registry.get("uno_flip") is G
    with pytest.raises(ValueError):
        G.start(2, "s", deck=ALL[:-1] + ["R1/O8"])
    with pytest.raises(ValueError):
        G.start(2, 7)


def test_moves_are_checked_for_shape():
    state, _ = new([[], ["R2", "R3"], []], "R9/Vskipall")
    refused(state, 1, "draw", "malformed_move")
    refused(state, 1, {"type": "fly"}, "malformed_move")
    refused(state, 1, {"type": "draw", "now": True}, "malformed_move")
    refused(state, 1, {"type": "play", "card": 5}, "malformed_move")
    refused(state, 1, {"type": "play", "card": "R2", "call": "yes"}, "malformed_move")
    refused(state, 0, {"type": "catch", "target": "1"}, "malformed_move")
    refused(state, 0, {"type": "draw"}, "not_your_turn", "F7")
    refused(state, 0, {"type": "call"}, "cannot_call", "F12")
    # a call flag on a play that leaves more than one card is accepted and does nothing
    _, events = move(state, 1, {"type": "play", "card": "R2", "call": True})
    assert "call" not in events[0]


def test_views_are_allow_listed_and_show_the_backs():
    state, _ = new([[], [], []], "R8/O9", stock=["G7/O+5"], seed="view-seed")
    keys = {"to_act", "turn", "seats", "over", "outcome", "hand", "top", "color", "hand_sizes", "draw_size",
            "discard_size", "scores", "round", "dealer", "direction", "side", "backs", "draw_back", "called",
            "shown_hand", "resigned"}
    for seat in (None, 0, 2):
        view = G.view(state, seat)
        assert set(view) == keys
        json.dumps(view)
        assert view["backs"] == [sorted(faces(h, 1), key=uf.FACE_ORDER.get) for h in state.hands]
    assert G.view(state, None)["hand"] == []
    assert G.view(state, 2)["hand"] == sorted(state.hands[2], key=uf.HAND_KEY[0].get)
    view = G.view(state, 0)
    assert (view["seats"], view["over"], view["outcome"], view["to_act"]) == (3, False, None, [1])
    assert (view["draw_size"], view["discard_size"], view["scores"]) == (112 - 22, 1, [0, 0, 0])
    assert "view-seed" not in json.dumps([G.view(state, s) for s in (None, 0, 1, 2)])


def test_hidden_cards_are_the_active_faces_of_others_and_the_draw_pile():
    state, _ = new([[], []], "R8/O9", stock=["G7/O+5"])
    hidden = Counter(G.hidden_cards(state, 0))
    expected = Counter(faces(state.hands[1], 0))
    expected["G7"] += 1
    for c in state.draw[1:]:
        expected.update(c.split("/"))
    assert hidden == expected
    spectator = Counter(G.hidden_cards(state, None))
    assert sum(spectator.values()) == sum(expected.values()) + 7


def test_redact_hides_the_seed_deck_orders_and_other_seats_drawn_cards():
    events = G.start(3, "secret-seed", deck=stack([[], ["G3"], []], "R9/Vskipall", stock=["G4/P+5"]))
    state = G.fold(events)
    state, drawn = move(state, 1, {"type": "draw"})
    for seat in (None, 0, 1, 2):
        text = json.dumps([G.redact(e, seat) for e in events + drawn])
        assert "secret-seed" not in text
        assert "deck" not in json.dumps(G.redact(events[1], seat))
    assert G.redact(events[1], 0)["hand"] == events[1]["deck"][:7]
    assert "hand" not in G.redact(events[1], None)
    assert G.redact(drawn[0], 0) == {"type": "card_drawn", "seat": 1, "back": "P+5"}
    assert G.redact(drawn[0], 1) == drawn[0]
    forced = {"type": "cards_drawn", "seat": 2, "cards": ["G4/P+5"], "cause": "draw_one", "backs": ["P+5"]}
    assert G.redact(forced, 0) == {"type": "cards_drawn", "seat": 2, "cause": "draw_one", "backs": ["P+5"],
                                   "count": 1}


def test_apply_never_mutates_and_replay_gives_the_same_state():
    events = G.start(4, "replay")
    state = G.fold(events)
    frozen = dataclasses.replace(state)
    for _ in range(40):
        seat = G.view(state, None)["to_act"][0]
        new_events = G.play(state, seat, G.legal_moves(state, seat)[-1])
        assert state == frozen
        for e in new_events:
            state = G.apply(state, e)
        events += new_events
        frozen = dataclasses.replace(state)
    assert G.fold(events) == state


def test_the_event_bound_ends_a_match_that_reaches_it():
    state, _ = new([[], ["R2"], []], "R9/Vskipall")
    state = dataclasses.replace(state, n_events=uf.EVENT_LIMIT)
    state, events = move(state, 1, {"type": "play", "card": "R2"})
    assert events[-1] == {"type": "match_ended", "reason": "event_limit", "scores": [0, 0, 0],
                          "ranking": [[0, 1, 2]]}
    assert G.outcome(state) == {"ranking": [[0, 1, 2]], "scores": [0, 0, 0]}
    assert uf.EVENT_LIMIT + uf.MOVE_EVENT_BOUND + 1 <= uf.MAX_EVENTS


def _candidates(state, seat):
    """Plausible moves for a seat: every held card named both ways, with and without colours and calls."""
    out = [{"type": t} for t in ("draw", "pass", "call", "challenge", "accept")]
    out += [{"type": "color", "color": c} for c in LIGHT + DARK]
    out += [{"type": "catch", "target": t} for t in range(state.seats)]
    for card in set(state.hands[seat]):
        for name in (card, card.split("/")[state.side]):
            for colour in (None, *LIGHT, *DARK):
                for call in (None, True):
                    m = {"type": "play", "card": name}
                    if colour:
                        m["color"] = colour
                    if call:
                        m["call"] = call
                    out.append(m)
    return out


def _normal(state, seat, m):
    """A move as legal_moves would list it: the card as it is named there, a call flag only when it counts."""
    m = dict(m)
    if m["type"] == "play":
        card = m["card"] if "/" in m["card"] else next(c for c in state.hands[seat]
                                                       if c.split("/")[state.side] == m["card"])
        m["card"] = uf._card_names(state, seat, [card])[card]
        if len(state.hands[seat]) != 2:
            m.pop("call", None)
    return m


@pytest.mark.parametrize("seats", [2, 3])
def test_play_accepts_exactly_the_moves_legal_moves_lists(seats):
    state = G.fold(G.start(seats, f"exact-{seats}"))
    rng = random.Random(seats)
    for _ in range(150):
        for seat in range(seats):
            legal = G.legal_moves(state, seat)
            for m in _candidates(state, seat):
                try:
                    G.play(state, seat, m)
                    accepted = True
                except IllegalMove:
                    accepted = False
                if accepted:
                    assert _normal(state, seat, m) in legal, (m, legal)
                else:
                    assert m not in legal, (m, legal)
        seat = rng.choice(G.view(state, None)["to_act"])
        state, _ = move(state, seat, rng.choice(G.legal_moves(state, seat)))
