"""The engine contract (``../shared/ENGINE.md``) as code: what every game object offers, and what a
searchable game adds. ``tests/engine/test_protocol.py`` checks every registered game against these and
against the page; where the two disagree, the change fixes both.

States are each game's own values (opaque here); everything at the boundary is JSON-ready.
"""
from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

Event = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]
Outcome = dict[str, Any]
ScoreOrder = Literal["higher", "lower"]

#: Refusal codes every game shares (``IllegalMove.code``).
SHARED_REFUSALS = ("malformed_move", "not_your_turn", "already_resigned", "match_over")
#: Keys every game's view has, for a seat and for a spectator (``seat=None``).
VIEW_KEYS = ("to_act", "hand", "turn", "over", "outcome", "resigned")
#: The module attributes each game module declares beside its game object.
MODULE_ATTRIBUTES = ("GAME", "RULES_VERSION", "MIN_SEATS", "MAX_SEATS", "MAX_EVENTS", "OPTIONS")


@runtime_checkable
class Game(Protocol):
    """One game, as ``engine.registry.get(name)`` returns it."""

    name: str
    MIN_SEATS: int
    MAX_SEATS: int
    MAX_EVENTS: int

    def cards(self) -> list[str]:
        """Every physical card as a code, copies repeated, in a fixed canonical order."""

    def start(self, seats: int, seed: str, options: dict | None = None,
              deck: list[str] | None = None) -> list[Event]:
        """The opening events: the match started and its first round dealt. ``ValueError`` for
        unknown or out-of-bounds options, a seat count outside the game's range or a bad deck."""

    def fold(self, events: list[Event]) -> Any:
        """``reduce(apply, events, None)``."""

    def apply(self, state: Any, event: Event) -> Any:
        """The state after one event: no validation, no randomness, the argument unchanged."""

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        """Every move the seat may make now, in a stable order; [] when it may not act."""

    def play(self, state: Any, seat: int, move: Move) -> list[Event]:
        """The events a move causes, with every automatic consequence; ``IllegalMove`` otherwise."""

    def view(self, state: Any, seat: int | None) -> View:
        """What ``seat`` (None: a spectator) may see; after the end, everything."""

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """What ``seat`` may know of one event while the match runs."""

    def outcome(self, state: Any) -> Outcome | None:
        """None while the match runs; then ``{"ranking": [[seats…], …], "scores": [n per seat]}``."""

    def to_act(self, state: Any) -> list[int]:
        """The seats of ``view(state, None)["to_act"]``, without building a view."""

    def score_order(self, options: dict | None) -> ScoreOrder:
        """Which way ``outcome``'s scores rank for these options."""


@runtime_checkable
class SearchableGame(Game, Protocol):
    """A game a searching bot can play: it deals the unseen cards of a seat's view."""

    def sample_state(self, view: View, seat: int, rng: Any, legal: list[Move] | None = None) -> Any:
        """A full state consistent with ``view`` (that seat's) and ``legal`` (its legal moves now),
        the unseen cards dealt from ``rng``."""
