"""Tally: a sixth game that exists only in the tests, to prove that a game is added in its own files, as
docs/architecture.md "Adding a game" says. Registered by ``ENGINE_GAMES=tally=tests.sixth_game.tally``
(``engine.registry``; a game in ``engine/`` is named in ``engine.registry.GAME_NAMES`` instead).

The rules, in full:

- T1. Two to four seats. The deck is the cards ``1`` to ``9``, five of each. Seat 0 deals each seat
  ``hand`` cards (an option, 1 to 10, default 10); the rest are not used. A seat sees only its own cards.
- T2. Seat 1 plays first, then each seat in turn: a seat plays one card of its hand, face up; its value is
  added to the seat's score. A seat that has resigned is played by the house (a bot), as in every game.
- T3. When every hand is empty the match ends: the highest score first, equal scores share a place.
"""
from __future__ import annotations

from typing import Any

from engine import core
from engine.core import IllegalMove
from engine.protocol import SHARED_EVENTS, ScoreOrder, SearchableGame

GAME = "tally"
RULES_VERSION = 1
MIN_SEATS, MAX_SEATS = 2, 4
MAX_HAND = 10
MAX_EVENTS = 2 + MAX_SEATS * (MAX_HAND + 2) + 1
OPTIONS = {"hand": (10, core.int_between(1, MAX_HAND))}
#: Tally's bots live beside it, not in ``engine/bots`` (``engine.bots.bots_module``).
BOTS = "tests.sixth_game.bots"
CARDS = [str(n) for n in range(1, 10) for _copy in range(5)]
MOVE_KEYS = {"play": frozenset({"type", "card"}), core.RESIGN: core.RESIGN_KEYS}

EVENTS = {
    "match_started": {"seats": "int", "options": "options", "seed?": "str", "rules_version": "int"},
    "cards_dealt": {"seat": "int", "cards?": "[str]"},
    "card_played": {"seat": "int", "card": "str", "score": "int"},
    "match_ended": {"ranking": "[[int]]", "scores": "[int]"},
    **SHARED_EVENTS,  # seat_resigned, which engine.core's resigning writes
}


class Tally(core.Game):
    name = GAME
    MIN_SEATS, MAX_SEATS, MAX_EVENTS = MIN_SEATS, MAX_SEATS, MAX_EVENTS

    def cards(self) -> list[str]:
        return list(CARDS)

    def start(self, seats: int, seed: str, options: dict[str, Any] | None = None,
              deck: list[str] | None = None) -> list[dict[str, Any]]:
        """T1: the deal."""
        core.check_seats(seats, MIN_SEATS, MAX_SEATS, GAME)
        merged = core.check_options(options, OPTIONS, GAME)
        order = core.check_deck(deck, CARDS, GAME) or core.shuffled(seed, 0, CARDS)
        n = merged["hand"]
        events: list[dict[str, Any]] = [{"type": "match_started", "seats": seats, "options": merged, "seed": seed,
                                         "rules_version": RULES_VERSION}]
        events += [{"type": "cards_dealt", "seat": s, "cards": order[s * n:(s + 1) * n]} for s in range(seats)]
        return events

    def apply(self, state: Any, e: dict[str, Any]) -> Any:
        kind = e["type"]
        if kind == "match_started":
            return {"seats": e["seats"], "options": e["options"], "hands": [[] for _ in range(e["seats"])],
                    "scores": [0] * e["seats"], "played": [], "turn": 1 % e["seats"], "resigned": [],
                    "outcome": None}
        state = {**state, "hands": [list(h) for h in state["hands"]], "scores": list(state["scores"]),
                 "played": list(state["played"]), "resigned": list(state["resigned"])}
        if kind == "cards_dealt":
            state["hands"][e["seat"]] = list(e.get("cards") or [])
        elif kind == "card_played":
            state["hands"][e["seat"]].remove(e["card"])
            state["scores"][e["seat"]] += e["score"]
            state["played"].append([e["seat"], e["card"]])
            state["turn"] = core.next_seat(e["seat"], state["seats"])
        elif kind == "seat_resigned":
            state["resigned"].append(e["seat"])
        elif kind == "match_ended":
            state["outcome"] = {"ranking": e["ranking"], "scores": e["scores"]}
            state["turn"] = None
        return state

    def legal_moves(self, state: Any, seat: int) -> list[dict[str, Any]]:
        if state["outcome"] is not None or seat != state["turn"]:
            return []
        return [{"type": "play", "card": c} for c in sorted(set(state["hands"][seat]), key=int)]

    def to_act(self, state: Any) -> list[int]:
        return [] if state["outcome"] is not None else [state["turn"]]

    def play(self, state: Any, seat: int, move: Any) -> list[dict[str, Any]]:
        """T2, T3."""
        kind = core.guard_move(move, MOVE_KEYS, "T2")
        if state["outcome"] is not None:
            raise IllegalMove("match_over", "the match is over")
        if kind == core.RESIGN:
            core.may_resign(seat, state["seats"], state["resigned"])
            events = [core.seat_resigned(seat)]
            if core.last_standing(range(state["seats"]), [*state["resigned"], seat]):
                events.append(self._end(state, [*state["resigned"], seat]))
            return events
        if not core.is_seat(seat, state["seats"]):
            raise IllegalMove("malformed_move", f"no seat {core.short(seat)} at this table", "T2")
        if seat != state["turn"]:
            raise IllegalMove("not_your_turn", f"it is seat {state['turn']}'s turn", "T2")
        card = move.get("card")
        if not isinstance(card, str) or card not in CARDS:
            raise IllegalMove("malformed_move", f"not a card: {core.short(card)}", "T2")
        if card not in state["hands"][seat]:
            raise IllegalMove("card_not_in_hand", f"seat {seat} holds no {core.short(card)}", "T2")
        events = [{"type": "card_played", "seat": seat, "card": card, "score": int(card)}]
        after = self.apply(state, events[0])
        if not any(after["hands"]):
            events.append(self._end(after, after["resigned"]))
        return events

    def _end(self, state: Any, resigned: list[int]) -> dict[str, Any]:
        """T3: the highest score first (resigned seats last, docs/engine-contract.md)."""
        ranking = core.rank_with_resignations(core.rank_by_scores(state["scores"]), resigned)
        return {"type": "match_ended", "ranking": ranking, "scores": list(state["scores"])}

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        over = state["outcome"] is not None
        return {"to_act": self.to_act(state), "turn": state["turn"], "over": over, "outcome": state["outcome"],
                "resigned": list(state["resigned"]), "scores": list(state["scores"]),
                "hand": list(state["hands"][seat]) if seat is not None else [],
                "hand_sizes": [len(h) for h in state["hands"]], "played": [list(p) for p in state["played"]],
                "hands": [list(h) for h in state["hands"]] if over else None, "dealer": 0,
                "options": dict(state["options"])}

    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        """T1: a seat sees only its own cards; nobody sees the seed before the end."""
        if event["type"] == "match_started":
            return {k: v for k, v in event.items() if k != "seed"}
        if event["type"] == "cards_dealt" and event["seat"] != seat:
            return {k: v for k, v in event.items() if k != "cards"}
        return event

    def sample_state(self, view: dict[str, Any], seat: int, rng: Any, legal: list[dict[str, Any]] | None = None) -> Any:
        """A state the seat's view allows: the cards it has not seen dealt at random to the other hands
        (a searching bot's guess; T1: the unused cards stay unused)."""
        unseen = list(CARDS)
        for card in [*view["hand"], *(c for _s, c in view["played"])]:
            unseen.remove(card)
        rng.shuffle(unseen)
        hands = [list(view["hand"]) if s == seat else [unseen.pop() for _ in range(n)]
                 for s, n in enumerate(view["hand_sizes"])]
        scores = list(view["scores"])
        return {"seats": len(hands), "options": dict(view["options"]), "hands": hands, "scores": scores,
                "played": [list(p) for p in view["played"]], "turn": view["turn"],
                "resigned": list(view["resigned"]), "outcome": view["outcome"]}

    def outcome(self, state: Any) -> dict[str, Any] | None:
        outcome: dict[str, Any] | None = state["outcome"]
        return outcome

    def score_order(self, options: dict[str, Any] | None) -> ScoreOrder:
        return "higher"

    def all_cards(self, state: Any) -> list[str]:
        return [c for h in state["hands"] for c in h] + [c for _seat, c in state["played"]]

    def hidden_cards(self, state: Any, seat: int | None) -> list[str]:
        if state["outcome"] is not None:
            return []
        return [c for s, h in enumerate(state["hands"]) if s != seat for c in h]


game: SearchableGame = Tally()  # checked against the engine contract (engine.protocol) by mypy --strict
