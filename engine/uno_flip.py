"""UNO FLIP: 112 double-faced cards, a light side and a dark side (rules F1–F16).

The rules are ``tests/fixtures/rules/uno_flip.md``; each rule lives below in one small
named function whose docstring quotes it. The shape of the game is data at
the top of this module: seats, hand size, the versioned pairing table of the
deck (F4), the option ``target`` and the event bound.

A physical card is written ``light/dark`` (``"R7/P+5"``). Exactly one side is
active for the whole table; the active face of a card is what it "is" for
play, and the inactive face of every card in a hand and of the draw pile's
top is visible to everyone (``backs`` and ``draw_back`` in the views).

Decided points (beyond the spec, or where it leaves a choice):

- F4: the pairing table is ``PAIRING_V1`` (deck version ``"1"``): the dark
  faces in canonical order were shuffled once with
  ``core.shuffled("uno_flip deck 1", 0, dark_faces)`` and matched to the light
  faces in canonical order; the result is written out literally and never
  changes. ``match_started`` records ``deck_version``.
- F6: a Wild Draw Two or Flip starter goes back into the draw pile, which is
  reshuffled until the turned card may start; one ``starter_reshuffled`` event
  records the returned card and the final pile.
- F7: a card is named by its active face, or by the physical ``light/dark``
  code; the bare face is refused (``ambiguous_card``) when the hand holds two
  cards with that active face and different backs, also after a draw.
- F9: the colour named after a Flip that turns up a Wild is one of the new
  side's colours; a Flip played as the last card takes no colour.
- F10/F11: drawing "until a colour" draws nothing when no card whose active
  face has that colour is left in the draw pile or the discards below the top;
  the innocent challenger of a Wild Draw Color still draws the 2 more.
- F12: the ``"call": true`` flag is accepted on any play and counts only when
  the play leaves one card; ``legal_moves`` lists the flagged form only then.
- F13: a forced draw that finds no card records no event.
- F16/F15: ``round_scored`` shows every hand at the end of the round (the
  table sees them when the points are counted).
- Views list a hand sorted by active face and each seat's backs sorted by
  face (a holder may arrange its cards; the two orders are independent, so the
  backs say nothing about the fronts); ``shown_hand`` is always present (null
  unless the seat is a challenger being shown a hand); after the match ends the
  view adds ``hands`` (every hand, physical codes).
- The hard event bound: a match that reaches ``EVENT_LIMIT`` events ends there
  (``match_ended`` with ``reason: "event_limit"``), ranked by the scores so
  far, so no match ever exceeds ``MAX_EVENTS``. Random play stays far below it.
- Moves: every move first passes ``core.guard_move`` (bounds in
  ``core.MOVE_BOUNDS``) with the allow-list of keys ``_MOVE_KEYS``; a colour is
  exactly one of the side's colour letters.
- Resigning (docs/engine-contract.md "Resigning (every game)"): ``{"type": "resign"}``
  records ``seat_resigned``; the seat keeps its hand, turns, calls and
  challenges. When one seat is left not resigned, ``match_ended`` (``reason:
  "resigned"``) follows at once with the scores as they stand; every ranking
  (target, event limit, resignation) goes through
  ``core.rank_with_resignations``. The view lists ``resigned`` (in order).

Events (past participles): match_started, round_dealt, starter_reshuffled,
color_named, card_played, direction_reversed, turn_skipped, everyone_skipped,
table_flipped, card_drawn (a turn's voluntary draw), cards_drawn (forced
draws), discards_reshuffled, turn_passed, challenged, accepted, uno_called,
uno_caught, round_scored, seat_resigned, match_ended.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from engine import core
from engine.core import IllegalMove
from engine.protocol import SHARED_EVENTS, ScoreOrder, SearchableGame

if TYPE_CHECKING:
    from random import Random

# --------------------------------------------------------------------------
# The shape of the game, as data
# --------------------------------------------------------------------------

NAME = "uno_flip"
#: The version of these rules as recorded in ``match_started``: bump it with any change that
#: alters events, and keep replaying the older versions (``engine.verify`` names the one a record needs).
RULES_VERSION = 1
MIN_SEATS = 2
MAX_SEATS = 10
HAND_SIZE = 7
MAX_EVENTS = 50_000

#: Every event this game emits and its keys (``engine.protocol``'s vocabulary; ``key?``: may be absent or redacted).
EVENTS = {
    "match_started": {"seats": "int", "options": "options", "seed?": "str", "rules_version": "int",
                      "deck_version": "str"},
    "round_dealt": {"round": "int", "dealer": "int", "seats": "int", "deck?": "[str]", "hand?": "[str]",
                    "starter?": "str"},
    "starter_reshuffled": {"card": "str", "pile?": "[str]", "starter?": "str"},
    "discards_reshuffled": {"pile?": "[str]", "count?": "int"},
    "card_played": {"seat": "int", "card": "str", "face": "str", "color?": "str", "call?": "bool"},
    "card_drawn": {"seat": "int", "card?": "str", "back": "str"},
    "cards_drawn": {"seat": "int", "cards?": "[str]", "count?": "int", "backs": "[str]", "cause": "str"},
    "turn_passed": {"seat": "int"},
    "turn_skipped": {"seat": "int", "turn": "int"},
    "everyone_skipped": {"seat": "int", "turn": "int"},
    "direction_reversed": {"seat?": "int", "direction": "int", "turn": "int"},
    "table_flipped": {"seat": "int", "side": "str", "top": "str", "color": "str", "draw_back": "str|null"},
    "color_named": {"seat": "int", "color": "str"},
    "uno_called": {"seat": "int"},
    "uno_caught": {"seat": "int", "target": "int"},
    "accepted": {"seat": "int", "target": "int"},
    "challenged": {"seat": "int", "target": "int", "guilty": "bool", "hand?": "[str]"},
    "round_scored": {"seat": "int", "round": "int", "side": "str", "points": "[int]", "gained": "int",
                     "scores": "[int]", "hands": "[[str]]"},
    "match_ended": {"ranking": "[[int]]", "scores": "[int]", "reason?": "str"},
    **SHARED_EVENTS,
}
#: The bounds of the ``target`` option: the standard 500 and short or long club
#: matches, never a target that would keep a match (and its bots) going for ever.
MIN_TARGET, MAX_TARGET = 1, 10_000
MOVE_EVENT_BOUND = 16                        # the most events one move can cause
EVENT_LIMIT = MAX_EVENTS - MOVE_EVENT_BOUND - 1
OPTIONS = {"target": (500, core.int_between(MIN_TARGET, MAX_TARGET))}
MATCH_FORMAT = core.FirstToTarget             # with the option ``target`` (F16)

LIGHT, DARK = 0, 1
SIDE_NAMES = ("light", "dark")
COLOURS = ("RYGB", "PTOV")                    # per side, in naming order

# F2/F3: the faces of each side. Numbers 1-9 (no zeros), then the actions.
LIGHT_KINDS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "+1", "rev", "skip", "flip")
DARK_KINDS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "+5", "rev", "skipall", "flip")
LIGHT_WILDS = ("W", "W+2")
DARK_WILDS = ("DW", "DW+C")

# F15: points by the side in play.
ACTION_POINTS = {
    "+1": 10, "rev": 20, "skip": 20, "flip": 20, "W": 40, "W+2": 50,
    "+5": 20, "skipall": 30, "DW": 40, "DW+C": 60,
}

# F4: which light face is printed on the back of which dark face. Version 1,
# 112 physical cards in canonical order (the light faces in canonical order:
# R Y G B, each 1-9 twice, then +1 rev skip flip twice; then 4 W, 4 W+2).
DECK_VERSION = "1"
PAIRING_V1 = """
    R1/O8 R1/P3 R2/V7 R2/Pflip R3/T9 R3/Vflip R4/DW R4/O3
    R5/Oflip R5/Oskipall R6/V3 R6/P1 R7/T4 R7/P+5 R8/O9 R8/P7
    R9/Vskipall R9/Trev R+1/V6 R+1/Pskipall Rrev/DW Rrev/DW Rskip/P8 Rskip/V8
    Rflip/V1 Rflip/O4 Y1/T5 Y1/O3 Y2/T5 Y2/O6 Y3/Trev Y3/V3
    Y4/Vskipall Y4/P6 Y5/Orev Y5/Tskipall Y6/DW+C Y6/V9 Y7/T2 Y7/Pskipall
    Y8/O5 Y8/Tflip Y9/T4 Y9/Vflip Y+1/O5 Y+1/T1 Yrev/V6 Yrev/P1
    Yskip/Vrev Yskip/Pflip Yflip/P8 Yflip/Oskipall G1/DW+C G1/V+5 G2/T6 G2/O7
    G3/T+5 G3/T3 G4/P+5 G4/V1 G5/O9 G5/T7 G6/T8 G6/T2
    G7/O+5 G7/T+5 G8/O1 G8/P2 G9/O8 G9/T6 G+1/V5 G+1/O1
    Grev/T3 Grev/Oflip Gskip/P7 Gskip/P9 Gflip/T1 Gflip/Tflip B1/V9 B1/P3
    B2/T8 B2/P4 B3/V8 B3/O+5 B4/Prev B4/V5 B5/O6 B5/V2
    B6/O7 B6/DW B7/T7 B7/P2 B8/O2 B8/O4 B9/Vrev B9/V4
    B+1/P6 B+1/DW+C Brev/O2 Brev/V4 Bskip/Tskipall Bskip/P4 Bflip/DW+C Bflip/P9
    W/V2 W/Prev W/P5 W/P5 W+2/V7 W+2/T9 W+2/V+5 W+2/Orev
"""
PAIRINGS = {"1": tuple(PAIRING_V1.split())}
CARDS: tuple[str, ...] = PAIRINGS[DECK_VERSION]


class Face(NamedTuple):
    """One printed face: its colour (None for a Wild), its kind and its points."""
    code: str
    side: int
    colour: str | None
    kind: str          # "7", "+1", "rev", "skip", "skipall", "flip", "+5", or the Wild's code
    points: int

    @property
    def wild(self) -> bool:
        return self.colour is None


def _faces() -> tuple[dict[str, Face], list[str], list[str]]:
    table: dict[str, Face] = {}
    orders = []
    for side, kinds, wilds in ((LIGHT, LIGHT_KINDS, LIGHT_WILDS), (DARK, DARK_KINDS, DARK_WILDS)):
        order = []
        for colour in COLOURS[side]:
            for kind in kinds:
                code = colour + kind
                table[code] = Face(code, side, colour, kind, int(kind) if kind.isdigit() else ACTION_POINTS[kind])
                order += [code, code]
        for wild in wilds:
            table[wild] = Face(wild, side, None, wild, ACTION_POINTS[wild])
            order += [wild] * 4
        orders.append(order)
    return table, orders[0], orders[1]


FACES, LIGHT_FACES, DARK_FACES = _faces()
FACE_ORDER = {code: i for i, code in enumerate(dict.fromkeys(LIGHT_FACES + DARK_FACES))}
SIDES_OF: dict[str, tuple[str, str]] = {card: tuple(card.split("/")) for card in CARDS}  # type: ignore[misc]
# Per side: a physical card's active Face, its back (inactive face code) and sort keys for views.
FACE_ON = tuple({card: FACES[faces[side]] for card, faces in SIDES_OF.items()} for side in (LIGHT, DARK))
BACK_ON = tuple({card: faces[1 - side] for card, faces in SIDES_OF.items()} for side in (LIGHT, DARK))
HAND_KEY = tuple({card: (FACE_ORDER[faces[side]], FACE_ORDER[faces[1 - side]]) for card, faces in SIDES_OF.items()}
                 for side in (LIGHT, DARK))


def active(card: str, side: int) -> str:
    """The face of a physical card that is in play on ``side``."""
    return SIDES_OF[card][side]


def inactive(card: str, side: int) -> str:
    """The other face: the one everyone else sees."""
    return SIDES_OF[card][1 - side]


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

@dataclass
class State:
    """The whole table. Never mutated: ``apply`` builds a new one.

    ``draw`` lists the draw pile top first; ``discard`` bottom first (its top
    is the last item). ``phase``: "color" (the starter Wild awaits a colour),
    "play", "drawn" (after a turn's draw), "challenge" (a Wild Draw Two / Draw
    Color awaits challenge or acceptance), "scored" (between rounds, inside one
    move) or "over". ``pending`` is ``(player, face, colour before the play,
    the player's hand after the play)``; ``shown`` is ``(challenger, cards)``;
    ``window`` is the seat whose UNO window is open; ``revealed`` are the cards
    everyone saw at the last round's end until the next round's first move.
    """
    seats: int
    options: dict[str, Any]
    seed: str
    version: str
    counter: int = 0
    n_events: int = 0
    round: int = 0
    dealer: int = 0
    side: int = LIGHT
    hands: tuple[tuple[str, ...], ...] = ()
    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    color: str | None = None
    direction: int = 1
    turn: int | None = None
    phase: str = "play"
    drawn: str | None = None
    pending: tuple[Any, ...] | None = None
    called: tuple[bool, ...] = ()
    window: int | None = None
    shown: tuple[Any, ...] | None = None
    scores: tuple[int, ...] = ()
    revealed: tuple[Any, ...] = ()
    resigned: tuple[int, ...] = ()          # seats, in the order they resigned


# --------------------------------------------------------------------------
# The rules, one small function each
# --------------------------------------------------------------------------

def seat_count_is_allowed(seats: int) -> None:
    """F1. 2–10 seats. 112 double-faced cards."""
    core.check_seats(seats, MIN_SEATS, MAX_SEATS, NAME)


def light_faces() -> list[str]:
    """F2. Light faces: colours red, yellow, green, blue; per colour two each of 1–9, two Draw One,
    two Reverse, two Skip, two Flip; plus four Wild and four Wild Draw Two. No zeros."""
    return list(LIGHT_FACES)


def dark_faces() -> list[str]:
    """F3. Dark faces: colours pink, teal, orange, purple; per colour two each of 1–9, two Draw Five,
    two Reverse, two Skip Everyone, two Flip; plus four Wild and four Wild Draw Color."""
    return list(DARK_FACES)


def pairing_table(version: str = DECK_VERSION) -> tuple[str, ...]:
    """F4. Which light face is printed on the back of which dark face is fixed by our deck
    definition; it never changes between matches of the same ruleset version."""
    return PAIRINGS[version]


def check_pairing(cards: tuple[str, ...]) -> None:
    """F4. Every light face of F2 is printed on the back of exactly one dark face of F3."""
    if (Counter(SIDES_OF[c][LIGHT] for c in cards) != Counter(light_faces())
            or Counter(SIDES_OF[c][DARK] for c in cards) != Counter(dark_faces())):
        raise ValueError("the pairing table does not pair the faces of F2 with those of F3")


check_pairing(CARDS)


def dealer_of_round(round_no: int, seats: int) -> int:
    """F5. The player left of the dealer starts; the dealer moves one seat clockwise every round."""
    return (round_no - 1) % seats


def starter_must_be_replaced(face: str) -> bool:
    """F6. Wild Draw Two: returned to the pile, reshuffled, another card turned. Flip: the same."""
    return FACES[face].kind in ("W+2", "flip")


def card_matches(face: str, top: str, colour: str | None) -> bool:
    """F7. A player plays one card matching the top of the discard pile (active faces) by number,
    colour or symbol. F8. A Wild is playable at any time."""
    f, t = FACES[face], FACES[top]
    return f.wild or f.colour == colour or (not t.wild and f.kind == t.kind)


def draw_is_possible(state: State) -> bool:
    """F7/F13. If nothing can be drawn (no draw pile, no discards below the top), nobody draws."""
    return bool(state.draw) or len(state.discard) > 1


def wild_draw_is_fair(hand: tuple[str, ...], prior_colour: str | None, side: int) -> bool:
    """F8/F10. Fair only when, apart from the card played, the hand holds no card whose active face
    has the colour in force before the play (Wilds do not count; a matching number or action is allowed)."""
    return not any(FACES[active(c, side)].colour == prior_colour for c in hand)


def flip_turns_over(discard: tuple[str, ...], draw: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """F9. The discard pile is turned over as a stack (the Flip just played goes to the bottom; the old
    bottom card's other face is the new top), the draw pile is turned over as a stack (its old bottom
    card becomes the top), and every hand is turned."""
    return tuple(reversed(discard)), tuple(reversed(draw))


def reverse_acts_as_skip(seats: int) -> bool:
    """F8. Reverse: direction changes; with 2 seats it acts only as a Skip and the direction stays."""
    return seats == 2


def draw_count(kind: str) -> int:
    """F8/F10. Draw One: next draws 1. Draw Five: next draws 5. Wild Draw Two: next draws 2."""
    return {"+1": 1, "+5": 5, "W+2": 2}[kind]


def colour_left_to_draw(state: State, colour: str) -> bool:
    """F11. Drawing until a colour stops when no card of that colour is left to draw."""
    side = state.side
    return any(FACES[active(c, side)].colour == colour for c in state.draw + state.discard[:-1])


def challenge_penalty(kind: str) -> tuple[int, int]:
    """F11. Innocent: the challenger draws 4 (Wild Draw Two) or until the named colour plus 2 more
    (Wild Draw Color). Returns (cards, extra after the colour)."""
    return (4, 0) if kind == "W+2" else (0, 2)


def uno_penalty() -> int:
    """F12. UNO call: exactly as LIVOL's L10, except that the caught seat draws 2."""
    return 2


def card_points(face: str) -> int:
    """F15. Points by the side that is active at the end."""
    return FACES[face].points


def match_is_won(scores: tuple[int, ...], target: int) -> bool:
    """F16. The first seat to reach 500 (a club option) wins the match."""
    return MATCH_FORMAT(target).is_over(scores)


def ranking(scores: tuple[int, ...], target: int, resigned: tuple[int, ...] = ()) -> list[list[int]]:
    """F16. The others rank by points, most first, equal points sharing a place.
    docs/engine-contract.md "Resigning": resigned seats rank below all others, the latest to resign best
    among them."""
    return core.rank_with_resignations(MATCH_FORMAT(target).ranking(scores), resigned)


def resigning_ends_match(seats: int, resigned: tuple[int, ...]) -> bool:
    """docs/engine-contract.md: when resigning leaves one seat not resigned, the match ends at once with it first."""
    return core.last_standing(range(seats), resigned)


# --------------------------------------------------------------------------
# apply: trusts the event, never validates, never draws random numbers.
# Each ``_a_<event>`` returns the fields the event changes; ``_apply`` builds
# the new state from the old one's fields and those changes.
# --------------------------------------------------------------------------

def _next(state: State, seat: int, direction: int | None = None) -> int:
    return core.next_seat(seat, state.seats, state.direction if direction is None else direction)


def _with_hand(state: State, seat: int, hand: tuple[str, ...]) -> dict[str, Any]:
    """The fields that change with one hand; a call lapses at more than one card (F12)."""
    hands = list(state.hands)
    hands[seat] = hand
    called = list(state.called)
    called[seat] = called[seat] and len(hand) == 1
    return {"hands": tuple(hands), "called": tuple(called)}


def _remove_one(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _starter_fields(starter: str) -> dict[str, Any]:
    face = FACES[active(starter, LIGHT)]
    return {"color": face.colour, "phase": "color" if face.wild else "play"}


def _clear_shown(state: State, seat: int) -> tuple[Any, ...] | None:
    return None if state.shown is not None and state.shown[0] == seat else state.shown


def _a_match_started(s: State | None, e: dict[str, Any]) -> State:
    n = e["seats"]
    return State(seats=n, options=dict(e["options"]), seed=e["seed"], version=e["deck_version"],
                 hands=((),) * n, called=(False,) * n, scores=(0,) * n)


def _a_round_dealt(s: State, e: dict[str, Any]) -> dict[str, Any]:
    deck, n = e["deck"], s.seats
    hands = tuple(tuple(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(n))
    starter = deck[n * HAND_SIZE]
    return dict(counter=s.counter + 1, round=e["round"], dealer=e["dealer"], side=LIGHT, hands=hands,
                draw=tuple(deck[n * HAND_SIZE + 1:]), discard=(starter,), direction=1,
                turn=(e["dealer"] + 1) % n, drawn=None, pending=None, called=(False,) * n, window=None,
                shown=None, **_starter_fields(starter))


def _a_starter_reshuffled(s: State, e: dict[str, Any]) -> dict[str, Any]:
    pile = e["pile"]
    return dict(counter=s.counter + 1, discard=(pile[0],), draw=tuple(pile[1:]),
                revealed=s.revealed + (e["card"],), **_starter_fields(pile[0]))


def _a_color_named(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(color=e["color"], phase="play", window=None, shown=_clear_shown(s, e["seat"]))


def _a_card_played(s: State, e: dict[str, Any]) -> dict[str, Any]:
    seat, card = e["seat"], e["card"]
    hand = _remove_one(s.hands[seat], card)
    fields = _with_hand(s, seat, hand)
    if len(hand) == 1:
        called = list(fields["called"])
        called[seat] = bool(e.get("call"))
        fields["called"] = tuple(called)
    face = FACES[active(card, s.side)]
    challenge = face.kind in ("W+2", "DW+C") and hand
    return dict(discard=s.discard + (card,), color=e.get("color", face.colour),
                turn=_next(s, seat), phase="challenge" if challenge else "play", drawn=None,
                pending=(seat, face.code, s.color, hand) if challenge else None,
                window=seat if len(hand) == 1 else None, shown=_clear_shown(s, seat), **fields)


def _a_direction_reversed(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(direction=e["direction"], turn=e["turn"])


def _a_turn_moved(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(turn=e["turn"])


def _a_table_flipped(s: State, e: dict[str, Any]) -> dict[str, Any]:
    discard, draw = flip_turns_over(s.discard, s.draw)
    return dict(side=SIDE_NAMES.index(e["side"]), discard=discard, draw=draw, color=e["color"])


def _a_card_drawn(s: State, e: dict[str, Any]) -> dict[str, Any]:
    seat = e["seat"]
    fields = _with_hand(s, seat, s.hands[seat] + (e["card"],))
    return dict(draw=s.draw[1:], phase="drawn", drawn=e["card"], window=None,
                shown=_clear_shown(s, seat), **fields)


def _a_cards_drawn(s: State, e: dict[str, Any]) -> dict[str, Any]:
    seat, cards = e["seat"], tuple(e["cards"])
    return dict(draw=s.draw[len(cards):], **_with_hand(s, seat, s.hands[seat] + cards))


def _a_discards_reshuffled(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(counter=s.counter + 1, draw=s.draw + tuple(e["pile"]), discard=s.discard[-1:])


def _a_turn_passed(s: State, e: dict[str, Any]) -> dict[str, Any]:
    seat = e["seat"]
    return dict(turn=_next(s, seat), phase="play", drawn=None, window=None, shown=_clear_shown(s, seat))


def _a_challenged(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(phase="play", pending=None, window=None, shown=(e["seat"], tuple(e["hand"])))


def _a_accepted(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(phase="play", pending=None, window=None, shown=_clear_shown(s, e["seat"]))


def _a_uno_called(s: State, e: dict[str, Any]) -> dict[str, Any]:
    called = list(s.called)
    called[e["seat"]] = True
    return dict(called=tuple(called))


def _a_uno_caught(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(window=None)


def _a_round_scored(s: State, e: dict[str, Any]) -> dict[str, Any]:
    everything = tuple(c for hand in s.hands for c in hand) + s.discard[-1:]
    return dict(scores=tuple(e["scores"]), phase="scored", turn=None, revealed=everything)


def _a_seat_resigned(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(resigned=s.resigned + (e["seat"],))


def _a_match_ended(s: State, e: dict[str, Any]) -> dict[str, Any]:
    return dict(scores=tuple(e["scores"]), phase="over", turn=None, pending=None, shown=None, window=None)


_APPLY = {
    "round_dealt": _a_round_dealt,
    "starter_reshuffled": _a_starter_reshuffled,
    "color_named": _a_color_named,
    "card_played": _a_card_played,
    "direction_reversed": _a_direction_reversed,
    "turn_skipped": _a_turn_moved,
    "everyone_skipped": _a_turn_moved,
    "table_flipped": _a_table_flipped,
    "card_drawn": _a_card_drawn,
    "cards_drawn": _a_cards_drawn,
    "discards_reshuffled": _a_discards_reshuffled,
    "turn_passed": _a_turn_passed,
    "challenged": _a_challenged,
    "accepted": _a_accepted,
    "uno_called": _a_uno_called,
    "uno_caught": _a_uno_caught,
    "round_scored": _a_round_scored,
    "seat_resigned": _a_seat_resigned,
    "match_ended": _a_match_ended,
}
# Events that record a seat's own move: the first of a round ends the round-end reveal.
_MOVE_EVENTS = frozenset({"card_played", "card_drawn", "turn_passed", "color_named", "challenged",
                          "accepted", "uno_called", "uno_caught"})


def _apply(state: State | None, event: dict[str, Any]) -> State:
    """One event on a state: a new state built from the old one's fields and the event's changes."""
    if state is None:
        return replace(_a_match_started(None, event), n_events=1)
    kind = event["type"]
    fields = dict(state.__dict__)
    fields.update(_APPLY[kind](state, event))
    fields["n_events"] = state.n_events + 1
    if kind in _MOVE_EVENTS and state.revealed:
        fields["revealed"] = ()
    new = object.__new__(State)
    new.__dict__ = fields
    return new


# --------------------------------------------------------------------------
# play: validates, then records events through a scratch state
# --------------------------------------------------------------------------

class _Batch:
    """The events of one call, applied to a scratch state as they are recorded."""

    def __init__(self, state: State | None):
        self.state: State = state  # type: ignore[assignment]  # None only until start's first event
        self.events: list[dict[str, Any]] = []

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.state = _apply(self.state, event)


def _reshuffle_discards(b: _Batch) -> bool:
    """F13. When a card must be drawn and the draw pile is empty, the discards but the top card are
    shuffled into a new draw pile; the side in play does not change."""
    s = b.state
    if len(s.discard) <= 1:
        return False
    b.emit({"type": "discards_reshuffled", "pile": core.shuffled(s.seed, s.counter, s.discard[:-1])})
    return True


def _draw(b: _Batch, seat: int, cause: str, count: int = 0, until: str | None = None) -> None:
    """Forced draws: ``count`` cards, or (with ``until``) until a card whose active face has that colour
    appears and then ``count`` more. F13: a forced draw takes what remains; the rest is forgiven."""
    taken: list[str] = []

    def flush() -> None:
        if taken:
            side = b.state.side
            b.emit({"type": "cards_drawn", "seat": seat, "cards": list(taken), "cause": cause,
                    "backs": [inactive(c, side) for c in taken]})
            taken.clear()

    def take() -> str | None:
        if len(taken) >= len(b.state.draw):
            flush()
            if not _reshuffle_discards(b):
                return None
        card = b.state.draw[len(taken)]
        taken.append(card)
        return card

    if until is not None and colour_left_to_draw(b.state, until):
        while True:
            card = take()
            if card is None or FACES[active(card, b.state.side)].colour == until:
                break
    for _ in range(count):
        if take() is None:
            break
    flush()


def _deal(b: _Batch, round_no: int, deck: list[str] | None = None) -> None:
    """F5. Shuffle, deal 7 to each seat; turn the top card light side up to start the discard pile."""
    s = b.state
    if deck is None:
        deck = core.shuffled(s.seed, s.counter, CARDS)
    b.emit({"type": "round_dealt", "round": round_no, "dealer": dealer_of_round(round_no, s.seats),
            "seats": s.seats, "deck": list(deck)})
    _start_card(b)


def _start_card(b: _Batch) -> None:
    """F6. Start card: Draw One: the first player draws 1 and loses the turn. Reverse: the dealer starts
    and play goes the other way (with 2 seats: the dealer starts and the direction stays). Skip: the first
    player is skipped. Wild: the first player names the colour, then takes the turn."""
    s = b.state
    starter = s.discard[-1]
    if starter_must_be_replaced(active(starter, LIGHT)):
        rng = core.SeededRandom(s.seed, s.counter)
        pile = list(s.draw) + [starter]
        while True:
            pile = rng.shuffled(pile)
            if not starter_must_be_replaced(active(pile[0], LIGHT)):
                break
        b.emit({"type": "starter_reshuffled", "card": starter, "pile": pile})
        s = b.state
    kind = FACES[active(s.discard[-1], LIGHT)].kind
    first = s.turn
    if kind == "+1":
        _draw(b, first, "draw_one", 1)  # type: ignore[arg-type]
        b.emit({"type": "turn_skipped", "seat": first, "turn": _next(s, first)})  # type: ignore[arg-type]
    elif kind == "skip" or (kind == "rev" and reverse_acts_as_skip(s.seats)):
        b.emit({"type": "turn_skipped", "seat": first, "turn": _next(s, first)})  # type: ignore[arg-type]
    elif kind == "rev":
        b.emit({"type": "direction_reversed", "direction": -1, "turn": s.dealer})


def _card_effect(b: _Batch, seat: int, face: Face, flip_colour: str | None) -> None:
    """F8/F9/F10/F14: what a played card does; after the last card only its pending draws."""
    s = b.state
    last = not s.hands[seat]
    victim = _next(s, seat)
    kind = face.kind
    if kind in ("+1", "+5"):
        _draw(b, victim, "draw_one" if kind == "+1" else "draw_five", draw_count(kind))
        if not last:
            b.emit({"type": "turn_skipped", "seat": victim, "turn": _next(s, victim)})
    elif kind in ("W+2", "DW+C"):
        if last:  # F14: a final Wild Draw Two or Wild Draw Color cannot be challenged
            if kind == "W+2":
                _draw(b, victim, "wild_draw_two", 2)
            else:
                _draw(b, victim, "wild_draw_color", until=s.color)
    elif last:
        pass
    elif kind == "skip" or (kind == "rev" and reverse_acts_as_skip(s.seats)):
        b.emit({"type": "turn_skipped", "seat": victim, "turn": _next(s, victim)})
    elif kind == "rev":
        b.emit({"type": "direction_reversed", "seat": seat, "direction": -s.direction,
                "turn": _next(s, seat, -s.direction)})
    elif kind == "skipall":
        skip_everyone(b, seat)
    elif kind == "flip":
        flip_the_table(b, seat, flip_colour)
    if last:
        _end_round(b, seat)


def skip_everyone(b: _Batch, seat: int) -> None:
    """F10. Skip Everyone: all other players lose their turn; the same player plays again."""
    b.emit({"type": "everyone_skipped", "seat": seat, "turn": seat})


def flip_the_table(b: _Batch, seat: int, colour: str | None) -> None:
    """F9. From then on the other faces are active. If the new top of the discard pile is a Wild, the
    player who played the Flip names the colour. A face that becomes the top by a flip has no action effect."""
    s = b.state
    side = 1 - s.side
    discard, draw = flip_turns_over(s.discard, s.draw)
    top = FACES[active(discard[-1], side)]
    b.emit({"type": "table_flipped", "seat": seat, "side": SIDE_NAMES[side], "top": top.code,
            "color": colour if top.wild else top.colour,
            "draw_back": inactive(draw[0], side) if draw else None})


def _flip_turns_up_wild(s: State) -> bool:
    """Whether a Flip played now (not as the last card) would turn up a Wild: the old bottom's other face."""
    return FACES[inactive(s.discard[0], s.side)].wild


def _end_round(b: _Batch, winner: int) -> None:
    """F16. The round's winner scores the points of the cards in all other hands."""
    s = b.state
    points = [sum(card_points(active(c, s.side)) for c in hand) for hand in s.hands]
    scores = list(s.scores)
    scores[winner] += sum(points)
    b.emit({"type": "round_scored", "seat": winner, "round": s.round, "side": SIDE_NAMES[s.side],
            "points": points, "gained": sum(points), "scores": scores,
            "hands": [list(h) for h in s.hands]})
    target = s.options["target"]
    if match_is_won(tuple(scores), target):
        b.emit({"type": "match_ended", "reason": "target", "scores": scores,
                "ranking": ranking(tuple(scores), target, s.resigned)})
    else:
        _deal(b, s.round + 1)


# ---- move parsing ---------------------------------------------------------

_MOVE_KEYS = {
    "play": frozenset({"type", "card", "color", "call"}),
    "draw": frozenset({"type"}), "pass": frozenset({"type"}), "color": frozenset({"type", "color"}),
    "call": frozenset({"type"}), "catch": frozenset({"type", "target"}), "challenge": frozenset({"type"}),
    "accept": frozenset({"type"}), core.RESIGN: core.RESIGN_KEYS,
}
_COLOUR_SET = tuple(frozenset(colours) for colours in COLOURS)   # one letter each, per side


def _malformed(message: str) -> IllegalMove:
    return IllegalMove("malformed_move", message)


def _resolve_card(s: State, seat: int, code: Any) -> str:
    """The physical card a move names: an active face or a ``light/dark`` code (F7, F4)."""
    if not isinstance(code, str):
        raise _malformed("card must be a card code")
    hand = s.hands[seat]
    if "/" in code:
        if code not in SIDES_OF:
            raise IllegalMove("unknown_card", f"no such card {core.short(code)}", "F4")
        if code not in hand:
            raise IllegalMove("card_not_in_hand", f"seat {seat} holds no {code}", "F7")
        return code
    if code not in FACES:
        raise IllegalMove("unknown_card", f"no such card {core.short(code)}", "F4")
    held = {c for c in hand if active(c, s.side) == code}
    if not held:
        raise IllegalMove("card_not_in_hand", f"seat {seat} holds no {code} on the {SIDE_NAMES[s.side]} side", "F7")
    if len(held) > 1:
        raise IllegalMove("ambiguous_card", f"seat {seat} holds {', '.join(sorted(held))}: name the card "
                          "as light/dark", "F4")
    return held.pop()


def _require_turn(s: State, seat: int, what: str) -> None:
    if s.turn != seat:
        raise IllegalMove("not_your_turn", f"seat {seat} cannot {what}: it is seat {s.turn}'s turn", "F7")
    if s.phase == "color" and what != "name a colour":
        raise IllegalMove("must_name_color", f"seat {seat} must first name the colour of the Wild starter", "F6")
    if s.phase == "challenge" and what not in ("challenge", "accept"):
        raise IllegalMove("must_answer_challenge", f"seat {seat} must challenge or accept the wild draw", "F11")


def _move_play(b: _Batch, seat: int, move: dict[str, Any]) -> None:
    s = b.state
    _require_turn(s, seat, "play")
    call = move.get("call", False)
    if not isinstance(call, bool):
        raise _malformed("call must be true or false")
    card = _resolve_card(s, seat, move.get("card"))
    if s.phase == "drawn" and card != s.drawn:
        raise IllegalMove("only_drawn_card", f"after drawing, seat {seat} may play only {s.drawn} or pass", "F7")
    face = FACES[active(card, s.side)]
    top = active(s.discard[-1], s.side)
    if not card_matches(face.code, top, s.color):
        raise IllegalMove("card_does_not_match", f"{face.code} does not match {top} (colour {s.color})", "F7")
    last = len(s.hands[seat]) == 1
    colour = move.get("color")
    if face.wild:
        _check_colour(colour, s.side, "F8")
    elif face.kind == "flip" and not last and _flip_turns_up_wild(s):
        _check_colour(colour, 1 - s.side, "F9")
    elif colour is not None:
        raise IllegalMove("color_not_allowed", f"{face.code} names no colour", "F9" if face.kind == "flip" else "F8")
    event = {"type": "card_played", "seat": seat, "card": card, "face": face.code}
    if face.wild:
        event["color"] = colour
    if call and len(s.hands[seat]) == 2:
        event["call"] = True
    b.emit(event)
    _card_effect(b, seat, face, colour)


def _check_colour(colour: Any, side: int, rule: str) -> None:
    if colour is None:
        raise IllegalMove("color_required", "name a colour", rule)
    if not isinstance(colour, str):
        raise _malformed("a colour is one letter")
    if colour not in _COLOUR_SET[side]:
        raise IllegalMove("bad_color", f"{core.short(colour)} is not a colour of the {SIDE_NAMES[side]} side "
                          f"({', '.join(COLOURS[side])})", rule)


def _move_draw(b: _Batch, seat: int, move: dict[str, Any]) -> None:
    """F7. A player may also draw although holding a playable card; after drawing, the only moves are
    playing the drawn card (if it matches) or passing."""
    s = b.state
    _require_turn(s, seat, "draw")
    if s.phase == "drawn":
        raise IllegalMove("already_drawn", f"seat {seat} has drawn: play the drawn card or pass", "F7")
    if not draw_is_possible(s):
        raise IllegalMove("nothing_to_draw", "the draw pile and the discards below the top are empty", "F7")
    if not s.draw:
        _reshuffle_discards(b)
    card = b.state.draw[0]
    b.emit({"type": "card_drawn", "seat": seat, "card": card, "back": inactive(card, b.state.side)})


def _move_pass(b: _Batch, seat: int, move: dict[str, Any]) -> None:
    """F7. The turn never passes by itself. If nothing can be drawn, a player with no playable card passes."""
    s = b.state
    _require_turn(s, seat, "pass")
    if s.phase != "drawn" and (draw_is_possible(s) or _playable(s, seat)):
        raise IllegalMove("cannot_pass", f"seat {seat} must play or draw", "F7")
    b.emit({"type": "turn_passed", "seat": seat})


def _move_color(b: _Batch, seat: int, move: dict[str, Any]) -> None:
    """F6. Wild: the first player names the colour (a ``color`` move), then takes the turn."""
    s = b.state
    if s.phase != "color":
        raise IllegalMove("no_color_to_name", "only a Wild starter is given a colour by a color move", "F6")
    _require_turn(s, seat, "name a colour")
    _check_colour(move.get("color"), s.side, "F6")
    b.emit({"type": "color_named", "seat": seat, "color": move["color"]})


def _move_call(b: _Batch, seat: int, move: dict[str, Any]) -> None:
    """F12 (L10). A separate call is legal for a seat holding exactly one card that has not called."""
    if not _may_call(b.state, seat):
        raise IllegalMove("cannot_call", f"seat {seat} does not hold one uncalled card", "F12")
    b.emit({"type": "uno_called", "seat": seat})


def _move_catch(b: _Batch, seat: int, move: dict[str, Any]) -> None:
    """F12 (L10). Any other seat may catch a seat that holds one card and has not called, until the
    window closes; the caught seat draws 2."""
    s = b.state
    target = move.get("target")
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < s.seats:
        raise _malformed("target must be a seat number")
    if not _catchable(s, seat, target):
        raise IllegalMove("nothing_to_catch", f"seat {target} cannot be caught now", "F12")
    b.emit({"type": "uno_caught", "seat": seat, "target": target})
    _draw(b, target, "caught", uno_penalty())


def _move_answer(b: _Batch, seat: int, move: dict[str, Any]) -> None:
    """F11. Challenge of Wild Draw Two or Wild Draw Color, by the next player only; the challenger is
    shown the challenged hand. Guilty: the player who played it draws instead, and the challenger then
    takes the turn under the named colour. Innocent: the challenger draws 4 or until the named colour
    plus 2 more, and loses the turn."""
    s = b.state
    if s.phase != "challenge":
        raise IllegalMove("nothing_to_challenge", "no wild draw awaits an answer", "F11")
    _require_turn(s, seat, move["type"])
    player, face, prior, hand = s.pending  # type: ignore[misc]
    kind = FACES[face].kind
    named = s.color
    if move["type"] == "accept":
        b.emit({"type": "accepted", "seat": seat, "target": player})
        _wild_draw(b, seat, kind, named)  # type: ignore[arg-type]
        b.emit({"type": "turn_skipped", "seat": seat, "turn": _next(s, seat)})
        return
    guilty = not wild_draw_is_fair(hand, prior, s.side)
    b.emit({"type": "challenged", "seat": seat, "target": player, "guilty": guilty, "hand": list(hand)})
    if guilty:
        _wild_draw(b, player, kind, named, cause="challenge")  # type: ignore[arg-type]
        return
    count, extra = challenge_penalty(kind)
    if kind == "W+2":
        _draw(b, seat, "challenge", count)
    else:
        _draw(b, seat, "challenge", extra, until=named)
    b.emit({"type": "turn_skipped", "seat": seat, "turn": _next(s, seat)})


def _wild_draw(b: _Batch, seat: int, kind: str, colour: str, cause: str | None = None) -> None:
    """F8/F10. Wild Draw Two: draws 2. Wild Draw Color: draws until a card whose active face has that
    colour appears (a Wild does not count)."""
    if kind == "W+2":
        _draw(b, seat, cause or "wild_draw_two", draw_count(kind))
    else:
        _draw(b, seat, cause or "wild_draw_color", until=colour)


def _move_resign(b: _Batch, seat: int, move: dict[str, Any]) -> None:
    """docs/engine-contract.md "Resigning": legal for any seat that has not resigned, in or out of turn; when it
    leaves one seat not resigned, the match ends at once with it first."""
    s = b.state
    core.may_resign(seat, s.seats, s.resigned)
    b.emit(core.seat_resigned(seat))
    s = b.state
    if resigning_ends_match(s.seats, s.resigned):
        scores = list(s.scores)
        b.emit({"type": "match_ended", "reason": "resigned", "scores": scores,
                "ranking": ranking(tuple(scores), s.options["target"], s.resigned)})


_MOVES = {
    "play": _move_play, "draw": _move_draw, "pass": _move_pass, "color": _move_color, "call": _move_call,
    "catch": _move_catch, "challenge": _move_answer, "accept": _move_answer, core.RESIGN: _move_resign,
}


# ---- what a seat may do -----------------------------------------------------

def _running(s: State) -> bool:
    return s.phase in ("color", "play", "drawn", "challenge")


def _may_call(s: State, seat: int) -> bool:
    return _running(s) and len(s.hands[seat]) == 1 and not s.called[seat]


def _catchable(s: State, seat: int, target: int) -> bool:
    """F12. The window closes when the seat whose turn comes next makes a turn move."""
    return (_running(s) and target != seat and s.window == target
            and len(s.hands[target]) == 1 and not s.called[target])


def _playable(s: State, seat: int) -> list[str]:
    """The distinct physical cards of the seat that may be played now (F7): after a draw, only the drawn one."""
    faces = FACE_ON[s.side]
    top = faces[s.discard[-1]]
    colour, kind = s.color, (None if top.wild else top.kind)
    cards = (s.drawn,) if s.phase == "drawn" else dict.fromkeys(s.hands[seat])
    return [c for c in cards if (f := faces[c]).colour is None or f.colour == colour or f.kind == kind]  # type: ignore[misc,index]


def _card_names(s: State, seat: int, cards: list[str]) -> dict[str, str]:
    """How a move names each of ``cards``: the bare active face, unless another held card shares it
    with another back; then the physical ``light/dark`` code (F4)."""
    faces = FACE_ON[s.side]
    wanted: dict[str, set[str]] = {faces[c].code: set() for c in cards}
    for card in s.hands[seat]:
        face = faces[card].code
        if face in wanted:
            wanted[face].add(card)
    return {c: (faces[c].code if len(wanted[faces[c].code]) == 1 else c) for c in cards}


# --------------------------------------------------------------------------
# The game object
# --------------------------------------------------------------------------

class UnoFlip(core.Game):
    name = NAME
    MIN_SEATS = MIN_SEATS
    MAX_SEATS = MAX_SEATS
    MAX_EVENTS = MAX_EVENTS

    def cards(self) -> list[str]:
        return list(pairing_table(DECK_VERSION))

    def start(self, seats: int, seed: str, options: dict[str, Any] | None = None, deck: list[str] | None = None) -> list[dict[str, Any]]:
        seat_count_is_allowed(seats)
        if not isinstance(seed, str):
            raise ValueError(f"{NAME}: the seed is a string")
        options = core.check_options(options, OPTIONS, NAME)
        deck = core.check_deck(deck, CARDS, NAME)
        b = _Batch(None)
        b.emit({"type": "match_started", "seats": seats, "options": options, "seed": seed,
                "deck_version": DECK_VERSION, "rules_version": RULES_VERSION})
        _deal(b, 1, deck)
        return b.events

    def apply(self, state: State | None, event: dict[str, Any]) -> State:
        return _apply(state, event)

    def play(self, state: State, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
        kind = core.guard_move(move, _MOVE_KEYS)
        if state.phase == "over":
            raise IllegalMove("match_over", "the match is over", "F16")
        if kind == core.RESIGN:
            core.may_resign(seat, state.seats, state.resigned)
        if not core.is_seat(seat, state.seats):
            raise IllegalMove("not_your_turn", f"there is no seat {core.short(seat)}", "F1")
        b = _Batch(state)
        _MOVES[kind](b, seat, move)
        if b.state.phase != "over" and b.state.n_events >= EVENT_LIMIT:
            scores = list(b.state.scores)
            b.emit({"type": "match_ended", "reason": "event_limit", "scores": scores,
                    "ranking": ranking(tuple(scores), state.options["target"], b.state.resigned)})
        return b.events

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        s = state
        if not _running(s) or not isinstance(seat, int) or not 0 <= seat < s.seats:
            return []
        moves: list[dict[str, Any]] = []
        if s.turn == seat:
            if s.phase == "color":
                moves += [{"type": "color", "color": c} for c in COLOURS[s.side]]
            elif s.phase == "challenge":
                moves += [{"type": "challenge"}, {"type": "accept"}]
            else:
                moves += self._card_moves(s, seat)
                if s.phase == "drawn":
                    moves.append({"type": "pass"})
                elif draw_is_possible(s):
                    moves.append({"type": "draw"})
                elif not moves:
                    moves.append({"type": "pass"})
        if _may_call(s, seat):
            moves.append({"type": "call"})
        moves += [{"type": "catch", "target": t} for t in range(s.seats) if _catchable(s, seat, t)]
        return moves

    @staticmethod
    def _card_moves(s: State, seat: int) -> list[dict[str, Any]]:
        moves = []
        hand = s.hands[seat]
        flags = (False, True) if len(hand) == 2 else (False,)
        playable = _playable(s, seat)
        names = _card_names(s, seat, playable)
        faces = FACE_ON[s.side]
        for card in playable:
            name = names[card]
            face = faces[card]
            colours: str | tuple[None]  # a side's colour letters, or no colour
            if face.wild:
                colours = COLOURS[s.side]
            elif face.kind == "flip" and len(hand) > 1 and _flip_turns_up_wild(s):
                colours = COLOURS[1 - s.side]
            else:
                colours = (None,)
            for call in flags:
                for colour in colours:
                    move: dict[str, Any] = {"type": "play", "card": name}
                    if colour is not None:
                        move["color"] = colour
                    if call:
                        move["call"] = True
                    moves.append(move)
        return moves

    @staticmethod
    def _to_act(s: State) -> list[int]:
        """The seat holding the turn (it always has a move), and those who may call or catch."""
        if not _running(s):
            return []
        catchable = s.window is not None and len(s.hands[s.window]) == 1 and not s.called[s.window]
        return [seat for seat in range(s.seats)
                if seat == s.turn or _may_call(s, seat) or (catchable and seat != s.window)]

    def to_act(self, state: State) -> list[int]:
        """The seats with a move now (``view(state, None)["to_act"]``), without building a view."""
        return self._to_act(state)

    def score_order(self, options: dict[str, Any] | None) -> ScoreOrder:
        """F15/F16: the round's winner scores the others' cards; most points win."""
        return "higher"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        s = state
        over = s.phase == "over"
        side = s.side
        own = seat is not None and 0 <= seat < s.seats

        sort_key = HAND_KEY[side].__getitem__
        back = BACK_ON[side]

        view = {
            "to_act": self._to_act(s),
            "turn": None if over else s.turn,
            "seats": s.seats,
            "over": over,
            "outcome": self.outcome(s),
            "hand": sorted(s.hands[seat], key=sort_key) if own else [],  # type: ignore[index]
            "top": active(s.discard[-1], side) if s.discard else None,
            "color": s.color,
            "hand_sizes": [len(h) for h in s.hands],
            "draw_size": len(s.draw),
            "discard_size": len(s.discard),
            "scores": list(s.scores),
            "round": s.round,
            "dealer": s.dealer,
            "direction": s.direction,
            "side": SIDE_NAMES[side],
            "backs": [sorted(map(back.__getitem__, h), key=FACE_ORDER.__getitem__) for h in s.hands],
            "draw_back": inactive(s.draw[0], side) if s.draw else None,
            "called": list(s.called),
            "resigned": list(s.resigned),
            "shown_hand": (sorted(s.shown[1], key=sort_key)
                           if own and not over and s.shown is not None and s.shown[0] == seat else None),
        }
        if over:
            view["hands"] = [sorted(h, key=sort_key) for h in s.hands]
        return view

    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        kind = event["type"]
        if kind == "match_started":
            return {k: v for k, v in event.items() if k != "seed"}
        if kind == "round_dealt":
            n, deck = event["seats"], event["deck"]
            out = {"type": kind, "round": event["round"], "dealer": event["dealer"], "seats": n,
                   "starter": deck[n * HAND_SIZE]}
            if seat is not None and 0 <= seat < n:
                out["hand"] = deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE]
            return out
        if kind == "starter_reshuffled":
            return {"type": kind, "card": event["card"], "starter": event["pile"][0]}
        if kind == "discards_reshuffled":
            return {"type": kind, "count": len(event["pile"])}
        if kind == "card_drawn" and seat != event["seat"]:
            return {k: v for k, v in event.items() if k != "card"}
        if kind == "cards_drawn" and seat != event["seat"]:
            out = {k: v for k, v in event.items() if k != "cards"}
            out["count"] = len(event["cards"])
            return out
        if kind == "challenged" and seat != event["seat"]:
            return {k: v for k, v in event.items() if k != "hand"}
        return event

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state is None or state.phase != "over":
            return None
        return {"ranking": ranking(state.scores, state.options["target"], state.resigned),
                "scores": list(state.scores)}

    # ---- protocol-test hooks ----------------------------------------------

    def all_cards(self, state: State) -> list[str]:
        return [c for h in state.hands for c in h] + list(state.draw) + list(state.discard)

    def hidden_cards(self, state: State, seat: int | None) -> list[str]:
        """The active faces of other seats' cards, both faces of the draw pile below its top and the
        top's active face; less what the seat was shown (a challenged hand, the last round's end)."""
        s = state
        if s.phase == "over":
            return []
        side = s.side
        hidden = Counter(active(c, side) for t, h in enumerate(s.hands) if t != seat for c in h)
        if s.draw:
            hidden[active(s.draw[0], side)] += 1
            for c in s.draw[1:]:
                hidden.update(SIDES_OF[c])
        seen = list(s.revealed)
        if seat is not None and s.shown is not None and s.shown[0] == seat:
            seen += s.shown[1]
        if seen:
            hidden -= Counter(f for c in seen for f in SIDES_OF[c])
        return list(hidden.elements())

    # ---- determinization (search bots: engine/bots/search.py) -----------------

    def sample_state(self, view: dict[str, Any], seat: int, rng: Random,  # noqa: C901 - one step per fact the seat has seen, each keeping the sample true to it
                     legal: list[dict[str, Any]] | None = None) -> State:
        """A full state consistent with ``seat``'s ``view``. Its own hand as shown (both
        faces); every other hand holds, for each inactive face the view shows in its
        ``backs``, a physical card with that back (F5: the backs are public, so they narrow
        down which cards a rival holds); the draw pile's top has the back ``draw_back``; the
        discard top is a card whose active face is ``top`` (its back chosen so that the
        backs above can still be served); a challenger's ``shown_hand`` stays with the
        player who was challenged; everything else (the draw pile below its top, the
        discards below the top) is shuffled from the cards left. Public fields are copied.

        The view does not say whether the seat is naming a starter's colour, answering a
        wild draw or holding a drawn card: ``legal`` (the seat's legal moves) tells the
        phase and the drawn card. Fields the view lacks are filled so that they do not
        change legal play: a dummy seed from ``rng``, counters at 0, in the ``challenge``
        phase the colour before the wild draw taken from the sampled card under the top."""
        n, side = view["seats"], SIDE_NAMES.index(view["side"])
        back = BACK_ON[side]
        hand = list(view["hand"])
        pool = Counter(CARDS)
        pool.subtract(hand)
        direction, turn = view["direction"], view["turn"]
        legal = legal or []
        kinds = {m["type"] for m in legal}
        phase = "play"
        if turn == seat:
            if "color" in kinds:
                phase = "color"
            elif kinds & {"challenge", "accept"}:
                phase = "challenge"
            elif "pass" in kinds and ("draw" in kinds or any(m["type"] == "play" for m in legal)
                                       or view["draw_size"] or view["discard_size"] > 1):
                phase = "drawn"
        # the demands on each back: every other seat's backs and the draw pile's top
        hands: list[list[str]] = [[] for _ in range(n)]
        hands[seat] = hand
        demand: Counter[str] = Counter()
        for s in range(n):
            if s != seat:
                demand.update(view["backs"][s])
        if view["draw_back"] is not None:
            demand[view["draw_back"]] += 1
        shown = view.get("shown_hand")
        player = (seat - direction) % n
        if shown and player != seat:
            wanted = Counter(back[c] for c in shown)
            if all(pool[c] >= k for c, k in Counter(shown).items()) and \
                    not wanted - Counter(view["backs"][player]):
                hands[player] = list(shown)
                pool.subtract(shown)
                demand.subtract(wanted)
        by_back: dict[str, list[str]] = {}
        for card in pool.elements():
            by_back.setdefault(back[card], []).append(card)
        # the discard top: its active face shows; a card whose back is not all spoken for
        top_face = view["top"]
        choices = [c for c, k in pool.items() if k > 0 and active(c, side) == top_face
                   for _ in range(k)]
        spare = [c for c in choices if len(by_back.get(back[c], ())) > demand[back[c]]]
        top = rng.choice(spare or choices) if (spare or choices) else None
        if top is not None:
            by_back[back[top]].remove(top)
        for cards in by_back.values():
            rng.shuffle(cards)
        for s in range(n):
            if s == seat:
                continue
            need = Counter(view["backs"][s]) - Counter(back[c] for c in hands[s])
            for face, k in need.items():
                for _ in range(k):
                    bucket = by_back.get(face)
                    if bucket:
                        hands[s].append(bucket.pop())
        draw_top = None
        if view["draw_back"] is not None and by_back.get(view["draw_back"]):
            draw_top = by_back[view["draw_back"]].pop()
        rest = [c for cards in by_back.values() for c in cards]
        rng.shuffle(rest)
        for s in range(n):   # an inconsistent view (never from the engine): fill the counts
            while len(hands[s]) < view["hand_sizes"][s] and rest:
                hands[s].append(rest.pop())
        below = view["discard_size"] - 1 if top is not None else view["discard_size"]
        # F9: a Flip in the seat's legal moves names a colour exactly when the discard pile's
        # bottom card shows a Wild on its other face: keep the bottom card true to that
        flip = next((m for m in legal if m["type"] == "play" and len(hand) != 1
                     and FACE_ON[side][_held(hand, m["card"], side)].kind == "flip"), None)
        if flip is not None and below > 0:
            wants_wild = "color" in flip
            if FACES[inactive(rest[0], side)].wild != wants_wild:
                k = next((i for i, c in enumerate(rest) if FACES[inactive(c, side)].wild == wants_wild), None)  # type: ignore[assignment]
                if k is not None:
                    rest[0], rest[k] = rest[k], rest[0]
        discard = tuple(rest[:below]) + ((top,) if top is not None else ())
        rest = rest[below:]
        draw = tuple(([draw_top] if draw_top is not None else []) + rest)
        drawn = pending = None
        if phase == "drawn":
            named = next((m["card"] for m in legal if m["type"] == "play"), None)
            if named is not None and "/" not in named:
                named = next((c for c in hand if active(c, side) == named), None)
            if named is None:   # the drawn card does not fit: one of the cards that do not
                faces, top_now = FACE_ON[side], FACE_ON[side][discard[-1]] if discard else None
                misfits = [c for c in hand if top_now is not None and not card_matches(
                    faces[c].code, top_now.code, view["color"])]
                named = misfits[-1] if misfits else (hand[-1] if hand else None)
            drawn = named
        if phase == "challenge":
            before = discard[-2] if len(discard) > 1 else discard[-1]
            colour = FACE_ON[side][before].colour or rng.choice(COLOURS[side])
            wild = (turn - direction) % n
            pending = (wild, top_face, colour, tuple(hands[wild]))
        # the seat whose UNO window is open: a catch on offer names it; else it is the seat
        # holding one uncalled card while every other seat may act (F12, ``to_act``)
        window = next((m["target"] for m in legal if m["type"] == "catch"), None)
        if window is None:
            acting = set(view["to_act"])
            window = next((t for t in range(n) if view["hand_sizes"][t] == 1 and not view["called"][t]
                           and acting >= set(range(n)) - {t}), None)
        return State(
            seats=n, options=dict(view.get("options") or {"target": 500}),
            seed=f"search-{rng.getrandbits(64):016x}", version=DECK_VERSION, counter=0, n_events=0,
            round=view["round"], dealer=view["dealer"], side=side, hands=tuple(tuple(h) for h in hands),
            draw=draw, discard=discard, color=view["color"], direction=direction, turn=turn, phase=phase,
            drawn=drawn, pending=pending, called=tuple(view["called"]), window=window,
            shown=(seat, tuple(shown)) if shown else None, scores=tuple(view["scores"]), revealed=(),
            resigned=tuple(view["resigned"]))


def _held(hand: list[str], name: str, side: int) -> str:
    """The physical card of ``hand`` that a move names (a ``light/dark`` code, or an active face)."""
    if "/" in name:
        return name
    return next(c for c in hand if active(c, side) == name)


#: The registry name (docs/engine-contract.md "Module attributes") and the game object the registry hands out.
GAME = "uno_flip"
game: SearchableGame = UnoFlip()  # checked against the engine contract (engine.protocol)
