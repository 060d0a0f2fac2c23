"""Hostile moves (a security finding): no input costs more than milliseconds.

For every registered game (the protocol test's list), at a few positions of a
seeded random match, a seeded sample of the legal moves (and ``resign``) is fed to
``play`` in mutated forms: ints replaced by huge numbers, bools, floats and
strings; strings by ints and 1 MB strings; lists by 100,000 items and by
1,000,000; any field by ``[[[...]]]`` or ``{"type": {...}}`` 100,000 levels deep
(built iteratively: json.loads cannot), by None, tuples, sets, bytes and custom
objects; unknown extra keys; non-dict moves; and seats that are no seats. Plus
IOTA's far-coordinate attack (a play in one row with a card at x = 2**70, which
once built a 10 GB list). Each call must raise ``IllegalMove`` (never another
exception) within ``LIMIT`` seconds of its thread's CPU and leave the state unchanged; shape, size
and type problems are ``malformed_move``.
"""
from __future__ import annotations

import copy
import gc
import random
import time
from collections import OrderedDict

import pytest

from engine import IllegalMove, core, registry
from tests.engine.test_protocol import SEAT_COUNTS

LIMIT = 0.25          # CPU seconds per call; the bug took 20 s
POSITIONS = (0, 7, 30)
MOVES_PER_POSITION = 6


def nested(depth: int) -> list:
    """``[[[...]]]`` ``depth`` levels deep, built iteratively (json.loads cannot)."""
    root: list = []
    inner = root
    for _ in range(depth - 1):
        deeper: list = []
        inner.append(deeper)
        inner = deeper
    return root


class Opaque:
    """A custom object whose repr and comparisons would be costly or fail."""

    def __repr__(self):
        raise RuntimeError("never repr a client value in full")

    def __eq__(self, other):
        raise RuntimeError("never compare a custom object")

    __hash__ = object.__hash__


def nested_objects(depth: int) -> dict:
    """``{"type": {"type": ...}}`` ``depth`` levels deep, built iteratively."""
    root: dict = {}
    inner = root
    for _ in range(depth - 1):
        deeper: dict = {}
        inner["type"] = deeper
        inner = deeper
    return root


DEEP = nested(100_000)
DEEP_OBJECTS = nested_objects(100_000)
MEGA_STRING = "x" * 1_000_000
LONG_LIST = ["R5"] * 100_000
LONG_INTS = [1] * 100_000
MILLION = [{"card": "R5", "x": 1, "y": 0}] * 1_000_000
HUGE_INTS = (10 ** 30, -10 ** 30, 2 ** 70)


def replacements(value) -> list:
    """Hostile values for a field that holds ``value`` in a legal move: each is refused."""
    out: list = [None, DEEP, DEEP_OBJECTS, LONG_LIST, MEGA_STRING, 1.5, float("nan"), Opaque(), ("R5",), {"R5"},
                 b"R5"]
    if type(value) is int:
        out += [*HUGE_INTS, True, False, float(value), str(value)]
    elif type(value) is bool:
        out += [1, 0, *HUGE_INTS, "true"]
    elif type(value) is str:
        out += [5, 0, *HUGE_INTS, True, value * 10_000, value + "\x00" * 40, {"card": value}]
    elif type(value) is list:
        out += [LONG_INTS, MILLION, [value] * 100_000, "R5", 7, {"0": value}]
    return out


def paths(value, prefix=()):
    """Every path to a value inside a move (keys and list indexes), the move itself excluded."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield prefix + (key,)
            yield from paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield prefix + (i,)
            yield from paths(item, prefix + (i,))


def get(move, path):
    for step in path:
        move = move[step]
    return move


def with_value(move, path, value):
    """A copy of the (small, legal) move with ``value`` put at ``path`` (not copied)."""
    out = copy.deepcopy(move)
    holder = get(out, path[:-1])
    holder[path[-1]] = value
    return out


def mutations(move: dict) -> list[tuple[object, bool]]:
    """Illegal variants of one legal move, each with whether its problem is one of shape,
    size or type (``malformed_move``); a field set to None may also read as missing."""
    out = []
    for path in paths(move):
        original = get(move, path)
        out += [(with_value(move, path, v), v is not None) for v in replacements(original)]
    whole = [
        {**move, "junk": "x"},
        {**move, "junk": MEGA_STRING},
        {**move, "junk": DEEP},
        {**move, 5: "x"},
        {**move, "k" * 1_000_000: 1},
        {**move, **{f"extra{i}": i for i in range(100_000)}},
        {**move, "type": move["type"] * 100},
        OrderedDict(move),
        [move], (move,), move["type"], None, 1.0, 7, b"{}", {1, 2}, Opaque(), DEEP, DEEP_OBJECTS, MEGA_STRING,
        LONG_LIST, MILLION,
    ]
    return out + [(bad, True) for bad in whole]


def assert_refused_quickly(game, state, snapshot, seat, move):
    """The call's own cost: the thread's CPU time (a busy machine's scheduler does not count), with the
    collector held off (a CI run beside a CPU hog once charged 0.44 s to a move refused on its ``type``:
    a full collection walking this module's million-item and 100,000-deep inputs, not the refusal)."""
    gc.disable()
    try:
        start = time.thread_time()
        with pytest.raises(IllegalMove) as err:
            game.play(state, seat, move)
        took = time.thread_time() - start
    finally:
        gc.enable()
    assert took < LIMIT, f"{game.name}: a hostile move took {took:.3f} s ({err.value.code})"
    assert isinstance(err.value.code, str) and len(err.value.message) < 400
    assert state == snapshot, f"{game.name}: a refused move changed the state"
    return err.value.code


def positions(game, seats, seed):
    """(state, seat, legal moves) at a few steps of a seeded random match."""
    rng = random.Random(seed)
    state = game.fold(game.start(seats, seed))
    step = 0
    while game.outcome(state) is None and step <= max(POSITIONS):
        seat = rng.choice(game.view(state, None)["to_act"])
        legal = game.legal_moves(state, seat)
        if step in POSITIONS:
            chosen = rng.sample(legal, min(MOVES_PER_POSITION, len(legal)))
            yield state, seat, chosen + [{"type": "resign"}]
        for event in game.play(state, seat, rng.choice(legal)):
            state = game.apply(state, event)
        step += 1


@pytest.mark.parametrize("name", registry.names())
def test_every_mutated_legal_move_is_refused_quickly_without_change(name):
    game = registry.get(name)
    seats = SEAT_COUNTS[name][0]
    seen = 0
    for state, seat, moves in positions(game, seats, f"hostile-{name}"):
        snapshot = copy.deepcopy(state)
        for move in moves:
            for bad, malformed in mutations(move):
                code = assert_refused_quickly(game, state, snapshot, seat, bad)
                if malformed:
                    assert code == "malformed_move", f"{game.name}: {core.short(bad)} gave {code}"
                seen += 1
        # a seat that is no seat: huge, bool, str, None
        for bad_seat in (*HUGE_INTS, True, "0", None, 1.0):
            for move in moves:
                assert_refused_quickly(game, state, snapshot, bad_seat, move)
    assert seen > 200


@pytest.mark.parametrize("name", registry.names())
def test_shape_size_and_type_problems_are_malformed_move(name):
    game = registry.get(name)
    state = game.fold(game.start(SEAT_COUNTS[name][0], "hostile-codes"))
    snapshot = copy.deepcopy(state)
    seat = game.view(state, None)["to_act"][0]
    move = game.legal_moves(state, seat)[0]
    for bad in (None, [move], "draw", 1.0, DEEP, OrderedDict(move), {**move, "junk": 1},
                {**move, "type": MEGA_STRING}, {**move, "type": 7}, {"type": "teleport"},
                {**move, "extra": DEEP}, {**move, 5: 1}):
        assert assert_refused_quickly(game, state, snapshot, seat, bad) == "malformed_move"


def iota_position():
    game = registry.get("iota")
    state = game.fold(game.start(2, "far-away"))
    return game, state, 0, list(state.hands[0])


def test_iota_far_coordinate_attack_is_refused_before_any_range_is_built():
    game, state, seat, hand = iota_position()
    snapshot = copy.deepcopy(state)
    attack = {"type": "play", "cards": [{"card": hand[0], "x": 1, "y": 0},
                                       {"card": hand[1], "x": 1180591620717411303424, "y": 0}]}
    assert assert_refused_quickly(game, state, snapshot, seat, attack) == "malformed_move"
    for x, y in ((core.MOVE_MAX_INT, 0), (-core.MOVE_MAX_INT, 0), (0, core.MOVE_MAX_INT)):
        far = {"type": "play", "cards": [{"card": hand[0], "x": 1, "y": 0}, {"card": hand[1], "x": x, "y": y}]}
        assert assert_refused_quickly(game, state, snapshot, seat, far) == "not_connected"
        column = {"type": "play", "cards": [{"card": hand[0], "x": 0, "y": 1}, {"card": hand[1], "x": 0, "y": x}]}
        assert assert_refused_quickly(game, state, snapshot, seat, column) in ("not_connected", "cell_taken")
    recycle = {"type": "recycle", "card": hand[0], "x": 2 ** 70, "y": -2 ** 70}
    assert assert_refused_quickly(game, state, snapshot, seat, recycle) == "malformed_move"


def test_iota_a_pass_returns_no_more_cards_than_the_hand_holds():
    game, state, seat, hand = iota_position()
    snapshot = copy.deepcopy(state)
    too_many = {"type": "pass", "return": hand + hand[:1]}
    assert assert_refused_quickly(game, state, snapshot, seat, too_many) == "malformed_move"


def test_iota_a_card_beyond_the_grid_grown_by_the_line_limit_cannot_connect():
    from engine.iota import LINE_MAX, within_reach
    grid = {(0, 0): 1, (1, 0): 2, (1, 3): 3}
    assert within_reach(grid, (1 + LINE_MAX, 3 + LINE_MAX)) and within_reach(grid, (-LINE_MAX, -LINE_MAX))
    assert not within_reach(grid, (2 + LINE_MAX, 0)) and not within_reach(grid, (0, -LINE_MAX - 1))


def test_karuselis_an_unknown_field_is_refused_and_never_stored():
    game = registry.get("karuselis")
    state = game.fold(game.start(2, "junk"))
    snapshot = copy.deepcopy(state)
    seat = game.view(state, None)["to_act"][0]
    move = game.legal_moves(state, seat)[0]
    assert assert_refused_quickly(game, state, snapshot, seat, {**move, "note": "x" * 30}) == "malformed_move"
    assert assert_refused_quickly(game, state, snapshot, seat, {**move, "note": MEGA_STRING}) == "malformed_move"


def test_karuselis_groups_and_onto_name_no_more_than_the_table_holds():
    game = registry.get("karuselis")
    state = game.fold(game.start(2, "bounds"))
    snapshot = copy.deepcopy(state)
    seat = game.view(state, None)["to_act"][0]
    card = state.hands[seat][0]
    table = list(state.table)
    groups = {"type": "capture", "card": card, "groups": [[c] for c in table] + [[table[0]]]}
    assert assert_refused_quickly(game, state, snapshot, seat, groups) == "malformed_move"
    onto = {"type": "build", "card": card, "onto": table + ["b1"], "value": 20}
    assert assert_refused_quickly(game, state, snapshot, seat, onto) == "malformed_move"


def test_messages_quote_client_values_only_shortly():
    assert len(core.short("x" * 1_000_000)) < 40
    assert core.short(2 ** 70) == "<71-bit int>"
    assert core.short(10 ** 10_000).endswith("-bit int>")  # repr would raise past 4300 digits
    assert len(core.short(DEEP)) < 40 and len(core.short(list(range(100_000)))) < 60
    assert core.short(Opaque()) == "<Opaque>"
    assert core.short({str(i): i for i in range(100_000)}).endswith("...}")
    game = registry.get("livol")
    state = game.fold(game.start(2, "short"))
    with pytest.raises(IllegalMove) as err:
        game.play(state, 1, {"type": "play", "card": "Z" * 32})
    assert err.value.code == "unknown_card" and len(err.value.message) < 80


def test_the_guard_bounds_fit_every_legal_move_of_every_game():
    """Generous enough: the largest legal moves seen in random play pass the bounds."""
    for name in registry.names():
        game = registry.get(name)
        for seats in SEAT_COUNTS[name]:
            for state, seat, _moves in positions(game, seats, f"bounds-{name}-{seats}"):
                for move in game.legal_moves(state, seat):
                    core.check_move_bounds(move)
    big = {"type": "capture", "card": "10S", "groups": [[f"b{i}"] for i in range(56)]}
    core.check_move_bounds(big)
