"""Every game declares its events (``EVENTS``, engine.protocol's vocabulary), and the API documents event
payloads from those declarations: so every event random play produces, as it is recorded and
as every seat and a spectator may know it (``redact``), fits its game's declaration, and every event type
a game's source writes is declared."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine import protocol, registry


def _option_sets(name: str) -> list[dict]:
    """The defaults, then each choice of every option that is a list of choices."""
    sets = [{}]
    for option, (_default, check) in registry.options(name).items():
        if isinstance(check, tuple):
            sets += [{option: choice} for choice in check]
    return sets


def random_events(name: str, seats: int, options: dict, seed: str, steps: int = 1500) -> list[dict]:
    """The events of one random match (a rare resignation included), at most ``steps`` moves."""
    game = registry.get(name)
    events = game.start(seats, seed, options)
    state = game.fold(events)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        view = game.view(state, None)
        seat = rng.choice(view["to_act"])
        moves = game.legal_moves(state, seat)
        if rng.random() < 0.002 and seat not in view["resigned"]:
            moves = [{"type": "resign"}]
        for event in game.play(state, seat, rng.choice(moves)):
            state = game.apply(state, event)
            events.append(event)
    return events


@pytest.mark.parametrize("name", registry.names())
def test_every_event_and_every_redaction_of_random_play_fits_the_games_declaration(name):
    game = registry.get(name)
    declared = registry.module(name).EVENTS
    seen = set()
    for seats in sorted({game.MIN_SEATS, min(game.MAX_SEATS, 4)}):
        for options in _option_sets(name):
            events = random_events(name, seats, options, f"declared-{name}-{seats}-{sorted(options.items())}")
            for event in events:
                assert protocol.event_problem(event, declared) is None, protocol.event_problem(event, declared)
                seen.add(event["type"])
                for seat in [*range(seats), None]:
                    known = game.redact(event, seat)
                    if known is not None:
                        problem = protocol.event_problem(known, declared)
                        assert problem is None, (seat, problem)
    # the matches went well beyond their deal: six kinds of event, or every kind a small game has but the rare
    # resignation
    assert len(seen) >= min(6, len(set(declared) - {"seat_resigned"}))


@pytest.mark.parametrize("name", registry.names())
def test_every_event_type_a_games_source_writes_is_declared(name):
    module = registry.module(name)
    source = Path(module.__file__).read_text()
    written = set(re.findall(r'"type": "([a-z_]+)"', source))
    moves = set(getattr(module, "MOVE_KEYS", None) or module._MOVE_KEYS)
    assert written - moves - set(module.EVENTS) == set()


def test_an_event_with_an_undeclared_key_or_a_wrong_type_does_not_fit():
    declared = {"card_played": {"seat": "int", "card": "str", "color?": "str"}}
    assert protocol.event_problem({"type": "card_played", "seat": 0, "card": "R5"}, declared) is None
    assert "undeclared key" in protocol.event_problem({"type": "card_played", "seat": 0, "card": "R5", "x": 1},
                                                      declared)
    assert "is not int" in protocol.event_problem({"type": "card_played", "seat": True, "card": "R5"}, declared)
    assert "missing" in protocol.event_problem({"type": "card_played", "seat": 0}, declared)
    assert "undeclared event type" in protocol.event_problem({"type": "card_burnt"}, declared)
