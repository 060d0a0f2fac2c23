"""The move log, the boards and the positions the play page plays back (games/selectors/: log, board, replay).

The log of a seat is built only from that seat's redacted feed: every line is the words of one
redacted event, every bot move has its line, no card the seat cannot see is named, rounds come
newest first with their score tables. The replay's log is the log up to its step.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest

from engine import registry
from engine.core import copies_hidden_everywhere
from games import store, words
from games.models import SEED_REVEALED, Event
from games.selectors.board import MAX_FRAMES, _entries, _marks, _turn, board_for, match_board
from games.selectors.feeds import move_starts
from games.selectors.log import match_log
from games.selectors.people import players
from games.selectors.replay import replay_frame, replay_positions
from games.selectors.rules import card
from games.services import SeatSpec, bots_advance, match_create

pytestmark = pytest.mark.django_db

#: A short match of every game: seats, options, bot moves to play.
SHORT = {
    "livol": (3, {"target": 500}, 40),
    "uno_flip": (3, {"target": 500}, 40),
    "karuselis": (2, {"deck": "small", "target": 60}, 30),
    "iota": (2, {}, 16),
    "cardavia": (4, {"lives": 3}, 10),
}
#: Events after which a card once seen may be hidden again (a reshuffled pile, a flipped table, a
#: challenged hand shown to the challenger once).
HIDES_AGAIN = {"pile_reshuffled", "discards_reshuffled", "table_flipped", "challenged"}


def bot_match(game: str, seed: str = "log-1", moves: int | None = None, seats=None, options=None, bot="random"):
    """A match of bots. Their randomness is keyed by the match's id, which differs from database to
    database: a test that needs a round to end uses greedy bots (random ones may draw for ever)."""
    n, opts, budget = SHORT[game]
    match = match_create(game=game, seats=[SeatSpec(bot=bot) for _ in range(seats or n)], seed=seed,
                         options=options if options is not None else opts, wake_bots=False)
    bots_advance(match_id=match.pk, budget=moves if moves is not None else budget)
    match.refresh_from_db()
    return match


def lines_oldest_first(log: dict) -> list[dict]:
    return [line for r in reversed(log["rounds"]) for line in reversed(r["lines"])]


def card_names(game: str) -> dict[str, str]:
    codes = set()
    for code in registry.get(game).cards():
        codes.update(code.split("/") if game == "uno_flip" else [code])
    return {words.card_name(game, c): c for c in codes}


def named_cards(game: str, text: str) -> set[str]:
    """The card codes a text names (longest names first, so "Wild Draw Four" is not "Wild")."""
    names = card_names(game)
    pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                         + r")(?![\w])")
    return {names[m] for m in pattern.findall(text)}


# --------------------------------------------------------------------------
# The log of a seat
# --------------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(SHORT))
def test_the_log_is_the_seats_redacted_events_in_words_and_has_every_bot_move(game):
    # given a running match of bots, watched from seat 0
    match = bot_match(game)
    assert match.is_running
    engine_game = registry.get(game)
    names = players(match)
    # when seat 0's log is built
    log = match_log(match, 0)
    lines = lines_oldest_first(log)
    # then its lines are exactly the words of the redacted events, in order
    expected = []
    context = words.EventContext()  # what a line needs from the ones before (Karuselis builds by their cards)
    for e in Event.objects.filter(match=match).order_by("seq"):
        if e.type == SEED_REVEALED:
            continue
        if e.move is not None:
            context.move_started(e.seat)
        redacted = engine_game.redact(e.payload, 0)
        text = words.event_words(game, redacted, names, context) if redacted is not None else None
        if text is not None:
            expected.append((e.seq, text))
    assert [(line["seq"], line["text"]) for line in lines] == expected
    # and every move of another seat has at least one line of its own
    by_move = Counter(line["move"] for line in lines)
    others = [seq for seq, seat in move_starts(match) if seat != 0]
    assert others and all(by_move[seq] > 0 for seq in others)


@pytest.mark.parametrize("game", ["livol", "uno_flip", "karuselis", "iota"])
def test_the_log_never_names_a_card_the_seat_cannot_see(game):
    # given a running match, up to the first reshuffle or flip (after which a card once seen may be
    # hidden again and still rightly stand in the log)
    match = bot_match(game, seed="log-hidden")
    engine_game = registry.get(game)
    deals = list(Event.objects.filter(match=match, type="round_dealt").order_by("seq").values_list("seq", flat=True))
    again = [e.seq for e in Event.objects.filter(match=match, type__in=HIDES_AGAIN)] + deals[1:]  # a new deal too
    upto = min(again) - 1 if again else match.last_seq
    state = store.load_state(match, upto=upto)
    totals = Counter()
    for code in engine_game.all_cards(state):
        totals[code] += 1
        if "/" in code:
            totals.update(code.split("/"))
    for seat in range(len(players(match))):
        hidden = copies_hidden_everywhere(engine_game.hidden_cards(state, seat), totals)
        # when the seat's log as it stood then is read
        text = "\n".join(line["text"] for line in lines_oldest_first(match_log(match, seat, upto=upto)))
        # then no card that every copy of is hidden from it is named
        assert not named_cards(game, text) & hidden, f"seat {seat} reads hidden {named_cards(game, text) & hidden}"


def test_a_livol_log_shows_a_bots_draw_as_a_count_and_the_seats_own_draw_by_name():
    match = bot_match("livol", seed="log-draws", moves=60)
    log = match_log(match, 0)
    texts = [line["text"] for line in lines_oldest_first(log)]
    draws = Event.objects.filter(match=match, type="cards_drawn")
    assert draws.exists()
    for e in draws:
        named = words.event_words("livol", e.payload, players(match))
        if e.payload["seat"] == 0:
            assert named in texts
        else:
            assert named not in texts


def test_rounds_come_newest_first_with_their_lines_newest_first_and_the_round_table():
    # given a LIVOL match to 300 points played past its first round
    match = bot_match("livol", seed="log-rounds", moves=400, options={"target": 300}, bot="greedy")
    log = match_log(match, 1)
    numbers = [r["number"] for r in log["rounds"]]
    assert len(numbers) >= 2 and numbers == sorted(numbers, reverse=True)
    for r in log["rounds"]:
        seqs = [line["seq"] for line in r["lines"]]
        assert seqs == sorted(seqs, reverse=True)
    # then a scored round carries its table: every seat's gain and total, and the target
    scored = [r for r in log["rounds"] if r["summary"]]
    assert scored
    table = scored[-1]["summary"]
    assert table["target"] == 300 and len(table["rows"]) == 3
    raw = Event.objects.filter(match=match, type="round_scored").order_by("seq").first().payload
    assert [row["total"] for row in table["rows"]] == raw["scores"]
    assert [row["gain"] for row in table["rows"]] == raw["gains"]
    assert log["rounds"][0]["newest"] and not log["rounds"][-1]["newest"]


@pytest.mark.parametrize("game,seats,options,headline", [
    ("karuselis", 2, {"deck": "small", "target": 20}, "Round 1"),
    ("iota", 2, {"variant": "short"}, "The match is over"),
    ("cardavia", 3, {"lives": 1}, "Round 1"),
    ("uno_flip", 2, {"target": 30}, "Round 1"),
])
def test_each_game_shows_a_round_table_when_a_round_is_scored(game, seats, options, headline):
    match = bot_match(game, seed="log-table", moves=3000, seats=seats, options=options, bot="greedy")
    log = match_log(match, 0)
    tables = [r["summary"] for r in log["rounds"] if r["summary"]]
    assert tables, "no scored round"
    first = tables[-1]
    assert first["headline"].startswith(headline)
    assert first["rows"] and all("name" in row and "total" in row for row in first["rows"])
    if game == "cardavia":
        # lives left after the deal, not just who paid
        assert all(isinstance(row["total"], int) for row in first["rows"])


def test_the_replay_log_is_the_log_up_to_the_step_and_public():
    # given a finished match
    match = bot_match("livol", seed="log-replay", moves=5000, seats=2, options={"target": 30}, bot="greedy")
    assert not match.is_running
    positions = replay_positions(match)
    step = len(positions) // 2
    frame = replay_frame(match, step)
    lines = lines_oldest_first(frame["log"])
    # then it holds every event's words up to the step, the raw ones (everything is public now)
    names = players(match)
    expected = [(e.seq, words.event_words("livol", e.payload, names))
                for e in Event.objects.filter(match=match, seq__lte=positions[step]["seq"]).order_by("seq")]
    assert [(line["seq"], line["text"]) for line in lines] == [x for x in expected if x[1] is not None]
    assert frame["move_label"] == words.move_words("livol", positions[step]["move"], names)
    assert frame["last"]["start"] == positions[step]["start"]
    last = replay_frame(match, len(positions) - 1)
    assert any("The match is over" in line["text"] for line in lines_oldest_first(last["log"]))


# --------------------------------------------------------------------------
# The board and its positions
# --------------------------------------------------------------------------

def test_the_board_plays_back_the_seats_own_views_of_the_moves_since_a_position():
    # given a match where several bot moves were recorded since seat 0's page position
    match = bot_match("livol", seed="log-frames", moves=30)
    starts = [seq for seq, _ in move_starts(match)]
    since = starts[-6] - 1
    # when the board is asked for the positions since then
    board = match_board(match, 0, since=since)
    frames = board["frames"]
    # then every position after each move but the last is there, oldest first, each the seat's
    # own view at that position (the last one is the live board)
    assert [f["seq"] for f in frames] == [s - 1 for s in starts[-5:]]
    engine_game = registry.get("livol")
    for f in frames:
        assert f["view"] == engine_game.view(store.load_state(match, upto=f["seq"]), 0)
        assert f["legal"] == [] and f["last"]["lines"]
    assert board["seq"] == match.last_seq
    # and at most MAX_FRAMES positions are played back, the older ones skipped
    assert len(match_board(match, 0, since=0)["frames"]) == MAX_FRAMES - 1
    assert match_board(match, 0, since=match.last_seq)["frames"] == []


def test_cards_are_named_and_drawn_from_their_codes():
    assert card("livol", "W+4") == {"code": "W+4", "name": "Wild Draw Four", "short": "+4", "colour": "W"}
    assert card("livol", "Y7")["colour"] == "Y"
    dark = card("uno_flip", "R7/Pskipall", side="dark")
    assert dark["active"]["name"] == "Pink Skip Everyone" and dark["back"]["name"] == "Red 7"
    assert dark["active"]["side"] == "dark" and dark["active"]["colour"] == "P"
    assert card("uno_flip", "DW+C")["colour"] == "D"
    iota = card("iota", "B4S")
    assert (iota["name"], iota["colour"], iota["number"], iota["shape"]) == ("Blue square 4", "B", "4", "S")
    assert card("iota", "W2")["wild"] is True
    ten = card("karuselis", "10D")
    assert (ten["name"], ten["kind"], ten["rank"], ten["suit"]) == ("10♦", "red", "10", "♦")
    assert card("karuselis", "X20")["kind"] == "joker"
    assert card("cardavia", "12")["name"] == "XII"
    assert card("cardavia", "CUCKOO")["rank"] == 21 and card("cardavia", "FOOL")["rank"] == 1


def test_a_livol_hand_card_carries_its_plays_and_a_wild_its_colours():
    view = {"hand": ["R5", "W", "B2"], "top": "R3", "color": "R", "turn": 0, "hand_sizes": [3, 7],
            "scores": [0, 0], "called": [False, False], "dealer": 1, "round": 1, "direction": 1,
            "phase": "play", "options": {"target": 500}}
    legal = [{"type": "play", "card": "R5"}, {"type": "play", "card": "R5", "call": True}] + \
        [{"type": "play", "card": "W", "color": c} for c in "RYGB"] + [{"type": "draw"}]
    entries = _entries("livol", view, legal, 7, ["anna", "janis"])
    board = board_for("livol", view, 0, entries, ["anna", "janis"])
    red, wild, blue = board["hand"]
    assert [e["label"] for e in red["plays"]] == ["Play Red 5"] and red["calls"] == []  # three cards: no call
    assert [e["colour"]["name"] for e in wild["plays"]] == ["Red", "Yellow", "Green", "Blue"]
    assert blue["plays"] == [] and [e["label"] for e in board["others"]] == ["Draw"]
    assert board["seats"][0]["turn"] and board["seats"][0]["me"] and board["seats"][1]["dealer"]


def test_the_last_move_is_marked_on_each_board():
    group = {"seat": 1, "start": 9, "end": 10, "move": True, "lines": ["x"], "summary": None, "events": [
        {"seq": 9, "type": "cards_played", "payload": {"type": "cards_played", "seat": 1,
                                                         "cards": [{"card": "R1C", "x": 1, "y": 0}]}},
    ]}
    assert _marks("iota", group)["cells"] == [(1, 0)]
    group["events"] = [{"seq": 9, "type": "cards_captured", "payload": {
        "type": "cards_captured", "seat": 1, "card": "7H", "groups": [["7S"], ["3C", "4D"]],
        "cards": ["7H", "7S", "3C", "4D"]}}]
    assert _marks("karuselis", group)["captured"] == {"seat": 1, "card": "7H",
                                                               "cards": ["7H", "7S", "3C", "4D"]}
    group["events"] = [{"seq": 9, "type": "swap_asked", "payload": {"type": "swap_asked", "seat": 1, "target": 2}},
                       {"seq": 10, "type": "swap_refused", "payload": {"type": "swap_refused", "seat": 2,
                                                                       "card": "HORSE", "asker": 1}}]
    assert _marks("cardavia", group)["seats"] == {1: ["asked"], 2: ["refused"]}
    group["events"] = [{"seq": 9, "type": "card_played", "payload": {"type": "card_played", "seat": 1,
                                                                      "card": "R5/P2", "face": "R5"}}]
    assert _marks("uno_flip", group)["card"] == "R5"


def test_the_turn_banner_names_who_acts_next():
    names = ["anna", "janis"]
    assert _turn({"turn": 0}, 0, [{"move": {}}], names)["text"] == "Your turn"
    assert _turn({"turn": 1}, 0, [], names)["text"] == "Waiting for janis"
    assert _turn({"turn": 1}, 0, [{"move": {}}], names)["state"] == "act"
    assert _turn({"over": True, "turn": None}, 0, [], names)["state"] == "over"
