"""Karuselis: the Latvian fishing game with jokers, broom, builds and partnerships.

Rules: ``tests/fixtures/rules/karuselis.md`` (K1–K15). Two to four seats; with four,
seats 0+2 play against 1+3 and share one pile and one score (a *side*). A
played card captures equal cards, sums of loose cards and builds of its value
(courts only their pair, or all three of a kind), builds onto loose cards or
raises a build, or is trailed when nothing else is possible; the broom sweeps
the table. Deals are re-dealt from the stock until it is used up, the last
capturer takes the table, the deal scores 30 points (full deck) and the match
runs to the target.

Decided points beyond the spec (each also in its rule's function):
- K2: a stacked deck is a permutation of the chosen variant's cards
  (``cards()`` is the full 56-card deck).
- K4: the table jokers/broom go back into the stock, which is reshuffled (one
  random draw, recorded in the ``round_dealt`` event); the replacements are the
  first cards of the reshuffled stock that are neither a joker nor the broom
  (as if any such card drawn went back again), so one reshuffle always
  suffices. With a stacked deck the reshuffle comes from the seed.
- K9: a sweep of an empty table is legal but is no capture.
- K12: if nobody captured anything during the deal, the cards left on the
  table score for nobody (they are set aside until the next deal).
- K15: ``target`` is at most 1000; as a hard bound the match also ends after
  300 deals, the tied leaders then sharing first place.
- Capture moves are checked group by group: every group must be a valid K7
  group (a court capture's cards may be grouped in any way).
- Moves: every move first passes ``core.guard_move`` (bounds in
  ``core.MOVE_BOUNDS``) with the allow-list of keys ``MOVE_KEYS`` (an unknown
  field is ``malformed_move``, never stored); ``groups`` may name no more items
  than lie on the table, ``onto`` no more than the loose table cards (or one
  build).
- Resigning (docs/engine-contract.md "Resigning (every game)"): ``{"type": "resign"}``
  records ``seat_resigned``; the seat keeps its hand and its turns. Decided for
  the 4-seat partnerships (2026-12-01, rules version 2): a seat's resignation
  resigns its side (a partner who leaves forfeits for the pair), so with two
  sides the match ends at once with the other side first; the ranking is by
  side, a side's seats sharing its place. (Versions 0 and 1, replayed for old
  records: a side resigned only when all its seats had.) With 2 or 3 seats a
  side is a seat. The match ending by
  resignation records ``match_ended`` with the scores as they stand (mid-deal:
  the deal is not scored). The view lists ``resigned`` (seats, in order).

Events: ``match_started`` (seats, options, seed) · ``round_dealt`` (round,
dealer, deck, the table; with K4 also returned, the reshuffled stock) ·
``cards_dealt`` (K5 re-deal: hands) · ``cards_captured`` (seat, card, groups,
cards taken) · ``build_made`` (seat, card, onto, value, build id, raised) ·
``card_trailed`` · ``table_swept`` (cards taken) · ``table_collected`` (K12) ·
``round_scored`` (points, spades, cards, scores per seat) · ``seat_resigned``
(seat) · ``match_ended`` (ranking, scores). ``redact`` hides the seed, deck
orders and other seats' hands; the jokers/broom sent back by K4 show as a count
(they lie in the stock by then).

``legal_moves`` lists every distinct capture (by the set of cards and builds
taken) once: the sets of loose cards that split into disjoint groups of the
card's value come from one pass over bitmasks (``capture_sets``), cached by
the table's values.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine import core
from engine.core import IllegalMove
from engine.protocol import SHARED_EVENTS, ScoreOrder, SearchableGame

if TYPE_CHECKING:
    from random import Random

# --------------------------------------------------------------------------
# Shape of the game, as data
# --------------------------------------------------------------------------

#: The version of these rules as recorded in ``match_started``: bump it with any change that
#: alters events, and keep replaying the older versions (``engine.verify`` names the one a record needs).
RULES_VERSION = 2  # 2: a partner who resigns resigns the side (docs/engine-contract.md, decided 2026-12-01)
SUITS = ("S", "H", "D", "C")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
COURTS = ("J", "Q", "K")
JOKERS = ("X20", "X15", "X11")
BROOM = "BR"
CARDS = tuple(r + s for s in SUITS for r in RANKS) + JOKERS + (BROOM,)
# How codes are sorted inside moves and events: by rank, then suit.
ORDER = {code: i for i, code in enumerate([r + s for r in RANKS for s in SUITS] + [*JOKERS, BROOM])}

# K2: variant -> (cards left out, target, table cards)
VARIANTS = {
    "full": ((), 120, 8),
    "no_x20": (("X20",), 90, 7),
    "no_broom": ((BROOM,), 90, 7),
    "small": (("X20", BROOM), 60, 6),
}
VARIANT_CARDS = {name: tuple(c for c in CARDS if c not in out) for name, (out, _, _) in VARIANTS.items()}

MIN_SEATS, MAX_SEATS = 2, 4
MATCH_FORMAT = core.FirstToTarget  # K15, with the match's target; a tie at the top plays on
HAND_SIZE = 4
MAX_BUILD = 20
MAX_TARGET = 1000
MAX_DEALS = 300
# Per deal at most: the deal, 5 re-deals (2 seats), 48 cards played, the
# table collected, the scoring, the end of the match; plus match_started and
# one seat_resigned per seat.
MAX_EVENTS = 1 + MAX_DEALS * (1 + 5 + 48 + 1 + 1) + 1 + MAX_SEATS

#: Every event this game emits and its keys (``engine.protocol``'s vocabulary; ``key?``: may be absent or redacted).
EVENTS = {
    "match_started": {"seats": "int", "options": "options", "seed?": "str", "rules_version": "int"},
    "round_dealt": {"round": "int", "dealer": "int", "deck?": "[str]", "table": "[str]", "hand?": "[str]",
                    "returned?": "[str]|int", "stock?": "[str]"},
    "cards_dealt": {"hands?": "[[str]]", "hand?": "[str]", "hand_sizes?": "[int]"},
    "cards_captured": {"seat": "int", "card": "str", "groups": "[[str]]", "cards": "[str]"},
    "build_made": {"seat": "int", "card": "str", "onto": "[str]", "value": "int", "build": "str", "raised": "bool"},
    "card_trailed": {"seat": "int", "card": "str"},
    "table_swept": {"seat": "int", "card": "str", "cards": "[str]"},
    "table_collected": {"seat": "int", "cards": "[str]"},
    "round_scored": {"round": "int", "points": "[int]", "spades": "[int]", "cards": "[int]", "scores": "[int]"},
    "match_ended": {"ranking": "[[int]]", "scores": "[int]", "reason?": "str"},
    **SHARED_EVENTS,
}

# K3: values for capturing and building (courts and the broom have none)
VALUE = {code: (RANKS.index(code[:-1]) + 1 if code[:-1] not in COURTS else None)
         for code in CARDS[:52]}
VALUE.update({"X20": 20, "X15": 15, "X11": 11, BROOM: None})
# K13: the points carried by single cards
CARD_POINTS = {"X20": 10, "X15": 5, "X11": 3, "10D": 2, "2S": 2, "AS": 1, "AH": 1, "AD": 1, "AC": 1}

MOVE_TYPES = ("capture", "build", "trail", "sweep")
MOVE_KEYS = {
    "capture": frozenset({"type", "card", "groups"}),
    "build": frozenset({"type", "card", "onto", "value"}),
    "trail": frozenset({"type", "card"}),
    "sweep": frozenset({"type", "card"}),
    core.RESIGN: core.RESIGN_KEYS,
}


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Build:
    id: str
    cards: tuple[str, ...]
    value: int
    owner: int


@dataclass(frozen=True)
class State:
    seats: int
    deck: str                      # the K2 variant
    target: int
    seed: str
    counter: int = 0
    round: int = 0
    dealer: int = 0
    turn: int | None = None
    hands: tuple[tuple[str, ...], ...] = ()
    table: tuple[str, ...] = ()    # loose cards, in the order they came
    builds: tuple[Build, ...] = ()
    stock: tuple[str, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()   # per side
    leftover: tuple[str, ...] = ()            # K12 with no capturer
    last_capturer: int | None = None
    next_build: int = 1
    scores: tuple[int, ...] = ()              # per side
    last_points: tuple[int, ...] | None = None  # per side, the last deal's
    resigned: tuple[int, ...] = ()            # seats, in the order they resigned
    over: bool = False
    rules_version: int = 0                    # match_started's (the resigning rule changed in 2)


# --------------------------------------------------------------------------
# The rules, one small function each
# --------------------------------------------------------------------------

def side_count(seats: int) -> int:
    """K1. With 4, two partnerships sit opposite (seats 0+2 against 1+3) and share
    one capture pile and one score; with 2 or 3 everyone plays alone."""
    return 2 if seats == 4 else seats


def side_of(seat: int, seats: int) -> int:
    """K1. A side is a partnership or a lone player (side k holds seats k, k+2)."""
    return seat % side_count(seats)


def variant_cards(deck: str) -> tuple[str, ...]:
    """K2. `full` 56 cards = 52 standard + three jokers worth 20, 15 and 11 + the
    broom; `no_x20` and `no_broom` 55; `small` 54 (neither)."""
    return VARIANT_CARDS[deck]


def card_value(code: str) -> int | None:
    """K3. A = 1, 2–10 face value, jokers 20 / 15 / 11. Courts (J, Q, K) and the
    broom have no value: they never take part in sums or builds."""
    return VALUE[code]


def rank_of(code: str) -> str:
    return code[:-1] if code[:-1] in RANKS else code


def is_special(code: str) -> bool:
    return code in JOKERS or code == BROOM


def table_specials_go_back(seed: str, counter: int, deck: list[str], seats: int, table_size: int) -> dict[str, Any]:
    """K4. The dealer deals 4 cards to each seat, then the table cards face up. A
    joker or the broom dealt to the table goes back into the stock, which is
    reshuffled, and is replaced.

    Decided: one reshuffle (random draw ``counter``); the replacements are the
    first non-joker, non-broom cards of the reshuffled stock. Returns the
    fields the ``round_dealt`` event adds when this happens (else {})."""
    start = HAND_SIZE * seats
    table = deck[start:start + table_size]
    returned = [c for c in table if is_special(c)]
    if not returned:
        return {}
    stock = core.shuffled(seed, counter, deck[start + table_size:] + returned)
    replacements = [c for c in stock if not is_special(c)][:len(returned)]
    it = iter(replacements)
    new_table = [next(it) if is_special(c) else c for c in table]
    rest = [c for c in stock if c not in replacements]
    return {"returned": returned, "table": new_table, "stock": rest}


def redeal_due(state: State) -> bool:
    """K5. When every hand is empty, the same dealer deals 4 more to each seat,
    none to the table, until the stock is used up."""
    return not any(state.hands) and bool(state.stock)


def plays_one_card(state: State, seat: int, card: Any) -> None:
    """K6. On a turn a player plays exactly one card from hand."""
    if not isinstance(card, str):
        raise IllegalMove("malformed_move", "a move names its hand card in 'card'", "K6")
    if card not in variant_cards(state.deck):
        raise IllegalMove("unknown_card", f"{core.short(card)} is no card of this deck", "K2")
    if card not in state.hands[seat]:
        raise IllegalMove("card_not_in_hand", f"seat {seat} does not hold {card}", "K6")


@lru_cache(maxsize=8192)
def sum_groups(values: tuple[int, ...], v: int) -> tuple[int, ...]:
    """K7. ... each either a single loose card of value v, a set of loose cards
    whose values sum to v ... (bitmasks over ``values``)."""
    out: list[int] = []
    n = len(values)

    def walk(start: int, mask: int, total: int) -> None:
        for j in range(start, n):
            t = total + values[j]
            if t == v:
                out.append(mask | 1 << j)
            elif t < v:
                walk(j + 1, mask | 1 << j, t)

    walk(0, 0, 0)
    return tuple(out)


@lru_cache(maxsize=8192)
def capture_sets(values: tuple[int, ...], v: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """K7. Take one or more disjoint groups from the table. All equal cards may be
    taken at once.

    Every distinct set of loose cards (a bitmask over ``values``) that splits
    into disjoint groups of value v, each with one such split, by mask. A set
    splits when some group holding its lowest card does and the rest splits:
    one pass over the subsets of the cards that lie in some group."""
    groups = sum_groups(values, v)
    union = 0
    for g in groups:
        union |= g
    where = [i for i in range(len(values)) if union >> i & 1]
    small = tuple(values[i] for i in where)
    by_low: list[list[int]] = [[] for _ in where]
    for g in sum_groups(small, v):
        by_low[(g & -g).bit_length() - 1].append(g)
    sums = [0] * (1 << len(where))
    split: list[tuple[int, ...] | None] = [None] * len(sums)
    split[0] = ()
    found = []
    for mask in range(1, len(sums)):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = total = sums[mask & (mask - 1)] + small[low]
        if total % v:
            continue
        for g in by_low[low]:
            if g & mask == g and (rest := split[mask ^ g]) is not None:
                split[mask] = (g,) + rest
                found.append(mask)
                break

    def spread(mask: int) -> int:  # back to bits over ``values``, keeping the order
        out = 0
        while mask:
            low = mask & -mask
            out |= 1 << where[low.bit_length() - 1]
            mask ^= low
        return out

    return tuple((spread(m), tuple(spread(g) for g in split[m])) for m in found)  # type: ignore[union-attr]


def valued_group_is_valid(group: list[str], v: int, loose: set[str], builds: dict[str, Build]) -> bool:
    """K7. Each group is either a single loose card of value v, a set of loose
    cards whose values sum to v, or a build of value v."""
    if len(group) == 1 and group[0] in builds:
        return builds[group[0]].value == v
    if not all(c in loose and card_value(c) is not None for c in group):
        return False
    return sum(card_value(c) for c in group) == v  # type: ignore[misc]


def court_capture_is_valid(card: str, taken: list[str], table: tuple[str, ...]) -> bool:
    """K8. A J, Q or K takes exactly one table card of the same rank; if exactly
    three of that rank lie on the table, it takes one of them or all three."""
    same = [c for c in table if rank_of(c) == rank_of(card)]
    if not taken or any(c not in same for c in taken):
        return False
    return len(taken) == 1 or (len(taken) == 3 and len(same) == 3)


def sweep_is_capture(taken: list[str]) -> bool:
    """K9. The broom sweeps every card and build off the table into the side's
    pile, with the broom itself; it may be played at any time, also on an empty
    table, and is never trailed. A sweep that takes at least one card counts as
    a capture for K12."""
    return bool(taken)


def owned_build(state: State, seat: int) -> Build | None:
    """K10. The owner must take it on their own next turn (they may take other
    groups with it, or sweep). A player may own at most one build at a time."""
    return next((b for b in state.builds if b.owner == seat), None)


def build_targets(hand: tuple[str, ...], card: str) -> set[int]:
    """K10. ... so that the total equals the value of another card the player
    holds (never more than 20)."""
    others = list(hand)
    others.remove(card)
    return {v for c in others if (v := card_value(c)) is not None and v <= MAX_BUILD}


@lru_cache(maxsize=8192)
def subset_sums(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """K10. Put a valued hand card on one or more loose table cards: for each
    total below 20, every set of loose cards (bitmask) with that sum."""
    out: list[list[int]] = [[] for _ in range(MAX_BUILD)]
    n = len(values)

    def walk(start: int, mask: int, total: int) -> None:
        for j in range(start, n):
            t = total + values[j]
            if t < MAX_BUILD:
                out[t].append(mask | 1 << j)
                walk(j + 1, mask | 1 << j, t)

    walk(0, 0, 0)
    return tuple(tuple(sorted(masks)) for masks in out)


def may_trail(can_capture_or_build: bool, owns_build: bool, card: str) -> bool:
    """K11. Trail: allowed only when the player can neither capture nor build; a
    player who owns a build may never trail (the broom is never trailed and
    holding it forbids nothing)."""
    return card != BROOM and not can_capture_or_build and not owns_build


def last_capturer_takes_table(state: State) -> dict[str, Any] | None:
    """K12. After the last card of the last deal is played, the cards left on the
    table go to the side that captured last (decided: with no capture in the
    whole deal they score for nobody)."""
    cards = list(state.table) + [c for b in state.builds for c in b.cards]
    if not cards:
        return None
    return {"type": "table_collected", "seat": state.last_capturer, "cards": cards}


def spade_count(pile: Iterable[str]) -> int:
    """K13. ... most spades 2 (the jokers and the broom are no spades)."""
    return sum(1 for c in pile if c.endswith("S"))


def most_bonus(counts: list[int]) -> list[int]:
    """K14. Ties for most spades or most cards: two sides tied share, 1 point each;
    three or more tied: nobody scores it."""
    best = max(counts)
    tied = [i for i, n in enumerate(counts) if n == best]
    share = {1: 2, 2: 1}.get(len(tied), 0)
    return [share if i in tied else 0 for i in range(len(counts))]


def deal_points(piles: tuple[tuple[str, ...], ...]) -> tuple[list[int], list[int], list[int]]:
    """K13. The 20-joker 10, the 15-joker 5, the 11-joker 3, the ten of diamonds 2,
    the two of spades 2, each ace 1, most spades 2, most cards 2 (every card
    counts). Returns (points, spades, cards) per side."""
    spades = [spade_count(pile) for pile in piles]
    cards = [len(pile) for pile in piles]
    points = [sum(CARD_POINTS.get(c, 0) for c in pile) for pile in piles]
    for bonus in (most_bonus(spades), most_bonus(cards)):
        points = [p + b for p, b in zip(points, bonus)]
    return points, spades, cards


def match_is_decided(scores: tuple[int, ...], target: int, deals: int) -> bool:
    """K15. Deals continue until at least one side has reached the target at the
    end of a deal. The highest side wins; if the highest are tied, another deal
    is played (decided: never more than 300 deals)."""
    return deals >= MAX_DEALS or (MATCH_FORMAT(target).is_over(scores) and scores.count(max(scores)) == 1)


def resigned_sides(resigned: tuple[int, ...], seats: int, version: int = RULES_VERSION) -> list[int]:
    """docs/engine-contract.md "Resigning" (decided 2026-12-01 for K1's partnerships): a seat's resignation
    resigns its side — a partner who leaves forfeits for the pair; sides in the order their first
    seat resigned. (Rules versions 0 and 1: a side counted as resigned when all its seats had
    resigned, in the order its last seat resigned.)"""
    out: list[int] = []
    for i, seat in enumerate(resigned):
        side = side_of(seat, seats)
        if side in out:
            continue
        if version >= 2 or all(s in resigned[:i + 1] for s in range(seats) if side_of(s, seats) == side):
            out.append(side)
    return out


def resigning_ends_match(resigned: tuple[int, ...], seats: int, version: int = RULES_VERSION) -> bool:
    """docs/engine-contract.md: when resigning leaves one seat (or one side in Karuselis partnerships)
    not resigned, the match ends at once with it first."""
    return core.last_standing(range(side_count(seats)), resigned_sides(resigned, seats, version))


def final_ranking(scores: tuple[int, ...], target: int, resigned: tuple[int, ...], seats: int,
                  version: int = RULES_VERSION) -> list[list[int]]:
    """K15. The highest side wins. docs/engine-contract.md "Resigning": resigned sides rank below all
    others, the latest to resign best among them (by side; a side's seats share its place)."""
    by_side = core.rank_with_resignations(MATCH_FORMAT(target).ranking(scores),
                                          resigned_sides(resigned, seats, version))
    return [[s for s in range(seats) if side_of(s, seats) in place] for place in by_side]


def next_dealer(scores: tuple[int, ...], dealer: int, seats: int) -> int:
    """K15. The side with the fewest match points after the deal deals the next
    one: the first of its seats clockwise after the previous dealer; if sides
    tie for fewest, the deal passes to the next seat clockwise as usual."""
    low = min(scores)
    losers = [side for side, n in enumerate(scores) if n == low]
    if len(losers) > 1:
        return core.next_seat(dealer, seats)
    for step in range(1, seats + 1):
        seat = (dealer + step) % seats
        if side_of(seat, seats) == losers[0]:
            return seat
    raise AssertionError("every side has a seat")


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def _key(item: str) -> int:
    """Rank-then-suit order for card codes, then builds by number ("b3")."""
    return ORDER[item] if item in ORDER else 1000 + int(item[1:])


def _sorted_codes(items: Iterable[str]) -> list[str]:
    return sorted(items, key=_key)


def _bits(mask: int, items: list[str]) -> list[str]:
    return [items[i] for i in range(len(items)) if mask >> i & 1]


def _without(items: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    gone = set(gone)
    return tuple(c for c in items if c not in gone)


def _remove_one(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1:]


def _per_seat(per_side: Sequence[Any], seats: int) -> list[Any]:
    return [per_side[side_of(s, seats)] for s in range(seats)]


def _loose_valued(state: State) -> tuple[list[str], tuple[int, ...]]:
    """The loose cards that have a value, in ``ORDER``, and their values."""
    loose = _sorted_codes(c for c in state.table if card_value(c) is not None)
    return loose, tuple(card_value(c) for c in loose)  # type: ignore[misc]


# --------------------------------------------------------------------------
# The game object
# --------------------------------------------------------------------------

class Karuselis(core.Game):
    name = "karuselis"
    MIN_SEATS = MIN_SEATS
    MAX_SEATS = MAX_SEATS
    MAX_EVENTS = MAX_EVENTS

    OPTIONS = {
        "deck": ("full", tuple(VARIANTS)),
        "target": (None, core.int_between(1, MAX_TARGET, none=True)),
    }

    # ---- shape ------------------------------------------------------------
    def cards(self) -> list[str]:
        return list(CARDS)

    # ---- start --------------------------------------------------------------
    def start(self, seats: int, seed: str, options: dict[str, Any] | None = None,
              deck: list[str] | None = None) -> list[dict[str, Any]]:
        core.check_seats(seats, MIN_SEATS, MAX_SEATS, self.name)
        if not isinstance(seed, str):
            raise ValueError("karuselis: the seed is a string")
        opts = core.check_options(options, self.OPTIONS, self.name)
        if opts["target"] is None:
            opts["target"] = VARIANTS[opts["deck"]][1]
        stacked = core.check_deck(deck, variant_cards(opts["deck"]), self.name)
        first = {"type": "match_started", "seats": seats, "options": opts, "seed": seed,
                 "rules_version": RULES_VERSION}
        state = self.apply(None, first)
        return [first, self._deal_event(state, 1, 0, stacked)]

    def _deal_event(self, state: State, round_no: int, dealer: int, deck: list[str] | None = None) -> dict[str, Any]:
        if deck is None:
            deck = core.shuffled(state.seed, state.counter, variant_cards(state.deck))
        start, size = HAND_SIZE * state.seats, VARIANTS[state.deck][2]
        event = {"type": "round_dealt", "round": round_no, "dealer": dealer, "deck": list(deck),
                 "table": list(deck[start:start + size])}
        event.update(table_specials_go_back(state.seed, state.counter + 1, list(deck), state.seats, size))
        return event

    # ---- apply --------------------------------------------------------------
    def apply(self, state: State | None, event: dict[str, Any]) -> State:
        kind = event["type"]
        if kind == "match_started":
            n = event["seats"]
            return State(seats=n, deck=event["options"]["deck"], target=event["options"]["target"],
                         seed=event["seed"], piles=((),) * side_count(n), scores=(0,) * side_count(n),
                         rules_version=event.get("rules_version", 0))
        return getattr(self, "_apply_" + kind)(state, event)  # type: ignore[no-any-return]

    def _apply_round_dealt(self, s: State, e: dict[str, Any]) -> State:
        n, deck = s.seats, e["deck"]
        hands = tuple(tuple(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(n))
        table = tuple(e["table"])
        if "returned" in e:
            stock, used = tuple(e["stock"]), 2
        else:
            stock, used = tuple(deck[HAND_SIZE * n + len(table):]), 1
        return replace(s, counter=s.counter + used, round=e["round"], dealer=e["dealer"],
                       turn=core.next_seat(e["dealer"], n), hands=hands, table=table, builds=(),
                       stock=stock, piles=((),) * side_count(n), leftover=(), last_capturer=None)

    def _apply_cards_dealt(self, s: State, e: dict[str, Any]) -> State:
        hands = tuple(tuple(h) for h in e["hands"])
        return replace(s, hands=hands, stock=s.stock[sum(len(h) for h in hands):])

    def _played(self, s: State, seat: int, card: str, **changes: Any) -> State:
        hands = _replace_at(s.hands, seat, _remove_one(s.hands[seat], card))
        return replace(s, hands=hands, turn=core.next_seat(seat, s.seats), **changes)

    def _to_pile(self, s: State, seat: int, cards: Iterable[str]) -> tuple[tuple[str, ...], ...]:
        side = side_of(seat, s.seats)
        return _replace_at(s.piles, side, s.piles[side] + tuple(cards))

    def _apply_cards_captured(self, s: State, e: dict[str, Any]) -> State:
        seat, taken = e["seat"], [x for g in e["groups"] for x in g]
        ids = {x for x in taken if x not in ORDER}
        return self._played(s, seat, e["card"], table=_without(s.table, taken),
                            builds=tuple(b for b in s.builds if b.id not in ids),
                            piles=self._to_pile(s, seat, [e["card"], *e["cards"]]), last_capturer=seat)

    def _apply_build_made(self, s: State, e: dict[str, Any]) -> State:
        seat, card = e["seat"], e["card"]
        if e["raised"]:
            builds = tuple(replace(b, cards=b.cards + (card,), value=e["value"], owner=seat)
                           if b.id == e["build"] else b for b in s.builds)
            return self._played(s, seat, card, builds=builds)
        build = Build(e["build"], tuple(e["onto"]) + (card,), e["value"], seat)
        return self._played(s, seat, card, table=_without(s.table, e["onto"]),
                            builds=s.builds + (build,), next_build=s.next_build + 1)

    def _apply_card_trailed(self, s: State, e: dict[str, Any]) -> State:
        return self._played(s, e["seat"], e["card"], table=s.table + (e["card"],))

    def _apply_table_swept(self, s: State, e: dict[str, Any]) -> State:
        seat = e["seat"]
        return self._played(s, seat, e["card"], table=(), builds=(),
                            piles=self._to_pile(s, seat, [e["card"], *e["cards"]]),
                            last_capturer=seat if sweep_is_capture(e["cards"]) else s.last_capturer)

    def _apply_table_collected(self, s: State, e: dict[str, Any]) -> State:
        if e["seat"] is None:
            return replace(s, table=(), builds=(), leftover=s.leftover + tuple(e["cards"]))
        return replace(s, table=(), builds=(), piles=self._to_pile(s, e["seat"], e["cards"]))

    def _apply_round_scored(self, s: State, e: dict[str, Any]) -> State:
        sides = side_count(s.seats)  # seat k < sides sits on side k
        return replace(s, scores=tuple(e["scores"][:sides]), last_points=tuple(e["points"][:sides]))

    def _apply_seat_resigned(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, resigned=s.resigned + (e["seat"],))

    def _apply_match_ended(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, over=True, turn=None)

    # ---- legal moves --------------------------------------------------------
    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state is None or state.over or seat != state.turn:
            return []
        owned = owned_build(state, seat)
        captures = self._captures(state, seat, owned)
        builds = [] if owned else self._builds(state, seat)
        hand = state.hands[seat]
        trails = [{"type": "trail", "card": c} for c in hand
                  if may_trail(bool(captures or builds), owned is not None, c)]
        sweep = [{"type": "sweep", "card": BROOM}] if BROOM in hand else []
        return captures + builds + trails + sweep

    def _captures(self, state: State, seat: int, owned: Build | None) -> list[dict[str, Any]]:
        loose, values = _loose_valued(state)
        moves = []
        for card in state.hands[seat]:
            v = card_value(card)
            if v is None:
                if card != BROOM and owned is None:
                    moves.extend(self._court_captures(state, card))
                continue
            if owned is not None and owned.value != v:
                continue
            sets = ((0, ()),) + capture_sets(values, v)
            same = [b for b in state.builds if b.value == v]
            for bmask in range(1 << len(same)):
                chosen = [b for i, b in enumerate(same) if bmask >> i & 1]
                if owned is not None and owned not in chosen:
                    continue
                for mask, split in sets:
                    if not mask and not chosen:
                        continue
                    groups = [_bits(g, loose) for g in split] + [[b.id] for b in chosen]
                    moves.append({"type": "capture", "card": card, "groups": groups})
        return moves

    def _court_captures(self, state: State, card: str) -> list[dict[str, Any]]:
        same = [c for c in state.table if rank_of(c) == rank_of(card)]
        moves = [{"type": "capture", "card": card, "groups": [[c]]} for c in same]
        if len(same) == 3:
            moves.append({"type": "capture", "card": card, "groups": [[c] for c in _sorted_codes(same)]})
        return moves

    def _builds(self, state: State, seat: int) -> list[dict[str, Any]]:
        loose, values = _loose_valued(state)
        hand = state.hands[seat]
        moves = []
        sums = subset_sums(values) if loose else None
        for card in hand:
            v = card_value(card)
            if v is None:
                continue
            targets = sorted(t for t in build_targets(hand, card) if t > v)
            for t in targets:
                if sums is not None:
                    for mask in sums[t - v]:
                        moves.append({"type": "build", "card": card, "onto": _bits(mask, loose),
                                      "value": t})
                for b in state.builds:  # an owner never gets here (K10 duty), so all are others'
                    if b.value + v == t:
                        moves.append({"type": "build", "card": card, "onto": [b.id], "value": t})
        return moves

    # ---- play ---------------------------------------------------------------
    def play(self, state: State, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
        kind = core.guard_move(move, MOVE_KEYS)
        if state.over:
            raise IllegalMove("match_over", "the match is over")
        if kind == core.RESIGN:
            return self._resign(state, seat)
        if not core.is_seat(seat, state.seats) or seat != state.turn:
            raise IllegalMove("not_your_turn",
                              f"seat {core.short(seat)} cannot play: it is seat {state.turn}'s turn", "K4")
        card = move.get("card")
        plays_one_card(state, seat, card)
        event = getattr(self, "_check_" + move["type"])(state, seat, card, move)
        return self._consequences(state, event)

    def _resign(self, state: State, seat: int) -> list[dict[str, Any]]:
        """docs/engine-contract.md "Resigning": legal for any seat that has not resigned, in or out of turn;
        when it leaves one side not resigned, the match ends at once with it first."""
        core.may_resign(seat, state.seats, state.resigned)
        event = core.seat_resigned(seat)
        after = self.apply(state, event)
        if not resigning_ends_match(after.resigned, after.seats, after.rules_version):
            return [event]
        return [event, {"type": "match_ended", **self.outcome(replace(after, over=True))}]  # type: ignore[dict-item]

    def _check_capture(self, state: State, seat: int, card: str, move: dict[str, Any]) -> dict[str, Any]:
        groups = move.get("groups")
        if (not isinstance(groups, list) or not groups
                or not all(isinstance(g, list) and g and all(isinstance(x, str) for x in g) for g in groups)):
            raise IllegalMove("malformed_move", "'groups' is a non-empty list of non-empty lists of codes", "K7")
        on_table = len(state.table) + len(state.builds)
        if sum(len(g) for g in groups) > on_table:
            raise IllegalMove("malformed_move", f"a capture takes at most the {on_table} items on the table", "K7")
        taken = [x for g in groups for x in g]
        if len(set(taken)) != len(taken):
            raise IllegalMove("groups_overlap", "the groups taken must be disjoint", "K7")
        builds = {b.id: b for b in state.builds}
        missing = [x for x in taken if x not in builds and x not in state.table]
        if missing:
            raise IllegalMove("not_on_table", f"{core.short(missing)} is not on the table", "K7")
        if card == BROOM:
            raise IllegalMove("broom_sweeps", "the broom does not capture: it sweeps", "K9")
        owned = owned_build(state, seat)
        if owned is not None and owned.id not in taken:
            raise IllegalMove("must_take_build", f"seat {seat} must take its build {owned.id}", "K10")
        v = card_value(card)
        if v is None:
            if not court_capture_is_valid(card, taken, state.table):
                raise IllegalMove("court_takes_its_pair",
                                  f"{card} takes one card of its rank, or all three of them", "K8")
        else:
            loose = set(state.table)
            for g in groups:
                if not valued_group_is_valid(g, v, loose, builds):
                    raise IllegalMove("bad_group", f"{core.short(g)} is no group of value {v}", "K7")
        canon = sorted((_sorted_codes(g) for g in groups), key=lambda g: _key(g[0]))
        cards = [c for x in _sorted_codes(taken) for c in (builds[x].cards if x in builds else (x,))]
        return {"type": "cards_captured", "seat": seat, "card": card, "groups": canon, "cards": cards}

    def _check_build(self, state: State, seat: int, card: str, move: dict[str, Any]) -> dict[str, Any]:  # noqa: C901 - one check per clause of the build rule, in the rulebook's order
        onto, value = move.get("onto"), move.get("value")
        if (not isinstance(onto, list) or not onto or not all(isinstance(x, str) for x in onto)
                or not core.positive_int(value)):
            raise IllegalMove("malformed_move", "a build names 'onto' (codes or one build id) and its 'value'", "K10")
        if len(onto) > max(1, len(state.table)):
            raise IllegalMove("malformed_move", "'onto' names loose table cards or one build", "K10")
        if len(set(onto)) != len(onto):
            raise IllegalMove("malformed_move", "'onto' names a card twice", "K10")
        v = card_value(card)
        if v is None:
            raise IllegalMove("no_value", f"{card} has no value and cannot build", "K3")
        builds = {b.id: b for b in state.builds}
        target = builds.get(onto[0]) if len(onto) == 1 else None
        if target is None:
            if any(x in builds for x in onto):
                raise IllegalMove("bad_build", "a build goes on loose cards or on exactly one build", "K10")
            missing = [x for x in onto if x not in state.table]
            if missing:
                raise IllegalMove("not_on_table", f"{core.short(missing)} is not on the table", "K10")
            if any(card_value(x) is None for x in onto):
                raise IllegalMove("no_value", "courts have no value and take no part in builds", "K3")
        owned = owned_build(state, seat)
        if owned is not None:
            if target is owned:
                raise IllegalMove("own_build", "the owner cannot raise its own build", "K10")
            raise IllegalMove("must_take_build", f"seat {seat} owns build {owned.id} and must take it", "K10")
        total = v + (target.value if target else sum(card_value(x) for x in onto))  # type: ignore[misc]
        if total != value:
            raise IllegalMove("wrong_build_value", f"the build is worth {total}, not {core.short(value)}", "K10")
        if total > MAX_BUILD:
            raise IllegalMove("build_too_high", "a build is worth at most 20", "K10")
        if total not in build_targets(state.hands[seat], card):
            raise IllegalMove("no_card_for_build", f"seat {seat} holds no other card of value {total}", "K10")
        if target is not None:
            return {"type": "build_made", "seat": seat, "card": card, "onto": [target.id], "value": total,
                    "build": target.id, "raised": True}
        return {"type": "build_made", "seat": seat, "card": card, "onto": _sorted_codes(onto), "value": total,
                "build": f"b{state.next_build}", "raised": False}

    def _check_trail(self, state: State, seat: int, card: str, move: dict[str, Any]) -> dict[str, Any]:
        if card == BROOM:
            raise IllegalMove("broom_never_trailed", "the broom sweeps; it is never trailed", "K9")
        if owned_build(state, seat) is not None:
            raise IllegalMove("must_take_build", f"seat {seat} owns a build and must take it", "K10")
        if self._captures(state, seat, None) or self._builds(state, seat):
            raise IllegalMove("must_capture_or_build", "a card is trailed only when nothing can be captured "
                              "or built", "K11")
        return {"type": "card_trailed", "seat": seat, "card": card}

    def _check_sweep(self, state: State, seat: int, card: str, move: dict[str, Any]) -> dict[str, Any]:
        if card != BROOM:
            raise IllegalMove("sweep_needs_broom", "only the broom sweeps", "K9")
        cards = list(state.table) + [c for b in state.builds for c in b.cards]
        return {"type": "table_swept", "seat": seat, "card": BROOM, "cards": cards}

    def _consequences(self, state: State, event: dict[str, Any]) -> list[dict[str, Any]]:
        events = [event]
        s = self.apply(state, event)
        if any(s.hands):
            return events
        if redeal_due(s):
            n = s.seats
            hands = [list(s.stock[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(n)]
            return events + [{"type": "cards_dealt", "hands": hands}]
        collected = last_capturer_takes_table(s)
        if collected is not None:
            events.append(collected)
            s = self.apply(s, collected)
        points, spades, cards = deal_points(s.piles)
        totals = [a + b for a, b in zip(s.scores, points)]
        scored = {"type": "round_scored", "round": s.round, "points": _per_seat(points, s.seats),
                  "spades": _per_seat(spades, s.seats), "cards": _per_seat(cards, s.seats),
                  "scores": _per_seat(totals, s.seats)}
        events.append(scored)
        s = self.apply(s, scored)
        if match_is_decided(s.scores, s.target, s.round):
            result = self.outcome(replace(s, over=True))
            events.append({"type": "match_ended", **result})  # type: ignore[dict-item]
            return events
        events.append(self._deal_event(s, s.round + 1, next_dealer(s.scores, s.dealer, s.seats)))
        return events

    # ---- views ----------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        """The seat whose turn it is (nobody acts out of turn in Karuselis), without building a view."""
        return [] if state.over or state.turn is None else [state.turn]

    def score_order(self, options: dict[str, Any] | None) -> ScoreOrder:
        """K12-K15: points are counted up; the side with most points wins."""
        return "higher"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        n = state.seats
        out = {
            "seats": n,
            "turn": state.turn,
            "over": state.over,
            "outcome": self.outcome(state),
            "to_act": [] if state.over or state.turn is None else [state.turn],
            "hand": list(state.hands[seat]) if seat is not None and state.hands else [],
            "hand_sizes": [len(h) for h in state.hands],
            "table": {
                "cards": list(state.table),
                "builds": [{"id": b.id, "cards": list(b.cards), "value": b.value, "owner": b.owner}
                           for b in state.builds],
            },
            "pile_sizes": _per_seat([len(p) for p in state.piles], n),
            "spades": _per_seat([spade_count(p) for p in state.piles], n),
            "scores": _per_seat(state.scores, n),
            "last_points": _per_seat(state.last_points, n) if state.last_points else None,
            "sides": [side_of(s, n) for s in range(n)],
            "round": state.round,
            "dealer": state.dealer,
            "stock_size": len(state.stock),
            "last_capturer": state.last_capturer,
            "deck": state.deck,
            "target": state.target,
            "resigned": list(state.resigned),
        }
        if state.over:
            out["hands"] = [list(h) for h in state.hands]
            out["piles"] = _per_seat([list(p) for p in state.piles], n)
        return out

    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        kind = event["type"]
        if kind == "match_started":
            return {k: v for k, v in event.items() if k != "seed"}
        if kind == "round_dealt":
            out = {"type": kind, "round": event["round"], "dealer": event["dealer"], "table": event["table"]}
            if "returned" in event:
                out["returned"] = len(event["returned"])
            if seat is not None:
                out["hand"] = event["deck"][seat * HAND_SIZE:(seat + 1) * HAND_SIZE]
            return out
        if kind == "cards_dealt":
            out = {"type": kind, "hand_sizes": [len(h) for h in event["hands"]]}
            if seat is not None:
                out["hand"] = list(event["hands"][seat])
            return out
        return event

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state is None or not state.over:
            return None
        scores = _per_seat(state.scores, state.seats)
        return {"ranking": final_ranking(state.scores, state.target, state.resigned, state.seats,
                                         state.rules_version),
                "scores": scores}

    # ---- protocol hooks ---------------------------------------------------------
    def all_cards(self, state: State) -> list[str]:
        out = [c for h in state.hands for c in h] + list(state.table) + list(state.stock)
        out += [c for b in state.builds for c in b.cards] + [c for p in state.piles for c in p]
        return out + list(state.leftover)

    def hidden_cards(self, state: State, seat: int | None) -> list[str]:
        if state.over:
            return []
        hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h]
        return hidden + list(state.stock)

    # ---- determinization (search bots: engine/bots/search.py) ----------------------
    def sample_state(self, view: dict[str, Any], seat: int, rng: Random,
                     legal: list[dict[str, Any]] | None = None) -> State:
        """A full state consistent with ``seat``'s ``view``: its own hand, the table and the
        builds as shown, every public count copied; the cards it cannot see (the deck's cards
        less its hand and the table) dealt at random to the other hands, the capture piles
        and the stock by their sizes, each pile holding exactly as many spades as the view
        counts for it (the piles lie face down: only their sizes and spades are public).
        The seed is a dummy drawn from ``rng``; ``legal`` is unused."""
        n = view["seats"]
        sides = side_count(n)
        hand = tuple(view["hand"])
        table = tuple(view["table"]["cards"])
        builds = tuple(Build(b["id"], tuple(b["cards"]), b["value"], b["owner"]) for b in view["table"]["builds"])
        seen = set(hand) | set(table) | {c for b in builds for c in b.cards}
        unseen = [c for c in variant_cards(view["deck"]) if c not in seen]
        spades = [c for c in unseen if c.endswith("S")]
        others = [c for c in unseen if not c.endswith("S")]
        rng.shuffle(spades)
        rng.shuffle(others)
        piles = []
        for side in range(sides):
            size, k = view["pile_sizes"][side], view["spades"][side]
            pile = spades[:k] + others[:size - k]
            del spades[:k]
            del others[:size - k]
            piles.append(tuple(pile))
        rest = spades + others
        rng.shuffle(rest)
        hands = []
        for s in range(n):
            if s == seat:
                hands.append(hand)
            else:
                size = view["hand_sizes"][s]
                hands.append(tuple(rest[:size]))
                del rest[:size]
        numbers = [int(b.id[1:]) for b in builds if b.id[1:].isdigit()]
        last = view.get("last_points")
        return State(
            seats=n, deck=view["deck"], target=view["target"], seed=f"search-{rng.getrandbits(64):016x}",
            counter=0, round=view["round"], dealer=view["dealer"], turn=view["turn"], hands=tuple(hands),
            table=table, builds=builds, stock=tuple(rest), piles=tuple(piles), leftover=(),
            last_capturer=view["last_capturer"], next_build=max(numbers, default=0) + 1,
            scores=tuple(view["scores"][:sides]), last_points=tuple(last[:sides]) if last else None,
            resigned=tuple(view["resigned"]), over=False, rules_version=RULES_VERSION)


#: The registry name (docs/engine-contract.md "Module attributes") and the game object the registry hands out.
GAME = "karuselis"
game: SearchableGame = Karuselis()  # checked against the engine contract (engine.protocol)
OPTIONS = Karuselis.OPTIONS
