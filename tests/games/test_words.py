"""Words for events, cards and moves (games/words/): plain functions, no database.

Random matches of every game are played through the engine; every event is
redacted for every seat and for a spectator, and its words must exist (or the
event type be SILENT on purpose), carry no raw code, and name no card the
redacted event does not show. Hand-built events check the sentences the issue
asks for; the illegal-move messages are checked against every code the engine
source raises.
"""
from __future__ import annotations

import inspect
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from django.utils import translation

from engine import IllegalMove, protocol, registry
from engine.core import copies_hidden_everywhere
from games import words
from games.words import store as store_words

NAMES = ["anna", "janis", "bot 2", "liga", "peteris", "ilze", "karlis", "maija", "rihards", "zane"]
ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"


def move_types(game_name: str) -> set[str]:
    """A game's move types (its engine module's ``MOVE_KEYS``), to tell move dicts from events in its source."""
    module = registry.module(game_name)
    return set(getattr(module, "MOVE_KEYS", None) or module._MOVE_KEYS)


def engine_sources(game_name: str) -> list[Path]:
    """The source of a game's engine module (wherever it is registered from) and ``engine/core.py``, which
    every game shares."""
    return [Path(inspect.getsourcefile(registry.module(game_name))), ENGINE_DIR / "core.py"]


#: Events each of the five games records when it scores (round_summary returns a table for them; another
#: registered game's tables are checked wherever it gives one).
SCORING = {
    "livol": {"round_scored"},
    "uno_flip": {"round_scored"},
    "karuselis": {"round_scored"},
    "iota": {"match_ended"},
    "cardavia": {"deal_settled", "life_lost"},
}
#: Card names a sentence may say although the event carries no such code, because the
#: event's type (or reason) is about that kind of card, not about a hidden one.
IMPLIED = {
    ("livol", "starter_reshuffled"): {"W+4"},
    ("livol", "cards_drawn", "wild_draw_four"): {"W+4"},
    ("livol", "challenged"): {"W+4"},
    ("livol", "wild_draw_four_accepted"): {"W+4"},
    ("uno_flip", "cards_drawn", "wild_draw_two"): {"W+2"},
    ("uno_flip", "cards_drawn", "wild_draw_color"): {"DW+C"},
    ("karuselis", "match_started"): {"X20", "BR"},
    ("karuselis", "table_swept"): {"BR"},
    ("cardavia", "swaps_undone"): {"CAT"},
    ("cardavia", "fool_knocked"): {"FOOL"},
}
#: (game, seats, seed, options, resign at this step or None)
MATCHES = [
    ("livol", 3, "words-livol-a", {"target": 200}, None),
    ("livol", 2, "words-livol-b", {"target": 150, "variant": "own_hand", "challenge_extra_penalty": 2}, None),
    ("livol", 4, "words-livol-r", {"target": 200}, 25),
    ("uno_flip", 4, "words-uno-a", {"target": 200}, None),
    ("uno_flip", 2, "words-uno-b", {"target": 150}, None),
    ("uno_flip", 3, "words-uno-r", {"target": 200}, 30),
    ("karuselis", 4, "words-kar-a", {"target": 40}, None),
    ("karuselis", 3, "words-kar-b", {"deck": "small", "target": 30}, None),
    ("karuselis", 2, "words-kar-r", {"target": 40}, 12),
    ("iota", 2, "words-iota-a", None, None),
    ("iota", 4, "words-iota-b", {"variant": "kids"}, None),
    ("iota", 3, "words-iota-r", {"variant": "short"}, 8),
    ("cardavia", 4, "words-cardavia-a", None, None),
    ("cardavia", 6, "words-cardavia-b", {"lives": 2}, None),
    ("cardavia", 3, "words-cardavia-r", None, 6),
]
#: Any other registered game (``tests/sixth_game``): one match at its fewest seats and default options.
MATCHES += [(name, registry.get(name).MIN_SEATS, f"words-{name}-a", None, None) for name in registry.names()
            if name not in {m[0] for m in MATCHES}]
MAX_STEPS = 20_000


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def faces(game_name: str) -> list[str]:
    """Every distinct face code of a game (UNO FLIP's physical codes split in two)."""
    out = []
    for code in registry.get(game_name).cards():
        out.extend(code.split("/"))
    return list(dict.fromkeys(out))


class CardNames:
    """Finds the card names a sentence says (longest names first, whole words only)."""

    def __init__(self, game_name: str):
        self.game = game_name
        self.codes_of: dict[str, set[str]] = {}
        for code in faces(game_name):
            self.codes_of.setdefault(words.card_name(game_name, code), set()).add(code)
        names = sorted(self.codes_of, key=len, reverse=True)
        self.pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in names) + r")(?![\w])")
        raw = [c for c in faces(game_name) if len(c) >= 2 and not c.isdigit()]
        # a game whose codes are all numbers (Tally's 1 to 9) has no code a sentence could say raw
        self.raw = re.compile(r"(?<![\w+/])(" + "|".join(re.escape(c) for c in sorted(raw, key=len, reverse=True))
                              + r")(?![\w+/])" if raw else r"(?!)")

    def said(self, text: str) -> set[str]:
        return set(self.pattern.findall(text))

    def names_of(self, codes) -> set[str]:
        return {words.card_name(self.game, c) for c in codes if c in self.all_codes}

    @property
    def all_codes(self) -> set[str]:
        return {c for cs in self.codes_of.values() for c in cs}


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
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return out


def implied(game_name: str, event: dict) -> set[str]:
    kind = event["type"]
    reason = event.get("reason") or event.get("cause")
    return IMPLIED.get((game_name, kind), set()) | IMPLIED.get((game_name, kind, reason), set())


def assert_clean(text: str, finder: CardNames, what: str) -> None:
    assert isinstance(text, str) and text.strip(), f"{what}: no words"
    for bad in ("{", "}", "None", "%(", "Pskipall", "DW+C", "B4S", "X20"):
        assert bad not in text, f"{what}: {bad!r} in {text!r}"
    raw = finder.raw.findall(text)
    assert not raw, f"{what}: raw code(s) {raw} in {text!r}"


def card_totals(game, state) -> Counter:
    total = Counter()
    for code in game.all_cards(state):
        total[code] += 1
        if "/" in code:
            total.update(code.split("/"))
    return total


def play_match(game_name, seats, seed, options=None, resign_at=None):
    """Random legal play to the end. Yields ``(state_after, batch, legal_moves_met)`` per move
    (the first batch is ``start``'s). A seat resigns at step ``resign_at`` if the engine
    accepts ``{"type": "resign"}`` by then."""
    game = registry.get(game_name)
    events = game.start(seats, seed, options)
    state = game.fold(events)
    yield state, events, []
    rng = random.Random(seed)
    for step in range(MAX_STEPS):
        if game.outcome(state) is not None:
            return
        if resign_at is not None and step == resign_at:
            try:
                batch = game.play(state, rng.randrange(seats), {"type": "resign"})
            except IllegalMove:
                pass  # the engine does not know resigning yet
            else:
                for e in batch:
                    state = game.apply(state, e)
                yield state, batch, []
                continue
        to_act = game.view(state, None)["to_act"]
        assert to_act, f"{game_name}: nobody may act, but the match is not over"
        seat = rng.choice(to_act)
        legal = game.legal_moves(state, seat)
        move = rng.choice(legal)
        batch = game.play(state, seat, move)
        for e in batch:
            state = game.apply(state, e)
        yield state, batch, legal
    raise AssertionError(f"{game_name} {seed}: no end after {MAX_STEPS} moves")


# --------------------------------------------------------------------------
# Random matches: every event, as every seat received it
# --------------------------------------------------------------------------

@pytest.mark.parametrize("game_name,seats,seed,options,resign_at", MATCHES,
                         ids=[m[2] for m in MATCHES])
def test_every_event_has_words_that_show_only_what_the_seat_may_see(game_name, seats, seed, options, resign_at):
    game = registry.get(game_name)
    finder = CardNames(game_name)
    names = NAMES[:seats]
    silent = words.SILENT[game_name]
    seen_types: set[str] = set()
    move_labels = 0
    match_options = None
    state = None
    for _, batch, legal in play_match(game_name, seats, seed, options, resign_at):
        for event in batch:
            state = game.apply(state, event)  # the hidden cards are those right after this event
            total = card_totals(game, state)
            kind = event["type"]
            seen_types.add(kind)
            if kind == "match_started":
                match_options = event["options"]
            # the raw event: what everyone reads once the match is over
            public = words.event_words(game_name, event, names)
            if kind in silent:
                assert public is None, f"{kind} is SILENT but has words"
            else:
                assert_clean(public, finder, f"{game_name} {kind} (public)")
            summary = words.round_summary(game_name, event, names, match_options)
            scoring = SCORING.get(game_name)
            if scoring is not None and kind not in scoring:
                assert summary is None, f"{kind} is no scoring event"
            elif scoring is not None or summary is not None:
                assert summary is not None and summary["rows"] and summary["headline"], f"{kind}: no table"
                for r in summary["rows"]:
                    assert r["name"] and r["seats"]
                assert_clean(summary["headline"], finder, f"{game_name} {kind} headline")
            # as each seat and a spectator received it while the match ran
            for viewer in [None, *range(seats)]:
                redacted = game.redact(event, viewer)
                if redacted is None:
                    continue
                text = words.event_words(game_name, redacted, names)
                what = f"{game_name} {kind} for seat {viewer}"
                if kind in silent:
                    assert text is None, f"{what}: SILENT but has words"
                    continue
                assert_clean(text, finder, what)
                said = finder.said(text)
                kinds = finder.names_of(implied(game_name, redacted))
                invented = said - kinds - finder.names_of(strings_in(redacted))
                assert not invented, f"{what}: says {sorted(invented)} the event does not show: {text!r}"
                hidden = copies_hidden_everywhere(game.hidden_cards(state, viewer), total)
                leaked = {n for n in said - kinds if finder.codes_of[n] <= hidden}
                assert not leaked, f"{what}: names hidden {sorted(leaked)}: {text!r}"
        for move in legal:
            label = words.move_words(game_name, move, names)
            assert_clean(label, finder, f"{game_name} move {move}")
            move_labels += 1
    assert game.outcome(state) is not None
    assert move_labels
    assert seen_types <= words.event_types(game_name) | silent, \
        f"no words for {sorted(seen_types - words.event_types(game_name) - silent)}"


def engine_event_types(game_name: str) -> set[str]:
    """The event types a game's source records (with those ``engine/core.py`` records for
    every game, such as ``seat_resigned``): every ``"type": "..."`` that is not a move."""
    found: set[str] = set()
    for path in engine_sources(game_name):
        found |= set(re.findall(r'"type":\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return found - move_types(game_name) - {"resign"}


@pytest.mark.parametrize("game_name", registry.names())
def test_every_event_type_in_the_engine_source_has_words_or_is_silent_on_purpose(game_name):
    known = engine_event_types(game_name)
    assert "match_ended" in known
    missing = known - words.event_types(game_name) - words.SILENT[game_name]
    assert not missing, f"{game_name}: no words for {sorted(missing)}"
    assert words.SILENT[game_name] <= known, "a SILENT type the engine does not record"
    assert "seat_resigned" in words.event_types(game_name)


# --------------------------------------------------------------------------
# Card names
# --------------------------------------------------------------------------

@pytest.mark.parametrize("game_name", registry.names())
def test_every_card_has_one_name_per_face_and_no_raw_code(game_name):
    raw = CardNames(game_name).raw
    by_name: dict[str, set[str]] = {}
    for code in faces(game_name):
        name = words.card_name(game_name, code)
        short = words.card_short(game_name, code)
        assert name and short, code
        assert "{" not in name and "None" not in name and "%" not in name
        assert name != code or code.isdigit(), f"{game_name}: {code} has no name"
        assert not raw.search(name), f"{game_name}: {code} is named {name!r}"
        by_name.setdefault(name, set()).add(code)
    shared = {name: codes for name, codes in by_name.items() if len(codes) > 1}
    # IOTA's two wilds are the same face
    assert shared == ({"Wild": {"W1", "W2"}} if game_name == "iota" else {}), shared


@pytest.mark.parametrize("game_name,code,name", [
    ("livol", "R7", "Red 7"), ("livol", "Rskip", "Red Skip"), ("livol", "Rrev", "Red Reverse"),
    ("livol", "R+2", "Red Draw Two"), ("livol", "W", "Wild"), ("livol", "W+4", "Wild Draw Four"),
    ("livol", "B0", "Blue 0"),
    ("uno_flip", "R+1", "Red Draw One"), ("uno_flip", "Rflip", "Red Flip"), ("uno_flip", "W+2", "Wild Draw Two"),
    ("uno_flip", "P+5", "Pink Draw Five"), ("uno_flip", "Pskipall", "Pink Skip Everyone"),
    ("uno_flip", "T7", "Teal 7"), ("uno_flip", "O3", "Orange 3"), ("uno_flip", "V9", "Purple 9"),
    ("uno_flip", "DW", "Wild (dark)"), ("uno_flip", "DW+C", "Wild Draw Color"),
    ("uno_flip", "R7/P+5", "Red 7 / Pink Draw Five"),
    ("karuselis", "7H", "7♥"), ("karuselis", "10D", "10♦"), ("karuselis", "QS", "Q♠"), ("karuselis", "AC", "A♣"),
    ("karuselis", "X20", "Joker 20"), ("karuselis", "BR", "Broom"),
    ("iota", "B4S", "Blue square 4"), ("iota", "R2C", "Red circle 2"), ("iota", "W1", "Wild"),
    ("cardavia", "FOOL", "Fool"), ("cardavia", "12", "XII"), ("cardavia", "CUCKOO", "Cuckoo"),
    ("cardavia", "0", "0"), ("cardavia", "4", "IV"),
])
def test_card_names(game_name, code, name):
    assert words.card_name(game_name, code) == name


def test_card_faces_and_colours():
    assert words.card_short("livol", "R7") == "7"
    assert words.card_short("livol", "Gskip") == "⊘"
    assert words.card_short("livol", "Brev") == "⇄"
    assert words.card_short("livol", "Y+2") == "+2"
    assert words.card_short("uno_flip", "Tskipall") == "⊘⊘"
    assert words.card_short("iota", "B4S") == "4■"
    assert words.colour_name("livol", "R") == "Red"
    assert words.colour_name("uno_flip", "V") == "Purple"
    assert words.colour_name("iota", "G") == "Green"


# --------------------------------------------------------------------------
# Sentences the issue asks for
# --------------------------------------------------------------------------

def test_livol_sentences():
    names = ["anna", "janis", "bot 2"]
    said = lambda e: words.event_words("livol", e, names)  # noqa: E731
    assert said({"type": "card_played", "seat": 1, "card": "R7", "call": False}) == "janis played Red 7"
    assert said({"type": "card_played", "seat": 1, "card": "W+4", "call": False, "color": "G"}) == \
        "janis played Wild Draw Four and named Green"
    drawn = {"type": "cards_drawn", "seat": 0, "count": 2, "cards": ["R7", "B3"], "reason": "draw"}
    assert said(drawn) == "anna drew Red 7 and Blue 3"
    assert said(registry.get("livol").redact(drawn, 1)) == "anna drew 2 cards"
    assert said({"type": "cards_drawn", "seat": 2, "count": 2, "reason": "plus_two"}) == "bot 2 drew 2 cards (Draw Two)"
    assert said({"type": "round_dealt", "round": 2, "dealer": 1}) == "Round 2: janis deals"
    assert said({"type": "round_scored", "round": 2, "winner": 0, "points": [0, 50, 34], "gains": [84, 0, 0],
                 "scores": [84, 0, 0]}) == "Round 2 to anna: +84"
    assert said({"type": "seat_caught", "seat": 1, "target": 0}) == "janis caught anna without a LIVOL! call"
    assert said({"type": "turn_started", "turn": 1, "phase": "play"}) is None
    assert said({"type": "seat_resigned", "seat": 0}) == "anna resigned"


def test_uno_flip_sentences():
    names = ["anna", "janis", "bot 2"]
    said = lambda e: words.event_words("uno_flip", e, names)  # noqa: E731
    event = {"type": "cards_drawn", "seat": 2, "cards": ["R7/P+5", "B3/O+5"], "cause": "wild_draw_two",
             "backs": ["P+5", "O+5"]}
    assert said(registry.get("uno_flip").redact(event, 0)) == "bot 2 drew 2 cards (Wild Draw Two)"
    assert said(event) == "bot 2 drew Red 7 and Blue 3 (Wild Draw Two)"
    assert said({"type": "card_played", "seat": 0, "card": "G2/Pskipall", "face": "Pskipall"}) == \
        "anna played Pink Skip Everyone"
    assert said({"type": "card_played", "seat": 1, "card": "Y6/DW+C", "face": "DW+C", "color": "T"}) == \
        "janis played Wild Draw Color and named Teal"
    assert said({"type": "table_flipped", "seat": 0, "side": "dark", "top": "V9", "color": "V", "draw_back": "R1"}) == \
        "The table flips to the dark side: the top card is Purple 9"
    assert said({"type": "card_drawn", "seat": 1, "back": "P5"}) == "janis drew a card (back: Pink 5)"
    assert said({"type": "round_scored", "seat": 0, "round": 2, "side": "light", "points": [0, 40, 44],
                 "gained": 84, "scores": [84, 0, 0], "hands": [[], [], []]}) == "Round 2 to anna: +84"


def test_karuselis_sentences():
    names = ["anna", "janis", "liga", "karlis"]
    said = lambda e: words.event_words("karuselis", e, names)  # noqa: E731
    assert said({"type": "cards_captured", "seat": 0, "card": "7S", "groups": [["7H"], ["3C", "4D"]],
                 "cards": ["7H", "3C", "4D"]}) == "anna captured 7♥ + 3♣ 4♦ with 7♠"
    assert said({"type": "cards_captured", "seat": 1, "card": "6H", "groups": [["b1"], ["6C"]],
                 "cards": ["6C", "2D", "3S", "AC"]}) == "janis captured the build of 6 (2♦ 3♠ A♣) + 6♣ with 6♥"
    assert said({"type": "cards_captured", "seat": 1, "card": "6H", "groups": [["b1"], ["b2"]],
                 "cards": ["2D", "4S", "5C", "AC"]}) == "janis captured a build + a build with 6♥, taking 4 cards"
    assert said({"type": "build_made", "seat": 1, "card": "AC", "onto": ["2D", "3S"], "value": 6, "build": "b1",
                 "raised": False}) == "janis built 6 on 2♦ 3♠ with A♣"
    assert said({"type": "build_made", "seat": 2, "card": "3C", "onto": ["b1"], "value": 9, "build": "b1",
                 "raised": True}) == "liga raised a build to 9 with 3♣"
    assert said({"type": "table_swept", "seat": 3, "card": "BR", "cards": ["7H", "X20"]}) == \
        "karlis swept the table with the Broom, taking 2 cards"
    dealt = {"type": "round_dealt", "round": 2, "dealer": 1, "deck": registry.get("karuselis").cards(),
             "table": ["2S", "3S"]}
    assert said(dealt) == "Round 2: janis deals · On the table: 2♠ 3♠"
    assert said(registry.get("karuselis").redact(dealt, 0)) == \
        "Round 2: janis deals · On the table: 2♠ 3♠ · Your cards: A♠ 2♠ 3♠ 4♠"
    assert said({"type": "match_ended", "ranking": [[0, 2], [1, 3]], "scores": [121, 80, 121, 80]}) == \
        "The match is over: anna and liga win with 121 points"


def test_iota_sentences():
    names = ["anna", "janis"]
    said = lambda e: words.event_words("iota", e, names)  # noqa: E731
    assert said({"type": "cards_played", "seat": 0, "cards": [{"card": "B4S", "x": 1, "y": 0},
                                                              {"card": "W1", "x": 2, "y": 0}],
                 "score": 12, "lots": 0, "final": False}) == \
        "anna played Blue square 4 at (1, 0) and Wild at (2, 0) for 12 points"
    passed = {"type": "passed", "seat": 1, "count": 1, "returned": ["R2C"]}
    assert said(passed) == "janis passed and exchanged Red circle 2"
    assert said(registry.get("iota").redact(passed, 0)) == "janis passed and exchanged 1 card"
    assert said({"type": "wild_recycled", "seat": 0, "card": "R2C", "x": 3, "y": 0, "wild": "W2"}) == \
        "anna took back the Wild at (3, 0) and put Red circle 2 in its place"


def test_cardavia_sentences():
    names = ["anna", "janis", "liga"]
    said = lambda e: words.event_words("cardavia", e, names)  # noqa: E731
    swap = {"type": "cards_swapped", "seat": 0, "target": 1, "gave": "3", "got": "12"}
    assert said(swap) == "anna swapped cards with janis: anna gave III and got XII"
    assert said(registry.get("cardavia").redact(swap, 2)) == "anna swapped cards with janis"
    assert said({"type": "swap_refused", "seat": 1, "card": "DRAGOON", "asker": 0}) == "janis refused with the Dragoon"
    assert said({"type": "life_lost", "seat": 0, "lives": 2, "card": "DRAGOON", "rule": "C6"}) == \
        "anna lost a life to the Dragoon: 2 left"
    assert said({"type": "life_lost", "seat": 2, "lives": 0, "rule": "C9"}) == "liga lost the last life"
    assert said({"type": "turn_passed", "seat": 1}) is None


#: Events random play seldom meets, with their words (and every seat's redaction must have words too).
RARE_EVENTS = [
    ("livol", {"type": "color_named", "seat": 1, "color": "G"}, "janis named Green"),
    ("uno_flip", {"type": "color_named", "seat": 0, "color": "T"}, "anna named Teal"),
    ("uno_flip", {"type": "match_ended", "reason": "event_limit", "scores": [40, 10, 0],
                  "ranking": [[0], [1], [2]]},
     "The match stopped at the limit of moves · The match is over: anna wins with 40 points"),
    ("cardavia", {"type": "deal_ended", "round": 3}, "Round 3 ends without a settlement: one player is left"),
    ("cardavia", {"type": "deal_skipped", "round": 4, "resting": [0, 1]},
     "Round 4 is skipped: fewer than two players could take part"),
    ("cardavia", {"type": "stock_drawn", "seat": 2, "card": "HORSE"},
     "liga drew the Horse from the stock: it is set aside"),
    ("cardavia", {"type": "stock_drawn", "seat": 2, "card": "CUCKOO"},
     "liga drew the Cuckoo from the stock: the deal stops"),
    ("cardavia", {"type": "swaps_undone", "seat": 1, "swaps": [[0, 1], [2, 0]]},
     "The Cat undid 2 swaps: every card went back"),
    ("cardavia", {"type": "swap_refused", "seat": 1, "card": "CUCKOO", "asker": 0},
     "janis showed the Cuckoo: the deal stops"),
    ("cardavia", {"type": "deal_settled", "round": 2, "cards": ["FOOL", "FOOL", "3"], "losers": [0, 1], "rest": [0, 1]},
     "Round 2 is settled: anna (Fool), janis (Fool), liga (III) · anna and janis rest next round"),
    ("karuselis", {"type": "table_collected", "seat": None, "cards": ["2S", "KH"]},
     "Nobody captured in this round: the 2 cards left on the table are set aside"),
    ("karuselis", {"type": "table_swept", "seat": 0, "card": "BR", "cards": []},
     "anna swept the empty table with the Broom"),
    ("iota", {"type": "match_ended", "reason": "all_passed", "ranking": [[0, 1]], "scores": [20, 20]},
     "Everyone passed twice in a row · The match is over: anna and janis share first place"),
]


@pytest.mark.parametrize("game_name,event,sentence", RARE_EVENTS, ids=[f"{g}-{e['type']}" for g, e, _ in RARE_EVENTS])
def test_rare_events(game_name, event, sentence):
    names = ["anna", "janis", "liga"]
    assert words.event_words(game_name, event, names) == sentence
    game = registry.get(game_name)
    for viewer in (None, 0, 1, 2):
        redacted = game.redact(event, viewer)
        if redacted is not None:
            assert_clean(words.event_words(game_name, redacted, names), CardNames(game_name), f"{event} for {viewer}")


def test_store_events():
    names = ["anna", "janis"]
    for game_name in registry.names():
        said = lambda e, game_name=game_name: words.event_words(game_name, e, names)  # noqa: E731
        assert said({"type": "seed_revealed", "seed": "s3cr3t"}) == \
            "The seed is revealed: anyone can now check the deal"
        assert said({"type": "seat_timed_out", "seat": 0, "deadline": "2026-01-01T00:00:00Z"}) == \
            "anna ran out of time"
        assert said({"type": "bot_took_seat", "seat": 0, "policy": "greedy"}) == "A bot plays for anna from now on"
        assert said({"type": "match_aborted", "by": "organiser"}) == "The organiser stopped the match"
        assert said({"type": "match_awarded", "ranking": [[1], [0]]}) == \
            "The organiser awarded the match: 1. janis · 2. anna"
        assert said({"type": "entropy_contributed", "seat": 1}) == "janis added randomness to the shuffle"
        assert said({"type": "match_opened", "commitment": "ab" * 32}).startswith("The match opened (commitment abab")
        assert said({"type": "seat_resigned", "seat": 0}) == "anna resigned"
        assert said({"type": "seat_forfeited", "seat": 1, "by": "organiser"}) == \
            "The organiser forfeited janis's seat"
    assert set(store_words.WORDS) == {"seed_revealed", "seat_timed_out", "bot_took_seat", "match_aborted",
                                      "match_awarded", "entropy_contributed", "match_opened", "seat_forfeited"}


def test_a_seat_without_a_name_is_numbered_from_one():
    assert words.event_words("livol", {"type": "livol_called", "seat": 3}, ["anna"]) == "Seat 4 called LIVOL!"


# --------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------

@pytest.mark.parametrize("game_name,move,label", [
    ("livol", {"type": "play", "card": "R7"}, "Play Red 7"),
    ("livol", {"type": "play", "card": "W+4", "color": "G"}, "Play Wild Draw Four, name Green"),
    ("livol", {"type": "play", "card": "R7", "call": True}, "Play Red 7 and call LIVOL!"),
    ("livol", {"type": "draw"}, "Draw"),
    ("livol", {"type": "catch", "target": 1}, "Catch janis"),
    ("livol", {"type": "challenge"}, "Challenge"),
    ("livol", {"type": "accept"}, "Accept"),
    ("livol", {"type": "resign"}, "Resign"),
    ("uno_flip", {"type": "pass"}, "Pass"),
    ("uno_flip", {"type": "play", "card": "Pskipall"}, "Play Pink Skip Everyone"),
    ("uno_flip", {"type": "play", "card": "R7/P+5"}, "Play Red 7 / Pink Draw Five"),
    ("karuselis", {"type": "capture", "card": "7S", "groups": [["7H"], ["3C", "4D"]]},
     "Capture 7♥ + 3♣ 4♦ with 7♠"),
    ("karuselis", {"type": "capture", "card": "9S", "groups": [["b1"]]}, "Capture a build with 9♠"),
    ("karuselis", {"type": "build", "card": "AC", "onto": ["2D", "3S"], "value": 6}, "Build 6 on 2♦ 3♠ with A♣"),
    ("karuselis", {"type": "build", "card": "3C", "onto": ["b1"], "value": 9}, "Raise a build to 9 with 3♣"),
    ("karuselis", {"type": "trail", "card": "KD"}, "Trail K♦"),
    ("karuselis", {"type": "sweep", "card": "BR"}, "Sweep with the Broom"),
    ("iota", {"type": "play", "cards": [{"card": "B4S", "x": 1, "y": 0}, {"card": "W1", "x": 2, "y": 0}]},
     "Play Blue square 4 at (1, 0) and Wild at (2, 0)"),
    ("iota", {"type": "pass", "return": []}, "Pass"),
    ("iota", {"type": "pass", "return": ["R2C"]}, "Pass, return Red circle 2"),
    ("iota", {"type": "recycle", "card": "R2C", "x": 3, "y": 0}, "Recycle the Wild at (3, 0) with Red circle 2"),
    ("cardavia", {"type": "keep"}, "Keep"),
    ("cardavia", {"type": "ask"}, "Ask"),
    ("cardavia", {"type": "resign"}, "Resign"),
])
def test_move_words(game_name, move, label):
    assert words.move_words(game_name, move, ["anna", "janis"]) == label


# --------------------------------------------------------------------------
# Score tables
# --------------------------------------------------------------------------

def test_round_summary_of_a_livol_round():
    event = {"type": "round_scored", "round": 2, "winner": 0, "points": [0, 50, 34], "gains": [84, 0, 0],
             "scores": [84, 10, 0]}
    table = words.round_summary("livol", event, ["anna", "janis", "bot 2"], {"target": 500})
    assert table["round"] == 2 and table["target"] == 500
    assert table["headline"] == "Round 2 to anna: +84"
    assert [(r["name"], r["gain"], r["total"]) for r in table["rows"]] == \
        [("anna", 84, 84), ("janis", 0, 10), ("bot 2", 0, 0)]
    assert words.round_summary("livol", {"type": "card_played", "seat": 0, "card": "R7"}, []) is None


def test_round_summary_of_a_karuselis_deal_has_one_row_per_side():
    event = {"type": "round_scored", "round": 1, "points": [18, 12, 18, 12], "spades": [8, 5, 8, 5],
             "cards": [30, 26, 30, 26], "scores": [18, 12, 18, 12]}
    table = words.round_summary("karuselis", event, ["anna", "janis", "liga", "karlis"], {"target": 120})
    assert [(r["name"], r["gain"], r["total"]) for r in table["rows"]] == \
        [("anna and liga", 18, 18), ("janis and karlis", 12, 12)]
    assert table["headline"] == "Round 1 to anna and liga: +18"


def test_round_summary_of_an_iota_match_knows_the_kids_variant_from_the_options():
    event = {"type": "match_ended", "reason": "last_card", "ranking": [[1], [0]], "scores": [3, 0]}
    table = words.round_summary("iota", event, ["anna", "janis"], {"variant": "kids"})
    assert table["headers"]["total"] == "Cards left"
    assert table["headline"] == "The match is over: janis wins"


def test_round_summary_of_a_cardavia_settlement():
    event = {"type": "deal_settled", "round": 3, "cards": ["FOOL", "5", None], "losers": [0], "rest": []}
    table = words.round_summary("cardavia", event, ["anna", "janis", "liga"])
    assert [(r["name"], r["gain"], r["note"]) for r in table["rows"]] == [("anna", -1, "Fool"), ("janis", 0, "V")]
    assert words.event_words("cardavia", event, ["anna", "janis", "liga"]) == \
        "Round 3 is settled: anna (Fool), janis (V)"
    assert table["headline"] == "Round 3: anna loses a life"


# --------------------------------------------------------------------------
# Refused moves
# --------------------------------------------------------------------------

def engine_illegal_codes(game_name: str) -> set[str]:
    """Every code a game's engine raises (its module's source and ``engine/core.py``): ``IllegalMove("code"``,
    ``_illegal("code"``, and the ``(code, rule, message)`` tuples IOTA's placement check returns (alone or
    first of a pair)."""
    codes: set[str] = set()
    for path in engine_sources(game_name):
        source = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'(?:IllegalMove|_illegal)\(\s*(?:code\s*=\s*)?"([a-z_]+)"', source))
        codes |= set(re.findall(r'return\s+\(*\s*"([a-z_]+)",\s*"[A-Z]+\d+"', source))
    return codes


@pytest.mark.parametrize("game_name", registry.names())
def test_every_refusal_code_a_game_raises_has_a_sentence_in_its_words_or_the_shared_ones(game_name):
    codes = engine_illegal_codes(game_name)
    assert {"not_your_turn", "malformed_move", "already_resigned"} <= codes
    own = getattr(words.GAMES[game_name], "REFUSALS", {})
    missing = codes - set(words.SHARED_REFUSALS) - set(own)
    assert not missing, (f"{game_name}: no sentence for {sorted(missing)}: add them to REFUSALS in "
                         f"{words.GAMES[game_name].__name__} (games.words' SHARED_REFUSALS holds only the shared codes)")
    assert set(own) <= codes - set(words.SHARED_REFUSALS), \
        f"{game_name}: REFUSALS has sentences for codes it never raises or the shared ones say"
    generic = words.illegal_move_message("no_such_code")
    for code in codes:
        assert words.illegal_move_message(code, game=game_name) != generic, code
        assert words.illegal_move_message(code) == words.illegal_move_message(code, game=game_name), code


def test_the_shared_refusals_are_the_contracts_and_a_code_means_one_thing_in_every_game():
    assert set(words.SHARED_REFUSALS) == {*protocol.SHARED_REFUSALS, "unknown_card", "card_not_in_hand"}
    with translation.override("en"):
        said: dict[str, set[str]] = {}
        for game_name in registry.names():
            for code, sentence in getattr(words.GAMES[game_name], "REFUSALS", {}).items():
                said.setdefault(code, set()).add(str(sentence))
        assert {code: sentences for code, sentences in said.items() if len(sentences) > 1} == {}
    assert set(words.refusals()) == set(words.SHARED_REFUSALS) | set(said)
    assert "card_does_not_match" in words.GAMES["uno_flip"].REFUSALS and words.GAMES["cardavia"].REFUSALS == {}


def test_illegal_move_messages():
    assert words.illegal_move_message("not_your_turn") == "It is not your turn."
    assert words.illegal_move_message("card_does_not_match") == \
        "That card does not match the top card or the colour in force."
    assert words.illegal_move_message("card_does_not_match", "L4") == \
        "That card does not match the top card or the colour in force. (rule L4)"
    assert words.illegal_move_message("already_resigned") == "You have already resigned."
    assert words.illegal_move_message("something_new") == "That move is not allowed now."


# --------------------------------------------------------------------------
# Languages
# --------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["lv", "lt", "ru", "uk"])
def test_other_languages_do_not_crash(language):
    names = ["anna", "janis", "liga", "karlis"]
    with translation.override(language):
        for game_name in registry.names():
            game = registry.get(game_name)
            for code in faces(game_name):
                assert words.card_name(game_name, code) and words.card_short(game_name, code)
            seats = 3 if game_name == "cardavia" else max(game.MIN_SEATS, min(4, game.MAX_SEATS))
            events = game.start(seats, f"lang-{game_name}")
            state = game.fold(events)
            for e in events:
                for viewer in [None, 0]:
                    redacted = game.redact(e, viewer)
                    if redacted is not None:
                        words.event_words(game_name, redacted, names)
            seat = game.view(state, None)["to_act"][0]
            for move in game.legal_moves(state, seat)[:50]:
                assert words.move_words(game_name, move, names)
            assert words.event_words(game_name, {"type": "seat_resigned", "seat": 0}, names)
            assert words.event_words(game_name, {"type": "seed_revealed", "seed": "x"}, names)
        assert words.illegal_move_message("not_your_turn", "L2")
        assert words.round_summary("livol", {"type": "round_scored", "round": 1, "winner": 0, "points": [0, 5],
                                             "gains": [5, 0], "scores": [5, 0]}, names)
    # plain str, evaluated when called: back in English afterwards
    assert words.card_name("livol", "R7") == "Red 7"
