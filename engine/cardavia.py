"""Cardavia: the swapping game of matadors, played to elimination on lives.

A form of the Scandinavian Gnav (rules: ``tests/fixtures/rules/cardavia.md``, C1–C12;
the seed's text is the authority where it differs from classic Gnav: its Cat
undoes every swap of the deal). 42 cards, two of each of 21 ranks without
suits. Every deal each participant (alive, not resting) gets one hidden card
and, clockwise from the dealer's left with the dealer last, keeps it or asks
the next participant to swap; the dealer's ask goes to the stock. Matadors
answer a request by their rule (Cuckoo stops the deal, Dragoon and Cat chop a
life from the asker, the Cat also undoes the deal's swaps, Horse and House pass
the request on). At settlement the lowest card loses a life, with the Fool's
rules. A seat at zero lives is out; the last seat alive wins.

Moves: ``{"type": "keep"}`` and ``{"type": "ask"}``; everything else
(refusals, swaps, chops, the undo, settlement, the next deal, the end of the
match) follows inside ``play``'s events.

Decided points beyond the rules text:

- Option ``lives`` is an integer from 1 to ``MAX_LIVES`` (10), so that
  ``MAX_EVENTS`` is a real bound.
- A matador that refuses (or a Cuckoo that is shown) is shown to all, like a
  knocked Fool: ``face_up`` follows the physical card through swaps and the
  undo, as everyone can follow it. A card that a participant gives to the stock
  goes under it face down unless it was face up already.
- A Horse or House drawn from the stock is set aside face up and the next card
  drawn; a Cuckoo, Dragoon or Cat drawn from the stock is shown and set aside
  too (it acts, it is not exchanged).
- A stock exchange always ends the deal (C7: the dealer was the last to act,
  or was passed over), so a Cat can never find one to undo: the undo list holds
  the seat-to-seat swaps of the deal since the last undo.
- A seat chopped to zero (C8) leaves at once; its card stays face down in its
  place, out of the settlement, and a later Cat's undo still moves cards
  through that place so that every seat gets back exactly what it gave.
- The Cat's undo reveals nothing. A participant is only ever asked before it
  has had a turn, so when asked it still holds the card it was dealt; undoing
  a swap gives each of its two seats back the card it gave, which it held; and
  once every swap is undone each seat holds the card it was dealt. The
  ``swaps_undone`` event therefore names only the pairs of seats (newest
  first), never a card, and each seat's view shows its own card again.
- "One Fool in play" counts the Fools held by the participants at settlement
  (not one under the stock or with a chopped-out seat).
- A skipped deal (C11) has no dealer: the dealer does not move, the resting
  seats return, and the round counter still advances.
- The first deal: seat 0 deals (docs/engine-contract.md), so seat 1 acts first.
- Moves: every move first passes ``core.guard_move`` (bounds in
  ``core.MOVE_BOUNDS``; code ``malformed_move``, rule C4); keep, ask and resign
  carry no field but ``type``.
- Resigning (docs/engine-contract.md "Resigning (every game)"): ``{"type": "resign"}``
  records ``seat_resigned``, also by a seat that is out; a resigned seat keeps
  its card, its turns and its lives. Seats already out are not "not resigned"
  seats for the end: the match ends as soon as at most one seat that is alive
  and has not resigned remains (``still_contending``): at once after the
  resignation, after a chop (C8) mid-deal, or at the end of a deal (C12). The
  ranking is C12's elimination ranking with the resigned seats below all, the
  latest to resign best among them (``core.rank_with_resignations``; an alive
  resigned seat is no longer among the alive seats that share first place).
  The view lists ``resigned`` (seats, in the order they resigned).

Stacked decks (docs/engine-contract.md): the participants of the first deal (every seat)
receive one card each in seat order, the rest is the stock, top first. Later
deals are shuffled from the seed with ``core.shuffled(seed, counter, cards())``
and the order is written into ``cards_dealt``; ``apply`` advances the counter on
every deal.

Events (every one JSON-ready; ``seat`` is the seat that caused it):
``match_started`` {seats, options, seed} · ``cards_dealt`` {round, dealer,
resting, order (turn order, dealer last), deck} · ``deal_skipped`` {round,
resting} · ``fool_knocked`` {seat, card} · ``turn_passed`` {seat} ·
``card_kept`` {seat} · ``swap_asked`` {seat, target: a seat, or null for the
stock} · ``swap_refused`` {seat (the matador's holder), card, asker} ·
``cards_swapped`` {seat (the asker), target, gave, got} · ``stock_drawn``
{seat, card} (a matador, shown and set aside) · ``stock_exchanged`` {seat,
gave, got} · ``life_lost`` {seat, lives (left), rule, card (for a chop)} ·
``seat_eliminated`` {seat, round} · ``swaps_undone`` {seat (the Cat's holder,
null for the stock's Cat), swaps: [[asker, target]…] newest first} ·
``deal_settled`` {round, cards (per seat, null for non-participants), losers,
rest (the seats resting next deal)} · ``deal_ended`` {round} (C8, no
settlement) · ``seat_resigned`` {seat} · ``match_ended`` {ranking, scores}.

View keys beyond docs/engine-contract.md's: ``participants`` (turn order, dealer last),
``set_aside``, ``stock_size``, ``last_log`` (the previous deal's log, with its
settlement), ``seat``, and after the match ``hands`` (every seat's card).

What a seat knows (``view``/``redact``): its own card; face-up cards; who asked
whom, refusals and the refusing matador; lives; in a swap, both swappers see
both cards (each received one and knew the one it gave), third parties neither;
in a stock exchange only the asker sees its cards; the settlement shows every
participant's card. ``redact`` drops the seed from ``match_started``, turns
``cards_dealt``'s deck into the seat's own ``card`` and the ``stock_size``, and
drops ``gave``/``got`` from the swaps and exchanges a seat was not part of.
``hidden_cards`` (protocol-test hook) lists the codes of
the cards out of the seat's sight (the stock, other seats' face-down cards),
leaving out the codes the seat was legitimately shown in this deal or the one
before it, or at the last settlement: its view shows the last deal's log and
settlement, and the play that ends a deal also deals the next one, so those
codes appear in its event feed next to the new deal.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine import core
from engine.core import IllegalMove
from engine.protocol import SHARED_EVENTS, ScoreOrder, SearchableGame

if TYPE_CHECKING:
    from random import Random

# --------------------------------------------------------------------------
# The game's shape, as data
# --------------------------------------------------------------------------

NAME = "cardavia"
#: The version of these rules as recorded in ``match_started``: bump it with any change that
#: alters events, and keep replaying the older versions (``engine.verify`` names the one a record needs).
RULES_VERSION = 1
MIN_SEATS, MAX_SEATS = 3, 6
RANKS = ("FOOL", "OWL", "POT", *(str(n) for n in range(13)),
         "HOUSE", "HORSE", "CAT", "DRAGOON", "CUCKOO")      # lowest to highest (C1)
RANK = {code: i for i, code in enumerate(RANKS)}
COPIES = 2
MATADORS = frozenset(RANKS[-5:])
PASSERS = frozenset({"HORSE", "HOUSE"})                     # refuse, pass the request on
CHOPPERS = frozenset({"DRAGOON", "CAT"})                    # refuse, cost the asker a life
FOOL, CAT, CUCKOO = "FOOL", "CAT", "CUCKOO"
DEFAULT_LIVES = 3
MAX_LIVES = 10
OPTIONS = {"lives": (DEFAULT_LIVES, core.int_between(1, MAX_LIVES))}
MATCH_FORMAT = core.Elimination(lives=DEFAULT_LIVES)     # the option ``lives`` replaces the count
MOVES = ("keep", "ask")
MOVE_KEYS = {"keep": frozenset({"type"}), "ask": frozenset({"type"}), core.RESIGN: core.RESIGN_KEYS}
# Every played deal costs at least one life (a settlement always has a loser;
# a deal ends early only after a chop) and a skipped deal only follows a played
# one, so a match has at most 2 * seats * lives deals. Per deal: the deal, a
# skip, two knocks, at most 6 turns of at most 25 events (turn, ask, up to 5
# asks and 5 refusals along a chain, up to 5 stock draws, the swap, a knock,
# the life, the elimination, the undo, the early end), then the settlement with
# up to 6 lives and 6 eliminations and the end: under 200.
EVENTS_PER_DEAL = 200
MAX_EVENTS = 1 + 2 * MAX_SEATS * MAX_LIVES * EVENTS_PER_DEAL + MAX_SEATS  # + resignations

#: Every event this game emits and its keys (``engine.protocol``'s vocabulary; ``key?``: may be absent or redacted).
EVENTS = {
    "match_started": {"seats": "int", "options": "options", "seed?": "str", "rules_version": "int"},
    "cards_dealt": {"round": "int", "dealer": "int", "order": "[int]", "resting": "[int]", "deck?": "[str]",
                    "card?": "str", "stock_size?": "int"},
    "deal_skipped": {"round": "int", "resting": "[int]"},
    "fool_knocked": {"seat": "int", "card": "str"},
    "turn_passed": {"seat": "int"},
    "card_kept": {"seat": "int"},
    "swap_asked": {"seat": "int", "target": "int|null"},
    "swap_refused": {"seat": "int", "card": "str", "asker": "int"},
    "cards_swapped": {"seat": "int", "target": "int", "gave?": "str", "got?": "str"},
    "stock_exchanged": {"seat": "int", "gave?": "str", "got?": "str"},
    "stock_drawn": {"seat": "int", "card": "str"},
    "life_lost": {"seat": "int", "lives": "int", "card?": "str", "rule": "str"},
    "seat_eliminated": {"seat": "int", "round": "int"},
    "swaps_undone": {"seat": "int|null", "swaps": "[[int]]"},
    "deal_ended": {"round": "int"},
    "deal_settled": {"round": "int", "cards": "[str|null]", "losers": "[int]", "rest": "[int]"},
    "match_ended": {"ranking": "[[int]]", "scores": "[int]", "reason?": "str"},
    **SHARED_EVENTS,
}

# Events kept in the deal's log (the view shows them as the seat may know them).
LOGGED = frozenset({"fool_knocked", "card_kept", "swap_asked", "swap_refused", "cards_swapped",
                    "stock_drawn", "stock_exchanged", "life_lost", "seat_eliminated",
                    "swaps_undone", "deal_settled", "deal_ended", "deal_skipped"})


def cards() -> list[str]:
    """C1. 42 cards: two of each of 21 ranks, lowest to highest."""
    return [code for code in RANKS for _ in range(COPIES)]


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class State:
    seats: int
    options: dict[str, Any]
    seed: str
    counter: int = 0
    lives: tuple[int, ...] = ()
    out_round: tuple[int | None, ...] = ()       # per seat: the round in which it went out, or None
    round: int = 0
    dealer: int = 0
    resting: tuple[int, ...] = ()         # seats resting in this deal
    order: tuple[int, ...] = ()           # participants still in the deal, in turn order, dealer last
    hands: tuple[str | None, ...] = ()           # per seat: its card or None (a chopped-out seat's card stays put)
    stock: tuple[str, ...] = ()           # top first
    set_aside: tuple[str, ...] = ()       # matadors drawn from the stock, face up
    face_up: tuple[str | None, ...] = ()         # per seat: the code of its card if shown to all, else None
    turn: int | None = None
    swaps: tuple[tuple[int, int], ...] = ()           # (asker, target) swaps of this deal since the last undo, oldest first
    log: tuple[dict[str, Any], ...] = ()             # this deal's logged events, unredacted
    last_log: tuple[dict[str, Any], ...] = ()        # the previous deal's
    revealed: tuple[str | None, ...] = ()        # per seat: its card at the last settlement, or None
    seen: tuple[frozenset[str], ...] = ()            # per seat, then the public: frozenset of codes shown this deal
    last_seen: tuple[frozenset[str], ...] = ()       # the same for the previous deal
    resigned: tuple[int, ...] = ()        # seats, in the order they resigned
    ended: bool = False
    result: dict[str, Any] | None = None


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(items)
    out[index] = value
    return tuple(out)


def _swap(items: tuple[Any, ...], a: int, b: int) -> tuple[Any, ...]:
    out = list(items)
    out[a], out[b] = out[b], out[a]
    return tuple(out)


def _show(seen: tuple[frozenset[str], ...], who: int | None,
          codes: Iterable[Any]) -> tuple[frozenset[str], ...]:
    """Add ``codes`` to what ``who`` (an index, or None for everyone) was shown."""
    codes = frozenset(c for c in codes if c is not None)
    return tuple(s | codes if who is None or i == who else s for i, s in enumerate(seen))


# --------------------------------------------------------------------------
# The rules, one small function each
# --------------------------------------------------------------------------

def participants_of(lives: Sequence[int], resting: Collection[int]) -> list[int]:
    """C2. A participant is a seat that is alive and not resting."""
    return [s for s, n in enumerate(lives) if n > 0 and s not in resting]


def next_dealer(last_dealer: int, participants: list[int], seats: int) -> int:
    """C2. The dealer of a new deal is the first participant clockwise from the last dealer."""
    for step in range(1, seats + 1):
        seat = (last_dealer + step) % seats
        if seat in participants:
            return seat
    raise AssertionError("a deal needs participants")


def turn_order(dealer: int, participants: list[int], seats: int) -> list[int]:
    """C2. Turns go clockwise from the dealer's left; the dealer acts last."""
    return sorted(participants, key=lambda s: (s - dealer - 1) % seats)


def is_knocked(card: str) -> bool:
    """C3. A participant dealt a Fool must knock: that Fool is shown face up to everyone."""
    return card == FOOL


def must_swap(card: str) -> bool:
    """C5. An asked participant holding a number, 0, Pot, Owl or Fool must swap."""
    return card not in MATADORS


def passes_request(card: str) -> bool:
    """C6. Horse, House: refuse without penalty; the asker must ask the next participant beyond."""
    return card in PASSERS


def chops(card: str) -> bool:
    """C6. Dragoon and Cat refuse; the asker loses one life."""
    return card in CHOPPERS


def undoes_swaps(card: str) -> bool:
    """C6. Cat: every earlier swap of this deal (across any earlier Dragoon chop) is undone, newest first."""
    return card == CAT


def stops_deal(card: str) -> bool:
    """C6. Cuckoo: shown; the deal stops at once and goes to settlement."""
    return card == CUCKOO


def settlement_losers(cards_by_seat: dict[int, str]) -> tuple[list[int], list[int]]:
    """C9/C10. Every participant with the lowest card loses one life. With one Fool in
    play, its holder and every participant tied on the next-lowest card each lose a
    life. With two Fools, only the two Fool holders lose a life each.

    Returns (losers, fool holders)."""
    fools = sorted(s for s, c in cards_by_seat.items() if c == FOOL)
    if len(fools) == 2:
        return fools, fools
    others = {s: c for s, c in cards_by_seat.items() if c != FOOL}
    low = min(RANK[c] for c in others.values())
    return sorted(fools + [s for s, c in others.items() if RANK[c] == low]), fools


def rest_after(fools: list[int], lives_after: list[int]) -> list[int]:
    """C10 (decided). With two Fools, those Fool holders still alive rest for the next deal."""
    return [s for s in fools if lives_after[s] > 0] if len(fools) == 2 else []


def deal_is_skipped(participants: list[int]) -> bool:
    """C11. If fewer than two participants would remain, that deal is skipped without any payment."""
    return len(participants) < 2


def deal_ends_early(order: tuple[int, ...]) -> bool:
    """C8. If only one participant is left, the deal ends without settlement."""
    return len(order) < 2


def match_is_over(lives: Sequence[int], resigned: Iterable[int] = ()) -> bool:
    """C12. A seat at zero lives is out; the last seat alive wins (or none is left).
    With resignations: ``still_contending``."""
    return not still_contending(lives, resigned)


def still_contending(lives: Sequence[int], resigned: Iterable[int]) -> bool:
    """docs/engine-contract.md "Resigning": when resigning leaves one seat not resigned, the match ends at
    once with it first (decided: seats already out do not count; the match ends when at
    most one seat that is alive and has not resigned remains)."""
    return not core.last_standing((s for s, n in enumerate(lives) if n > 0), resigned)


def final_ranking(options: dict[str, Any], out_round: Sequence[int | None],
                  resigned: Sequence[int] = ()) -> list[list[int]]:
    """C12. The others rank by the deal in which they went out (later is better; out in the
    same deal shares a place). If all remaining seats go out together, they share first place.
    docs/engine-contract.md "Resigning": resigned seats rank below all others, the latest to resign best
    among them."""
    ranking = replace(MATCH_FORMAT, lives=options["lives"]).ranking(list(out_round))
    return core.rank_with_resignations(ranking, resigned)


# --------------------------------------------------------------------------
# Play: events computed and applied to a scratch state as they are made
# --------------------------------------------------------------------------

class _Run:
    """The events of one call, each applied at once so play and apply agree."""

    def __init__(self, game: Cardavia, state: State):
        self.game = game
        self.state = state
        self.events: list[dict[str, Any]] = []

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.state = self.game.apply(self.state, event)

    # -- deals -------------------------------------------------------------
    def deal(self, resting: list[int], deck: list[str] | None = None) -> None:
        """C2/C11: the next deal (or a skipped one, then the next)."""
        s = self.state
        participants = participants_of(s.lives, resting)
        if deal_is_skipped(participants):
            self.emit({"type": "deal_skipped", "round": s.round + 1, "resting": sorted(resting)})
            resting, participants = [], participants_of(s.lives, [])
            s = self.state
        dealer = next_dealer(s.dealer, participants, s.seats)
        order = turn_order(dealer, participants, s.seats)
        if deck is None:
            deck = core.shuffled(s.seed, s.counter, cards())
        self.emit({"type": "cards_dealt", "round": s.round + 1, "dealer": dealer,
                   "resting": sorted(resting), "order": order, "deck": list(deck)})
        for seat in sorted(order):
            if is_knocked(self.state.hands[seat]):  # type: ignore[arg-type]
                self.emit({"type": "fool_knocked", "seat": seat, "card": FOOL})
        self.emit({"type": "turn_passed", "seat": order[0]})

    def finish_deal(self, resting: list[int]) -> None:
        """C12, then C2: end the match, or deal again."""
        if not self.end_if_decided():
            self.deal(resting)

    def end_if_decided(self) -> bool:
        """C12 and docs/engine-contract.md "Resigning": the match ends when at most one seat that is alive
        and has not resigned remains. Returns whether it ended."""
        s = self.state
        if not match_is_over(s.lives, s.resigned):
            return False
        ranking = final_ranking(s.options, s.out_round, s.resigned)
        self.emit({"type": "match_ended", "ranking": ranking, "scores": list(s.lives)})
        return True

    def resign(self, seat: int) -> None:
        """docs/engine-contract.md "Resigning": legal for any seat that has not resigned, in or out of turn
        (also a seat that is out); it emits ``seat_resigned``, then the match ends at once if
        at most one seat alive and not resigned remains."""
        core.may_resign(seat, self.state.seats, self.state.resigned)
        self.emit(core.seat_resigned(seat))
        self.end_if_decided()

    # -- a turn --------------------------------------------------------------
    def pass_turn_after(self, seat: int) -> None:
        """C2/C6: play continues with the participant left of ``seat``; after the dealer, settlement."""
        order = self.state.order
        i = order.index(seat)
        if i == len(order) - 1:
            self.settle()
        else:
            self.emit({"type": "turn_passed", "seat": order[i + 1]})

    def keep(self, seat: int) -> None:
        """C4. The participant keeps the card."""
        self.emit({"type": "card_kept", "seat": seat})
        self.pass_turn_after(seat)

    def ask(self, asker: int) -> None:
        """C4–C7. Ask the next participant (the dealer: the stock), past any Horses and Houses."""
        target = self._beyond(asker)
        while True:
            self.emit({"type": "swap_asked", "seat": asker, "target": target})
            if target is None:
                self.draw_from_stock(asker)
                return
            card: str = self.state.hands[target]  # type: ignore[assignment]  # a participant holds a card
            if must_swap(card):
                self.emit({"type": "cards_swapped", "seat": asker, "target": target,
                           "gave": self.state.hands[asker], "got": card})
                self.emit({"type": "turn_passed", "seat": target})
                return
            self.emit({"type": "swap_refused", "seat": target, "card": card, "asker": asker})
            if passes_request(card):
                target = self._beyond(target)
            elif stops_deal(card):
                self.settle()
                return
            else:
                if self.chop(asker, target, card, "C6"):
                    self.pass_turn_after(target)
                return

    def _beyond(self, seat: int) -> int | None:
        """C7. The participant after ``seat``; past the dealer, the stock (None)."""
        order = self.state.order
        i = order.index(seat)
        return None if i == len(order) - 1 else order[i + 1]

    def draw_from_stock(self, asker: int) -> None:
        """C7. From the stock, a Horse or House is set aside and the next card drawn; a Cuckoo,
        Dragoon or Cat drawn from the stock has its matador effect on the asker; an ordinary
        card replaces the asker's card, which goes under the stock. Then settlement."""
        while True:
            card = self.state.stock[0]
            if card not in MATADORS:
                self.emit({"type": "stock_exchanged", "seat": asker,
                           "gave": self.state.hands[asker], "got": card})
                if is_knocked(card):
                    self.emit({"type": "fool_knocked", "seat": asker, "card": FOOL})
                break
            self.emit({"type": "stock_drawn", "seat": asker, "card": card})
            if passes_request(card):
                continue
            if chops(card) and not self.chop(asker, None, card, "C7"):
                return
            break
        self.settle()

    def chop(self, asker: int, holder: int | None, card: str, rule: str) -> bool:
        """C6/C8. The asker loses one life (a Cat also undoes the deal's swaps); at zero it
        leaves at once. Returns whether the deal goes on (more than one participant left)."""
        lives = self.state.lives[asker] - 1
        self.emit({"type": "life_lost", "seat": asker, "lives": lives, "card": card, "rule": rule})
        if lives == 0:
            self.emit({"type": "seat_eliminated", "seat": asker, "round": self.state.round})
        if undoes_swaps(card) and self.state.swaps:
            self.emit({"type": "swaps_undone", "seat": holder,
                       "swaps": [list(pair) for pair in reversed(self.state.swaps)]})
        if deal_ends_early(self.state.order):
            self.emit({"type": "deal_ended", "round": self.state.round})
            self.finish_deal([])
            return False
        return not (self.state.resigned and self.end_if_decided())  # only resignations end it mid-deal

    def settle(self) -> None:
        """C9/C10. Every remaining card is shown; the lowest (with the Fool's rules) pays."""
        s = self.state
        held: dict[int, str] = {seat: s.hands[seat] for seat in s.order}  # type: ignore[misc]
        losers, fools = settlement_losers(held)
        lives_after = [n - (1 if seat in losers else 0) for seat, n in enumerate(s.lives)]
        rest = rest_after(fools, lives_after)
        self.emit({"type": "deal_settled", "round": s.round,
                   "cards": [held.get(seat) for seat in range(s.seats)],
                   "losers": losers, "rest": rest})
        rule = "C10" if fools else "C9"
        for seat in losers:
            self.emit({"type": "life_lost", "seat": seat, "lives": lives_after[seat], "rule": rule})
        for seat in losers:
            if lives_after[seat] == 0:
                self.emit({"type": "seat_eliminated", "seat": seat, "round": s.round})
        self.finish_deal(rest)


# --------------------------------------------------------------------------
# The game object
# --------------------------------------------------------------------------

class Cardavia(core.Game):
    name = NAME
    MIN_SEATS = MIN_SEATS
    MAX_SEATS = MAX_SEATS
    MAX_EVENTS = MAX_EVENTS

    def cards(self) -> list[str]:
        return cards()

    # -- start / apply ---------------------------------------------------------
    def start(self, seats: int, seed: str, options: dict[str, Any] | None = None,
              deck: list[str] | None = None) -> list[dict[str, Any]]:
        core.check_seats(seats, MIN_SEATS, MAX_SEATS, NAME)
        merged = core.check_options(options, OPTIONS, NAME)
        deck = core.check_deck(deck, cards(), NAME)
        if not isinstance(seed, str):
            raise ValueError(f"{NAME}: the seed is a string")
        run = _Run(self, None)  # type: ignore[arg-type]
        run.emit({"type": "match_started", "seats": seats, "options": merged, "seed": seed,
                  "rules_version": RULES_VERSION})
        run.deal([], deck)
        return run.events

    def apply(self, state: State | None, event: dict[str, Any]) -> State:
        handler = getattr(self, "_apply_" + event["type"])
        state = handler(state, event)
        if event["type"] in LOGGED:
            state = replace(state, log=state.log + (event,))
        return state

    def _apply_match_started(self, _: State | None, e: dict[str, Any]) -> State:
        n, lives = e["seats"], e["options"]["lives"]
        nobody = (None,) * n
        return State(seats=n, options=dict(e["options"]), seed=e["seed"], lives=(lives,) * n,
                     out_round=nobody, dealer=n - 1,  # so that seat 0 deals first (C2)
                     hands=nobody, face_up=nobody, revealed=nobody,
                     seen=(frozenset(),) * (n + 1), last_seen=(frozenset(),) * (n + 1))

    def _apply_cards_dealt(self, s: State, e: dict[str, Any]) -> State:
        order, deck = e["order"], e["deck"]
        hands = [None] * s.seats
        for i, seat in enumerate(sorted(order)):
            hands[seat] = deck[i]
        seen: tuple[frozenset[str], ...] = tuple(frozenset({hands[i]} if hands[i] else ()) for i in range(s.seats)) + (frozenset(),)
        return replace(s, counter=s.counter + 1, round=e["round"], dealer=e["dealer"],
                       resting=tuple(e["resting"]), order=tuple(order), hands=tuple(hands),
                       stock=tuple(deck[len(order):]), set_aside=(), face_up=(None,) * s.seats,
                       turn=None, swaps=(), log=(), last_log=s.log, seen=seen, last_seen=s.seen)

    def _apply_deal_skipped(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, round=e["round"], resting=(), order=(), turn=None)

    def _apply_fool_knocked(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, face_up=_set(s.face_up, e["seat"], e["card"]),
                       seen=_show(s.seen, None, [e["card"]]))

    def _apply_turn_passed(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, turn=e["seat"])

    def _apply_card_kept(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, turn=None)

    def _apply_swap_asked(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, turn=None)

    def _apply_swap_refused(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, face_up=_set(s.face_up, e["seat"], e["card"]),
                       seen=_show(s.seen, None, [e["card"]]))

    def _apply_cards_swapped(self, s: State, e: dict[str, Any]) -> State:
        a, b = e["seat"], e["target"]
        seen = _show(_show(s.seen, a, [e["got"]]), b, [e["gave"]])
        return replace(s, hands=_swap(s.hands, a, b), face_up=_swap(s.face_up, a, b),
                       swaps=s.swaps + ((a, b),), seen=seen)

    def _apply_stock_drawn(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, stock=s.stock[1:], set_aside=s.set_aside + (e["card"],),
                       seen=_show(s.seen, None, [e["card"]]))

    def _apply_stock_exchanged(self, s: State, e: dict[str, Any]) -> State:
        seat = e["seat"]
        return replace(s, stock=s.stock[1:] + (e["gave"],), hands=_set(s.hands, seat, e["got"]),
                       face_up=_set(s.face_up, seat, None), seen=_show(s.seen, seat, [e["got"]]))

    def _apply_life_lost(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, lives=_set(s.lives, e["seat"], e["lives"]))

    def _apply_seat_eliminated(self, s: State, e: dict[str, Any]) -> State:
        seat = e["seat"]
        return replace(s, out_round=_set(s.out_round, seat, e["round"]),
                       order=tuple(x for x in s.order if x != seat),
                       turn=None if s.turn == seat else s.turn)

    def _apply_swaps_undone(self, s: State, e: dict[str, Any]) -> State:
        hands, face_up = s.hands, s.face_up
        for a, b in e["swaps"]:
            hands, face_up = _swap(hands, a, b), _swap(face_up, a, b)
        return replace(s, hands=hands, face_up=face_up, swaps=())

    def _apply_deal_settled(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, revealed=tuple(e["cards"]), turn=None, seen=_show(s.seen, None, e["cards"]))

    def _apply_deal_ended(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, turn=None)

    def _apply_seat_resigned(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, resigned=s.resigned + (e["seat"],))

    def _apply_match_ended(self, s: State, e: dict[str, Any]) -> State:
        return replace(s, turn=None, ended=True,
                       result={"ranking": [list(p) for p in e["ranking"]], "scores": list(e["scores"])})

    # -- moves -----------------------------------------------------------------
    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state.ended or state.turn is None or seat != state.turn:
            return []
        return [{"type": "keep"}, {"type": "ask"}]

    def play(self, state: State, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
        kind = core.guard_move(move, MOVE_KEYS, "C4")
        if state.ended:
            raise IllegalMove("match_over", "the match is over", "C12")
        run = _Run(self, state)
        if kind == core.RESIGN:
            run.resign(seat)
            return run.events
        if not core.is_seat(seat, state.seats) or seat != state.turn:
            raise IllegalMove("not_your_turn",
                              f"seat {core.short(seat)} cannot act: it is seat {state.turn}'s turn", "C2")
        if kind == "keep":
            run.keep(seat)
        else:
            run.ask(seat)
        return run.events

    # -- what a seat may see -------------------------------------------------------
    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
        kind = event["type"]
        if kind == "match_started":
            return {k: v for k, v in event.items() if k != "seed"}
        if kind == "cards_dealt":
            out = {k: v for k, v in event.items() if k != "deck"}
            order = sorted(event["order"])
            if seat in order:
                out["card"] = event["deck"][order.index(seat)]
            out["stock_size"] = len(event["deck"]) - len(order)
            return out
        if kind in ("cards_swapped", "stock_exchanged"):
            parties = (event["seat"], event["target"]) if kind == "cards_swapped" else (event["seat"],)
            if seat not in parties:
                return {k: v for k, v in event.items() if k not in ("gave", "got")}
        return event

    def to_act(self, state: State) -> list[int]:
        """The seat whose turn it is (nobody acts out of turn in Cardavia), without building a view."""
        return [state.turn] if state.turn is not None and not state.ended else []

    def score_order(self, options: dict[str, Any] | None) -> ScoreOrder:
        """C12: ``outcome``'s scores are the lives left; more is better."""
        return "higher"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state.ended
        acting = state.turn is not None and not over
        known = (lambda e: e) if over else (lambda e: self.redact(e, seat))
        v = {
            "seats": state.seats,
            "round": state.round,
            "dealer": state.dealer,
            "resting": sorted(state.resting),
            "participants": list(state.order),
            "lives": list(state.lives),
            "turn": state.turn if acting else None,
            "to_act": [state.turn] if acting else [],
            "face_up": list(state.face_up),
            "revealed": list(state.revealed),
            "set_aside": list(state.set_aside),
            "stock_size": len(state.stock),
            "log": [known(e) for e in state.log],
            "last_log": [known(e) for e in state.last_log],
            "resigned": list(state.resigned),
            "over": over,
            "outcome": self.outcome(state),
        }
        # docs/engine-contract.md "Views": every game's view has "hand", a spectator's is []
        v["hand"] = [state.hands[seat]] if seat is not None and seat in state.order else []
        if seat is not None:
            v["seat"] = seat
        if over:
            v["hands"] = list(state.hands)
        return v

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state.ended:
            return None
        return {"ranking": [list(p) for p in state.result["ranking"]],  # type: ignore[index]
                "scores": list(state.result["scores"])}  # type: ignore[index]

    # -- protocol-test hooks ----------------------------------------------------------
    def all_cards(self, state: State) -> list[str]:
        return [c for c in state.hands if c is not None] + list(state.stock) + list(state.set_aside)

    def hidden_cards(self, state: State, seat: int | None) -> list[str]:
        if state.ended:
            return []
        who = state.seats if seat is None else seat
        known = state.seen[who] | state.last_seen[who] | {c for c in state.revealed if c}
        hidden = list(state.stock) + [c for t, c in enumerate(state.hands)
                                      if c is not None and t != seat and state.face_up[t] is None]
        return [c for c in hidden if c not in known]

    # -- determinization (search bots: engine/bots/search.py) ---------------------------
    def sample_state(self, view: dict[str, Any], seat: int, rng: Random,
                     legal: list[dict[str, Any]] | None = None) -> State:
        """A full state consistent with ``seat``'s ``view``. The cards the seat knows stay
        where it knows them to be: its own card; the face-up cards (a knocked Fool, a
        matador that refused); the cards it gave or received in its swaps, followed through
        the later swaps of the deal (who swapped with whom is public) and the Cat's undo.
        Every other card held in the deal (the participants' and those of seats chopped out
        during it, which stay in place) and the stock are dealt at random from the rest (the
        deck less those and the set-aside matadors). Public fields are copied; the seed is a
        dummy drawn from ``rng``, the round each out seat went out is taken from the logs
        where they tell it (only the ranking at the very end reads it); ``legal`` is unused."""
        n = view["seats"]
        holders = list(view["participants"])
        for e in view["log"]:
            if e["type"] == "seat_eliminated" and e["seat"] not in holders:
                holders.append(e["seat"])            # C8: its card stays in its place
        known = {s: code for s, code in knowledge_of(view, seat).items() if s in holders}
        pool = cards()
        for code in [*known.values(), *view["set_aside"]]:
            if code in pool:
                pool.remove(code)
        rng.shuffle(pool)
        hands: list[str | None] = [None] * n
        for s in holders:
            hands[s] = known[s] if s in known else pool.pop()
        swaps = []
        for e in view["log"]:
            if e["type"] == "cards_swapped":
                swaps.append((e["seat"], e["target"]))
            elif e["type"] == "swaps_undone":
                swaps = []
        out_round: list[int | None] = [None] * n
        for e in [*view.get("last_log", []), *view["log"]]:
            if e["type"] == "seat_eliminated":
                out_round[e["seat"]] = e["round"]
        for s in range(n):
            if view["lives"][s] <= 0 and out_round[s] is None:
                out_round[s] = 0
        turn = view["turn"]
        return State(
            seats=n, options=dict(view.get("options") or {"lives": DEFAULT_LIVES}),
            seed=f"search-{rng.getrandbits(64):016x}", counter=0, lives=tuple(view["lives"]),
            out_round=tuple(out_round), round=view["round"], dealer=view["dealer"],
            resting=tuple(view["resting"]), order=tuple(view["participants"]), hands=tuple(hands),
            stock=tuple(pool), set_aside=tuple(view["set_aside"]), face_up=tuple(view["face_up"]),
            turn=turn, swaps=tuple(swaps), log=tuple(view["log"]), last_log=tuple(view.get("last_log", [])),
            revealed=tuple(view["revealed"]), seen=(frozenset(),) * (n + 1),
            last_seen=(frozenset(),) * (n + 1), resigned=tuple(view["resigned"]), ended=False, result=None)


def knowledge_of(view: dict[str, Any], seat: int) -> dict[int, str]:
    """Where ``seat`` knows a card to be in this deal, from its view alone: seat -> code.
    Face-up cards (C3 Fools, refusing matadors) and the seat's own card; a card it gave or
    received in a swap (C5: the two swappers each learn one card), followed through every
    later swap (who swapped with whom is public, the cards are not) and the Cat's undo (C6)."""
    where: list[str | None] = [None] * view["seats"]
    for e in view["log"]:
        kind = e["type"]
        if kind in ("fool_knocked", "swap_refused"):
            where[e["seat"]] = e["card"]
        elif kind == "cards_swapped":
            a, b = e["seat"], e["target"]
            where[a], where[b] = (e["got"], e["gave"]) if "gave" in e else (where[b], where[a])
        elif kind == "stock_exchanged":
            where[e["seat"]] = e.get("got")
        elif kind == "swaps_undone":
            for a, b in e["swaps"]:
                where[a], where[b] = where[b], where[a]
    for s, code in enumerate(view["face_up"]):
        if code is not None:
            where[s] = code
    hand = view.get("hand") or []
    if hand:
        where[seat] = hand[0]
    return {s: code for s, code in enumerate(where) if code is not None}


#: The registry name (docs/engine-contract.md "Module attributes") and the game object the registry hands out.
GAME = "cardavia"
game: SearchableGame = Cardavia()  # checked against the engine contract (engine.protocol)
