"""IOTA — the grid game of lines, lots and wild cards, for 2–4 seats (rules:
tests/fixtures/rules/iota.md, I1–I10).

Shape: 64 unique cards (4 colours × 4 numbers × 4 shapes, codes ``B4S``) and
two wilds ``W1`` ``W2`` (I1); a hand of 4; one deal, no dealer: seat 0 starts.
The grid is unbounded around the starter at (0, 0); x grows to the right, y
downward. Highest score wins (``kids``: fewest cards left).

Moves (docs/engine-contract.md): ``play`` (``cards``: 1–4 ``{"card", "x", "y"}``) ·
``pass`` (``return``: hand cards put under the stock, may be empty) ·
``recycle`` (``card``, ``x``, ``y``: the wild on that cell comes to hand).

Events, in the order ``play`` records them: ``match_started`` (seats, options,
seed) · ``cards_dealt`` (hands, starter, stock top first) · ``wild_recycled``
(seat, card, x, y, wild) · ``cards_played`` (seat, cards, score, lots, final) ·
``passed`` (seat, count, returned) · ``cards_drawn`` (seat, cards) ·
``seat_resigned`` (seat) · ``match_ended`` (reason, ranking, scores).

View: ``grid`` (``[{"card", "x", "y"}]`` in reading order; a wild adds
``candidates``), ``layout`` (``dx``, ``dy``, ``cols``, ``rows``: the CSS grid
cell of (x, y) is column x + dx, row y + dy, one free cell around the cards),
``scores``, ``stock_size``, ``hand_sizes``, ``shown`` (recycled wilds in hand,
per seat), ``passes`` (in a row), ``recycled`` (this turn), ``last_play``
(seat, cards, score), ``variant``, ``round`` (always 1: one deal), ``turn``,
``seats``, ``over``, ``outcome``, ``to_act``, ``hand``, ``resigned`` (seats, in
the order they resigned); once over, ``hands``.
``score_play(state, seat, cards)`` gives a play's score (for move labels);
``view_scorer(view)`` does the same from a seat's view (for bots).

Inside, a card is an int: ``colour*16 + (number-1)*4 + shape`` for the 64
faces (the index in ``cards()``), 64 and 65 for the wilds. A wild's identity
is a set of candidates kept as a 64-bit mask; a line's validity is checked
property by property (I3), and the wilds of the grid are solved jointly
(I2: two wilds in one line constrain each other).

Decided points beyond the spec:
- a wild turned as the starter goes to the bottom of the stock (I4);
- a pass may return at most as many cards as the stock holds, so a seat never
  draws back its own cards (and with an empty stock only the plain pass is
  left); returned cards go under the stock in the canonical card order, so the
  order of ``return`` does not matter;
- a recycled wild is known to every seat while it stays in hand: the view lists
  it under ``shown`` (and ``hidden_cards`` leaves it out);
- a recycle followed by a pass is a pass and counts towards the end by passes
  (I9: ``passes`` reaches twice the seat count); a recycle needs a numbered
  card (a wild never replaces a wild);
- legal plays list their cards sorted by (x, y); ``play`` accepts any order;
- ``kids``: plays score 0, and the outcome's ``scores`` are the cards left in
  each hand (fewer is better);
- the view's wild ``candidates`` are the card codes the wild may stand for
  (identities, not cards that lie anywhere: the protocol test's leak check
  skips them);
- moves: every move first passes ``core.guard_move`` (bounds in
  ``core.MOVE_BOUNDS``) with the allow-list of keys ``MOVE_KEYS``; a play names
  1–4 cards, a pass returns at most the hand's size, and a placed card outside
  the grid's bounding box grown by ``LINE_MAX`` is refused (``not_connected``)
  before any work that depends on the coordinates (``within_reach``);
- resigning (docs/engine-contract.md "Resigning (every game)"): ``{"type": "resign"}``
  records ``seat_resigned``; the seat keeps its hand and its turns. When one
  seat is left not resigned, ``match_ended`` (``reason: "resigned"``) follows at
  once with the scores as they stand (``kids``: the cards left); every ranking
  goes through ``core.rank_with_resignations``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations
from typing import TYPE_CHECKING, Any, NoReturn

from engine import core
from engine.core import IllegalMove
from engine.protocol import SHARED_EVENTS, ScoreOrder, SearchableGame

if TYPE_CHECKING:
    from random import Random

#: A grid cell ``(x, y)``, and the grid: cells to card ids.
Cell = tuple[int, int]
Grid = dict[Cell, int]
#: A look-up of a cell's card id (None: empty), as ``dict.get``.
Getter = Callable[[Cell], Any]
#: A placement of cards: ``((x, y), id)`` pairs.
Placement = tuple[tuple[Cell, int], ...]

# --------------------------------------------------------------------------
# Shape, as data
# --------------------------------------------------------------------------

NAME = "iota"
#: The version of these rules as recorded in ``match_started``: bump it with any change that
#: alters events, and keep replaying the older versions (``engine.verify`` names the one a record needs).
RULES_VERSION = 1
MIN_SEATS = 2
MAX_SEATS = 4
HAND_SIZE = 4
LINE_MAX = 4
COLOURS = "RYGB"
NUMBERS = "1234"
SHAPES = "CSTX"
WILDS = ("W1", "W2")
SHORT_FACES = 32
OPTIONS = {"variant": ("standard", ("standard", "short", "kids"))}
MATCH_FORMAT = core.SingleRound(highest_first=True)


def sixty_four_cards_and_two_wilds() -> tuple[str, ...]:
    """I1. 64 unique cards: every combination of 4 colours (red, yellow, green, blue:
    R Y G B), 4 shapes (circle, square, triangle, cross: C S T X) and 4 numbers (1–4);
    plus 2 Wild cards."""
    return tuple(c + n + s for c in COLOURS for n in NUMBERS for s in SHAPES) + WILDS


CARDS = sixty_four_cards_and_two_wilds()
FACES = 64                      # ids 0..63 are faces, 64 and 65 the wilds
INDEX = {code: i for i, code in enumerate(CARDS)}
FULL = (1 << FACES) - 1
#: Every play adds at least one card to the grid; between two plays at most
#: 2 × seats - 1 passes (the next ends the match, I9); a turn records at most
#: three events (wild_recycled, cards_played | passed, cards_drawn).
MAX_PLAYS = len(CARDS) - 1
MAX_EVENTS = 2 + 3 * (MAX_PLAYS + (MAX_PLAYS + 1) * 2 * MAX_SEATS) + 1 + MAX_SEATS  # + resignations

#: Every event this game emits and its keys (``engine.protocol``'s vocabulary; ``key?``: may be absent or redacted).
EVENTS = {
    "match_started": {"seats": "int", "options": "options", "seed?": "str", "rules_version": "int"},
    "cards_dealt": {"hands?": "[[str]]", "hand?": "[str]", "hand_sizes?": "[int]", "starter": "str",
                    "stock?": "[str]", "stock_size?": "int"},
    "cards_played": {"seat": "int", "cards": "[placement]", "score": "int", "lots": "int", "final": "bool"},
    "cards_drawn": {"seat": "int", "cards?": "[str]", "count?": "int"},
    "passed": {"seat": "int", "count": "int", "returned?": "[str]"},
    "wild_recycled": {"seat": "int", "card": "str", "x": "int", "y": "int", "wild": "str"},
    "match_ended": {"ranking": "[[int]]", "scores": "[int]", "reason?": "str"},
    **SHARED_EVENTS,
}
MOVE_KEYS = {
    "play": frozenset({"type", "cards"}),
    "pass": frozenset({"type", "return"}),
    "recycle": frozenset({"type", "card", "x", "y"}),
    core.RESIGN: core.RESIGN_KEYS,
}
PLACED_KEYS = frozenset({"card", "x", "y"})

H = (1, 0)
V = (0, 1)
STEPS = (H, V)
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))

# Per face id: one bit for its colour, number and shape (I3 checks each on its own).
_BITS = tuple((1 << (i >> 4), 1 << ((i >> 2) & 3), 1 << (i & 3)) for i in range(FACES))
_POP = tuple(bin(m).count("1") for m in range(16))


def face_value(i: int) -> int:
    """I2. Wild cards ... have face value 0 (a face's value is its number)."""
    return 0 if i >= FACES else ((i >> 2) & 3) + 1


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --------------------------------------------------------------------------
# Lines and wilds (I2, I3)
# --------------------------------------------------------------------------

def is_valid_line(ids: Sequence[int]) -> bool:
    """I3. A line is 2, 3 or 4 cards in a row or a column with no gap. In a line each
    property (colour, shape, number), taken on its own, is the same on all cards or
    different on all cards. No line may be longer than 4.

    ``ids`` are faces; the cards of a line are distinct, so some property differs."""
    n = len(ids)
    if n < 2:
        return True
    if n > LINE_MAX:
        return False
    c = k = s = 0
    for i in ids:
        b = _BITS[i]
        c |= b[0]
        k |= b[1]
        s |= b[2]
    distinct = False
    for m in (c, k, s):
        p = _POP[m]
        if p == n:
            distinct = True
        elif p != 1:
            return False
    return distinct


@cache
def fitting_faces(faces: tuple[int, ...]) -> int:
    """I2. The faces (as a mask) that complete the sorted ``faces`` of a line to a valid
    line: a wild "may not equal a card already in those lines"."""
    m = len(faces)
    if m >= LINE_MAX:
        return 0
    if m == 0:
        return FULL
    if m == 1:
        return FULL & ~(1 << faces[0])
    if not is_valid_line(faces):
        return 0
    allowed = []
    for shift in (4, 2, 0):
        values = {(i >> shift) & 3 for i in faces}
        allowed.append(values if len(values) == 1 else set(range(4)) - values)
    mask = 0
    for c in allowed[0]:
        for k in allowed[1]:
            for s in allowed[2]:
                mask |= 1 << (c * 16 + k * 4 + s)
    return mask


def run_through(get: Getter, cell: Cell, step: Cell) -> list[Cell]:
    """The unbroken row or column of cards through ``cell`` along ``step`` (cell included)."""
    dx, dy = step
    x, y = cell
    before = []
    cx, cy = x - dx, y - dy
    while get((cx, cy)) is not None:
        before.append((cx, cy))
        cx, cy = cx - dx, cy - dy
    before.reverse()
    before.append(cell)
    cx, cy = x + dx, y + dy
    while get((cx, cy)) is not None:
        before.append((cx, cy))
        cx, cy = cx + dx, cy + dy
    return before


def wild_candidates(get: Getter, wild_cells: Iterable[Cell], check_only: bool = False) -> list[int]:
    """I2. Wild cards stand for one specific card each, any of the 64 ... A wild's identity
    must fit every line it is in, and may not equal a card already in those lines (a
    card elsewhere on the grid does not matter).

    The candidate masks of the wilds at ``wild_cells`` (0: no identity fits). Two wilds
    share at most one line; there their identities are solved together
    (``check_only``: stop at the first pair that fits, the masks then only tell whether
    they are empty)."""
    masks = []
    shared = None
    for cell in wild_cells:
        mask = FULL
        for step in STEPS:
            line = run_through(get, cell, step)
            if len(line) < 2:
                continue
            if len(line) > LINE_MAX:
                mask = 0
                continue
            if any(c != cell and get(c) >= FACES for c in line):
                shared = line
                continue
            mask &= fitting_faces(tuple(sorted(get(c) for c in line if c != cell)))
        masks.append(mask)
    if shared is not None and len(masks) == 2:
        faces = tuple(sorted(get(c) for c in shared if get(c) < FACES))
        masks = list(wild_pair(faces, masks[0], masks[1], check_only))
    return masks


def wild_pair(faces: tuple[int, ...], first: int, second: int, check_only: bool = False) -> tuple[int, int]:
    """I2. Two wilds in one line with the sorted ``faces``, allowed ``first`` and
    ``second`` by their other lines: the identities each may take so that the pair fits
    the line (two different cards)."""
    alone = fitting_faces(faces)                       # each wild on its own must fit too
    out0 = out1 = 0
    for x in _bits(first & alone):
        ys = fitting_faces(tuple(sorted(faces + (x,)))) & second & alone & ~(1 << x)
        if ys:
            out0 |= 1 << x
            out1 |= ys
            if check_only:
                break
    return out0, out1


# --------------------------------------------------------------------------
# Placement (I5) and scoring (I7, I8)
# --------------------------------------------------------------------------

def touched_lines(get: Getter, cells: Iterable[Cell]) -> list[tuple[Cell, ...]]:
    """I7. Each line that contains a card placed this turn (created or extended), once."""
    seen: dict[Any, tuple[Any, ...]] = {}
    for cell in cells:
        for step in STEPS:
            line = run_through(get, cell, step)
            if len(line) > 1:
                seen.setdefault((line[0], step), tuple(line))
    return list(seen.values())


def turn_score(get: Getter, lines: Iterable[Sequence[Cell]], placed: int, final: bool) -> tuple[int, int]:
    """I7. The turn's score: for each line that contains a card placed this turn (each
    line created or extended), add the face values of all its cards; a card in two such
    lines counts twice.
    I8. Double the turn's score once for each lot completed this turn; double again if
    the player played 4 cards ...; double again for the final play (I9).

    Returns (score, lots)."""
    base = sum(face_value(get(c)) for line in lines for c in line)
    lots = sum(1 for line in lines if len(line) == LINE_MAX)
    doublings = lots + (placed == HAND_SIZE) + bool(final)
    return base << doublings, lots


def is_final_play(placed: int, hand_size: int, stock_size: int) -> bool:
    """I9. The game ends when the stock is empty and a player plays their last card (that
    turn is doubled)."""
    return stock_size == 0 and placed == hand_size


def within_reach(grid: Grid, cell: Cell) -> bool:
    """I5. ... connected to the cards already played; the placed cards and the cards
    between them form one unbroken line. I3. No line may be longer than 4.

    So a placed card lies at most 3 cells along its line from a placed card next to the
    grid: within the grid's bounding box grown by ``LINE_MAX``. A cell outside it can
    never be legal; this is checked before any work whose cost grows with a coordinate."""
    x, y = cell
    xs = [cx for cx, _ in grid] or [0]
    ys = [cy for _, cy in grid] or [0]
    return (min(xs) - LINE_MAX <= x <= max(xs) + LINE_MAX
            and min(ys) - LINE_MAX <= y <= max(ys) + LINE_MAX)


def placement_problem(grid: Grid, placed: Grid) -> tuple[str, str, str] | None:
    """I5, I3, I2: the first rule a placement breaks, as ``(code, rule, message)``, or
    ``None`` (``_placement``)."""
    return _placement(grid, placed)[0]


def _placement(grid: Grid, placed: Grid) -> tuple[tuple[str, str, str] | None, Grid, list[tuple[Cell, ...]]]:
    """I5. Play 1–4 cards from hand onto empty cells, all in one row or all in one column,
    connected to the cards already played; the placed cards and the cards between them
    form one unbroken line ... Every line that a placed card belongs to, in both
    directions, must be valid (I3).

    ``placed`` maps cells to card ids. Returns ``(code, rule, message)`` for the first
    broken rule, or ``None``, with the grid and the placed cards merged and the lines
    the placed cards touch when it got that far (for the score). Every cell is checked
    ``within_reach`` first, so the range between the placed cards is never longer than
    the grid's extent plus 8."""
    cells = list(placed)
    gxs = [cx for cx, _ in grid] or [0]
    gys = [cy for _, cy in grid] or [0]
    x0, x1, y0, y1 = min(gxs) - LINE_MAX, max(gxs) + LINE_MAX, min(gys) - LINE_MAX, max(gys) + LINE_MAX
    if not all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in cells):  # within_reach, the box worked out once
        return ("not_connected", "I5", "a card that far from the grid cannot connect to it"), {}, []
    if any(c in grid for c in cells):
        return ("cell_taken", "I5", "a card already lies on that cell"), {}, []
    if len(cells) > 1:
        xs = {x for x, _ in cells}
        ys = {y for _, y in cells}
        if len(ys) == 1:
            y = cells[0][1]
            between = [(x, y) for x in range(min(xs), max(xs) + 1)]
        elif len(xs) == 1:
            x = cells[0][0]
            between = [(x, y) for y in range(min(ys), max(ys) + 1)]
        else:
            return ("not_in_one_line", "I5", "the cards must lie in one row or one column"), {}, []
        if any(c not in grid and c not in placed for c in between):
            return (("gap_in_line", "I5", "the placed cards and the cards between them must form one unbroken line"),
                    {}, [])
    if not any((x + dx, y + dy) in grid for x, y in cells for dx, dy in NEIGHBOURS):
        return ("not_connected", "I5", "the cards must connect to the cards already played"), {}, []
    merged = {**grid, **placed}
    get = merged.get
    lines = touched_lines(get, cells)
    if any(len(line) > LINE_MAX for line in lines):
        return ("line_too_long", "I3", "no line may be longer than 4"), merged, lines
    wild_lines = False
    for line in lines:
        ids = [merged[c] for c in line]
        if any(i >= FACES for i in ids):
            wild_lines = True
        elif not is_valid_line(ids):
            return (("invalid_line", "I3", "each property must be the same on all cards of a line or different on all"),
                    merged, lines)
    if wild_lines and not all(wild_candidates(get, _wild_cells(merged), check_only=True)):
        return (("wild_without_identity", "I2", "every wild must keep at least one identity that fits all its lines"),
                merged, lines)
    return None, merged, lines


def _wild_cells(grid: Grid) -> list[Cell]:
    return sorted(c for c, i in grid.items() if i >= FACES)


#: Per face id: its colour, number and shape as one 12-bit mask (4 bits each); a line's
#: faces OR'd together tell, property by property, how many values it shows.
_PACK = tuple((1 << (i >> 4)) | (1 << (4 + ((i >> 2) & 3))) | (1 << (8 + (i & 3))) for i in range(FACES))
#: ``_LINE_OK[n][m]``: n distinct faces whose packed masks OR to m form a valid line (I3):
#: each property shows one value or n values (``is_valid_line`` for distinct faces).
_LINE_OK = tuple(bytes(int(n <= LINE_MAX and all(_POP[(m >> s) & 15] in (1, n) for s in (0, 4, 8)))
                       for m in range(1 << 12)) for n in range(LINE_MAX + 2))


@cache
def _fit_of_packed(n: int, packed: int) -> int:
    """``fitting_faces`` of n ≥ 2 distinct faces told by their packed masks: the faces x
    that keep the line valid (none when the faces are not a valid line themselves; x
    cannot be one of them, as it would repeat a value of a property that differs)."""
    ok = _LINE_OK[n + 1]
    mask = 0
    for x in range(FACES):
        if ok[packed | _PACK[x]]:
            mask |= 1 << x
    return mask


def _line_fit(count: int, n: int, packed: int, face: int | None) -> int:
    """``fitting_faces`` of a line's faces for an empty cell, from the line's size
    (``count`` cards, wilds included), its faces' number ``n`` and packed masks, and its
    face when it has one: 0 once the line is full."""
    if count >= LINE_MAX:
        return 0
    if n == 0:
        return FULL
    if n == 1:
        return FULL & ~(1 << face)  # type: ignore[operator]  # n == 1: the line's one face
    return _fit_of_packed(n, packed)


_EMPTY_LINE = (FULL, False, False)
#: How far a ``Board`` lets the grid grow left and up (cells) before it is worked out afresh.
ROOM = 12
_NO_LANE: tuple[int, int, Any] = (0, 0, None)


class Board:
    """What legal-move generation needs to know of a grid, whatever the hand (worked out
    once per grid; ``board_of`` keeps it with a state, so passes reuse it, and grows the
    next one from it after a play, ``Board.grown``):

    - ``frontier``: the empty cells next to a card (a set); a play puts at least one
      card on one (I5: "connected to the cards already played");
    - ``lines[cell]``: for a frontier cell, its line along a row and along a column, each
      as ``(fit, wild, near)``: the faces that may lie on the cell as far as that line
      goes (``fitting_faces``; 0 when the line is full), whether it holds a wild,
      whether it holds a card at all;
    - ``lanes[step][lane]``: per row (step H, lane y) and column (step V, lane x) that
      holds a frontier cell, with positions as bits (bit ``t - base[step]``): ``(cards,
      frontier cells, spots)``; ``spots`` (``_Spots``) reads the lane's cells and keeps
      its segments (``_lane_segments``), shared with the next board while the lane is;
    - ``wild_fits``: whether the wilds keep an identity with a card on a cell (or on a
      few cells), as ``_plays`` finds out (I2), for every hand asking of this grid;
    - ``wild_lines``: the lines of the wilds and of the cells in line with them, as
      ``_one_card_wilds`` reads them (worked out when first asked).
    """

    __slots__ = ("grid", "wild_cells", "frontier", "lines", "lanes", "base", "wild_fits", "wild_lines")

    def __init__(self, grid: Grid):
        self.grid = grid
        self.wild_cells = _wild_cells(grid)
        self.wild_fits: dict[Any, bool] = {}
        self.wild_lines: dict[Cell, Any] = {}
        self.frontier = {(x + dx, y + dy) for x, y in grid for dx, dy in NEIGHBOURS} - grid.keys()
        xs = [x for x, _ in grid] or [0]
        ys = [y for _, y in grid] or [0]
        # bit 0 sits well before every segment start (a frontier cell lies within 1 of the
        # cards, a segment starts at most 3 before it and looks one cell further), with room
        # for the grid to grow left and up (``grown`` starts afresh once it grows past it)
        self.base = {H: min(xs) - 2 * LINE_MAX - ROOM, V: min(ys) - 2 * LINE_MAX - ROOM}
        self.lines = {cell: (_line_info(grid, cell, H), _line_info(grid, cell, V)) for cell in self.frontier}
        self.lanes = {}
        for step, pos, lane_of in ((H, 0, 1), (V, 1, 0)):  # a row: lane y, position x
            base = self.base[step]
            table: dict[int, list[int]] = {}
            for cell in grid:
                entry = table.setdefault(cell[lane_of], [0, 0])
                entry[0] |= 1 << (cell[pos] - base)
            for cell in self.frontier:
                entry = table.setdefault(cell[lane_of], [0, 0])
                entry[1] |= 1 << (cell[pos] - base)
            self.lanes[step] = {lane: (occ, cand, _Spots(self, step, lane))
                                for lane, (occ, cand) in table.items() if cand}

    @classmethod
    def grown(cls, old: Board, grid: Grid, placed: Sequence[Cell]) -> Board:  # noqa: C901 - IOTA search's hot path, kept in one piece for speed (tests/bench)
        """The board of ``grid``, which is ``old``'s grid with cards on the cells ``placed``
        (one play), worked out from ``old``: the frontier gains the empty cells next to the
        new cards and loses their cells; only the cells at the ends of the runs through a
        new card (and the new frontier cells) get new lines; only the rows and columns
        holding such a cell or a new card are worked out again (the others are shared
        with ``old``: nothing in them changed)."""
        base = old.base
        if min(x for x, _ in placed) - LINE_MAX - 1 < base[H] or min(y for _, y in placed) - LINE_MAX - 1 < base[V]:
            return cls(grid)  # the grid grew past the room left before bit 0
        new = object.__new__(cls)
        new.grid = grid
        new.base = base
        new.wild_cells = _wild_cells(grid)
        new.wild_fits = {}
        new.wild_lines = {}
        fresh = {(x + dx, y + dy) for x, y in placed for dx, dy in NEIGHBOURS} - grid.keys()
        frontier = set(old.frontier)
        frontier.difference_update(placed)
        frontier |= fresh
        new.frontier = frontier
        changed = set(fresh)
        for x0, y0 in placed:
            for dx, dy in STEPS:
                x, y = x0 - dx, y0 - dy
                while (x, y) in grid:
                    x, y = x - dx, y - dy
                changed.add((x, y))
                x, y = x0 + dx, y0 + dy
                while (x, y) in grid:
                    x, y = x + dx, y + dy
                changed.add((x, y))
        lines = new.lines = dict(old.lines)
        for cell in placed:
            lines.pop(cell, None)
        for cell in changed:
            lines[cell] = (_line_info(grid, cell, H), _line_info(grid, cell, V))
        touched_cells = changed.union(placed)
        new.lanes = {}
        for step, pos, lane_of in ((H, 0, 1), (V, 1, 0)):
            # a lane's cards gain the new ones and its frontier cells lose their cells and
            # gain the fresh ones (a lane with no frontier cell holds no card: the cells at
            # the ends of a run are frontier cells)
            at = base[step]
            touched = {cell[lane_of] for cell in touched_cells}
            old_lanes = old.lanes[step]
            gained: dict[int, int] = {}
            for cell in placed:
                gained[cell[lane_of]] = gained.get(cell[lane_of], 0) | 1 << (cell[pos] - at)
            opened: dict[int, int] = {}
            for cell in fresh:
                opened[cell[lane_of]] = opened.get(cell[lane_of], 0) | 1 << (cell[pos] - at)
            redone: dict[int, int] = {}
            for cell in changed:
                redone[cell[lane_of]] = redone.get(cell[lane_of], 0) | 1 << (cell[pos] - at)
            lanes = new.lanes[step] = {lane: entry for lane, entry in old_lanes.items() if lane not in touched}
            for lane in touched:
                occ, cand, spot = old_lanes.get(lane, _NO_LANE)
                cards = gained.get(lane, 0)
                now = cand & ~cards | opened.get(lane, 0)
                if now:
                    lanes[lane] = (occ | cards, now, _Spots(new, step, lane))
                    if not cards and now == cand and spot.segments is not None:
                        # only lines across the lane changed: its segments stay, those over
                        # a cell whose cross line changed are worked out again
                        lanes[lane][2].segments = _kept_segments(spot.segments, redone.get(lane, 0))
        return new

    def line(self, cell: Cell, step: Cell) -> tuple[int, bool, bool]:
        """The line across an empty cell that may take part in a play."""
        info = self.lines.get(cell)
        if info is None:
            return _EMPTY_LINE  # not next to any card: nothing across it
        return info[0] if step == H else info[1]


def _kept_segments(segments: list[list[Any]], redone: int) -> list[list[Any]]:
    """A lane's segments (``_lane_segments``) for the next board when the lane's cards and
    frontier cells stay and only the lines across some of its cells (bits ``redone``)
    changed: the same segments, the worked-out ``_segment`` of those over such a cell
    dropped (the others are shared: nothing they read changed)."""
    return [seg if not redone >> seg[1] & ((2 << (seg[2] - seg[1])) - 1) else [seg[0], seg[1], seg[2], None]
            for seg in segments]


def _line_info(grid: Grid, cell: Cell, step: Cell) -> tuple[int, bool, bool]:
    """``Board.lines`` for one empty cell and direction: its line's ``(fit, wild, near)``,
    walking the cards on both sides (``_cell_line``)."""
    wilds, count, n, packed, face = _cell_line(grid, cell, step)
    if not count:
        return _EMPTY_LINE
    return _line_fit(count, n, packed, face), bool(wilds), True


class _Spots:
    """One lane of a board (``board.lanes``): where its cells lie and the board's grid and
    lines to read them from (``_lane_segments``, ``_segment``), and its segments once
    worked out."""

    __slots__ = ("grid", "lines", "row", "lane", "base", "across", "segments")

    def __init__(self, board: Board, step: Cell, lane: int) -> None:
        self.grid, self.lines = board.grid, board.lines
        self.row, self.lane, self.base = step == H, lane, board.base[step]
        self.across = 1 if step == H else 0  # the cross line's index in board.lines[cell]
        self.segments: list[list[Any]] | None = None  # _lane_segments, once asked for

    def cards(self, occ: int) -> dict[int, int]:
        """The lane's cards' ids by their bits (``occ``)."""
        grid, base, lane, row = self.grid, self.base, self.lane, self.row
        out = {}
        while occ:
            bit = occ & -occ
            occ ^= bit
            t = bit.bit_length() - 1 + base
            out[bit] = grid[(t, lane) if row else (lane, t)]
        return out


def board_of(state: State) -> Board:
    """The ``Board`` of the state's grid, worked out once per grid and kept with the state
    (outside its fields: equality, copies and pickles leave it out; ``replace`` hands it
    on to the states that share the grid). After a play it is grown from the board of
    the state before (``_on_cards_played`` leaves ``_board_parent``), when that one was
    worked out; every hand-on is checked against the grid it belongs to."""
    fields = state.__dict__
    board = fields.get("_board")
    if board is None or board.grid is not state.grid:
        parent = fields.get("_board_parent")
        if parent is not None and parent[2] is state.grid and parent[0].grid is parent[3]:
            board = Board.grown(parent[0], state.grid, parent[1])
        else:
            board = Board(state.grid)
        object.__setattr__(state, "_board", board)
    return board


#: A play as one int (``_plays``), for sorting fast: per card, its cell and id as
#: ``((x + OFF) << 11 | (y + OFF)) << 7 | id`` (``CARD_BITS`` bits, monotone in (x, y, id)),
#: the cards in cell order from the highest bits down. Ints of plays with as many cards
#: sort as their placements do. (A grid of at most 66 connected cards around the origin
#: keeps every cell a play may take well within ``OFF`` of it.)
OFF = 1 << 10
CARD_BITS = 29
CARD_MASK = (1 << CARD_BITS) - 1


def _cell_key(cell: Cell) -> int:
    """A cell as the high bits of one card of a play's int."""
    return ((cell[0] + OFF) << 11 | (cell[1] + OFF)) << 7


def _unkey(part: int) -> tuple[Cell, int]:
    """One card of a play's int: its cell and id."""
    c = part >> 7
    return ((c >> 11) - OFF, (c & 2047) - OFF), part & 127


def enumerate_plays(grid: Grid, hand: list[int], board: Board | None = None) -> list[Placement]:
    """I5. Play 1–4 cards from hand onto empty cells, all in one row or all in one column,
    connected to the cards already played ... Every line that a placed card belongs to,
    in both directions, must be valid (I3).

    Every legal placement of cards from ``hand``, each as a tuple of ``((x, y), id)``
    sorted by cell, fewer cards first, then by cells and cards. ``board`` is
    ``Board(grid)`` when the caller has it (``_plays`` does the work)."""
    if not hand:
        return []
    out: list[Placement] = []
    for k, keys in enumerate(_plays(grid, hand, board or Board(grid)), 1):
        shifts = [CARD_BITS * (k - 1 - j) for j in range(k)]
        for key in keys:
            out.append(tuple(_unkey(key >> s & CARD_MASK) for s in shifts))
    return out


def _plays(grid: Grid, hand: list[int], board: Board) -> list[list[int]]:  # noqa: C901 - IOTA search's hot path: one pass over the grid's lines, kept in one piece for speed
    """Every legal placement (I5) of cards from ``hand`` as ints (``_cell_key``), per
    count of cards (1 to 4), each list sorted.

    Driven by the grid's frontier (the empty cells next to a card: a play covers at least
    one of them). One card: every frontier cell, both of its lines checked. Two to four
    cards: each maximal segment of a row or column that holds a frontier cell, 2–4 cells
    long with 2+ empty cells (``_lane_segments``: worked out once per row, whatever the
    hand). The grid's constraints prune before anything is enumerated: a segment where
    some empty cell's cross line allows no hand card is skipped, only the sets of hand
    cards that keep the segment's line valid are tried (one table look-up on the line's
    property masks, remembered per line), each only in the orders the cells' cross
    lines allow (one bit test for all the cells). The wilds are solved exactly (I2), a
    wild alone in its lines without merging the grid (``_wild_fits_alone``)."""
    wild_cells = board.wild_cells
    lines = board.lines
    outs: list[list[int]] = [[], [], [], []]
    out = outs[0]

    def wilds_fit(placed: Grid) -> bool:
        cells = wild_cells + [c for c, i in placed.items() if i >= FACES]
        alone = [_wild_fits_alone(grid, placed, c) for c in cells]
        if None not in alone:  # no two wilds in one line: each on its own
            return all(alone)
        merged = dict(grid)
        merged.update(placed)
        return all(wild_candidates(merged.get, cells, check_only=True))

    one_fits = board.wild_fits

    def one_fit(cell: Cell, h: int) -> bool:
        """``wilds_fit({cell: h})``, remembered: a single card, or the one card of a segment
        whose cross line is the only line it touches that holds a wild (the other cards
        lie on no line through a wild, so they change nothing)."""
        got = one_fits.get((cell, h))
        if got is None:
            got = _one_card_wilds(board, cell, h) if h < FACES else None
            if got is None:
                got = wilds_fit({cell: h})
            one_fits[(cell, h)] = got
        return got

    # which hand cards (bit i: hand[i]) a cross line allows, per fit mask: a face when
    # the line's fit holds it, a wild when any face fits
    allowed: dict[int, int] = {}

    def allow(fit: int) -> int:
        got = 0
        for i, h in enumerate(hand):
            if (fit >> h & 1) if h < FACES else fit:
                got |= 1 << i
        allowed[fit] = got
        return got

    # one card: both of its lines
    for cell in board.frontier:
        (fit_h, wild_h, _), (fit_v, wild_v, _) = lines[cell]
        fit = fit_h & fit_v
        can = allowed.get(fit)
        if can is None:
            can = allow(fit)
        if not can:
            continue
        base = ((cell[0] + OFF) << 11 | (cell[1] + OFF)) << 7  # _cell_key, inline
        while can:
            bit = can & -can
            can ^= bit
            h = hand[bit.bit_length() - 1]
            if not (wild_h or wild_v) or one_fit(cell, h):
                out.append(base + h)

    # two to four cards along a row (step H) or a column (step V)
    most = min(len(hand), LINE_MAX)
    if most >= 2:
        sets = _hand_sets(tuple(hand), most)
        valid: dict[int, list[Any]] = {}   # a segment's line_key -> the sets of hand cards that fit
        across_fits = board.wild_fits
        joint_fits: dict[Any, bool] = {}
        ok: bool | None
        pair_fits: dict[Any, bool] = {}
        line_ok = _LINE_OK
        getter = hand.__getitem__
        for step in STEPS:
            for lane in board.lanes[step].values():
                for seg in lane[2].segments or _lane_segments(lane):
                    line_key = seg[0]
                    fitting = valid.get(line_key)
                    if fitting is None:
                        k, n, packed = line_key & 7, line_key >> 3 & 7, line_key >> 6
                        fitting = valid[line_key] = []
                        for row in sets.get(k, ()):
                            if n + row[1] <= 2 or line_ok[n + row[1]][packed | row[0]]:
                                if row[3] is None:
                                    row[3] = _orders(hand, row[5])
                                fitting.append(row)
                    if not fitting:
                        continue             # no set of k hand cards makes a valid line here
                    detail = seg[3]
                    if detail is None:
                        detail = seg[3] = _segment(lane[2], seg[1], seg[2])
                    k, empties, fits, n, packed, faces, present_wild, across, base = detail
                    need = 0
                    shift = 0
                    for fit in fits:
                        can = allowed.get(fit)
                        if can is None:
                            can = allow(fit)
                        if not can:
                            break            # a cell where no hand card fits across
                        need |= can << shift
                        shift += 4
                    else:
                        add = outs[k - 1].append
                        for pack, count, set_faces, orders, chosen, _ in fitting:
                            if count == k and not present_wild:
                                if not across:     # no wild in any line the play makes
                                    for code, _, ids_key, _ in orders:
                                        if code & need == code:
                                            add(base + ids_key)
                                    continue
                                # only the wilds across the lane see the play, each only the
                                # card put in its line
                                for code, idx, ids_key, _ in orders:
                                    if code & need != code:
                                        continue
                                    if len(across) == 1:
                                        j = across[0]
                                        ok = one_fit(empties[j], hand[idx[j]])
                                    else:
                                        seen = tuple((empties[j], hand[idx[j]]) for j in across)
                                        ok = across_fits.get(seen)
                                        if ok is None:
                                            ok = across_fits[seen] = wilds_fit(dict(seen))
                                    if ok:
                                        add(base + ids_key)
                                continue
                            if present_wild or across:
                                # wilds of the grid and the play's, solved together: the answer
                                # depends on the set (the lane's line), where its wilds lie and
                                # which cards the lines across with a wild get
                                for code, idx, ids_key, wilds in orders:
                                    if code & need != code:
                                        continue
                                    seen = (base, chosen, wilds, *[hand[idx[j]] for j in across])
                                    ok = joint_fits.get(seen)
                                    if ok is None:
                                        ok = joint_fits[seen] = wilds_fit(dict(zip(empties, map(getter, idx))))
                                    if ok:
                                        add(base + ids_key)
                                continue
                            # the play's wild(s) against the line's faces (size of them, packed
                            # masks line) and each one's cross line
                            size, line = n + count, packed | pack
                            alone = _line_fit(size, size, line, (faces or set_faces)[0] if size == 1 else None)
                            for code, _, ids_key, wilds in orders:
                                if code & need != code:
                                    continue
                                if len(wilds) == 1:
                                    if not alone & fits[wilds[0]]:
                                        continue
                                elif size:
                                    pair = (size, line, fits[wilds[0]], fits[wilds[1]])
                                    ok = pair_fits.get(pair)
                                    if ok is None:
                                        ok = pair_fits[pair] = _wilds_pair_fit(*pair, alone)
                                    if not ok:
                                        continue
                                else:
                                    # two wilds and no face in the line: any two different
                                    # identities their cross lines allow (``wild_pair`` of no faces)
                                    first, second = fits[wilds[0]], fits[wilds[1]]
                                    if not first or not second or (first == second and not first & (first - 1)):
                                        continue
                                add(base + ids_key)
    for keys in outs:
        keys.sort()
    return outs


def _wilds_pair_fit(n: int, packed: int, first: int, second: int, alone: int) -> bool:
    """I2. ``wild_pair`` as a check, for two wilds in a line with n ≥ 1 faces told by their
    packed masks (``alone``: the identities a wild may take there on its own): whether
    they have two identities their cross lines allow (``first``, ``second``) that fit the
    line together.

    A wild whose cross line allows every identity that fits the line leaves the other's
    choice free: whatever fits with the faces (2 or 3 cards, a valid line) has a fourth
    card that completes it, and that card fits with the faces too."""
    if first & alone == alone:
        return bool(second & alone)
    if second & alone == alone:
        return bool(first & alone)
    return any(_fit_of_packed(n + 1, packed | _PACK[x]) & second & alone & ~(1 << x)
               for x in _bits(first & alone))


#: A segment of a row or column (``_segment``): how many empty cells, the empty cells,
#: their cross lines' fits, the faces already in it (count, packed masks, ids), whether
#: it holds a wild, the empty cells (positions among them) whose cross line holds a
#: wild, and its cells as a play's int.
Segment = tuple[int, tuple[Cell, ...], tuple[int, ...], int, int, list[int], bool, tuple[int, ...], int]


def _lane_segments(lane: tuple[int, int, _Spots]) -> list[list[Any]]:
    """I5. The placed cards and the cards between them form one unbroken line ... (I3) No
    line may be longer than 4.

    The segments of one row or column a play of 2–4 cards may fill, whatever the hand:
    2–4 cells holding a frontier cell, no card just before or just after, 2+ empty cells,
    and the faces already there a valid line (found for the whole row at once with bit
    operations, per length). Worked out once
    per row and kept with it (rows untouched by a play are shared by the next board),
    each as ``[line_key, first, last, segment]``: ``line_key`` holds k (empty cells), n
    (faces) and their packed masks in one int (what the sets of hand cards that may fill
    it depend on), ``segment`` is ``_segment`` once a hand has asked for it."""
    occ, cand, spot = lane
    got = spot.segments
    if got is not None:
        return got
    got = []
    free = ~occ
    line_ok = _LINE_OK
    first = (cand | cand >> 1 | cand >> 2 | cand >> 3) & (free << 1)
    if not first:
        spot.segments = got
        return got
    ids = spot.cards(occ)
    reach = cand
    for length in range(2, LINE_MAX + 1):
        # starts a (cells a .. a+length-1) holding a frontier cell, with no card just
        # before or just after
        reach |= cand >> (length - 1)
        starts = reach & (free << 1) & (free >> length)
        while starts:
            low = starts & -starts
            starts ^= low
            a = low.bit_length() - 1
            window = ((1 << length) - 1) << a
            k = (window & free).bit_count()
            if k < 2:
                continue
            n = packed = 0
            cards = window & occ
            while cards:
                bit = cards & -cards
                cards ^= bit
                s = ids[bit]
                if s < FACES:
                    n += 1
                    packed |= _PACK[s]
            if n > 1 and not line_ok[n][packed]:
                continue
            got.append([packed << 6 | n << 3 | k, a, a + length - 1, None])
    spot.segments = got
    return got


_SETS: dict[tuple[int, ...], dict[int, list[Any]]] = {}


def _orders(hand: Sequence[int], orders: list[tuple[int, tuple[int, ...]]]) -> list[Any]:
    """The orders of one set of hand cards as ``(code, idx, ids, wilds)``: ``ids`` the
    cards' ids in a play's int (``_cell_key``), ``wilds`` the positions of the wilds."""
    listed = []
    for code, idx in orders:
        ids = 0
        for i in idx:
            ids = ids << CARD_BITS | hand[i]
        listed.append((code, idx, ids, tuple(j for j, i in enumerate(idx) if hand[i] >= FACES)))
    return listed


def _segment(spot: _Spots, a: int, last: int) -> Segment:
    """I3/I2. The cells of a segment from position ``a`` to ``last`` of its row
    (``_lane_segments``), worked out once a hand's cards may make a valid line there: its
    empty cells and their cross lines' fits (what may lie there as far as the other
    line goes), its faces, and where a wild sits in a line the play would make."""
    empties: list[Cell] = []
    fits: list[int] = []
    faces: list[int] = []
    packed = 0
    present_wild = False
    across: list[int] = []  # the empty cells whose cross line holds a wild
    base = 0
    grid, lines, lane, across_index = spot.grid, spot.lines, spot.lane, spot.across
    for t in range(a + spot.base, last + 1 + spot.base):
        cell = (t, lane) if spot.row else (lane, t)
        i = grid.get(cell)
        if i is not None:
            if i < FACES:
                faces.append(i)
                packed |= _PACK[i]
            else:
                present_wild = True
            continue
        info = lines.get(cell)
        if info is not None and info[across_index][1]:
            across.append(len(empties))
        empties.append(cell)
        fits.append(FULL if info is None else info[across_index][0])
        base = base << CARD_BITS | ((cell[0] + OFF) << 11 | (cell[1] + OFF)) << 7  # _cell_key, inline
    return (len(empties), tuple(empties), tuple(fits), len(faces), packed, faces, present_wild, tuple(across), base)


def _hand_sets(hand: tuple[int, ...], most: int) -> dict[int, list[Any]]:
    """Per count k (2 to ``most``), every set of k distinct hand cards as ``[pack, faces,
    face_ids, orders, chosen, positions]``: ``pack`` the faces' property masks OR'd,
    ``faces`` how many are faces (k: no wild), their ids, its orders (``_orders``, worked
    out when the set first fits a line: most sets of three or four never do), the hand
    positions chosen and their orders (``_PERMUTATIONS``). Remembered for the last few
    hands (a search asks again and again)."""
    got = _SETS.get(hand)
    if got is not None:  # most = min(len(hand), LINE_MAX): the same for the same hand
        return got
    size = len(hand)
    out: dict[int, list[Any]] = {}
    for k in range(2, most + 1):
        rows = out[k] = []
        for chosen, orders in _PERMUTATIONS[size, k]:
            pack = 0
            set_faces = []
            for i in chosen:
                if hand[i] < FACES:
                    pack |= _PACK[hand[i]]
                    set_faces.append(hand[i])
            rows.append([pack, len(set_faces), set_faces, None, chosen, orders])
    if len(_SETS) >= 16:
        _SETS.clear()
    _SETS[hand] = out
    return out


#: Per hand size and count k: each set of k hand positions with its orders, each with its
#: ``code`` (bit ``4j + i`` for hand position i at the segment's j-th empty cell).
_PERMUTATIONS = {(size, k): [(chosen, [(sum(1 << (4 * j + i) for j, i in enumerate(idx)), idx)
                                       for idx in permutations(chosen)])
                             for chosen in combinations(range(size), k)]
                 for size in range(1, HAND_SIZE + 1) for k in range(2, LINE_MAX + 1)}


def _one_card_wilds(board: Board, cell: Cell, h: int) -> bool | None:
    """I2 for one face ``h`` put on the empty ``cell``: whether every wild of the grid keeps
    an identity, as ``_wild_fits_alone`` tells wild by wild, without walking the grid
    again: a wild in line with the cell sees its line there gain ``h`` (``_cell_line``),
    the others stay as the grid has them (``_wild_side``). None when some wild shares a
    line with the other (they are solved together: the caller merges the grid)."""
    views = board.wild_lines.get(cell)
    if views is None:
        views = board.wild_lines[cell] = (_cell_line(board.grid, cell, H), _cell_line(board.grid, cell, V))
    fits = True
    for w in board.wild_cells:
        sides = board.wild_lines.get(w)
        if sides is None:
            sides = board.wild_lines[w] = (_wild_side(board.grid, w, H), _wild_side(board.grid, w, V))
        mask = FULL
        side: int | None
        for d in (0, 1):  # STEPS, in the order _wild_fits_alone walks them
            wilds, count, n, packed, _ = views[d]
            if w in wilds:      # the cell's line along d is the wild's, with h added
                if len(wilds) > 1:
                    return None
                side = _line_fit(count, n + 1, packed | _PACK[h], h)
            else:
                side = sides[d]
                if side is None:
                    return None
            mask &= side
            if not mask:
                fits = False
                break
    return fits


def _cell_line(grid: Grid, cell: Cell, step: Cell) -> tuple[tuple[Cell, ...], int, int, int, int | None]:
    """The cards in line with a cell along ``step`` (both sides, the cell left out): the
    wilds' cells, how many cards, how many faces, their packed masks and one of them."""
    dx, dy = step
    x, y = cell
    wilds = []
    count = n = packed = 0
    face = None
    for sign in (-1, 1):
        cx, cy = x + sign * dx, y + sign * dy
        while (cx, cy) in grid:
            i = grid[(cx, cy)]
            count += 1
            if i < FACES:
                n += 1
                packed |= _PACK[i]
                face = i
            else:
                wilds.append((cx, cy))
            cx, cy = cx + sign * dx, cy + sign * dy
    return tuple(wilds), count, n, packed, face


def _wild_side(grid: Grid, wild: Cell, step: Cell) -> int | None:
    """The identities a wild's line along ``step`` allows it, as ``_wild_fits_alone`` works
    it out (FULL with no card there); None when the line holds the other wild."""
    wilds, count, n, packed, face = _cell_line(grid, wild, step)
    if wilds:
        return None
    return _line_fit(count, n, packed, face) if count else FULL


def _wild_fits_alone(grid: Grid, placed: Grid, cell: Cell) -> bool | None:
    """``wild_candidates`` for the wild at ``cell`` of the grid with ``placed`` added, as a
    check (I2: some identity fits both of its lines), walking its two lines without
    merging the dicts: a line of 2–4 cards allows ``fitting_faces`` of its faces, a longer
    one none. None when a line holds another wild (they are solved together)."""
    x, y = cell
    mask = FULL
    for dx, dy in STEPS:
        count = n = packed = 0
        face = None
        for sign in (-1, 1):
            cx, cy = x + sign * dx, y + sign * dy
            while True:
                i = placed.get((cx, cy))
                if i is None:
                    i = grid.get((cx, cy))
                    if i is None:
                        break
                if i >= FACES:
                    return None
                count += 1
                n += 1
                packed |= _PACK[i]
                face = i
                cx, cy = cx + sign * dx, cy + sign * dy
        if count:
            mask &= _line_fit(count, n, packed, face)
            if not mask:
                return False
    return True


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class State:
    seats: int
    seed: str
    options: dict[str, Any]
    counter: int = 0
    hands: tuple[tuple[str, ...], ...] = ()          # per seat, codes in hand order
    stock: tuple[str, ...] = ()          # codes, top first
    grid: Grid = None  # type: ignore[assignment]  # (x, y) -> card id; always given
    candidates: dict[Cell, int] = None  # type: ignore[assignment]  # always given; (x, y) of a wild -> mask of its candidate faces
    scores: tuple[int, ...] = ()
    turn: int | None = None
    passes: int = 0            # consecutive passes (I9)
    recycled: bool = False     # the seat to act has recycled this turn (I6)
    known: tuple[tuple[str, ...], ...] = ()          # per seat, the stock cards it put there itself
    shown: tuple[tuple[str, ...], ...] = ()          # per seat, hand cards every seat knows of (recycled wilds)
    last_play: dict[str, Any] | None = None
    resigned: tuple[int, ...] = ()       # seats, in the order they resigned
    over: bool = False
    result: dict[str, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles (the store's snapshots) carry the fields only, not the
        ``Board`` that ``board_of`` keeps with the state."""
        fields = dict(self.__dict__)
        fields.pop("_board", None)
        fields.pop("_board_parent", None)
        return fields


def replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without re-running ``__init__`` (states are frozen). The new
    state keeps the old one's ``Board`` while its grid is the same dict (``board_of``
    checks)."""
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def _set(tup: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return tup[:i] + (value,) + tup[i + 1:]


def _next(state: State, seat: int) -> int:
    return (seat + 1) % state.seats


def _with_candidates(state: State, grid: Grid) -> State:
    cells = _wild_cells(grid)
    masks = wild_candidates(grid.get, cells) if cells else []
    return replace(state, grid=grid, candidates=dict(zip(cells, masks)))


def _on_match_started(state: State | None, e: dict[str, Any]) -> State:
    n = e["seats"]
    return State(seats=n, seed=e["seed"], options=dict(e["options"]), grid={}, candidates={},
                 scores=(0,) * n, known=((),) * n, shown=((),) * n)


def _on_cards_dealt(state: State, e: dict[str, Any]) -> State:
    return replace(state, counter=state.counter + 1, hands=tuple(tuple(h) for h in e["hands"]),
                   stock=tuple(e["stock"]), grid={(0, 0): INDEX[e["starter"]]}, candidates={}, turn=0)


def _on_wild_recycled(state: State, e: dict[str, Any]) -> State:
    seat, cell = e["seat"], (e["x"], e["y"])
    hand = list(state.hands[seat])
    hand.remove(e["card"])
    hand.append(e["wild"])
    grid = dict(state.grid)
    grid[cell] = INDEX[e["card"]]
    new = replace(state, hands=_set(state.hands, seat, tuple(hand)), recycled=True,
                  shown=_set(state.shown, seat, state.shown[seat] + (e["wild"],)))
    return _with_candidates(new, grid)


def _on_cards_played(state: State, e: dict[str, Any]) -> State:
    seat = e["seat"]
    grid = dict(state.grid)
    codes = []
    for p in e["cards"]:
        grid[(p["x"], p["y"])] = INDEX[p["card"]]
        codes.append(p["card"])
    hand = tuple(c for c in state.hands[seat] if c not in codes)
    new = replace(state, hands=_set(state.hands, seat, hand),
                  shown=_set(state.shown, seat, tuple(c for c in state.shown[seat] if c not in codes)),
                  scores=_set(state.scores, seat, state.scores[seat] + e["score"]),
                  turn=_next(state, seat), passes=0, recycled=False,
                  last_play={"seat": seat, "cards": [dict(p) for p in e["cards"]], "score": e["score"]})
    new = _with_candidates(new, grid)
    # board_of may grow the new grid's Board from this one, if it was worked out
    board = state.__dict__.get("_board")
    parent = None
    if board is not None and board.grid is state.grid:
        parent = (board, [(p["x"], p["y"]) for p in e["cards"]], grid, state.grid)
    object.__setattr__(new, "_board_parent", parent)
    return new


def _on_passed(state: State, e: dict[str, Any]) -> State:
    seat = e["seat"]
    returned = list(e["returned"])
    hand = tuple(c for c in state.hands[seat] if c not in returned)
    known = _set(state.known, seat, state.known[seat] + tuple(returned))
    shown = _set(state.shown, seat, tuple(c for c in state.shown[seat] if c not in returned))
    return replace(state, hands=_set(state.hands, seat, hand), stock=state.stock + tuple(returned),
                   known=known, shown=shown, turn=_next(state, seat), passes=state.passes + 1, recycled=False)


def _on_cards_drawn(state: State, e: dict[str, Any]) -> State:
    seat, cards = e["seat"], list(e["cards"])
    known = tuple(tuple(c for c in k if c not in cards) for k in state.known)
    return replace(state, hands=_set(state.hands, seat, state.hands[seat] + tuple(cards)),
                   stock=state.stock[len(cards):], known=known)


def _on_seat_resigned(state: State, e: dict[str, Any]) -> State:
    return replace(state, resigned=state.resigned + (e["seat"],))


def _on_match_ended(state: State, e: dict[str, Any]) -> State:
    return replace(state, over=True, turn=None, recycled=False,
                   result={"ranking": [list(p) for p in e["ranking"]], "scores": list(e["scores"])})


APPLY: dict[str, Callable[..., State]] = {name[4:]: fn for name, fn in dict(globals()).items() if name.startswith("_on_")}


# --------------------------------------------------------------------------
# Rules as functions of the state
# --------------------------------------------------------------------------

def deal(deck: list[str], seats: int) -> dict[str, Any]:
    """I4. Deal 4 cards to each seat; the top card of the stock is the starter, face up at
    the origin of the grid (a wild turned as the starter goes to the bottom of the stock
    and the next card is turned, again if need be)."""
    hands = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(seats)]
    stock = list(deck[seats * HAND_SIZE:])
    while stock[0] in WILDS:
        stock.append(stock.pop(0))
    return {"type": "cards_dealt", "hands": hands, "starter": stock[0], "stock": stock[1:]}


def variant_deck(variant: str, seed: str, counter: int) -> list[str]:
    """I10. ``short`` uses 32 cards chosen at random from the 64 plus both wilds."""
    rng = core.SeededRandom(seed, counter)
    if variant == "short":
        chosen = rng.shuffled(CARDS[:FACES])[:SHORT_FACES]
        return rng.shuffled(chosen + list(WILDS))
    return rng.shuffled(CARDS)


def check_short_deck(deck: Any) -> list[str]:
    """I10. A stacked deck for ``short`` lists exactly 34 cards: 32 faces and both wilds."""
    if not isinstance(deck, (list, tuple)) or not all(isinstance(c, str) for c in deck):
        raise ValueError("iota: a stacked deck is a list of card codes")
    if (len(deck) != SHORT_FACES + 2 or len(set(deck)) != len(deck)
            or not set(deck) <= set(CARDS) or not set(WILDS) <= set(deck)):
        raise ValueError("iota: a short deck lists 34 distinct cards: 32 faces and both wilds")
    return list(deck)


def everyone_passed_twice(passes: int, seats: int) -> bool:
    """I9. It also ends when every seat has passed twice in a row with nothing played,
    exchanges included."""
    return passes >= 2 * seats


def final_ranking(state: State) -> dict[str, Any]:
    """I9. Highest score wins; equal scores share a place.
    I10. ``kids`` keeps no score: the first seat out of cards after the stock is empty
    wins, the others rank by cards left, fewest first.
    docs/engine-contract.md "Resigning": resigned seats rank below all others, the latest to resign
    best among them."""
    if state.options["variant"] == "kids":
        left = [len(h) for h in state.hands]
        ranking = core.rank_by_scores(left, highest_first=False)
        return {"ranking": core.rank_with_resignations(ranking, state.resigned), "scores": left}
    scores = list(state.scores)
    return {"ranking": core.rank_with_resignations(MATCH_FORMAT.ranking(scores), state.resigned),
            "scores": scores}


def resigning_ends_match(state: State) -> bool:
    """docs/engine-contract.md: when resigning leaves one seat not resigned, the match ends at once with
    it first."""
    return core.last_standing(range(state.seats), state.resigned)


def may_return(count: int, stock_size: int) -> bool:
    """I5. Pass, optionally putting any number of hand cards (1–4) on the bottom of the
    stock first and then drawing as many from its top (decided: no more than the stock
    holds)."""
    return count <= stock_size


def recycle_fits(state: State, cell: Cell, card: int) -> bool:
    """I6. Before playing, a player may replace a wild on the grid with a hand card that
    fits that cell in all its lines (leaving every other wild at least one candidate),
    and take the wild into hand."""
    return bool(state.candidates.get(cell, 0) >> card & 1)


# --------------------------------------------------------------------------
# The game object
# --------------------------------------------------------------------------

def _illegal(code: str, message: str, rule: str | None = None) -> NoReturn:
    raise IllegalMove(code, message, rule)


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _parse_cards(move: dict[str, Any]) -> list[tuple[str, Cell]]:
    cards = move.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= HAND_SIZE:
        _illegal("malformed_move", "a play lists 1–4 cards as {card, x, y}", "I5")
    out: list[tuple[str, Cell]] = []
    for p in cards:
        if (not isinstance(p, dict) or p.keys() != PLACED_KEYS or not isinstance(p["card"], str)
                or not _int(p["x"]) or not _int(p["y"])):
            _illegal("malformed_move", "each placed card is {card, x, y}", "I5")
        if p["card"] not in INDEX:
            _illegal("unknown_card", f"no card {core.short(p['card'])} in IOTA")
        out.append((p["card"], (p["x"], p["y"])))
    if len({c for c, _ in out}) != len(out) or len({cell for _, cell in out}) != len(out):
        _illegal("malformed_move", "each card and each cell at most once", "I5")
    return out


def _play_move(placements: Iterable[tuple[Cell, int]]) -> dict[str, Any]:
    """A play in canonical form: cards sorted by (x, y)."""
    return {"type": "play", "cards": [{"card": CARDS[i], "x": x, "y": y}
                                      for (x, y), i in sorted(placements)]}


def _canonical(hand: Iterable[str]) -> list[str]:
    return sorted(hand, key=INDEX.__getitem__)


class Iota(core.Game):
    name = NAME
    MIN_SEATS = MIN_SEATS
    MAX_SEATS = MAX_SEATS
    MAX_EVENTS = MAX_EVENTS

    def cards(self) -> list[str]:
        """I1. The 64 faces (colour, number, shape order), then ``W1``, ``W2``."""
        return list(CARDS)

    # -- start / apply ------------------------------------------------------
    def start(self, seats: int, seed: str, options: dict[str, Any] | None = None,
              deck: list[str] | None = None) -> list[dict[str, Any]]:
        core.check_seats(seats, MIN_SEATS, MAX_SEATS, NAME)
        opts = core.check_options(options, OPTIONS, NAME)
        if not isinstance(seed, str):
            raise ValueError("iota: the seed is a string")
        if deck is not None:
            deck = check_short_deck(deck) if opts["variant"] == "short" else core.check_deck(deck, CARDS, NAME)
        else:
            deck = variant_deck(opts["variant"], seed, 0)
        return [{"type": "match_started", "seats": seats, "options": opts, "seed": seed,
                 "rules_version": RULES_VERSION},
                deal(deck, seats)]  # type: ignore[arg-type]  # check_deck returns the deck it is given

    def apply(self, state: State | None, event: dict[str, Any]) -> State:
        return APPLY[event["type"]](state, event)

    # -- moves ----------------------------------------------------------------
    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state is None or state.over or seat != state.turn:
            return []
        hand = state.hands[seat]
        moves: list[dict[str, Any]] = []
        if hand:
            # plays sorted by (number of cards, cells and cards), as their ints sort (_plays)
            ones, twos, threes, fours = _plays(state.grid, [INDEX[c] for c in hand], board_of(state))
            add = moves.append
            cards = CARDS
            for key in ones:
                c = key >> 7
                add({"type": "play", "cards": [{"card": cards[key & 127], "x": (c >> 11) - OFF, "y": (c & 2047) - OFF}]})
            for key in twos:
                a = key >> CARD_BITS
                c = a >> 7
                d = (key & CARD_MASK) >> 7
                add({"type": "play", "cards": [{"card": cards[a & 127], "x": (c >> 11) - OFF, "y": (c & 2047) - OFF},
                                               {"card": cards[key & 127], "x": (d >> 11) - OFF,
                                                "y": (d & 2047) - OFF}]})
            for key in threes:
                a = key >> 2 * CARD_BITS
                b = key >> CARD_BITS & CARD_MASK
                c, d, e = a >> 7, b >> 7, (key & CARD_MASK) >> 7
                add({"type": "play", "cards": [{"card": cards[a & 127], "x": (c >> 11) - OFF, "y": (c & 2047) - OFF},
                                               {"card": cards[b & 127], "x": (d >> 11) - OFF, "y": (d & 2047) - OFF},
                                               {"card": cards[key & 127], "x": (e >> 11) - OFF,
                                                "y": (e & 2047) - OFF}]})
            for key in fours:
                a = key >> 3 * CARD_BITS
                b = key >> 2 * CARD_BITS & CARD_MASK
                f = key >> CARD_BITS & CARD_MASK
                c, d, e, g = a >> 7, b >> 7, f >> 7, (key & CARD_MASK) >> 7
                add({"type": "play", "cards": [{"card": cards[a & 127], "x": (c >> 11) - OFF, "y": (c & 2047) - OFF},
                                               {"card": cards[b & 127], "x": (d >> 11) - OFF, "y": (d & 2047) - OFF},
                                               {"card": cards[f & 127], "x": (e >> 11) - OFF, "y": (e & 2047) - OFF},
                                               {"card": cards[key & 127], "x": (g >> 11) - OFF,
                                                "y": (g & 2047) - OFF}]})
        if not state.recycled:
            for (x, y), mask in sorted(state.candidates.items()):
                for card in _canonical(hand):
                    if card not in WILDS and mask >> INDEX[card] & 1:
                        moves.append({"type": "recycle", "card": card, "x": x, "y": y})
        ordered = _canonical(hand)
        for k in range(len(hand) + 1):
            if not may_return(k, len(state.stock)):
                break
            for returned in combinations(ordered, k):
                moves.append({"type": "pass", "return": list(returned)})
        return moves

    def play(self, state: State, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
        kind = core.guard_move(move, MOVE_KEYS)
        if state.over:
            _illegal("match_over", "the match is over")
        if kind == core.RESIGN:
            return self._resign(state, seat)
        if not core.is_seat(seat, state.seats) or seat != state.turn:
            _illegal("not_your_turn", f"seat {core.short(seat)} cannot act: it is seat {state.turn}'s turn")
        if kind == "play":
            return self._play_cards(state, seat, _parse_cards(move))
        if kind == "pass":
            return self._pass(state, seat, move.get("return", []))
        return self._recycle(state, seat, move)

    def _resign(self, state: State, seat: int) -> list[dict[str, Any]]:
        """docs/engine-contract.md "Resigning": legal for any seat that has not resigned, in or out of turn;
        when it leaves one seat not resigned, the match ends at once with it first."""
        core.may_resign(seat, state.seats, state.resigned)
        event = core.seat_resigned(seat)
        after = APPLY["seat_resigned"](state, event)
        if resigning_ends_match(after):
            return [event, self._end(after, "resigned")]
        return [event]

    def _play_cards(self, state: State, seat: int, cards: list[tuple[str, Cell]]) -> list[dict[str, Any]]:
        hand = state.hands[seat]
        for code, _ in cards:
            if code not in hand:
                _illegal("card_not_in_hand", f"{code} is not in seat {seat}'s hand")
        placed = {cell: INDEX[code] for code, cell in cards}
        problem, merged, lines = _placement(state.grid, placed)
        if problem:
            code, rule, message = problem
            _illegal(code, message, rule)
        final = is_final_play(len(placed), len(hand), len(state.stock))
        score, lots = turn_score(merged.get, lines, len(placed), final)
        if state.options["variant"] == "kids":
            score = 0
        events = [{"type": "cards_played", "seat": seat,
                   "cards": _play_move(placed.items())["cards"],
                   "score": score, "lots": lots, "final": final}]
        # the seat draws back up to 4 from the stock, which the play leaves as it was (I5);
        # the state after is worked out only when the play ends the match (I9), for the ranking
        need = HAND_SIZE - (len(hand) - len(placed))
        if need > 0 and state.stock:
            events.append({"type": "cards_drawn", "seat": seat, "cards": list(state.stock[:need])})
        if final:
            after = state
            for event in events:
                after = APPLY[event["type"]](after, event)
            events.append(self._end(after, "last_card"))
        return events

    def _pass(self, state: State, seat: int, returned: Any) -> list[dict[str, Any]]:
        hand = state.hands[seat]
        if (not isinstance(returned, list) or len(returned) > len(hand)
                or not all(isinstance(c, str) for c in returned)):
            _illegal("malformed_move", "return lists hand cards", "I5")
        if len(set(returned)) != len(returned):
            _illegal("malformed_move", "each returned card at most once", "I5")
        for code in returned:
            if code not in INDEX:
                _illegal("unknown_card", f"no card {core.short(code)} in IOTA")
            if code not in hand:
                _illegal("card_not_in_hand", f"{code} is not in seat {seat}'s hand")
        if not may_return(len(returned), len(state.stock)):
            _illegal("stock_too_small", "a pass returns no more cards than the stock holds", "I5")
        ordered = sorted(returned, key=INDEX.__getitem__)
        events = [{"type": "passed", "seat": seat, "count": len(ordered), "returned": ordered}]
        after = APPLY["passed"](state, events[0])
        if ordered:
            events.append({"type": "cards_drawn", "seat": seat, "cards": list(after.stock[:len(ordered)])})
            after = APPLY["cards_drawn"](after, events[-1])
        if everyone_passed_twice(after.passes, after.seats):
            events.append(self._end(after, "all_passed"))
        return events

    def _recycle(self, state: State, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
        code, x, y = move.get("card"), move.get("x"), move.get("y")
        if not isinstance(code, str) or not _int(x) or not _int(y):
            _illegal("malformed_move", "a recycle is {card, x, y}", "I6")
        if code not in INDEX:
            _illegal("unknown_card", f"no card {core.short(code)} in IOTA")
        if code not in state.hands[seat]:
            _illegal("card_not_in_hand", f"{code} is not in seat {seat}'s hand")
        if state.recycled:
            _illegal("already_recycled", "a wild may be recycled once per turn", "I6")
        cell: Cell = (x, y)  # type: ignore[assignment]  # x, y are ints (_int)
        wild = state.grid.get(cell)
        if wild is None or wild < FACES:
            _illegal("no_wild_there", "no wild lies on that cell", "I6")
        if code in WILDS or not recycle_fits(state, cell, INDEX[code]):
            _illegal("card_does_not_fit", f"{code} does not fit that cell in all its lines", "I6")
        return [{"type": "wild_recycled", "seat": seat, "card": code, "x": x, "y": y, "wild": CARDS[wild]}]

    def _end(self, state: State, reason: str) -> dict[str, Any]:
        result = final_ranking(state)
        return {"type": "match_ended", "reason": reason, "ranking": result["ranking"], "scores": result["scores"]}

    # -- views ------------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        """The seat whose turn it is (nobody acts out of turn in IOTA), without building a view."""
        return [] if state.over or state.turn is None else [state.turn]

    def score_order(self, options: dict[str, Any] | None) -> ScoreOrder:
        """I9: the highest score wins. I10 (``kids``): no scores are kept; ``outcome``'s scores are
        the cards left, fewest first."""
        return "lower" if (options or {}).get("variant") == "kids" else "higher"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        grid = []
        for (x, y), i in sorted(state.grid.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            entry = {"card": CARDS[i], "x": x, "y": y}
            if i >= FACES:
                entry["candidates"] = [CARDS[f] for f in _bits(state.candidates[(x, y)])]
            grid.append(entry)
        xs = [x for x, _ in state.grid] or [0]
        ys = [y for _, y in state.grid] or [0]
        out = {
            "variant": state.options["variant"],
            "seats": state.seats,
            "round": 1,
            "turn": state.turn,
            "over": state.over,
            "outcome": self.outcome(state),
            "to_act": [] if state.over or state.turn is None else [state.turn],
            "grid": grid,
            # CSS grid placement with one free cell around the cards: column = x + dx.
            "layout": {"dx": 2 - min(xs), "dy": 2 - min(ys),
                       "cols": max(xs) - min(xs) + 3, "rows": max(ys) - min(ys) + 3},
            "scores": list(state.scores),
            "stock_size": len(state.stock),
            "hand_sizes": [len(h) for h in state.hands],
            "shown": [list(s) for s in state.shown],
            "passes": state.passes,
            "recycled": state.recycled,
            "last_play": None if state.last_play is None else {
                "seat": state.last_play["seat"], "score": state.last_play["score"],
                "cards": [dict(p) for p in state.last_play["cards"]]},
            "hand": list(state.hands[seat]) if seat is not None and state.hands else [],
            "resigned": list(state.resigned),
        }
        if state.over:
            out["hands"] = [list(h) for h in state.hands]
        return out

    def redact(self, event: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        kind = event["type"]
        if kind == "match_started":
            return {k: v for k, v in event.items() if k != "seed"}
        if kind == "cards_dealt":
            out = {"type": kind, "starter": event["starter"],
                   "hand_sizes": [len(h) for h in event["hands"]], "stock_size": len(event["stock"])}
            if seat is not None:
                out["hand"] = list(event["hands"][seat])
            return out
        if kind == "cards_drawn" and event["seat"] != seat:
            return {"type": kind, "seat": event["seat"], "count": len(event["cards"])}
        if kind == "passed" and event["seat"] != seat:
            return {"type": kind, "seat": event["seat"], "count": event["count"]}
        return event

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state is None or not state.over:
            return None
        result: dict[str, Any] = state.result  # type: ignore[assignment]  # set when over
        return {"ranking": [list(p) for p in result["ranking"]], "scores": list(result["scores"])}

    # -- protocol-test hooks -------------------------------------------------------
    def all_cards(self, state: State) -> list[str]:
        out = [c for h in state.hands for c in h]
        out += list(state.stock)
        out += [CARDS[i] for i in state.grid.values()]
        return out

    def hidden_cards(self, state: State, seat: int | None) -> list[str]:
        if state.over:
            return []
        out = [c for s, h in enumerate(state.hands) if s != seat for c in h if c not in state.shown[s]]
        mine = set(state.known[seat]) if seat is not None else set()
        out += [c for c in state.stock if c not in mine]
        return out

    # -- determinization (search bots: engine/bots/search.py) ------------------------
    def sample_state(self, view: dict[str, Any], seat: int, rng: Random,
                     legal: list[dict[str, Any]] | None = None) -> State:
        """A full state consistent with ``seat``'s ``view``: its hand, the grid (the wilds'
        candidates worked out again from it), the scores, passes and the recycled wilds
        every seat knows of (``shown``) as shown; the other hands filled to their sizes and
        the stock to its size from the cards nobody has shown (I10 ``short``: the deck's 32
        faces are unknown, so the faces are drawn from every unseen one, the unseen wilds
        always among them). The seed is a dummy drawn from ``rng``; ``legal`` is unused."""
        n = view["seats"]
        hand = tuple(view["hand"])
        shown = tuple(tuple(s) for s in view["shown"])
        grid = {(p["x"], p["y"]): INDEX[p["card"]] for p in view["grid"]}
        seen = set(hand) | {CARDS[i] for i in grid.values()}
        seen |= {c for s, cards in enumerate(shown) if s != seat for c in cards}
        need = sum(view["hand_sizes"][s] - len(shown[s]) for s in range(n) if s != seat) + view["stock_size"]
        wilds = [c for c in WILDS if c not in seen]
        faces = [c for c in CARDS[:FACES] if c not in seen]
        rng.shuffle(faces)
        unseen = wilds + faces[:max(0, need - len(wilds))]
        rng.shuffle(unseen)
        hands = []
        for s in range(n):
            if s == seat:
                hands.append(hand)
                continue
            take = view["hand_sizes"][s] - len(shown[s])
            hands.append(shown[s] + tuple(unseen[:take]))
            del unseen[:take]
        last = view.get("last_play")
        state = State(
            seats=n, seed=f"search-{rng.getrandbits(64):016x}", options={"variant": view["variant"]},
            counter=1, hands=tuple(hands), stock=tuple(unseen), grid=grid, candidates={},
            scores=tuple(view["scores"]), turn=view["turn"], passes=view["passes"], recycled=view["recycled"],
            known=((),) * n, shown=shown, last_play=dict(last) if last else None,
            resigned=tuple(view["resigned"]), over=False, result=None)
        return _with_candidates(state, grid)


def score_play(state: State, seat: int, cards: list[dict[str, Any]]) -> int:
    """The score ``seat`` would make by the play ``cards`` (``[{"card", "x", "y"}]``) now,
    doublings included (0 in ``kids``). Raises ``IllegalMove`` for an illegal play."""
    events = game.play(state, seat, {"type": "play", "cards": cards})
    return events[0]["score"]  # type: ignore[no-any-return]


def view_scorer(view: dict[str, Any]) -> Callable[[list[dict[str, Any]]], int]:
    """A function ``cards -> score`` for plays as a seat can work them out from its own
    view (for bots): the grid, its hand size and the stock size, doublings included.
    Assumes the play is legal; ignores ``kids``."""
    grid = {(p["x"], p["y"]): INDEX[p["card"]] for p in view["grid"]}
    hand_size, stock_size = len(view["hand"]), view["stock_size"]

    def score(cards: list[dict[str, Any]]) -> int:
        placed = {(p["x"], p["y"]): INDEX[p["card"]] for p in cards}

        def get(cell: Cell) -> int | None:
            i = placed.get(cell)
            return grid.get(cell) if i is None else i

        lines = touched_lines(get, list(placed))
        final = is_final_play(len(placed), hand_size, stock_size)
        return turn_score(get, lines, len(placed), final)[0]

    return score


#: The registry name (docs/engine-contract.md "Module attributes") and the game object the registry hands out.
GAME = "iota"
game: SearchableGame = Iota()  # checked against the engine contract (engine.protocol)
