"""LIVOL — an UNO-style shedding game for 2–6 seats (rules: tests/fixtures/rules/livol.md, L1–L16).

Shape: 108 cards (L1), 7 cards a hand, the match runs round after round to a
target (500 by default) with the dealer rotating clockwise (L2); the next round
is dealt by ``play`` itself, shuffled from the seed.

Moves (docs/engine-contract.md): ``play`` (``card``, ``color`` for W and W+4, optional
``"call": true``), ``draw``, ``color``, ``call``, ``catch`` (``target``),
``challenge``, ``accept``.

Events (``seat`` is the seat that caused them):
``match_started`` (seats, options, seed) · ``round_dealt`` (round, dealer, deck) ·
``starter_reshuffled`` (a Wild +4 starter went back: size, pile) ·
``starter_turned`` (card) · ``direction_reversed`` · ``turn_started`` (turn, phase) ·
``color_named`` · ``card_played`` (card, call, color for a Wild) · ``cards_drawn``
(count, cards, reason: draw | plus_two | wild_draw_four | challenge | catch;
``must_play`` when a draw move ended on a playable card) · ``pile_reshuffled`` (size,
pile) · ``livol_called`` · ``seat_caught`` (target) · ``wild_draw_four_accepted`` ·
``challenged`` (target, fair, hand) · ``round_scored`` (round, winner, points, gains,
scores) · ``seat_resigned`` · ``match_ended`` (ranking, scores). The round's last
``card_played`` and the forced draw that follows it (L12) carry ``"final": true``.

``redact`` removes the seed, deck and pile orders (for everyone), another seat's
drawn cards (the count stays) and the challenged hand (except for the challenger).

A turn is in one of these phases: ``color`` (the first player names the colour
of a Wild starter), ``play``, ``drawn`` (the seat must play the card it drew),
``respond`` (the seat must accept or challenge a Wild +4).

Decided points beyond the spec:
- the hand shown to a challenger (L9) is the Wild +4 player's hand right after
  the Wild +4 left it (the cards that make it fair or not); ``shown_hand`` is
  also dropped when a new round is dealt;
- the catch window (L10) is tracked as "the seat that may be caught": a play
  that leaves one card without a call opens it, the next turn move (of any
  seat: it is always the seat whose turn came next) closes it;
- a card ``play`` with ``"call": false`` is the same move as without ``call``;
  moves with unknown keys are refused (``malformed_move``); every move first
  passes ``core.guard_move`` (docs/engine-contract.md bounds, see ``core.MOVE_BOUNDS``);
- hands are kept (and shown) in the canonical card order.

Resigning (docs/engine-contract.md "Resigning (every game)"): ``{"type": "resign"}`` records
``seat_resigned``; the resigned seat keeps its hand, its turns and its part in
the rules (calls, catches, challenges). Decided: when one seat is left not
resigned, ``match_ended`` follows at once with the scores as they stand, ranked
by ``core.rank_with_resignations``; a match that ends by the target ranks the
same way. The view lists ``resigned`` (seats, in the order they resigned).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from engine import core
from engine.core import IllegalMove
from engine.protocol import SHARED_EVENTS, ScoreOrder, SearchableGame

if TYPE_CHECKING:
    from random import Random

# --------------------------------------------------------------------------
# Shape, as data
# --------------------------------------------------------------------------

NAME = "livol"
#: The version of these rules as recorded in ``match_started``: bump it with any change that
#: alters events, and keep replaying the older versions (``engine.verify`` names the one a record needs).
RULES_VERSION = 1
MIN_SEATS = 2
MAX_SEATS = 6
HAND_SIZE = 7
COLORS = ("R", "Y", "G", "B")
ACTIONS = ("skip", "rev", "+2")
WILD = "W"
WILD_DRAW_FOUR = "W+4"
#: A practical bound, not a proof: random play ends a 500-point match in about
#: 1,700–3,100 events (the longest seen: ~5,700). An UNO-style round can in theory
#: go on forever (draws and plays may cycle), so no finite bound holds for every line.
MAX_EVENTS = 100_000

#: Every event this game emits and its keys (``engine.protocol``'s vocabulary; ``key?``: may be absent or redacted).
EVENTS = {
    "match_started": {"seats": "int", "options": "options", "seed?": "str", "rules_version": "int"},
    "round_dealt": {"round": "int", "dealer": "int", "deck?": "[str]", "hand?": "[str]"},
    "starter_reshuffled": {"size": "int", "pile?": "[str]"},
    "starter_turned": {"card": "str"},
    "turn_started": {"turn": "int", "phase": "str"},
    "card_played": {"seat": "int", "card": "str", "call": "bool", "color?": "str", "final?": "bool"},
    "cards_drawn": {"seat": "int", "count": "int", "cards?": "[str]", "reason": "str", "must_play?": "bool",
                    "final?": "bool"},
    "color_named": {"seat": "int", "color": "str"},
    "direction_reversed": {"seat?": "int"},
    "livol_called": {"seat": "int"},
    "seat_caught": {"seat": "int", "target": "int"},
    "wild_draw_four_accepted": {"seat": "int"},
    "challenged": {"seat": "int", "target": "int", "fair": "bool", "hand?": "[str]"},
    "pile_reshuffled": {"size": "int", "pile?": "[str]"},
    "round_scored": {"round": "int", "winner": "int", "points": "[int]", "gains": "[int]", "scores": "[int]"},
    "match_ended": {"ranking": "[[int]]", "scores": "[int]", "reason?": "str"},
    **SHARED_EVENTS,
}
#: The bounds of the ``target`` option: the standard 500 and short or long club
#: matches, never a target that would keep a match (and its bots) going for ever.
MIN_TARGET, MAX_TARGET = 1, 10_000
#: The most extra cards a failed challenge may add (classic UNO's is 2).
MAX_CHALLENGE_EXTRA_PENALTY = 10
OPTIONS = {
    "variant": ("winner_scores", ("winner_scores", "own_hand")),
    "target": (500, core.int_between(MIN_TARGET, MAX_TARGET)),
    "challenge_extra_penalty": (0, core.int_between(0, MAX_CHALLENGE_EXTRA_PENALTY)),
}
#: The phases in which the seat whose turn it is has a move (``deal``, ``scored`` and
#: ``over`` are between turns).
TURN_PHASES = frozenset({"color", "play", "drawn", "respond"})
PLAY_KEYS = frozenset({"type", "card", "color", "call"})
MOVE_KEYS = {
    "play": PLAY_KEYS,
    "draw": frozenset({"type"}),
    "color": frozenset({"type", "color"}),
    "call": frozenset({"type"}),
    "catch": frozenset({"type", "target"}),
    "challenge": frozenset({"type"}),
    "accept": frozenset({"type"}),
    core.RESIGN: core.RESIGN_KEYS,
}


def deck_of_108_cards() -> tuple[str, ...]:
    """L1. 108 cards: four colours red, yellow, green, blue (R Y G B); per colour one 0,
    two each of 1–9, two Skip, two Reverse, two +2; plus four Wild and four Wild +4."""
    out: list[str] = []
    for c in COLORS:
        out.append(c + "0")
        for i in range(1, 10):
            out += [f"{c}{i}"] * 2
        for a in ACTIONS:
            out += [c + a] * 2
    return tuple(out + [WILD] * 4 + [WILD_DRAW_FOUR] * 4)


DECK = deck_of_108_cards()
CODES = tuple(dict.fromkeys(DECK))
ORDER = {code: i for i, code in enumerate(CODES)}


def card_color(card: str) -> str | None:
    return card[0] if card[0] in COLORS else None


def card_symbol(card: str) -> str:
    return card[1:] if card[0] in COLORS else card


def is_wild(card: str) -> bool:
    return card in (WILD, WILD_DRAW_FOUR)


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


# --------------------------------------------------------------------------
# The rules, one small function each
# --------------------------------------------------------------------------

def dealer_of_round(round_no: int, seats: int) -> int:
    """L2. The dealer rotates one seat clockwise every round (round 1: seat 0)."""
    return (round_no - 1) % seats


def first_player(dealer: int, seats: int) -> int:
    """L2. Play starts with the seat to the dealer's left and goes clockwise."""
    return core.next_seat(dealer, seats, 1)


def starter_goes_back(card: str) -> bool:
    """L3. Wild +4: it goes back into the draw pile, the pile is reshuffled, and a new
    card is turned (repeat as needed)."""
    return card == WILD_DRAW_FOUR


def card_matches(card: str, top: str, color: str | None) -> bool:
    """L4. A player must play one card that matches the top of the discard pile by colour,
    number or symbol (after a Wild the named colour counts). A Wild may be played at any
    time. (L5: an unfair Wild +4 is still a legal move.)"""
    if is_wild(card):
        return True
    return card_color(card) == color or card_symbol(card) == card_symbol(top)


def wild_draw_four_is_fair(hand_after: Iterable[str], top: str, color: str | None) -> bool:
    """L5. Wild +4 is fair only if the player holds no other playable card (a Wild in
    hand counts as playable; other Wild +4s do not)."""
    return not any(c != WILD_DRAW_FOUR and card_matches(c, top, color) for c in hand_after)


def may_draw(hand: Iterable[str], top: str, color: str | None) -> bool:
    """L6. Drawing is not allowed while the player holds a playable card; a Wild +4 counts
    as playable here."""
    return PLAYABLE[top, color].isdisjoint(hand)


def stops_drawing(card: str, top: str, color: str | None) -> bool:
    """L6. A player with no playable card must draw one card at a time until a playable
    card is drawn (drawing stops at a drawn Wild +4)."""
    return card in PLAYABLE[top, color]


def cards_to_draw(card: str) -> int:
    """L7/L5. +2: next player draws 2 and loses the turn; Wild +4: draws 4. No stacking."""
    return 2 if card_symbol(card) == "+2" else 4 if card == WILD_DRAW_FOUR else 0


def reverse_acts_as_skip(seats: int) -> bool:
    """L8. Reverse: the direction of play changes. With 2 seats it acts only as a Skip and
    the direction stays as it was."""
    return seats == 2


def failed_challenge_cards(extra: int) -> int:
    """L9/L16. If the Wild +4 was fair, the challenger draws 4 (plus the club's
    ``challenge_extra_penalty``) and loses the turn."""
    return 4 + extra


def call_counts(hand_after: Collection[str], call: bool) -> bool:
    """L10. "call": true is accepted on any play and counts only if the play leaves one card."""
    return bool(call) and len(hand_after) == 1


def may_call(hand: Collection[str], called: bool) -> bool:
    """L10. A separate call is legal for a seat holding exactly one card that has not called."""
    return len(hand) == 1 and not called


CATCH_PENALTY = 4  # L10. The caught seat draws 4.


def round_is_over(hand: Collection[str]) -> bool:
    """L12. The round ends when a player plays their last card."""
    return not hand


def card_points(card: str) -> int:
    """L13. 0–9 face value; Skip, Reverse, +2: 20; Wild, Wild +4: 50."""
    if is_wild(card):
        return 50
    sym = card_symbol(card)
    return int(sym) if sym.isdigit() else 20


def round_gains(variant: str, hands: Sequence[Iterable[str]], winner: int) -> list[int]:
    """L14. winner_scores: the round's winner scores the points of all cards left in the
    other hands. L15. own_hand: every seat scores the points of its own hand."""
    points = [sum(card_points(c) for c in h) for h in hands]
    if variant == "own_hand":
        return points
    return [sum(points) if s == winner else 0 for s in range(len(hands))]


def match_format(options: dict[str, Any]) -> core.FewestWhenTarget | core.FirstToTarget:
    """L14/L15/L16. The match ends when a seat reaches the target (500); winner_scores
    ranks most points first, own_hand fewest first; equal points share a place."""
    if options["variant"] == "own_hand":
        return core.FewestWhenTarget(options["target"])
    return core.FirstToTarget(options["target"])


def final_ranking(options: dict[str, Any], scores: Sequence[int], resigned: Sequence[int]) -> list[list[int]]:
    """L14/L15 and docs/engine-contract.md "Resigning": resigned seats rank below all others, the
    latest to resign best among them, and the rest as L14/L15 rank them."""
    return core.rank_with_resignations(match_format(options).ranking(scores), resigned)


def resigning_ends_match(seats: int, resigned: Iterable[int]) -> bool:
    """docs/engine-contract.md: when resigning leaves one seat not resigned, the match ends at once
    with it first."""
    return core.last_standing(range(seats), resigned)


# --------------------------------------------------------------------------
# Tables: the rules above worked out once per card (the hot path looks them up)
# --------------------------------------------------------------------------

#: L4. The codes that may be played on ``(top, colour in force)``: ``card_matches`` for
#: every pair (a Wild starter's colour is None until it is named). L5 and L6 judge
#: "playable" with the same table.
PLAYABLE = {(top, color): frozenset(c for c in CODES if card_matches(c, top, color))
            for top in CODES for color in (*COLORS, None)}
SYMBOL = {c: card_symbol(c) for c in CODES}
WILDS = frozenset({WILD, WILD_DRAW_FOUR})
#: Cards whose play just passes the turn on (numbers and a Wild: no draw, skip or reverse).
PLAIN = frozenset(c for c in CODES if SYMBOL[c] not in ACTIONS and c != WILD_DRAW_FOUR)
COLOR_OF = {c: card_color(c) for c in CODES}
#: L7/L5. Cards the next seat must draw after each card.
DRAWS = {c: cards_to_draw(c) for c in CODES}


def _play_forms(card: str) -> tuple[dict[str, Any], ...]:
    """The listed forms of a play of ``card``, in ``legal_moves`` order: a Wild once per
    colour; each form plain, then with ``"call": true`` (docs/engine-contract.md)."""
    forms = [{"type": "play", "card": card, "color": k} for k in COLORS] if is_wild(card) \
        else [{"type": "play", "card": card}]
    out: list[dict[str, Any]] = []
    for m in forms:
        out += [m, {**m, "call": True}]
    return tuple(out)


#: Templates, copied into every list ``legal_moves`` returns (the caller owns its moves).
PLAY_FORMS = {c: _play_forms(c) for c in CODES}


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class State:
    seats: int
    seed: str
    options: dict[str, Any]
    counter: int = 0
    round: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    draw: tuple[str, ...] = ()          # top first
    discard: tuple[str, ...] = ()       # top last
    color: str | None = None  # the colour in force (None until a Wild starter is named)
    direction: int = 1
    turn: int | None = None
    phase: str = "deal"       # deal | color | play | drawn | respond | scored | over
    pending: str | None = None  # the drawn card the turn seat must play (L6)
    called: tuple[bool, ...] = ()
    window: int | None = None   # the seat that may be caught (L10)
    w4: tuple[Any, ...] | None = None     # (seat, hand after, top before, colour before) of a Wild +4
    shown: tuple[Any, ...] | None = None  # (challenger, hand) (L9)
    scores: tuple[int, ...] = ()
    resigned: tuple[int, ...] = ()        # seats, in the order they resigned
    over: bool = False
    result: dict[str, Any] | None = None

    @property
    def top(self) -> str | None:
        return self.discard[-1] if self.discard else None


def replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without re-running ``__init__`` (5x faster; states are frozen)."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


_blank = object.__new__


def _evolve(state: State, changes: dict[str, Any]) -> State:
    """``replace`` with the changes as a dict: the hot handlers build it directly."""
    new = _blank(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def _turn_move(state: State, seat: int, **changes: Any) -> State:
    """A turn move closes the catch window (L10) and ends the mover's ``shown_hand`` (L9)."""
    shown = state.shown
    if shown is not None and shown[0] == seat:
        shown = None
    changes.setdefault("window", None)
    return replace(state, shown=shown, **changes)


def _set(tup: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return tup[:i] + (value,) + tup[i + 1:]


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


# --------------------------------------------------------------------------
# apply: trusts the event
# --------------------------------------------------------------------------

def _on_match_started(state: State | None, e: dict[str, Any]) -> State:
    n = e["seats"]
    return State(seats=n, seed=e["seed"], options=dict(e["options"]),
                 hands=((),) * n, called=(False,) * n, scores=(0,) * n)


def _on_round_dealt(state: State, e: dict[str, Any]) -> State:
    n, deck = state.seats, e["deck"]
    hands = tuple(sort_hand(deck[HAND_SIZE * s:HAND_SIZE * (s + 1)]) for s in range(n))
    starter = deck[HAND_SIZE * n]
    return replace(state, counter=state.counter + 1, round=e["round"], dealer=e["dealer"],
                   hands=hands, discard=(starter,), draw=tuple(deck[HAND_SIZE * n + 1:]),
                   color=card_color(starter), direction=1, turn=None, phase="deal",
                   pending=None, called=(False,) * n, window=None, w4=None, shown=None)


def _on_starter_reshuffled(state: State, e: dict[str, Any]) -> State:
    pile = e["pile"]
    return replace(state, counter=state.counter + 1, discard=(pile[0],), draw=tuple(pile[1:]),
                   color=card_color(pile[0]))


def _on_starter_turned(state: State, e: dict[str, Any]) -> State:
    return state  # the starter is already on the discard pile; this event shows it


def _on_direction_reversed(state: State, e: dict[str, Any]) -> State:
    return replace(state, direction=-state.direction)


def _on_turn_started(state: State, e: dict[str, Any]) -> State:
    new = _blank(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields["turn"] = e["turn"]
    fields["phase"] = e["phase"]
    fields["pending"] = None
    return new


def _on_color_named(state: State, e: dict[str, Any]) -> State:
    return _turn_move(state, e["seat"], color=e["color"], phase="play")


def _on_card_played(state: State, e: dict[str, Any]) -> State:
    seat, card = e["seat"], e["card"]
    old = state.__dict__
    hands = old["hands"]
    hand = _without(hands[seat], card)
    called = call_counts(hand, e.get("call", False))
    new = _blank(State)  # _evolve, written out: the hottest handler
    fields = new.__dict__
    fields.update(old)
    fields["hands"] = hands[:seat] + (hand,) + hands[seat + 1:]
    fields["discard"] = old["discard"] + (card,)
    fields["color"] = e.get("color") or COLOR_OF[card]
    fields["window"] = seat if len(hand) == 1 and not called else None
    fields["pending"] = None
    fields["phase"] = "play"
    fields["w4"] = (seat, hand, state.top, old["color"]) if card == WILD_DRAW_FOUR else None
    if called != old["called"][seat]:
        fields["called"] = _set(old["called"], seat, called)
    shown = old["shown"]  # a turn move, as in _turn_move
    if shown is not None and shown[0] == seat:
        fields["shown"] = None
    return new


def _on_cards_drawn(state: State, e: dict[str, Any]) -> State:
    seat, cards = e["seat"], e["cards"]
    hands = state.hands
    hand = sort_hand(hands[seat] + tuple(cards))
    changes: dict[str, Any] = {"hands": hands[:seat] + (hand,) + hands[seat + 1:], "draw": state.draw[len(cards):]}
    window = state.window
    if e["reason"] == "draw":  # a turn move, as in _turn_move
        window = changes["window"] = None
        shown = state.shown
        if shown is not None and shown[0] == seat:
            changes["shown"] = None
    if len(hand) > 1:
        if state.called[seat]:
            changes["called"] = _set(state.called, seat, False)
        if window == seat:
            changes["window"] = None
    if e.get("must_play"):
        changes["pending"] = cards[-1]
        changes["phase"] = "drawn"
    return _evolve(state, changes)


def _on_pile_reshuffled(state: State, e: dict[str, Any]) -> State:
    return replace(state, counter=state.counter + 1, draw=state.draw + tuple(e["pile"]),
                   discard=state.discard[-1:])


def _on_livol_called(state: State, e: dict[str, Any]) -> State:
    seat = e["seat"]
    return replace(state, called=_set(state.called, seat, True),
                   window=None if state.window == seat else state.window)


def _on_seat_caught(state: State, e: dict[str, Any]) -> State:
    return replace(state, window=None)


def _on_wild_draw_four_accepted(state: State, e: dict[str, Any]) -> State:
    return _turn_move(state, e["seat"], w4=None)


def _on_challenged(state: State, e: dict[str, Any]) -> State:
    state = _turn_move(state, e["seat"], w4=None)
    return replace(state, shown=(e["seat"], tuple(e["hand"])))


def _on_round_scored(state: State, e: dict[str, Any]) -> State:
    return replace(state, scores=tuple(e["scores"]), turn=None, phase="scored", pending=None,
                   window=None)


def _on_seat_resigned(state: State, e: dict[str, Any]) -> State:
    return replace(state, resigned=state.resigned + (e["seat"],))


def _on_match_ended(state: State, e: dict[str, Any]) -> State:
    return replace(state, over=True, turn=None, phase="over", window=None,
                   result={"ranking": [list(p) for p in e["ranking"]], "scores": list(e["scores"])})


APPLY: dict[str, Callable[..., State]] = {name[4:]: fn for name, fn in dict(globals()).items() if name.startswith("_on_")}


# --------------------------------------------------------------------------
# play: validates and records every consequence
# --------------------------------------------------------------------------

class _Record:
    """Events being recorded by one ``play``, applied to a scratch state when a rule needs
    to look at it (``state``): the caller applies every event anyway, so events that
    nothing reads after them (most often: ``card_played`` and ``turn_started``) are
    never applied twice. The seat count and the direction are followed as events come."""

    __slots__ = ("_state", "_applied", "events", "seats", "direction")
    events: list[dict[str, Any]]

    def __init__(self, state: State | None):
        self._state, self._applied, self.events = state, 0, []
        if state is not None:
            self.seats, self.direction = state.seats, state.direction

    @property
    def state(self) -> State:
        events = self.events
        if self._applied < len(events):
            st = self._state
            for event in events[self._applied:]:
                st = APPLY[event["type"]](st, event)
            self._state, self._applied = st, len(events)
        return self._state  # type: ignore[return-value]

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def reverse(self, event: dict[str, Any]) -> None:
        """Emit ``direction_reversed`` and follow it."""
        self.emit(event)
        self.direction = -self.direction

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.seats

    # L11 ------------------------------------------------------------------
    def reshuffle(self) -> bool:
        """L11. When a card must be drawn and the draw pile is empty, all discards but the
        top card are shuffled into a new draw pile."""
        st = self.state
        if len(st.discard) <= 1:
            return False
        pile = core.shuffled(st.seed, st.counter, st.discard[:-1])
        self.emit({"type": "pile_reshuffled", "size": len(pile), "pile": pile})
        return True

    def forced_draw(self, seat: int, n: int, reason: str, final: bool = False) -> None:
        """L11. A forced draw takes as many cards as remain after that; the rest is forgiven."""
        first = list(self.state.draw[:n])
        if first:
            self.emit(_drawn(seat, first, reason, final=final))
        rest = n - len(first)
        if rest > 0 and self.reshuffle():
            more = list(self.state.draw[:rest])
            if more:
                self.emit(_drawn(seat, more, reason, final=final))

    def draw_until_playable(self, seat: int) -> None:
        """L6. One draw move draws one card at a time until a playable card is drawn; if the
        draw pile and the reshuffled discards run out first, the turn passes."""
        top, color = self.state.top, self.state.color
        emitted = False
        while True:
            pile = self.state.draw
            hit = next((i for i, c in enumerate(pile) if stops_drawing(c, top, color)), None)  # type: ignore[arg-type]
            if hit is not None:
                self.emit(_drawn(seat, list(pile[:hit + 1]), "draw", must_play=True))
                return
            if pile:
                self.emit(_drawn(seat, list(pile), "draw"))
                emitted = True
            if not self.reshuffle():
                break
        if not emitted:
            self.emit(_drawn(seat, [], "draw"))
        self.start_turn(self.next_seat(seat))

    # turns ------------------------------------------------------------------
    def start_turn(self, seat: int, phase: str = "play") -> None:
        self.emit({"type": "turn_started", "turn": seat, "phase": phase})

    def after_play(self, seat: int, card: str, last: bool) -> None:
        """The effect of a played card (L4, L5, L7, L8, L12); ``last``: it was the
        player's last card."""
        if not last and card in PLAIN:  # the usual play: the next seat's turn
            self.events.append({"type": "turn_started", "turn": (seat + self.direction) % self.seats,
                                "phase": "play"})
            return
        if last:
            n = DRAWS[card]
            if n:
                self.forced_draw(self.next_seat(seat), n, "plus_two" if n == 2 else "wild_draw_four",
                                 final=True)
            self.end_round(seat)
            return
        sym = SYMBOL[card]
        if card == WILD_DRAW_FOUR:
            self.start_turn(self.next_seat(seat), "respond")
        elif sym == "+2":
            victim = self.next_seat(seat)
            self.forced_draw(victim, 2, "plus_two")
            self.start_turn(self.next_seat(victim))
        elif sym == "skip":
            self.start_turn(self.next_seat(seat, 2))
        elif sym == "rev":
            if reverse_acts_as_skip(self.seats):
                self.start_turn(self.next_seat(seat, 2))
            else:
                self.reverse({"type": "direction_reversed", "seat": seat})
                self.start_turn(self.next_seat(seat))
        else:
            self.start_turn(self.next_seat(seat))

    # rounds -------------------------------------------------------------
    def deal(self, round_no: int, deck: list[str]) -> None:
        st = self.state
        dealer = dealer_of_round(round_no, st.seats)
        self.emit({"type": "round_dealt", "round": round_no, "dealer": dealer, "deck": list(deck)})
        self.direction = 1
        while starter_goes_back(self.state.top):  # type: ignore[arg-type]
            st = self.state
            pile = core.shuffled(st.seed, st.counter, st.discard + st.draw)
            self.emit({"type": "starter_reshuffled", "size": len(pile), "pile": pile})
        self.emit({"type": "starter_turned", "card": self.state.top})
        self.apply_starter(dealer)

    def apply_starter(self, dealer: int) -> None:
        """L3. Start card: +2: the first player draws 2 and loses the turn. Skip: the first
        player loses the turn. Reverse: the direction reverses and the dealer plays first
        (with 2 seats: the dealer plays first and the direction stays). Wild: the first
        player names the colour, then plays normally."""
        st = self.state
        first = first_player(dealer, st.seats)
        sym = card_symbol(st.top)  # type: ignore[arg-type]
        if sym == "+2":
            self.forced_draw(first, 2, "plus_two")
            self.start_turn(self.next_seat(first))
        elif sym == "skip":
            self.start_turn(self.next_seat(first))
        elif sym == "rev":
            if not reverse_acts_as_skip(st.seats):
                self.reverse({"type": "direction_reversed"})
            self.start_turn(dealer)
        elif st.top == WILD:
            self.start_turn(first, "color")
        else:
            self.start_turn(first)

    def end_round(self, winner: int) -> None:
        st = self.state
        points = [sum(card_points(c) for c in h) for h in st.hands]
        gains = round_gains(st.options["variant"], st.hands, winner)
        scores = [a + b for a, b in zip(st.scores, gains)]
        self.emit({"type": "round_scored", "round": st.round, "winner": winner,
                   "points": points, "gains": gains, "scores": scores})
        fmt = match_format(st.options)
        if fmt.is_over(scores):
            self.emit({"type": "match_ended", "ranking": final_ranking(st.options, scores, st.resigned),
                       "scores": scores})
        else:
            st = self.state
            self.deal(st.round + 1, core.shuffled(st.seed, st.counter, DECK))


def _drawn(seat: int, cards: list[str], reason: str, must_play: bool = False,
           final: bool = False) -> dict[str, Any]:
    e = {"type": "cards_drawn", "seat": seat, "count": len(cards), "cards": cards, "reason": reason}
    if must_play:
        e["must_play"] = True
    if final:
        e["final"] = True
    return e


def _illegal(code: str, message: str, rule: str | None = None) -> NoReturn:
    raise IllegalMove(code, message, rule)


# --------------------------------------------------------------------------
# The game object
# --------------------------------------------------------------------------

class Livol(core.Game):
    name = NAME
    MIN_SEATS = MIN_SEATS
    MAX_SEATS = MAX_SEATS
    MAX_EVENTS = MAX_EVENTS

    def cards(self) -> list[str]:
        return list(DECK)

    # -- opening ---------------------------------------------------------
    def start(self, seats: int, seed: str, options: dict[str, Any] | None = None,
              deck: list[str] | None = None) -> list[dict[str, Any]]:
        core.check_seats(seats, MIN_SEATS, MAX_SEATS, NAME)
        merged = core.check_options(options, OPTIONS, NAME)
        stacked = core.check_deck(deck, DECK, NAME)
        if not isinstance(seed, str):
            raise ValueError("livol: the seed is a string")
        rec = _Record(None)
        rec.emit({"type": "match_started", "seats": seats, "options": merged, "seed": seed,
                  "rules_version": RULES_VERSION})
        rec.seats = seats
        rec.deal(1, stacked if stacked is not None else core.shuffled(seed, rec.state.counter, DECK))
        return rec.events

    def apply(self, state: State | None, event: dict[str, Any]) -> State:
        return APPLY[event["type"]](state, event)

    # -- moves -------------------------------------------------------------
    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state is None or state.over or not isinstance(seat, int) or not 0 <= seat < state.seats:
            return []
        moves = self._turn_moves(state, seat) if seat == state.turn else []
        if may_call(state.hands[seat], state.called[seat]):
            moves.append({"type": "call"})
        if state.window is not None and state.window != seat:
            moves.append({"type": "catch", "target": state.window})
        return moves

    def _turn_moves(self, st: State, seat: int) -> list[dict[str, Any]]:
        """The moves of the seat whose turn it is, by phase (``TURN_PHASES``): in ``play``,
        each playable card once (the hand is sorted: copies are neighbours) in all its
        forms (``PLAY_FORMS``), else the draw."""
        phase = st.phase
        if phase == "play":
            playable = PLAYABLE[st.discard[-1], st.color]
            return [m.copy() for c in dict.fromkeys(st.hands[seat]) if c in playable
                    for m in PLAY_FORMS[c]] or [{"type": "draw"}]
        if phase == "color":
            return [{"type": "color", "color": c} for c in COLORS]
        if phase == "respond":
            return [{"type": "accept"}, {"type": "challenge"}]
        if phase == "drawn":
            return [m.copy() for m in PLAY_FORMS[st.pending]]  # type: ignore[index]
        return []

    def play(self, state: State, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
        kind = core.guard_move(move, MOVE_KEYS)
        if state is not None and state.over:
            _illegal("match_over", "the match is over")
        if not (type(seat) is int and 0 <= seat < state.seats):  # core.is_seat, inlined
            _illegal("malformed_move", f"no seat {core.short(seat)} at this table")
        rec = _Record(state)
        MOVES[kind](self, rec, seat, move)
        return rec.events

    def _move_resign(self, rec: _Record, seat: int, move: dict[str, Any]) -> None:
        """docs/engine-contract.md "Resigning": legal for any seat that has not resigned, in or out of
        turn; when it leaves one seat not resigned, the match ends at once with it first."""
        st = rec.state
        core.may_resign(seat, st.seats, st.resigned)
        rec.emit(core.seat_resigned(seat))
        st = rec.state
        if resigning_ends_match(st.seats, st.resigned):
            scores = list(st.scores)
            rec.emit({"type": "match_ended", "ranking": final_ranking(st.options, scores, st.resigned),
                      "scores": scores})

    def _need_turn(self, st: State, seat: int, what: str) -> None:
        if st.turn != seat:
            _illegal("not_your_turn", f"seat {seat} cannot {what}: it is seat {st.turn}'s turn", "L2")

    def _move_play(self, rec: _Record, seat: int, move: dict[str, Any]) -> None:  # noqa: C901 - one check per clause of the play rule, in the rulebook's order
        card, color, call = move.get("card"), move.get("color"), move.get("call", False)
        if not isinstance(card, str):
            _illegal("malformed_move", "a play names a 'card'")
        if card not in ORDER:
            _illegal("unknown_card", f"no card {core.short(card)} in LIVOL", "L1")
        if not isinstance(call, bool):
            _illegal("malformed_move", "'call' is true or false", "L10")
        if color is not None and color not in COLORS:
            _illegal("malformed_move", f"a colour is one of {', '.join(COLORS)}", "L4")
        st = rec.state
        if st.turn != seat:
            self._need_turn(st, seat, "play")
        phase = st.phase
        if phase == "color":
            _illegal("must_name_color", "name the colour of the Wild starter first", "L3")
        if phase == "respond":
            _illegal("must_respond", "accept or challenge the Wild +4", "L9")
        hand = st.hands[seat]
        if card not in hand:
            _illegal("card_not_in_hand", f"seat {seat} holds no {card}")
        last = round_is_over(hand[1:])  # this play leaves no card (L12)
        if phase == "drawn" and card != st.pending:
            _illegal("must_play_drawn_card", f"play the drawn {st.pending}", "L6")
        if card in WILDS:
            if color is None:
                _illegal("color_required", f"name a colour for the {card}", "L4")
        elif color is not None:
            _illegal("malformed_move", f"only a Wild names a colour, not {card}", "L4")
        if card not in PLAYABLE[st.top, st.color]:  # type: ignore[index]
            _illegal("card_does_not_match", f"{card} does not match {st.top} ({st.color})", "L4")
        event = {"type": "card_played", "seat": seat, "card": card, "call": call}
        if color is not None:
            event["color"] = color
        if last:
            event["final"] = True
        rec.emit(event)
        rec.after_play(seat, card, last)

    def _move_draw(self, rec: _Record, seat: int, move: dict[str, Any]) -> None:
        st = rec.state
        self._need_turn(st, seat, "draw")
        self._no_pending_obligation(st)
        if not may_draw(st.hands[seat], st.top, st.color):  # type: ignore[arg-type]
            _illegal("playable_card_held", "no drawing while holding a playable card", "L6")
        rec.draw_until_playable(seat)

    def _no_pending_obligation(self, st: State) -> None:
        if st.phase == "color":
            _illegal("must_name_color", "name the colour of the Wild starter first", "L3")
        if st.phase == "respond":
            _illegal("must_respond", "accept or challenge the Wild +4", "L9")
        if st.phase == "drawn":
            _illegal("must_play_drawn_card", f"play the drawn {st.pending}", "L6")

    def _move_color(self, rec: _Record, seat: int, move: dict[str, Any]) -> None:
        if move.get("color") not in COLORS:
            _illegal("malformed_move", f"a colour is one of {', '.join(COLORS)}", "L3")
        st = rec.state
        self._need_turn(st, seat, "name a colour")
        if st.phase != "color":
            _illegal("no_color_to_name", "a colour is named only for a Wild starter", "L3")
        rec.emit({"type": "color_named", "seat": seat, "color": move["color"]})

    def _move_call(self, rec: _Record, seat: int, move: dict[str, Any]) -> None:
        st = rec.state
        if not may_call(st.hands[seat], st.called[seat]):
            _illegal("cannot_call", "only a seat holding one card that has not called may call", "L10")
        rec.emit({"type": "livol_called", "seat": seat})

    def _move_catch(self, rec: _Record, seat: int, move: dict[str, Any]) -> None:
        target = move.get("target")
        st = rec.state
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < st.seats:
            _illegal("malformed_move", "a catch names a 'target' seat", "L10")
        if target == seat or st.window != target:
            _illegal("nothing_to_catch", f"seat {target} cannot be caught now", "L10")
        rec.emit({"type": "seat_caught", "seat": seat, "target": target})
        rec.forced_draw(target, CATCH_PENALTY, "catch")

    def _move_accept(self, rec: _Record, seat: int, move: dict[str, Any]) -> None:
        st = rec.state
        self._need_turn(st, seat, "accept")
        if st.phase != "respond":
            _illegal("nothing_to_accept", "there is no Wild +4 to accept", "L9")
        rec.emit({"type": "wild_draw_four_accepted", "seat": seat})
        rec.forced_draw(seat, 4, "wild_draw_four")
        rec.start_turn(rec.next_seat(seat))

    def _move_challenge(self, rec: _Record, seat: int, move: dict[str, Any]) -> None:
        """L9. On a challenge the Wild +4 player's hand is shown to the challenger alone. If
        the Wild +4 was unfair, its player draws 4 and the challenger then takes the turn
        normally under the named colour; if fair, the challenger draws 4 and loses the turn."""
        st = rec.state
        self._need_turn(st, seat, "challenge")
        if st.phase != "respond":
            _illegal("nothing_to_challenge", "there is no Wild +4 to challenge", "L9")
        player, hand, top, color = st.w4  # type: ignore[misc]
        fair = wild_draw_four_is_fair(hand, top, color)
        rec.emit({"type": "challenged", "seat": seat, "target": player, "fair": fair,
                  "hand": list(hand)})
        if fair:
            rec.forced_draw(seat, failed_challenge_cards(st.options["challenge_extra_penalty"]),
                            "challenge")
            rec.start_turn(rec.next_seat(seat))
        else:
            rec.forced_draw(player, 4, "challenge")
            rec.start_turn(seat)

    # -- what a seat sees ---------------------------------------------------
    def _can_act(self, st: State, seat: int) -> bool:
        if st.over:
            return False
        if seat == st.turn and st.phase in TURN_PHASES:
            return True
        if may_call(st.hands[seat], st.called[seat]):
            return True
        return st.window is not None and st.window != seat

    def _to_act(self, st: State, sizes: list[int]) -> list[int]:
        """The seats for which ``_can_act`` holds (``sizes``: the hand sizes), without
        asking every seat in the usual case: nobody may call or catch, so only the turn."""
        if st.over:
            return []
        if st.window is None and 1 not in sizes:
            return [st.turn] if st.phase in TURN_PHASES else []  # type: ignore[list-item]
        return [s for s in range(st.seats) if self._can_act(st, s)]

    def to_act(self, state: State) -> list[int]:
        """The seats with a move now (``view(state, None)["to_act"]``), without building a view."""
        return self._to_act(state, [len(h) for h in state.hands])

    def score_order(self, options: dict[str, Any] | None) -> ScoreOrder:
        """L14/L15: the round's winner scores the others' cards (most points win), or everyone scores
        their own hand (``own_hand``: fewest points win)."""
        return "lower" if (options or {}).get("variant") == "own_hand" else "higher"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        f = state.__dict__  # the fields, read once each (called at every step of a game loop)
        n = f["seats"]
        mine = seat is not None and 0 <= seat < n
        shown = f["shown"]
        if shown is not None:
            shown = list(shown[1]) if mine and shown[0] == seat else None
        hands = f["hands"]
        sizes = [len(h) for h in hands]
        over, turn, phase, discard = f["over"], f["turn"], f["phase"], f["discard"]
        return {
            "game": NAME,
            "seat": seat if mine else None,
            "seats": n,
            "to_act": self._to_act(state, sizes),
            "turn": turn,
            "phase": phase,
            "hand": list(hands[seat]) if mine else [],
            "must_play": f["pending"] if (mine and turn == seat and phase == "drawn") else None,
            "hand_sizes": sizes,
            "called": list(f["called"]),
            "catchable": f["window"],
            "top": discard[-1] if discard else None,
            "color": f["color"],
            "draw_size": len(f["draw"]),
            "discard_size": len(discard),
            "direction": f["direction"],
            "dealer": f["dealer"],
            "round": f["round"],
            "scores": list(f["scores"]),
            "resigned": list(f["resigned"]),
            "options": dict(f["options"]),
            "shown_hand": shown,
            "over": over,
            "outcome": self.outcome(state) if over else None,
            "hands": [list(h) for h in hands] if over else None,
        }

    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        t = event["type"]
        if t == "match_started":
            return {k: v for k, v in event.items() if k != "seed"}
        if t == "round_dealt":
            out = {k: v for k, v in event.items() if k != "deck"}
            if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
                out["hand"] = list(sort_hand(event["deck"][HAND_SIZE * seat:HAND_SIZE * (seat + 1)]))
            return out
        if t in ("starter_reshuffled", "pile_reshuffled"):
            return {k: v for k, v in event.items() if k != "pile"}
        if t == "cards_drawn" and event["seat"] != seat:
            return {k: v for k, v in event.items() if k != "cards"}
        if t == "challenged" and event["seat"] != seat:
            return {k: v for k, v in event.items() if k != "hand"}
        return event

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state is None or not state.over:
            return None
        return {"ranking": [list(p) for p in state.result["ranking"]],  # type: ignore[index]
                "scores": list(state.result["scores"])}  # type: ignore[index]

    # -- protocol-test hooks ------------------------------------------------
    def all_cards(self, state: State) -> list[str]:
        out = [c for h in state.hands for c in h]
        return out + list(state.draw) + list(state.discard)

    def hidden_cards(self, state: State, seat: int | None) -> list[str]:
        if state.over:
            return []
        hidden = Counter(state.draw)
        for s, h in enumerate(state.hands):
            if s != seat:
                hidden.update(h)
        if state.shown is not None and state.shown[0] == seat:
            hidden -= Counter(state.shown[1])
        return list(hidden.elements())

    # -- determinization (search bots: engine/bots/search.py) -------------------
    def sample_state(self, view: dict[str, Any], seat: int, rng: Random,
                     legal: list[dict[str, Any]] | None = None) -> State:
        """A full state consistent with ``seat``'s ``view``: its own hand as shown, every
        public field copied, and the cards it cannot see (the other hands, the draw pile,
        the discards below the top, which the view only counts) dealt at random from the
        unseen ones (all cards but its hand and the top). A challenger's ``shown_hand``
        stays with the Wild +4 player (less the top, when that player has played it since).
        Fields the view lacks are filled so that they do not change legal play: the seed is
        a dummy drawn from ``rng`` (reshuffles inside a search come from it), the random
        counter 0; in the ``respond`` phase the Wild +4's "top and colour before" are the
        sampled card under the top (L5 judges fairness on them). ``legal`` is unused here
        (the view has the phase)."""
        n = view["seats"]
        sizes = list(view["hand_sizes"])
        hand = sort_hand(view["hand"])
        top = view["top"]
        pool = Counter(DECK)
        pool.subtract(hand)
        pool[top] -= 1
        direction = view["direction"]
        hands: list[list[str] | None] = [None] * n
        hands[seat] = list(hand)
        shown = view.get("shown_hand")
        known: dict[int, list[str]] = {}
        if shown:
            player = (seat - direction) % n
            cards = list(shown)
            if top in cards and sizes[player] < len(cards):
                cards.remove(top)
            fits = Counter(cards)
            if player != seat and len(cards) <= sizes[player] and all(pool[c] >= k for c, k in fits.items()):
                known[player] = cards
                pool.subtract(fits)
        unseen = list(pool.elements())
        rng.shuffle(unseen)
        for s in range(n):
            if s == seat:
                continue
            mine = known.get(s, [])
            take = sizes[s] - len(mine)
            hands[s] = mine + unseen[:take]
            del unseen[:take]
        below = view["discard_size"] - 1
        discard = tuple(unseen[:below]) + (top,)
        draw = tuple(unseen[below:])
        phase = view["phase"]
        turn = view["turn"]
        pending = None
        if phase == "drawn":
            pending = view.get("must_play")
            if pending is None:
                # another seat must play the card it drew: one of its sampled cards that fits
                # (swapped in from the draw pile if none does)
                playable = PLAYABLE[top, view["color"]]
                fits = [c for c in hands[turn] if c in playable]  # type: ignore[assignment]
                if not fits:
                    draw_list = list(draw)
                    i = next((k for k, c in enumerate(draw_list) if c in playable), None)
                    if i is not None:
                        hands[turn][0], draw_list[i] = draw_list[i], hands[turn][0]
                        draw = tuple(draw_list)
                        fits = [hands[turn][0]]  # type: ignore[assignment]
                pending = rng.choice(fits) if fits else None
        w4 = None
        if phase == "respond" and turn is not None:
            player = (turn - direction) % n
            before = discard[-2] if len(discard) > 1 else top
            colour = card_color(before) or rng.choice(COLORS)
            w4 = (player, sort_hand(hands[player]), before, colour)
        return State(
            seats=n, seed=f"search-{rng.getrandbits(64):016x}", options=dict(view["options"]), counter=0,
            round=view["round"], dealer=view["dealer"], hands=tuple(sort_hand(h) for h in hands),  # type: ignore[arg-type]
            draw=draw, discard=discard, color=view["color"], direction=direction, turn=turn,
            phase=phase, pending=pending,
            called=tuple(view["called"]), window=view["catchable"], w4=w4,
            shown=(seat, tuple(shown)) if shown else None, scores=tuple(view["scores"]),
            resigned=tuple(view["resigned"]), over=False, result=None)


#: ``play``'s dispatch: move type -> the method that validates and records it.
MOVES = {kind: getattr(Livol, f"_move_{kind}") for kind in MOVE_KEYS}

#: The registry name (docs/engine-contract.md "Module attributes") and the game object the registry hands out.
GAME = "livol"
game: SearchableGame = Livol()  # checked against the engine contract (engine.protocol)
