"""The engine contract (``docs/engine-contract.md``) as code: what every game object offers, and what a
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
MODULE_ATTRIBUTES = ("GAME", "RULES_VERSION", "MIN_SEATS", "MAX_SEATS", "MAX_EVENTS", "OPTIONS", "EVENTS")

#: Every game's events beside its own (``EVENTS`` includes them).
SHARED_EVENTS = {
    "seat_resigned": {"seat": "int"},
}

# -- Event declarations ----------------------------------------------------------------------------------------
# Each game module declares ``EVENTS``: every event type it emits, mapped to its keys (beside ``type``) and
# each key's JSON type, in a small vocabulary: ``int``, ``str``, ``bool``, ``options`` (the game's options,
# as ``OPTIONS`` declares them), ``placement`` (``{"card": str, "x": int, "y": int}``), the store's ``player``
# (``{"seat": int, "name": str, "kind": str, "bot": str|null}``) and ``clock`` (names to whole numbers), ``[T]`` (a list of
# T), ``T|U`` (either; ``T|null``: T or null). A key ending in ``?`` may be absent: only some events of the
# type have it, or ``redact`` removes it for a seat that may not know it. The API's schema of event
# payloads is built from these, and the protocol test holds every event of random play, and
# every redaction of it, to them.


def split(kind: str, sep: str = "|") -> list[str]:
    """``kind`` split at ``sep`` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(kind):
        depth += ch == "["
        depth -= ch == "]"
        if ch == sep and depth == 0:
            parts.append(kind[start:i])
            start = i + 1
    return parts + [kind[start:]]


def fits(value: Any, kind: str) -> bool:
    """Whether a JSON value is of a declared type (the vocabulary above)."""
    choices = split(kind)
    if len(choices) > 1:
        return any(fits(value, choice) for choice in choices)
    if kind == "null":
        return value is None
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "options":
        return isinstance(value, dict) and all(isinstance(k, str) for k in value)
    if kind == "placement":
        return (isinstance(value, dict) and set(value) == {"card", "x", "y"} and isinstance(value["card"], str)
                and fits(value["x"], "int") and fits(value["y"], "int"))
    if kind == "player":
        return (isinstance(value, dict) and set(value) == {"seat", "name", "kind", "bot"} and fits(value["seat"], "int")
                and isinstance(value["name"], str) and isinstance(value["kind"], str) and fits(value["bot"], "str|null"))
    if kind == "clock":
        return isinstance(value, dict) and all(isinstance(k, str) and fits(v, "int") for k, v in value.items())
    if kind.startswith("[") and kind.endswith("]"):
        return isinstance(value, list) and all(fits(item, kind[1:-1]) for item in value)
    raise ValueError(f"not a declared event type: {kind!r}")


def event_problem(event: Event, declared: dict[str, dict[str, str]]) -> str | None:
    """What is wrong with ``event`` against its game's ``EVENTS`` (None: it fits): an undeclared type,
    an undeclared key, a missing key that may not be absent, or a value of the wrong type."""
    keys = declared.get(event.get("type"))  # type: ignore[arg-type]  # no "type": None, undeclared
    if keys is None:
        return f"undeclared event type {event.get('type')!r}"
    allowed = {key.rstrip("?"): kind for key, kind in keys.items()}
    for key, value in event.items():
        if key == "type":
            continue
        if key not in allowed:
            return f"{event['type']}: undeclared key {key!r}"
        if not fits(value, allowed[key]):
            return f"{event['type']}: {key!r} is not {allowed[key]}: {value!r}"
    missing = [key for key in keys if not key.endswith("?") and key not in event]
    return f"{event['type']}: missing {missing}" if missing else None


@runtime_checkable
class Game(Protocol):
    """One game, as ``engine.registry.get(name)`` returns it."""

    name: str
    MIN_SEATS: int
    MAX_SEATS: int
    MAX_EVENTS: int

    def cards(self) -> list[str]:
        """Every physical card as a code, copies repeated, in a fixed canonical order."""

    def start(self, seats: int, seed: str, options: dict[str, Any] | None = None,
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

    def score_order(self, options: dict[str, Any] | None) -> ScoreOrder:
        """Which way ``outcome``'s scores rank for these options."""


@runtime_checkable
class SearchableGame(Game, Protocol):
    """A game a searching bot can play: it deals the unseen cards of a seat's view."""

    def sample_state(self, view: View, seat: int, rng: Any, legal: list[Move] | None = None) -> Any:
        """A full state consistent with ``view`` (that seat's) and ``legal`` (its legal moves now),
        the unseen cards dealt from ``rng``."""
