"""Cardavia (tests/fixtures/rules/cardavia.md): one test per rule, on stacked decks."""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from engine import IllegalMove, core, registry
from engine.cardavia import MAX_EVENTS, RANKS, cards, must_swap
from engine.cardavia import game as GAME

SEED = "test-seed"
KEEP, ASK = {"type": "keep"}, {"type": "ask"}


# -- helpers -------------------------------------------------------------------

def stack(hands, stock=()):
    """A full deck: one card per seat in seat order, then the stock top first, then the rest."""
    deck = [*hands, *stock]
    rest = Counter(cards())
    rest.subtract(deck)
    assert min(rest.values()) >= 0, "a stacked deck holds each code twice at most"
    return deck + [c for c in RANKS for _ in range(rest[c])]


def begin(hands, stock=(), **options):
    events = GAME.start(len(hands), SEED, options=options or None, deck=stack(hands, stock))
    return events, GAME.fold(events)


def act(state, seat, move):
    events = GAME.play(state, seat, move)
    for event in events:
        state = GAME.apply(state, event)
    return events, state


def keep_all(state, seats):
    for seat in seats:
        _, state = act(state, seat, KEEP)
    return state


def this_deal(events):
    """The events up to the next deal (or the skipped one)."""
    for i, e in enumerate(events):
        if e["type"] in ("cards_dealt", "deal_skipped"):
            return events[:i]
    return events


def first(events, kind):
    return next(e for e in events if e["type"] == kind)


def settled(cards_, losers, round_=1, rest=()):
    return {"type": "deal_settled", "round": round_, "cards": cards_, "losers": losers, "rest": list(rest)}


def lost(seat, lives, rule, card=None):
    e = {"type": "life_lost", "seat": seat, "lives": lives}
    if card:
        e["card"] = card
    e["rule"] = rule
    return e


def asked(seat, target):
    return {"type": "swap_asked", "seat": seat, "target": target}


def refused(seat, card, asker):
    return {"type": "swap_refused", "seat": seat, "card": card, "asker": asker}


# -- C1 ----------------------------------------------------------------------------

def test_C1_forty_two_cards_two_of_each_of_21_ranks_3_to_6_seats_and_a_lives_option():
    deck = cards()
    assert len(deck) == 42
    assert deck[:8] == ["FOOL", "FOOL", "OWL", "OWL", "POT", "POT", "0", "0"]
    assert deck[-10:] == ["HOUSE", "HOUSE", "HORSE", "HORSE", "CAT", "CAT",
                          "DRAGOON", "DRAGOON", "CUCKOO", "CUCKOO"]
    assert Counter(deck) == Counter({code: 2 for code in RANKS}) and len(RANKS) == 21
    assert GAME.cards() == deck and registry.get("cardavia") is GAME
    for seats in (2, 7, "4", True):
        with pytest.raises(ValueError):
            GAME.start(seats, SEED)
    assert GAME.view(GAME.fold(GAME.start(3, SEED)), None)["lives"] == [3, 3, 3]
    assert GAME.view(GAME.fold(GAME.start(6, SEED, options={"lives": 5})), 0)["lives"] == [5] * 6
    assert GAME.start(4, SEED, options={"lives": 5})[0]["options"] == {"lives": 5}
    for bad in (0, -1, 11, "3", True, None, 2.0):
        with pytest.raises(ValueError):
            GAME.start(4, SEED, options={"lives": bad})
    with pytest.raises(ValueError):
        GAME.start(4, SEED, deck=cards()[:-1] + ["FOOL"])


# -- C2 ----------------------------------------------------------------------------

def test_C2_one_hidden_card_per_participant_turns_from_the_dealers_left_dealer_last():
    events, state = begin(["5", "7", "9", "11"], stock=["2"])
    assert [e["type"] for e in events] == ["match_started", "cards_dealt", "turn_passed"]
    dealt = events[1]
    assert (dealt["round"], dealt["dealer"], dealt["order"], dealt["resting"]) == (1, 0, [1, 2, 3, 0], [])
    assert dealt["deck"] == stack(["5", "7", "9", "11"], ["2"])
    assert [GAME.view(state, s)["hand"] for s in range(4)] == [["5"], ["7"], ["9"], ["11"]]
    spectator = GAME.view(state, None)
    assert (spectator["turn"], spectator["to_act"], spectator["dealer"]) == (1, [1], 0)
    assert spectator["participants"] == [1, 2, 3, 0] and spectator["stock_size"] == 38
    for seat, nxt in ((1, 2), (2, 3), (3, 0)):
        events, state = act(state, seat, KEEP)
        assert events == [{"type": "card_kept", "seat": seat}, {"type": "turn_passed", "seat": nxt}]
    events, state = act(state, 0, KEEP)
    new = first(events, "cards_dealt")
    assert (new["round"], new["dealer"], new["order"]) == (2, 1, [2, 3, 0, 1])
    assert new["deck"] == core.shuffled(SEED, 1, cards())      # later deals: shuffled from the seed
    assert events[-1] == {"type": "turn_passed", "seat": 2}
    assert GAME.view(state, 1)["hand"] == [new["deck"][1]]


# -- C3 ----------------------------------------------------------------------------

def test_C3_a_dealt_fool_is_knocked_face_up_and_stays_face_up_wherever_it_goes():
    events, state = begin(["5", "3", "FOOL", "9"])
    assert events[2] == {"type": "fool_knocked", "seat": 2, "card": "FOOL"}
    for seat in (None, 0, 1, 2, 3):
        assert GAME.view(state, seat)["face_up"] == [None, None, "FOOL", None]
    _, state = act(state, 1, ASK)                 # seat 2 must swap its Fool
    for seat in (None, 0, 3):
        view = GAME.view(state, seat)
        assert view["face_up"] == [None, "FOOL", None, None]
        assert "\"3\"" not in json.dumps(view)    # the card seat 2 received stays hidden
    assert GAME.view(state, 2)["hand"] == ["3"]


def test_C3_a_fool_drawn_from_the_stock_is_face_up_too():
    _, state = begin(["5", "3", "8", "9"], stock=["FOOL"])
    state = keep_all(state, (1, 2, 3))
    events, state = act(state, 0, ASK)
    assert this_deal(events) == [
        asked(0, None),
        {"type": "stock_exchanged", "seat": 0, "gave": "5", "got": "FOOL"},
        {"type": "fool_knocked", "seat": 0, "card": "FOOL"},
        settled(["FOOL", "3", "8", "9"], [0, 1]),
        lost(0, 2, "C10"), lost(1, 2, "C10"),
    ]


# -- C4 ----------------------------------------------------------------------------

def test_C4_on_a_turn_the_participant_keeps_or_asks_and_nothing_else():
    _, state = begin(["5", "3", "8", "9"])
    assert GAME.legal_moves(state, 1) == [KEEP, ASK]
    assert [GAME.legal_moves(state, s) for s in (0, 2, 3)] == [[], [], []]
    snapshot = copy.deepcopy(state)
    for bad in ({"type": "swap"}, {"type": "keep", "target": 2}, {}, "keep", None, {"type": "play", "card": "3"}):
        with pytest.raises(IllegalMove) as err:
            GAME.play(state, 1, bad)
        assert (err.value.code, err.value.rule) == ("malformed_move", "C4")
    for seat in (0, 2, 3, 9, None):
        with pytest.raises(IllegalMove) as err:
            GAME.play(state, seat, KEEP)
        assert (err.value.code, err.value.rule) == ("not_your_turn", "C2")
    assert state == snapshot
    events, state = act(state, 1, KEEP)
    assert events == [{"type": "card_kept", "seat": 1}, {"type": "turn_passed", "seat": 2}]
    assert GAME.view(state, 2)["log"] == [{"type": "card_kept", "seat": 1}]


# -- C5 ----------------------------------------------------------------------------

def test_C5_an_asked_ordinary_card_must_swap_and_only_the_two_swappers_see_the_cards():
    assert [c for c in RANKS if must_swap(c)] == list(RANKS[:16])     # Fool, Owl, Pot, 0 … XII
    _, state = begin(["5", "3", "POT", "9"])
    events, state = act(state, 1, ASK)
    swap = {"type": "cards_swapped", "seat": 1, "target": 2, "gave": "3", "got": "POT"}
    assert events == [asked(1, 2), swap, {"type": "turn_passed", "seat": 2}]
    assert GAME.redact(swap, 1) == swap and GAME.redact(swap, 2) == swap
    for seat in (0, 3, None):
        assert GAME.redact(swap, seat) == {"type": "cards_swapped", "seat": 1, "target": 2}
        assert GAME.view(state, seat)["log"] == [asked(1, 2), {"type": "cards_swapped", "seat": 1, "target": 2}]
    assert GAME.view(state, 1)["hand"] == ["POT"] and GAME.view(state, 2)["hand"] == ["3"]
    assert GAME.view(state, 1)["log"] == [asked(1, 2), swap]
    assert GAME.view(state, None)["turn"] == 2 and GAME.legal_moves(state, 2) == [KEEP, ASK]


# -- C6 ----------------------------------------------------------------------------

def test_C6_an_asked_cuckoo_is_shown_and_stops_the_deal_for_settlement():
    _, state = begin(["5", "3", "CUCKOO", "9"])
    events, state = act(state, 1, ASK)
    assert this_deal(events) == [asked(1, 2), refused(2, "CUCKOO", 1),
                                 settled(["5", "3", "CUCKOO", "9"], [1]), lost(1, 2, "C9")]
    assert GAME.view(state, None)["revealed"] == ["5", "3", "CUCKOO", "9"]


def test_C6_an_asked_dragoon_refuses_chops_the_asker_and_play_goes_on_left_of_it():
    _, state = begin(["5", "3", "DRAGOON", "9", "7"])
    events, state = act(state, 1, ASK)
    assert events == [asked(1, 2), refused(2, "DRAGOON", 1), lost(1, 2, "C6", "DRAGOON"),
                      {"type": "turn_passed", "seat": 3}]
    view = GAME.view(state, 4)
    assert view["lives"] == [3, 2, 3, 3, 3] and view["face_up"] == [None, None, "DRAGOON", None, None]
    assert GAME.view(state, 1)["hand"] == ["3"] and GAME.view(state, 2)["hand"] == ["DRAGOON"]
    assert view["log"] == [asked(1, 2), refused(2, "DRAGOON", 1), lost(1, 2, "C6", "DRAGOON")]


def test_C6_a_dragoon_or_cat_held_by_the_dealer_sends_the_deal_to_settlement():
    _, state = begin(["DRAGOON", "5", "6", "3"])
    state = keep_all(state, (1, 2))
    events, state = act(state, 3, ASK)
    assert this_deal(events) == [asked(3, 0), refused(0, "DRAGOON", 3), lost(3, 2, "C6", "DRAGOON"),
                                 settled(["DRAGOON", "5", "6", "3"], [3]), lost(3, 1, "C9")]


def test_C6_an_asked_cat_chops_and_undoes_every_swap_newest_first_across_a_dragoon_chop():
    _, state = begin(["CAT", "1", "2", "DRAGOON", "4", "5"])
    _, state = act(state, 1, ASK)                 # 1 <-> 2
    events, state = act(state, 2, ASK)            # the Dragoon chops seat 2
    assert events[-1] == {"type": "turn_passed", "seat": 4}
    _, state = act(state, 4, ASK)                 # 4 <-> 5
    assert [GAME.view(state, s)["hand"] for s in (1, 2, 4, 5)] == [["2"], ["1"], ["5"], ["4"]]
    events, state = act(state, 5, ASK)            # the dealer's Cat
    assert this_deal(events) == [
        asked(5, 0), refused(0, "CAT", 5), lost(5, 2, "C6", "CAT"),
        {"type": "swaps_undone", "seat": 0, "swaps": [[4, 5], [1, 2]]},
        settled(["CAT", "1", "2", "DRAGOON", "4", "5"], [1]), lost(1, 2, "C9"),
    ]
    assert GAME.view(state, None)["lives"] == [3, 2, 2, 3, 3, 2]


def test_C6_after_a_cats_undo_each_seat_holds_its_dealt_card_and_learns_nothing_new():
    _, state = begin(["9", "3", "POT", "CAT"])
    _, state = act(state, 1, ASK)                 # 1 <-> 2: seat 1 holds the Pot, seat 2 the III
    events, state = act(state, 2, ASK)
    undo = {"type": "swaps_undone", "seat": 3, "swaps": [[1, 2]]}
    assert events == [asked(2, 3), refused(3, "CAT", 2), lost(2, 2, "C6", "CAT"), undo,
                      {"type": "turn_passed", "seat": 0}]             # play goes on left of the Cat
    assert GAME.view(state, 1)["hand"] == ["3"] and GAME.view(state, 2)["hand"] == ["POT"]
    for seat in (None, 0, 1, 2, 3):
        assert GAME.redact(undo, seat) == undo    # seats only: no card is named
    outsider = GAME.view(state, 0)
    assert "POT" not in json.dumps(outsider) and "\"3\"" not in json.dumps(outsider)
    assert outsider["face_up"] == [None, None, None, "CAT"]
    # the swap can no longer be undone twice: a later Cat finds nothing to undo
    assert state.swaps == ()


def test_C6_horses_and_houses_pass_the_request_on_and_lose_their_turn():
    _, state = begin(["9", "3", "HORSE", "HOUSE", "6"])
    events, state = act(state, 1, ASK)
    assert events == [asked(1, 2), refused(2, "HORSE", 1), asked(1, 3), refused(3, "HOUSE", 1),
                      asked(1, 4), {"type": "cards_swapped", "seat": 1, "target": 4, "gave": "3", "got": "6"},
                      {"type": "turn_passed", "seat": 4}]
    view = GAME.view(state, 0)
    assert view["lives"] == [3] * 5 and view["face_up"] == [None, None, "HORSE", "HOUSE", None]
    assert GAME.view(state, 4)["hand"] == ["3"] and GAME.view(state, 1)["hand"] == ["6"]
    events, state = act(state, 4, KEEP)           # the Horse and the House have lost their turn
    assert events[-1] == {"type": "turn_passed", "seat": 0}


# -- C7 ----------------------------------------------------------------------------

def test_C7_the_dealer_exchanges_with_the_stock_top_the_old_card_goes_under_then_settlement():
    _, state = begin(["2", "5", "6", "7"], stock=["8", "9"])
    state = keep_all(state, (1, 2, 3))
    assert GAME.view(state, 0)["participants"][-1] == 0 and GAME.legal_moves(state, 0) == [KEEP, ASK]
    events, _ = act(state, 0, ASK)
    exchange = {"type": "stock_exchanged", "seat": 0, "gave": "2", "got": "8"}
    assert this_deal(events) == [asked(0, None), exchange, settled(["8", "5", "6", "7"], [1]), lost(1, 2, "C9")]
    mid = GAME.apply(GAME.apply(state, events[0]), exchange)
    assert mid.stock[0] == "9" and mid.stock[-1] == "2"
    assert GAME.redact(exchange, 0) == exchange
    assert GAME.redact(exchange, 1) == GAME.redact(exchange, None) == {"type": "stock_exchanged", "seat": 0}


def test_C7_the_dealer_keeping_ends_the_deal():
    _, state = begin(["2", "5", "6", "7"])
    state = keep_all(state, (1, 2, 3))
    events, _ = act(state, 0, KEEP)
    assert this_deal(events) == [{"type": "card_kept", "seat": 0}, settled(["2", "5", "6", "7"], [0]),
                                 lost(0, 2, "C9")]


def test_C7_a_request_passing_the_dealers_horse_goes_to_the_stock_and_the_dealer_has_no_turn():
    _, state = begin(["HORSE", "5", "6", "2"], stock=["8"])
    state = keep_all(state, (1, 2))
    events, _ = act(state, 3, ASK)
    assert this_deal(events) == [asked(3, 0), refused(0, "HORSE", 3), asked(3, None),
                                 {"type": "stock_exchanged", "seat": 3, "gave": "2", "got": "8"},
                                 settled(["HORSE", "5", "6", "8"], [1]), lost(1, 2, "C9")]


def test_C7_a_horse_or_house_from_the_stock_is_set_aside_and_the_next_card_drawn():
    _, state = begin(["2", "5", "6", "7"], stock=["HOUSE", "HORSE", "8"])
    state = keep_all(state, (1, 2, 3))
    events, _ = act(state, 0, ASK)
    deal = this_deal(events)
    assert deal[:4] == [asked(0, None), {"type": "stock_drawn", "seat": 0, "card": "HOUSE"},
                        {"type": "stock_drawn", "seat": 0, "card": "HORSE"},
                        {"type": "stock_exchanged", "seat": 0, "gave": "2", "got": "8"}]
    mid = GAME.apply(GAME.apply(state, deal[0]), deal[1])
    assert GAME.view(mid, 2)["set_aside"] == ["HOUSE"] and mid.stock[0] == "HORSE"


@pytest.mark.parametrize("card,tail", [
    ("CUCKOO", [settled(["2", "5", "6", "7"], [0]), lost(0, 2, "C9")]),
    ("DRAGOON", [lost(0, 2, "C7", "DRAGOON"), settled(["2", "5", "6", "7"], [0]), lost(0, 1, "C9")]),
])
def test_C7_a_cuckoo_or_dragoon_from_the_stock_acts_on_the_asker(card, tail):
    _, state = begin(["2", "5", "6", "7"], stock=[card])
    state = keep_all(state, (1, 2, 3))
    events, _ = act(state, 0, ASK)
    assert this_deal(events) == [asked(0, None), {"type": "stock_drawn", "seat": 0, "card": card}, *tail]


def test_C7_a_cat_from_the_stock_chops_the_asker_and_undoes_the_swaps():
    _, state = begin(["2", "5", "POT", "7"], stock=["HORSE", "CAT"])
    _, state = act(state, 1, ASK)                 # 1 <-> 2
    state = keep_all(state, (2, 3))
    events, _ = act(state, 0, ASK)
    assert this_deal(events) == [
        asked(0, None), {"type": "stock_drawn", "seat": 0, "card": "HORSE"},
        {"type": "stock_drawn", "seat": 0, "card": "CAT"}, lost(0, 2, "C7", "CAT"),
        {"type": "swaps_undone", "seat": None, "swaps": [[1, 2]]},
        settled(["2", "5", "POT", "7"], [2]), lost(2, 2, "C9"),
    ]


# -- C8 ----------------------------------------------------------------------------

def test_C8_a_seat_chopped_to_zero_leaves_at_once_and_takes_no_part_in_the_settlement():
    _, state = begin(["5", "0", "DRAGOON", "7"], lives=1)
    events, state = act(state, 1, ASK)
    assert events == [asked(1, 2), refused(2, "DRAGOON", 1), lost(1, 0, "C6", "DRAGOON"),
                      {"type": "seat_eliminated", "seat": 1, "round": 1}, {"type": "turn_passed", "seat": 3}]
    view = GAME.view(state, 1)
    assert view["hand"] == [] and view["participants"] == [2, 3, 0] and GAME.legal_moves(state, 1) == []
    state = keep_all(state, (3,))
    events, state = act(state, 0, KEEP)
    assert this_deal(events)[1:] == [settled(["5", None, "DRAGOON", "7"], [0]), lost(0, 0, "C9"),
                                     {"type": "seat_eliminated", "seat": 0, "round": 1}]
    dealt = first(events, "cards_dealt")
    assert (dealt["dealer"], dealt["order"]) == (2, [3, 2])       # the out seats are passed over
    assert GAME.all_cards(state) and Counter(GAME.all_cards(state)) == Counter(cards())


def test_C8_when_only_one_participant_is_left_the_deal_ends_without_settlement():
    _, state = begin(["5", "0", "DRAGOON"], stock=["CAT"], lives=1)
    _, state = act(state, 1, ASK)                 # seat 1 chopped out; play goes on with the dealer
    events, state = act(state, 0, ASK)            # the stock's Cat chops the dealer out
    assert events == [asked(0, None), {"type": "stock_drawn", "seat": 0, "card": "CAT"},
                      lost(0, 0, "C7", "CAT"), {"type": "seat_eliminated", "seat": 0, "round": 1},
                      {"type": "deal_ended", "round": 1},
                      {"type": "match_ended", "ranking": [[2], [0, 1]], "scores": [0, 0, 1]}]
    assert GAME.outcome(state) == {"ranking": [[2], [0, 1]], "scores": [0, 0, 1]}


# -- C9 ----------------------------------------------------------------------------

@pytest.mark.parametrize("hands,losers", [
    (["4", "4", "9", "HOUSE"], [0, 1]),                 # ties on the lowest all pay
    (["12", "HOUSE", "CUCKOO", "POT"], [3]),            # Pot is below every number
    (["CUCKOO", "DRAGOON", "CAT", "HORSE"], [3]),       # matadors rank House < Horse < Cat < Dragoon < Cuckoo
    (["0", "OWL", "1", "2"], [1]),                      # Owl below 0
])
def test_C9_every_participant_with_the_lowest_card_loses_a_life(hands, losers):
    _, state = begin(hands)
    state = keep_all(state, (1, 2, 3))
    events, state = act(state, 0, KEEP)
    assert this_deal(events)[1:] == [settled(hands, losers), *(lost(s, 2, "C9") for s in losers)]
    assert GAME.view(state, None)["lives"] == [2 if s in losers else 3 for s in range(4)]


# -- C10 ----------------------------------------------------------------------------

def test_C10_with_one_fool_its_holder_and_all_tied_on_the_next_lowest_lose_a_life():
    hands = ["FOOL", "3", "3", "8", "9"]
    _, state = begin(hands)
    state = keep_all(state, (1, 2, 3, 4))
    events, _ = act(state, 0, KEEP)
    assert this_deal(events)[1:] == [settled(hands, [0, 1, 2]), lost(0, 2, "C10"), lost(1, 2, "C10"),
                                     lost(2, 2, "C10")]


def test_C10_with_two_fools_only_their_holders_lose_and_those_still_alive_rest_next_deal():
    _, state = begin(["5", "FOOL", "DRAGOON", "FOOL"], lives=2)
    _, state = act(state, 1, ASK)                 # seat 1 (Fool) is chopped by the Dragoon: 1 life
    assert GAME.view(state, None)["turn"] == 3
    state = keep_all(state, (3,))
    events, state = act(state, 0, KEEP)
    assert this_deal(events)[1:] == [settled(["5", "FOOL", "DRAGOON", "FOOL"], [1, 3], rest=[3]),
                                     lost(1, 0, "C10"), lost(3, 1, "C10"),
                                     {"type": "seat_eliminated", "seat": 1, "round": 1}]
    dealt = first(events, "cards_dealt")
    assert (dealt["resting"], dealt["dealer"], dealt["order"]) == ([3], 2, [0, 2])


# -- C11 ----------------------------------------------------------------------------

def test_C11_a_resting_seat_gets_no_card_takes_no_turn_pays_nothing_then_returns():
    _, state = begin(["5", "FOOL", "FOOL", "0"])
    state = keep_all(state, (1, 2, 3))
    events, state = act(state, 0, KEEP)
    assert this_deal(events)[1:] == [settled(["5", "FOOL", "FOOL", "0"], [1, 2], rest=[1, 2]),
                                     lost(1, 2, "C10"), lost(2, 2, "C10")]
    dealt = first(events, "cards_dealt")
    assert (dealt["round"], dealt["resting"], dealt["dealer"], dealt["order"]) == (2, [1, 2], 3, [0, 3])
    for seat in (1, 2):
        view = GAME.view(state, seat)
        assert view["hand"] == [] and view["resting"] == [1, 2] and GAME.legal_moves(state, seat) == []
        assert "card" not in GAME.redact(dealt, seat)
    assert GAME.view(state, None)["turn"] == 0
    _, state = act(state, 0, KEEP)
    events, state = act(state, 3, KEEP)
    round2 = first(events, "deal_settled")
    assert round2["cards"][1] is None and round2["cards"][2] is None
    assert GAME.view(state, None)["lives"][1:3] == [2, 2]
    if not round2["rest"]:
        back = first(events, "cards_dealt")
        assert back["resting"] == [] and sorted(back["order"]) == [0, 1, 2, 3] and back["dealer"] == 0


def test_C11_a_deal_with_fewer_than_two_participants_is_skipped_but_counts_as_a_round():
    _, state = begin(["5", "FOOL", "FOOL"])
    state = keep_all(state, (1, 2))
    events, state = act(state, 0, KEEP)
    skipped = first(events, "deal_skipped")
    dealt = first(events, "cards_dealt")
    assert skipped == {"type": "deal_skipped", "round": 2, "resting": [1, 2]}
    assert (dealt["round"], dealt["resting"], dealt["dealer"], dealt["order"]) == (3, [], 1, [2, 0, 1])
    view = GAME.view(state, 1)
    assert view["round"] == 3 and view["resting"] == [] and view["lives"] == [3, 2, 2]
    assert view["last_log"][-1] == skipped


# -- C12 ----------------------------------------------------------------------------

def test_C12_the_last_seat_alive_wins_and_the_others_rank_by_when_they_went_out():
    _, state = begin(["5", "0", "9"], lives=1)
    state = keep_all(state, (1, 2))
    events, state = act(state, 0, KEEP)           # seat 1 out in round 1
    assert first(events, "seat_eliminated") == {"type": "seat_eliminated", "seat": 1, "round": 1}
    while GAME.outcome(state) is None:
        seat = GAME.view(state, None)["turn"]
        _, state = act(state, seat, KEEP)
    result = GAME.outcome(state)
    assert result["ranking"][-1] == [1] and len(result["ranking"]) == 3
    winner = result["ranking"][0][0]
    assert result["scores"] == [1 if s == winner else 0 for s in range(3)]
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, winner, KEEP)
    assert (err.value.code, err.value.rule) == ("match_over", "C12")


def test_C12_seats_going_out_together_in_the_last_deal_share_first_place():
    _, state = begin(["DRAGOON", "5", "DRAGOON"], lives=1)
    _, state = act(state, 1, ASK)                 # chopped out
    events, state = act(state, 0, KEEP)          # the two Dragoons tie lowest: both go out
    assert events[-1] == {"type": "match_ended", "ranking": [[0, 1, 2]], "scores": [0, 0, 0]}
    assert GAME.outcome(state) == {"ranking": [[0, 1, 2]], "scores": [0, 0, 0]}


# -- resigning (docs/engine-contract.md "Resigning (every game)") ---------------------------------
# Decided: seats already out do not count; the match ends as soon as at most one
# seat that is alive and has not resigned remains.

RESIGN = {"type": "resign"}


def resign_refused(state, seat):
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, seat, RESIGN)
    assert state == snapshot
    return err.value.code


def test_resign_is_never_a_legal_move_listed_and_legal_out_of_turn():
    _, state = begin(["5", "3", "8", "9"])
    assert all(RESIGN not in GAME.legal_moves(state, s) for s in range(4))
    events, state = act(state, 3, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 3}]
    view = GAME.view(state, 3)
    assert view["resigned"] == [3] and view["to_act"] == [1] and view["hand"] == ["9"]
    # the resigned seat keeps its card, its lives and its turns
    state = keep_all(state, (1, 2))
    assert GAME.view(state, None)["to_act"] == [3] and GAME.legal_moves(state, 3) == [KEEP, ASK]


def test_resigning_leaves_one_seat_and_ends_the_match():
    _, state = begin(["5", "3", "8"])
    _, state = act(state, 0, RESIGN)
    events, state = act(state, 2, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 2},
                      {"type": "match_ended", "ranking": [[1], [2], [0]], "scores": [3, 3, 3]}]
    assert GAME.outcome(state) == {"ranking": [[1], [2], [0]], "scores": [3, 3, 3]}
    view = GAME.view(state, None)
    assert view["over"] is True and view["to_act"] == [] and view["outcome"] == GAME.outcome(state)
    assert resign_refused(state, 1) == "match_over"


def test_eliminated_seats_do_not_count_when_resigning_ends_the_match():
    _, state = begin(["5", "0", "DRAGOON", "7"], lives=1)
    _, state = act(state, 1, ASK)                 # seat 1 chopped out
    events, state = act(state, 3, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 3}]
    events, state = act(state, 0, RESIGN)        # seat 2 is the only seat alive and not resigned
    assert events == [{"type": "seat_resigned", "seat": 0},
                      {"type": "match_ended", "ranking": [[2], [1], [0], [3]], "scores": [1, 0, 1, 1]}]


def test_an_eliminated_seat_may_resign_and_then_ranks_below_all_others():
    _, state = begin(["5", "0", "DRAGOON", "7"], lives=1)
    _, state = act(state, 1, ASK)                 # seat 1 chopped out
    events, state = act(state, 1, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 1}] and GAME.outcome(state) is None
    _, state = act(state, 0, RESIGN)
    events, state = act(state, 2, RESIGN)
    assert events[-1] == {"type": "match_ended", "ranking": [[3], [2], [0], [1]], "scores": [1, 0, 1, 1]}


def test_a_chop_that_leaves_one_seat_alive_and_not_resigned_ends_the_match_at_once():
    _, state = begin(["5", "0", "DRAGOON", "7"], lives=1)
    _, state = act(state, 3, RESIGN)
    _, state = act(state, 0, RESIGN)
    events, state = act(state, 1, ASK)
    assert events == [asked(1, 2), refused(2, "DRAGOON", 1), lost(1, 0, "C6", "DRAGOON"),
                      {"type": "seat_eliminated", "seat": 1, "round": 1},
                      {"type": "match_ended", "ranking": [[2], [1], [0], [3]], "scores": [1, 0, 1, 1]}]
    assert GAME.view(state, None)["to_act"] == []


def test_a_resigned_seat_ranks_below_all_others():
    _, state = begin(["5", "0", "9"], lives=1)
    _, state = act(state, 2, RESIGN)
    state = keep_all(state, (1, 2))
    events, state = act(state, 0, KEEP)           # seat 1 out: seat 0 is the last alive and not resigned
    assert events[-1] == {"type": "match_ended", "ranking": [[0], [1], [2]], "scores": [1, 0, 1]}
    # without the resignation the match would go on between seats 0 and 2
    _, other = begin(["5", "0", "9"], lives=1)
    other = keep_all(other, (1, 2))
    assert GAME.outcome(act(other, 0, KEEP)[1]) is None


def test_latest_to_resign_ranks_best_among_resigned():
    _, state = begin(["5", "3", "8", "9"])
    _, state = act(state, 2, RESIGN)
    _, state = act(state, 0, RESIGN)
    events, state = act(state, 3, RESIGN)
    assert events[-1]["ranking"] == [[1], [3], [0], [2]]


def test_a_seat_resigns_once_and_only_from_a_seat_at_the_table():
    _, state = begin(["5", "3", "8", "9"])
    _, state = act(state, 0, RESIGN)
    assert resign_refused(state, 0) == "already_resigned"
    for seat in (4, -1, True, None):
        assert resign_refused(state, seat) == "malformed_move"
    event = {"type": "seat_resigned", "seat": 0}
    assert all(GAME.redact(event, s) == event for s in (None, 0, 1, 2, 3))


# -- views, redaction, the protocol hooks ---------------------------------------------

VIEW_KEYS = {"seats", "round", "dealer", "resting", "participants", "lives", "turn", "to_act", "face_up",
             "revealed", "set_aside", "stock_size", "log", "last_log", "over", "outcome", "resigned"}


def test_views_are_allow_listed_json_ready_and_show_only_the_seats_own_card():
    _, state = begin(["5", "3", "8", "9"])
    spectator = GAME.view(state, None)
    assert set(spectator) == VIEW_KEYS | {"hand"} and spectator["hand"] == []
    assert spectator["revealed"] == [None] * 4 and spectator["round"] == 1 and spectator["over"] is False
    for seat, card in enumerate(["5", "3", "8", "9"]):
        view = GAME.view(state, seat)
        assert set(view) == VIEW_KEYS | {"seat", "hand"} and view["hand"] == [card]
        text = json.dumps(view)
        assert all(f'"{other}"' not in text for other in ["5", "3", "8", "9"] if other != card)
    assert all(f'"{c}"' not in json.dumps(spectator) for c in ["5", "3", "8", "9"])


def test_redact_removes_the_seed_and_the_deck_and_gives_each_seat_its_own_card():
    events, _ = begin(["5", "3", "8", "9"])
    started, dealt = events[0], events[1]
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps([GAME.redact(e, seat) for e in events])
        assert SEED not in text and "deck" not in text
    assert GAME.redact(started, 2) == {"type": "match_started", "seats": 4, "options": {"lives": 3},
                                       "rules_version": 1}
    assert GAME.redact(dealt, 2) == {"type": "cards_dealt", "round": 1, "dealer": 0, "resting": [],
                                     "order": [1, 2, 3, 0], "card": "8", "stock_size": 38}
    assert "card" not in GAME.redact(dealt, None)


def test_after_the_match_every_card_and_log_entry_is_shown():
    _, state = begin(["DRAGOON", "5", "DRAGOON"], stock=["9"], lives=1)
    _, state = act(state, 1, ASK)
    _, state = act(state, 0, KEEP)
    view = GAME.view(state, 2)
    assert view["over"] and view["to_act"] == [] and view["turn"] is None
    assert view["hands"] == ["DRAGOON", "5", "DRAGOON"]
    assert GAME.hidden_cards(state, 2) == []
    assert GAME.legal_moves(state, 0) == []


def test_hidden_cards_are_the_stock_and_other_face_down_cards_less_what_the_seat_was_shown():
    _, state = begin(["5", "3", "FOOL", "9"], stock=["8"])
    hidden = GAME.hidden_cards(state, 1)
    assert Counter(hidden) == Counter(stack(["5", "3", "FOOL", "9"], ["8"])[4:]) + Counter(["5", "9"]) \
        - Counter(["3", "FOOL"])
    _, state = act(state, 1, ASK)                 # seat 1 receives the Fool, seat 2 learns the III
    assert "3" not in GAME.hidden_cards(state, 2) and "3" in GAME.hidden_cards(state, 0)


def test_play_never_mutates_and_fold_replays_a_whole_random_match_within_max_events():
    rng = random.Random(7)
    events = GAME.start(6, "long", options={"lives": 10})
    state = GAME.fold(events)
    while GAME.outcome(state) is None:
        seat = GAME.view(state, None)["to_act"][0]
        before = copy.deepcopy(state)
        new = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        assert state == before
        for e in new:
            state = GAME.apply(state, e)
        events.extend(new)
    assert len(events) < MAX_EVENTS
    assert GAME.fold(events) == state
    assert Counter(GAME.all_cards(state)) == Counter(cards())
