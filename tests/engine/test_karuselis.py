"""Karuselis (tests/fixtures/rules/karuselis.md): one test per rule, K1–K15, plus options,
views and redaction. Positions come from stacked decks: seat 0's four cards
first, then seat 1's..., then the table, then the stock top first. Seat 0 deals
the first deal, so seat 1 plays first."""
import json

import pytest

from engine import IllegalMove, registry
from engine.karuselis import (
    MAX_DEALS,
    deal_points,
    last_capturer_takes_table,
    match_is_decided,
    most_bonus,
    next_dealer,
    variant_cards,
)
from engine.karuselis import game as GAME

FILLERS = ["JS", "JH", "JD", "JC", "QS", "QH", "QD", "QC", "KS", "KH", "KD", "KC"]
TABLE_SIZE = {"full": 8, "no_x20": 7, "no_broom": 7, "small": 6}


def stack(hands, table=(), stock=(), deck="full"):
    """A stacked deck: the hands (4 codes each, or a spaced string), the table
    (padded with courts), the stock top first, then every other card."""
    hands = [h.split() if isinstance(h, str) else list(h) for h in hands]
    table = table.split() if isinstance(table, str) else list(table)
    stock = stock.split() if isinstance(stock, str) else list(stock)
    assert all(len(h) == 4 for h in hands)
    used = {c for h in hands for c in h} | set(table) | set(stock)
    table += [c for c in FILLERS if c not in used][:TABLE_SIZE[deck] - len(table)]
    used |= set(table)
    rest = [c for c in variant_cards(deck) if c not in used]
    return [c for h in hands for c in h] + table + stock + rest


def begin(hands, table=(), stock=(), deck="full", **options):
    if deck != "full":
        options["deck"] = deck
    events = GAME.start(len(hands), "test-seed", options=options or None, deck=stack(hands, table, stock, deck))
    return GAME.fold(events), events


def act(state, seat, move):
    events = GAME.play(state, seat, move)
    for e in events:
        state = GAME.apply(state, e)
    return state, events


def refused(state, seat, move):
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, seat, move)
    return err.value.code, err.value.rule


def taken_sets(moves, card):
    return {frozenset(x for g in m["groups"] for x in g) for m in moves if m["type"] == "capture" and m["card"] == card}


def play_out(state, stop=lambda events: False):
    """Plays the first legal move of the seat to act until the match ends or ``stop(new events)``."""
    log = []
    while not state.over:
        seat = GAME.view(state, None)["to_act"][0]
        state, new = act(state, seat, GAME.legal_moves(state, seat)[0])
        log.extend(new)
        if stop(new):
            break
    return state, log


def first(events, kind):
    return next(e for e in events if e["type"] == kind)


# ---------------------------------------------------------------- K1 -----

def test_K1_four_seats_are_two_partnerships_sharing_pile_and_score():
    state, _ = begin(["KS KH KD KC", "7H 2C 2D 2H", "9S 9H 9D 9C", "10S 10H 10D 10C"], table="3C 4D")
    state, _ = act(state, 1, {"type": "capture", "card": "7H", "groups": [["3C", "4D"]]})
    view = GAME.view(state, 3)
    assert view["sides"] == [0, 1, 0, 1]
    assert view["pile_sizes"] == [0, 3, 0, 3]
    assert view["spades"] == [0, 0, 0, 0]
    assert view["scores"] == [0, 0, 0, 0]
    assert view["turn"] == 2


def test_K1_two_or_three_seats_play_alone_and_other_counts_are_refused():
    state, _ = begin(["KS KH KD KC", "7H 2C 2D 2H", "9S 9H 9D 9C"], table="3C 4D")
    state, _ = act(state, 1, {"type": "capture", "card": "7H", "groups": [["3C", "4D"]]})
    assert GAME.view(state, None)["sides"] == [0, 1, 2]
    assert GAME.view(state, None)["pile_sizes"] == [0, 3, 0]
    for seats in (1, 5):
        with pytest.raises(ValueError):
            GAME.start(seats, "s")


# ---------------------------------------------------------------- K2 -----

@pytest.mark.parametrize("deck,size,target,table", [
    ("full", 56, 120, 8), ("no_x20", 55, 90, 7), ("no_broom", 55, 90, 7), ("small", 54, 60, 6)])
def test_K2_deck_variants_set_cards_target_and_table(deck, size, target, table):
    assert len(variant_cards(deck)) == size
    events = GAME.start(2, "v", options={"deck": deck})
    state = GAME.fold(events)
    assert events[0]["options"] == {"deck": deck, "target": target}
    assert len(state.table) == table and len(state.stock) == size - 8 - table
    assert sorted(GAME.all_cards(state)) == sorted(variant_cards(deck))
    assert GAME.view(state, 0)["target"] == target


def test_K2_cards_is_the_full_deck_and_a_stacked_deck_is_a_permutation_of_the_variant():
    cards = GAME.cards()
    assert len(cards) == 56 and len(set(cards)) == 56
    assert cards[:13] == ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    assert cards[52:] == ["X20", "X15", "X11", "BR"]
    small = [c for c in cards if c not in ("X20", "BR")]
    GAME.start(2, "s", options={"deck": "small"}, deck=small)
    with pytest.raises(ValueError):
        GAME.start(2, "s", options={"deck": "small"}, deck=cards)
    with pytest.raises(ValueError):
        GAME.start(2, "s", options={"deck": "huge"})
    with pytest.raises(ValueError):
        GAME.start(2, "s", options={"target": 0})
    assert GAME.start(2, "s", options={"deck": "small", "target": 31})[0]["options"] == {"deck": "small", "target": 31}


# ---------------------------------------------------------------- K3 -----

def test_K3_jokers_count_20_15_11_and_courts_have_no_value():
    state, _ = begin(["2S 2H 2D 2C", "X15 X11 KS KH"], table="10H 5C AD JD QS")
    legal = GAME.legal_moves(state, 1)
    assert taken_sets(legal, "X15") == {frozenset({"10H", "5C"})}
    assert taken_sets(legal, "X11") == {frozenset({"10H", "AD"})}
    assert taken_sets(legal, "KS") == set()
    assert refused(state, 1, {"type": "build", "card": "KS", "onto": ["AD"], "value": 11}) == ("no_value", "K3")
    assert refused(state, 1, {"type": "build", "card": "X11", "onto": ["JD"], "value": 15}) == ("no_value", "K3")
    assert refused(state, 1, {"type": "capture", "card": "X11", "groups": [["10H", "JD"]]}) == ("bad_group", "K7")


# ---------------------------------------------------------------- K4 -----

def test_K4_deal_then_table_and_play_starts_left_of_the_dealer():
    state, events = begin(["2S 3S 4S 5S", "2H 3H 4H 5H", "2D 3D 4D 5D"], table="6C 7C 8C 9C 10C JC QC KC")
    assert state.hands == (("2S", "3S", "4S", "5S"), ("2H", "3H", "4H", "5H"), ("2D", "3D", "4D", "5D"))
    assert GAME.view(state, None)["table"] == {"cards": ["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
                                               "builds": []}
    assert GAME.view(state, None)["dealer"] == 0 and GAME.view(state, None)["to_act"] == [1]
    assert refused(state, 0, {"type": "trail", "card": "2S"}) == ("not_your_turn", "K4")
    assert "returned" not in events[1]


def test_K4_a_joker_or_the_broom_on_the_table_goes_back_into_the_reshuffled_stock():
    state, events = begin(["2S 3S 4S 5S", "2H 3H 4H 5H"], table="X20 6C BR 7C 8C 9C 10C KC")
    dealt = events[1]
    assert dealt["returned"] == ["X20", "BR"]
    assert len(dealt["table"]) == 8 and dealt["table"][1] == "6C" and dealt["table"][3:] == ["7C", "8C", "9C", "10C", "KC"]
    assert not {"X20", "X15", "X11", "BR"} & set(state.table)
    assert {"X20", "BR"} <= set(state.stock) and len(state.stock) == 56 - 8 - 8
    assert sorted(GAME.all_cards(state)) == sorted(GAME.cards())
    assert state.counter == 2
    public = GAME.redact(dealt, 0)
    assert public == {"type": "round_dealt", "round": 1, "dealer": 0, "table": dealt["table"], "returned": 2,
                      "hand": ["2S", "3S", "4S", "5S"]}


# ---------------------------------------------------------------- K5 -----

@pytest.mark.parametrize("seats,redeals", [(2, 5), (3, 3), (4, 2)])
def test_K5_same_dealer_redeals_four_each_from_the_stock_until_it_is_used(seats, redeals):
    state = GAME.fold(GAME.start(seats, f"redeal-{seats}", options={"target": 1000}))
    state, log = play_out(state, stop=lambda new: any(e["type"] == "round_scored" for e in new))
    dealt = [e for e in log if e["type"] == "cards_dealt"]
    assert len(dealt) == redeals
    assert all(len(h) == 4 for e in dealt for h in e["hands"])
    assert sum(1 for e in log if e["type"] in ("cards_captured", "build_made", "card_trailed", "table_swept")) == 48


def test_K5_a_redeal_follows_the_stock_order_seat_0_first_in_the_same_round():
    state, _ = begin(["KS QS JS 10S", "KH QH JH 10H"], table="9C 9D 2C", stock="AS AH AD AC 2S 2H 3D 3C")
    state, log = play_out(state, stop=lambda new: any(e["type"] == "cards_dealt" for e in new))
    assert log[-1] == {"type": "cards_dealt", "hands": [["AS", "AH", "AD", "AC"], ["2S", "2H", "3D", "3C"]]}
    view = GAME.view(state, 0)
    assert view["hand"] == ["AS", "AH", "AD", "AC"] and view["round"] == 1 and view["dealer"] == 0
    assert view["stock_size"] == 56 - 8 - 8 - 8 and view["turn"] == 1
    assert GAME.redact(log[-1], 1) == {"type": "cards_dealt", "hand_sizes": [4, 4], "hand": ["2S", "2H", "3D", "3C"]}
    assert GAME.redact(log[-1], None) == {"type": "cards_dealt", "hand_sizes": [4, 4]}


# ---------------------------------------------------------------- K6 -----

def test_K6_a_turn_plays_exactly_one_card_from_hand():
    state, _ = begin(["2S 2H 2D 2C", "7H KS KH KD"], table="3C 4D")
    assert refused(state, 1, {"type": "capture", "card": "7S", "groups": [["3C", "4D"]]}) == ("card_not_in_hand", "K6")
    assert refused(state, 1, {"type": "trail", "card": "ZZ"})[0] == "unknown_card"
    assert refused(state, 1, {"type": "trail"})[0] == "malformed_move"
    assert refused(state, 1, {"type": "juggle", "card": "7H"})[0] == "malformed_move"
    small, _ = begin(["2S 2H 2D 2C", "7H KS KH KD"], table="3C 4D", deck="small")
    assert refused(small, 1, {"type": "sweep", "card": "BR"})[0] == "unknown_card"
    state, events = act(state, 1, {"type": "capture", "card": "7H", "groups": [["3C", "4D"]]})
    assert state.hands[1] == ("KS", "KH", "KD") and state.turn == 0 and len(events) == 1


# ---------------------------------------------------------------- K7 -----

def test_K7_seed_example_three_and_four_are_taken_by_a_seven():
    state, _ = begin(["2S 2H 2D 2C", "7H KS KH KD"], table="3C 4D")
    assert GAME.legal_moves(state, 1) == [{"type": "capture", "card": "7H", "groups": [["3C", "4D"]]}]
    state, events = act(state, 1, {"type": "capture", "card": "7H", "groups": [["4D", "3C"]]})
    assert events == [{"type": "cards_captured", "seat": 1, "card": "7H", "groups": [["3C", "4D"]],
                       "cards": ["3C", "4D"]}]
    assert GAME.view(state, 0)["pile_sizes"] == [0, 3]
    assert state.last_capturer == 1


def test_K7_seed_example_three_aces_are_taken_by_a_three():
    state, _ = begin(["2S 2H 2D 2C", "3C KS KH KD"], table="AS AH AD")
    assert GAME.legal_moves(state, 1) == [{"type": "capture", "card": "3C", "groups": [["AS", "AH", "AD"]]}]
    state, _ = act(state, 1, GAME.legal_moves(state, 1)[0])
    assert GAME.view(state, 1)["pile_sizes"] == [0, 4] and GAME.view(state, 1)["spades"] == [0, 1]


def test_K7_several_disjoint_groups_equal_cards_sums_and_builds_at_once():
    state, _ = begin(["7H KD KC 9S", "2S 7C KS KH"], table="5D 7S 3C 4D")
    state, _ = act(state, 1, {"type": "build", "card": "2S", "onto": ["5D"], "value": 7})
    legal = GAME.legal_moves(state, 0)
    assert taken_sets(legal, "7H") == {
        frozenset(s) for s in (["7S"], ["3C", "4D"], ["7S", "3C", "4D"], ["b1"], ["7S", "b1"], ["3C", "4D", "b1"],
                               ["7S", "3C", "4D", "b1"])}
    assert len(legal) == 7
    move = {"type": "capture", "card": "7H", "groups": [["b1"], ["4D", "3C"], ["7S"]]}
    state, events = act(state, 0, move)
    assert events[0]["groups"] == [["3C", "4D"], ["7S"], ["b1"]]
    assert events[0]["cards"] == ["3C", "4D", "7S", "5D", "2S"]
    assert GAME.view(state, 0)["table"] == {"cards": ["JS", "JH", "JD", "JC"], "builds": []}
    assert GAME.view(state, 1)["pile_sizes"] == [6, 0]


def test_K7_each_capture_set_is_listed_once_and_any_valid_grouping_is_accepted():
    state, _ = begin(["5D 5C 9D 9C", "3D KS KH KD"], table="AS 2S AH 2H")
    legal = GAME.legal_moves(state, 1)
    assert taken_sets(legal, "3D") == {frozenset({"AS", "2S"}), frozenset({"AS", "2H"}), frozenset({"AH", "2S"}),
                                       frozenset({"AH", "2H"}), frozenset({"AS", "2S", "AH", "2H"})}
    assert len(legal) == 5
    for groups in ([["2H", "AS"], ["2S", "AH"]], [["AS", "2S"], ["AH", "2H"]]):
        _, events = act(state, 1, {"type": "capture", "card": "3D", "groups": groups})
        assert sorted(events[0]["cards"]) == ["2H", "2S", "AH", "AS"]
    assert refused(state, 1, {"type": "capture", "card": "3D", "groups": [["AS", "AH"]]}) == ("bad_group", "K7")
    assert refused(state, 1, {"type": "capture", "card": "3D", "groups": [["AS", "2S"], ["AS", "2H"]]}) == \
        ("groups_overlap", "K7")
    assert refused(state, 1, {"type": "capture", "card": "3D", "groups": [["AD", "2D"]]}) == ("not_on_table", "K7")
    assert refused(state, 1, {"type": "capture", "card": "3D", "groups": []})[0] == "malformed_move"


# ---------------------------------------------------------------- K8 -----

def test_K8_a_court_takes_only_its_pair_or_all_three_of_a_kind():
    state, _ = begin(["2S 2H 2D 2C", "KS QD 9S 9H"], table="KH KD QS QH QC JS")
    legal = GAME.legal_moves(state, 1)
    assert taken_sets(legal, "KS") == {frozenset({"KH"}), frozenset({"KD"})}
    assert taken_sets(legal, "QD") == {frozenset({"QS"}), frozenset({"QH"}), frozenset({"QC"}),
                                       frozenset({"QS", "QH", "QC"})}
    assert {"type": "capture", "card": "QD", "groups": [["QS"], ["QH"], ["QC"]]} in legal
    assert refused(state, 1, {"type": "capture", "card": "KS", "groups": [["KH"], ["KD"]]}) == \
        ("court_takes_its_pair", "K8")
    assert refused(state, 1, {"type": "capture", "card": "KS", "groups": [["JS"]]}) == ("court_takes_its_pair", "K8")
    assert refused(state, 1, {"type": "capture", "card": "QD", "groups": [["QS"], ["QH"]]}) == \
        ("court_takes_its_pair", "K8")
    state, events = act(state, 1, {"type": "capture", "card": "QD", "groups": [["QC", "QS", "QH"]]})
    assert events[0]["cards"] == ["QS", "QH", "QC"]
    assert GAME.view(state, 0)["pile_sizes"] == [0, 4]


# ---------------------------------------------------------------- K9 -----

def test_K9_the_broom_sweeps_cards_and_builds_and_counts_as_a_capture():
    state, _ = begin(["2C 6C KD KC", "BR 10S KS KH"], table="AS 5D 3C")
    state, _ = act(state, 1, {"type": "trail", "card": "KS"})
    state, _ = act(state, 0, {"type": "build", "card": "2C", "onto": ["AS", "3C"], "value": 6})
    assert {"type": "sweep", "card": "BR"} in GAME.legal_moves(state, 1)
    assert refused(state, 1, {"type": "trail", "card": "BR"}) == ("broom_never_trailed", "K9")
    assert refused(state, 1, {"type": "capture", "card": "BR", "groups": [["5D"]]}) == ("broom_sweeps", "K9")
    assert refused(state, 1, {"type": "sweep", "card": "10S"}) == ("sweep_needs_broom", "K9")
    state, events = act(state, 1, {"type": "sweep", "card": "BR"})
    assert events[0]["type"] == "table_swept" and events[0]["seat"] == 1
    assert sorted(events[0]["cards"]) == sorted(["5D", "JS", "JH", "JD", "JC", "QS", "KS", "AS", "3C", "2C"])
    view = GAME.view(state, 0)
    assert view["table"] == {"cards": [], "builds": []} and view["pile_sizes"] == [0, 11]
    assert state.last_capturer == 1


def test_K9_a_sweep_of_an_empty_table_is_legal_but_no_capture():
    state, _ = begin(["BR 6C 9D KC", "10H 2H KH 5S"], table="3C 7D 4D 6D 2D 8D AC 9C")
    state, _ = act(state, 1, {"type": "capture", "card": "10H",
                              "groups": [["3C", "7D"], ["4D", "6D"], ["2D", "8D"], ["AC", "9C"]]})
    assert GAME.view(state, 0)["table"] == {"cards": [], "builds": []}
    assert {"type": "sweep", "card": "BR"} in GAME.legal_moves(state, 0)
    state, events = act(state, 0, {"type": "sweep", "card": "BR"})
    assert events == [{"type": "table_swept", "seat": 0, "card": "BR", "cards": []}]
    assert state.last_capturer == 1 and GAME.view(state, 0)["pile_sizes"] == [1, 9]


def test_K9_a_build_owner_may_sweep_and_holding_the_broom_forbids_no_trail():
    state, _ = begin(["KD KC 9S 10S", "AC 6H BR KS"], table="2D 3S")
    state, _ = act(state, 1, {"type": "build", "card": "AC", "onto": ["2D", "3S"], "value": 6})
    state, _ = act(state, 0, {"type": "trail", "card": "KD"})
    assert GAME.legal_moves(state, 1) == [{"type": "capture", "card": "6H", "groups": [["b1"]]},
                                          {"type": "sweep", "card": "BR"}]
    state, events = act(state, 1, {"type": "sweep", "card": "BR"})
    assert sorted(events[0]["cards"]) == sorted(["JS", "JH", "JD", "JC", "QS", "QH", "KD", "2D", "3S", "AC"])
    assert state.builds == () and state.last_capturer == 1


# ---------------------------------------------------------------- K10 ----

def test_K10_seed_example_two_and_three_built_with_an_ace_for_a_six_which_the_owner_must_take():
    state, _ = begin(["KD KC 9S 10S", "AC 6H KS KH"], table="2D 3S")
    move = {"type": "build", "card": "AC", "onto": ["2D", "3S"], "value": 6}
    assert move in GAME.legal_moves(state, 1)
    state, events = act(state, 1, {"type": "build", "card": "AC", "onto": ["3S", "2D"], "value": 6})
    assert events == [{"type": "build_made", "seat": 1, "card": "AC", "onto": ["2D", "3S"], "value": 6,
                       "build": "b1", "raised": False}]
    assert GAME.view(state, 0)["table"]["builds"] == [{"id": "b1", "cards": ["2D", "3S", "AC"], "value": 6,
                                                        "owner": 1}]
    state, _ = act(state, 0, {"type": "trail", "card": "KD"})
    assert GAME.legal_moves(state, 1) == [{"type": "capture", "card": "6H", "groups": [["b1"]]}]
    assert refused(state, 1, {"type": "trail", "card": "KS"}) == ("must_take_build", "K10")
    state, events = act(state, 1, {"type": "capture", "card": "6H", "groups": [["b1"]]})
    assert events[0]["cards"] == ["2D", "3S", "AC"]
    assert GAME.view(state, 0)["pile_sizes"] == [0, 4]


def test_K10_seed_example_eleven_joker_eight_of_diamonds_and_ace_built_for_the_twenty_joker():
    state, _ = begin(["KD KC 9S 10S", "X11 X20 KS KH"], table="8D AS")
    move = {"type": "build", "card": "X11", "onto": ["AS", "8D"], "value": 20}
    assert move in GAME.legal_moves(state, 1)
    state, _ = act(state, 1, move)
    assert GAME.view(state, 1)["table"]["builds"] == [{"id": "b1", "cards": ["AS", "8D", "X11"], "value": 20,
                                                        "owner": 1}]
    state, _ = act(state, 0, {"type": "trail", "card": "KD"})
    state, events = act(state, 1, {"type": "capture", "card": "X20", "groups": [["b1"]]})
    assert events[0]["cards"] == ["AS", "8D", "X11"]
    assert deal_points(state.piles)[0] == [0, 10 + 3 + 1 + 2 + 2]  # X20, X11, AS, most spades, most cards


def test_K10_another_player_raises_a_build_keeping_its_id_and_becomes_its_owner():
    state, _ = begin(["2C 8H KD KC", "AC 6H 2H 8C"], table="2D 3S")
    state, _ = act(state, 1, {"type": "build", "card": "AC", "onto": ["2D", "3S"], "value": 6})
    assert {"type": "build", "card": "2C", "onto": ["b1"], "value": 8} in GAME.legal_moves(state, 0)
    state, events = act(state, 0, {"type": "build", "card": "2C", "onto": ["b1"], "value": 8})
    assert events[0]["raised"] is True
    assert GAME.view(state, 1)["table"]["builds"] == [{"id": "b1", "cards": ["2D", "3S", "AC", "2C"], "value": 8,
                                                        "owner": 0}]
    # seat 1 owns nothing now: it may take the build with its own 8, so seat 0 has no duty left
    assert {"type": "capture", "card": "8C", "groups": [["b1"]]} in GAME.legal_moves(state, 1)


def test_K10_an_owner_cannot_raise_its_own_build_nor_own_two_and_builds_stay_at_most_20():
    state, _ = begin(["4C 6D 9S KC", "AC 6H 2H 8C"], table="2D 3S 2S")
    assert refused(state, 1, {"type": "build", "card": "AC", "onto": ["2D", "3S"], "value": 7}) == \
        ("wrong_build_value", "K10")
    assert refused(state, 1, {"type": "build", "card": "2H", "onto": ["2D", "3S"], "value": 7}) == \
        ("no_card_for_build", "K10")
    state, _ = act(state, 1, {"type": "build", "card": "AC", "onto": ["2D", "3S"], "value": 6})
    # another owner's build of the same value stays separate
    assert refused(state, 0, {"type": "build", "card": "4C", "onto": ["b1", "2S"], "value": 12}) == \
        ("bad_build", "K10")
    state, _ = act(state, 0, {"type": "build", "card": "4C", "onto": ["2S"], "value": 6})
    assert [(b["id"], b["value"], b["owner"]) for b in GAME.view(state, 1)["table"]["builds"]] == \
        [("b1", 6, 1), ("b2", 6, 0)]
    assert refused(state, 1, {"type": "build", "card": "2H", "onto": ["b1"], "value": 8}) == ("own_build", "K10")
    assert refused(state, 1, {"type": "build", "card": "2H", "onto": ["b2"], "value": 8}) == \
        ("must_take_build", "K10")
    assert taken_sets(GAME.legal_moves(state, 1), "6H") == {frozenset({"b1"}), frozenset({"b1", "b2"})}
    big, _ = begin(["KD KC 9S 10S", "X11 X20 X15 KH"], table="10D")
    assert refused(big, 1, {"type": "build", "card": "X11", "onto": ["10D"], "value": 21}) == ("build_too_high", "K10")


# ---------------------------------------------------------------- K11 ----

def test_K11_a_card_is_trailed_only_when_nothing_can_be_captured_or_built():
    state, _ = begin(["2S 2H 2D 2C", "7H 9S KS KH"], table="3C 4D")
    assert refused(state, 1, {"type": "trail", "card": "9S"}) == ("must_capture_or_build", "K11")
    quiet, _ = begin(["2S 2H 2D 2C", "BR 9S KS KH"], table="")
    assert GAME.legal_moves(quiet, 1) == [{"type": "trail", "card": "9S"}, {"type": "trail", "card": "KS"},
                                          {"type": "trail", "card": "KH"}, {"type": "sweep", "card": "BR"}]
    quiet, events = act(quiet, 1, {"type": "trail", "card": "9S"})
    assert events == [{"type": "card_trailed", "seat": 1, "card": "9S"}]
    assert GAME.view(quiet, 0)["table"]["cards"][-1] == "9S"


# ---------------------------------------------------------------- K12 ----

def test_K12_the_last_capturer_takes_the_cards_left_on_the_table():
    state = GAME.fold(GAME.start(2, "last-capture", options={"target": 1000}))
    capturer, log = None, []
    while not log or log[-1]["type"] != "round_dealt":
        seat = GAME.view(state, None)["to_act"][0]
        before = state
        state, new = act(state, seat, GAME.legal_moves(state, seat)[-1])
        log += new
        for e in new:
            if e["type"] == "cards_captured" or (e["type"] == "table_swept" and e["cards"]):
                capturer = e["seat"]
    after_last = GAME.apply(before, new[0])
    left = list(after_last.table) + [c for b in after_last.builds for c in b.cards]
    assert left and capturer is not None
    assert first(new, "table_collected") == {"type": "table_collected", "seat": capturer, "cards": left}
    scored = first(new, "round_scored")
    assert sum(scored["cards"]) == 56 and scored["cards"][capturer] >= len(left) + 1


def test_K12_with_no_capture_in_the_deal_the_table_scores_for_nobody():
    state, _ = begin(["2S 2H 2D 2C", "7H 9S KS KH"], table="3C 4D")
    assert last_capturer_takes_table(state) == {"type": "table_collected", "seat": None,
                                                "cards": ["3C", "4D", "JS", "JH", "JD", "JC", "QS", "QH"]}
    after = GAME.apply(state, last_capturer_takes_table(state))
    assert after.table == () and after.leftover == ("3C", "4D", "JS", "JH", "JD", "JC", "QS", "QH")
    assert sorted(GAME.all_cards(after)) == sorted(GAME.cards())


# ---------------------------------------------------------------- K13 ----

def test_K13_deal_points_jokers_karuselis_two_of_spades_aces_most_spades_most_cards():
    side0 = ("X20", "X15", "10D", "AS", "AH", "3S", "4S", "5S", "6S", "7S", "8S", "9S")
    side1 = ("X11", "2S", "AD", "AC", "KH", "QH")
    points, spades, cards = deal_points((side0, side1))
    assert points == [10 + 5 + 2 + 1 + 1 + 2 + 2, 3 + 2 + 1 + 1]
    assert spades == [8, 1] and cards == [12, 6]
    everything = deal_points((tuple(GAME.cards()), ()))
    assert everything[0] == [30, 0]


# ---------------------------------------------------------------- K14 ----

def test_K14_two_sides_tied_share_a_bonus_three_tied_get_nothing():
    assert most_bonus([5, 1, 1]) == [2, 0, 0]
    assert most_bonus([3, 3]) == [1, 1]
    assert most_bonus([2, 2, 1]) == [1, 1, 0]
    assert most_bonus([2, 2, 2]) == [0, 0, 0]
    assert deal_points((("3S", "4H"), ("5S", "6H")))[0] == [2, 2]
    assert deal_points((("3S",), ("5S",), ("6S",)))[0] == [0, 0, 0]


# ---------------------------------------------------------------- K15 ----

def test_K15_deals_continue_to_the_target_and_the_losing_side_deals_next():
    state = GAME.fold(GAME.start(4, "match", options={"target": 70}))
    state, log = play_out(state)
    scored = [e for e in log if e["type"] == "round_scored"]
    dealt = [e for e in log if e["type"] == "round_dealt"]
    assert len(dealt) == len(scored) - 1 >= 1
    dealer = 0
    for score, deal in zip(scored, dealt):
        side0, side1 = score["scores"][0], score["scores"][1]
        expected = (dealer + 1) % 4 if side0 == side1 else next(
            s for s in [(dealer + k) % 4 for k in range(1, 5)] if s % 2 == (0 if side0 < side1 else 1))
        assert deal["dealer"] == expected
        dealer = expected
    final = scored[-1]["scores"]
    assert final[0] == final[2] and final[1] == final[3]  # K1: partners share one score
    assert max(final) >= 70 and final[0] != final[1]
    assert all(max(e["scores"]) < 70 or e["scores"][0] == e["scores"][1] for e in scored[:-1])
    ended = log[-1]
    winner = 0 if final[0] > final[1] else 1
    assert ended == {"type": "match_ended", "ranking": [[winner, winner + 2], [1 - winner, 3 - winner]],
                     "scores": final}
    assert GAME.outcome(state) == {"ranking": ended["ranking"], "scores": final}
    assert GAME.legal_moves(state, 0) == [] and GAME.view(state, None)["to_act"] == []


def test_K15_tied_leaders_play_another_deal_and_dealer_rules():
    assert match_is_decided((121, 120), 120, 5)
    assert not match_is_decided((120, 120), 120, 5)
    assert not match_is_decided((119, 100), 120, 5)
    assert not match_is_decided((130, 130, 10), 120, 5)
    assert match_is_decided((50, 50), 120, MAX_DEALS)
    assert next_dealer((10, 20), 0, 4) == 2
    assert next_dealer((20, 10), 0, 4) == 1
    assert next_dealer((20, 10), 1, 4) == 3
    assert next_dealer((15, 15), 3, 4) == 0
    assert next_dealer((5, 9), 0, 2) == 0
    assert next_dealer((5, 3, 9), 0, 3) == 1
    assert next_dealer((5, 5, 9), 2, 3) == 0


# ------------------------------------------------------- resigning ------
# docs/engine-contract.md "Resigning (every game)"; decided for K1's partnerships: a side has
# resigned when all its seats have, and a side's seats share its place.

RESIGN = {"type": "resign"}


def test_resign_is_never_a_legal_move_listed_and_legal_out_of_turn():
    state, _ = begin(["2S 2H 2D 2C", "7H 9S KS KH", "3S 3H 3D 5C"], table="3C 4D")
    assert all(RESIGN not in GAME.legal_moves(state, s) for s in range(3))
    state, events = act(state, 0, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 0}]
    view = GAME.view(state, 0)
    assert view["resigned"] == [0] and view["to_act"] == [1] and view["hand"] == ["2S", "2H", "2D", "2C"]
    # the resigned seat keeps its cards and its turns
    state, _ = act(state, 1, {"type": "capture", "card": "7H", "groups": [["3C", "4D"]]})
    state, _ = act(state, 2, GAME.legal_moves(state, 2)[0])
    assert GAME.view(state, None)["to_act"] == [0] and GAME.legal_moves(state, 0)


def test_resigning_leaves_one_seat_and_ends_the_match():
    state, _ = begin(["2S 2H 2D 2C", "7H 9S KS KH", "3S 3H 3D 5C"], table="3C 4D")
    state, _ = act(state, 2, RESIGN)
    state, events = act(state, 0, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 0},
                      {"type": "match_ended", "ranking": [[1], [0], [2]], "scores": [0, 0, 0]}]
    assert GAME.outcome(state) == {"ranking": [[1], [0], [2]], "scores": [0, 0, 0]}
    view = GAME.view(state, None)
    assert view["over"] is True and view["to_act"] == [] and view["outcome"] == GAME.outcome(state)
    assert refused(state, 1, RESIGN)[0] == "match_over"


def test_a_resigned_seat_ranks_below_all_others():
    state = GAME.fold(GAME.start(3, "resigned-last", options={"target": 20}))
    state, _ = act(state, 1, RESIGN)
    state, log = play_out(state)
    assert log[-1]["type"] == "match_ended" and "seat_resigned" not in [e["type"] for e in log]
    scores = GAME.outcome(state)["scores"]
    others = sorted({scores[0], scores[2]}, reverse=True)
    assert GAME.outcome(state)["ranking"] == [[s for s in (0, 2) if scores[s] == v] for v in others] + [[1]]


def test_latest_to_resign_ranks_best_among_resigned():
    state, _ = begin(["2S 2H 2D 2C", "7H 9S KS KH", "3S 3H 3D 5C"], table="3C 4D")
    state, _ = act(state, 0, RESIGN)
    state, events = act(state, 1, RESIGN)
    assert events[-1]["ranking"] == [[2], [1], [0]]


def test_a_partner_who_resigns_resigns_the_side_and_the_other_side_wins_at_once():
    """docs/engine-contract.md "Resigning" (decided 2026-12-01): in Karuselis partnerships a seat's resignation
    resigns its side — a partner who leaves forfeits for the pair; with two sides the match ends at
    once with the other side first, both partners ranked below it."""
    state, _ = begin(["KS KH KD KC", "7H 2C 2D 2H", "9S 9H 9D 9C", "10S 10H 10D 10C"], table="3C 4D")
    state, events = act(state, 2, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 2},
                      {"type": "match_ended", "ranking": [[1, 3], [0, 2]], "scores": [0, 0, 0, 0]}]
    assert GAME.view(state, 0)["resigned"] == [2]
    assert refused(state, 0, RESIGN)[0] == "match_over"


def test_under_rules_version_1_a_partnership_resigned_only_when_both_partners_had():
    """Records made before the decision replay under their own rules version: a side counted as
    resigned when all its seats had resigned, the partners playing on meanwhile."""
    state, events = begin(["KS KH KD KC", "7H 2C 2D 2H", "9S 9H 9D 9C", "10S 10H 10D 10C"], table="3C 4D")
    state = GAME.fold([{**events[0], "rules_version": 1}, *events[1:]])
    state, _ = act(state, 0, RESIGN)
    state, events = act(state, 1, RESIGN)
    assert [e["type"] for e in events] == ["seat_resigned"] and GAME.outcome(state) is None
    state, _ = act(state, 1, {"type": "capture", "card": "7H", "groups": [["3C", "4D"]]})
    assert GAME.view(state, None)["to_act"] == [2]
    state, events = act(state, 2, RESIGN)
    assert events == [{"type": "seat_resigned", "seat": 2},
                      {"type": "match_ended", "ranking": [[1, 3], [0, 2]], "scores": [0, 0, 0, 0]}]


def test_with_three_seats_resigning_leaves_the_others_playing_until_one_is_left():
    state, _ = begin(["KS KH KD KC", "7H 2C 2D 2H", "9S 9H 9D 9C"], table="3C 4D")
    state, events = act(state, 1, RESIGN)
    assert [e["type"] for e in events] == ["seat_resigned"] and GAME.outcome(state) is None
    state, events = act(state, 0, RESIGN)
    assert events[-1] == {"type": "match_ended", "ranking": [[2], [0], [1]], "scores": [0, 0, 0]}


def test_a_seat_resigns_once_and_only_from_a_seat_at_the_table():
    state, _ = begin(["2S 2H 2D 2C", "7H 9S KS KH", "3S 3H 3D 5C"], table="3C 4D")
    state, _ = act(state, 0, RESIGN)
    assert refused(state, 0, RESIGN)[0] == "already_resigned"
    for seat in (3, -1, True, None):
        assert refused(state, seat, RESIGN)[0] == "malformed_move"
    event = {"type": "seat_resigned", "seat": 0}
    assert all(GAME.redact(event, s) == event for s in (None, 0, 1, 2))


def test_unknown_fields_are_refused():
    state, _ = begin(["2S 2H 2D 2C", "7H 9S KS KH"], table="3C 4D")
    move = {"type": "capture", "card": "7H", "groups": [["3C", "4D"]], "comment": "gg"}
    assert refused(state, 1, move)[0] == "malformed_move"
    assert refused(state, 1, {"type": "trail", "card": "9S", "value": 9})[0] == "malformed_move"


# ------------------------------------------------------------ views ------

def test_views_are_allow_listed_and_hide_other_hands():
    state, _ = begin(["2S 2H 2D 2C", "7H 9S KS KH"], table="3C 4D")
    view = GAME.view(state, 0)
    assert set(view) == {"seats", "turn", "over", "outcome", "to_act", "hand", "hand_sizes", "table", "pile_sizes",
                         "spades", "scores", "last_points", "sides", "round", "dealer", "stock_size",
                         "last_capturer", "deck", "target", "resigned"}
    assert view["hand"] == ["2S", "2H", "2D", "2C"] and view["hand_sizes"] == [4, 4]
    text = json.dumps(view)
    assert "7H" not in text and "test-seed" not in text
    assert not set(state.stock) & set(json.loads(text)["table"]["cards"])
    assert GAME.view(state, None)["hand"] == []
    assert view["round"] == 1 and view["stock_size"] == 40 and view["turn"] == 1 and view["over"] is False
    assert GAME.hidden_cards(state, 0) == ["7H", "9S", "KS", "KH", *state.stock]


def test_redact_drops_the_seed_the_deck_and_other_hands_but_not_public_plays():
    events = GAME.start(2, "secret", deck=stack(["2S 2H 2D 2C", "7H 9S KS KH"], table="3C 4D"))
    assert "seed" not in GAME.redact(events[0], None)
    assert GAME.redact(events[1], 1) == {"type": "round_dealt", "round": 1, "dealer": 0, "hand": ["7H", "9S", "KS", "KH"],
                                         "table": ["3C", "4D", "JS", "JH", "JD", "JC", "QS", "QH"]}
    assert "hand" not in GAME.redact(events[1], None)
    state = GAME.fold(events)
    state, log = play_out(state, stop=lambda new: any(e["type"] == "round_scored" for e in new))
    for kind in ("cards_captured", "card_trailed", "table_collected", "round_scored"):
        event = first(log, kind)
        assert GAME.redact(event, 0) == event and GAME.redact(event, None) == event


def test_after_the_match_the_view_shows_everything():
    state = GAME.fold(GAME.start(3, "the-end", options={"target": 1}))
    state, _ = play_out(state)
    view = GAME.view(state, None)
    assert view["over"] is True and view["turn"] is None
    assert view["hands"] == [[], [], []] and sum(len(p) for p in view["piles"]) == 56 - len(state.leftover)
    assert GAME.hidden_cards(state, 0) == []
    assert view["outcome"]["scores"] == view["scores"]


def test_registry_finds_karuselis():
    assert registry.get("karuselis") is GAME
