"""IOTA — the grid game of lines, lots and wild cards, for 2–4 seats (rules:
shared/rules/iota.md, I1–I10).

Shape: 64 unique cards (4 colours × 4 numbers × 4 shapes, codes ``B4S``) and
two wilds ``W1`` ``W2`` (I1); a hand of 4; one deal, no dealer: seat 0 starts.
The grid is unbounded around the starter at (0, 0); x grows to the right, y
downward. Highest score wins (``kids``: fewest cards left).

Moves (ENGINE.md): ``play`` (``cards``: 1–4 ``{"card", "x", "y"}``) ·
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
- resigning (ENGINE.md "Resigning (every game)"): ``{"type": "resign"}``
  records ``seat_resigned``; the seat keeps its hand and its turns. When one
  seat is left not resigned, ``match_ended`` (``reason: "resigned"``) follows at
  once with the scores as they stand (``kids``: the cards left); every ranking
  goes through ``core.rank_with_resignations``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations

from engine import core
from engine.core import IllegalMove
from engine.protocol import SHARED_EVENTS

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


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --------------------------------------------------------------------------
# Lines and wilds (I2, I3)
# --------------------------------------------------------------------------

def is_valid_line(ids) -> bool:
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


@lru_cache(maxsize=None)
def fitting_faces(faces: tuple) -> int:
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


def run_through(get, cell, step) -> list:
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


def wild_candidates(get, wild_cells, check_only: bool = False) -> list[int]:
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


def wild_pair(faces: tuple, first: int, second: int, check_only: bool = False) -> tuple[int, int]:
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

def touched_lines(get, cells) -> list[tuple]:
    """I7. Each line that contains a card placed this turn (created or extended), once."""
    seen = {}
    for cell in cells:
        for step in STEPS:
            line = run_through(get, cell, step)
            if len(line) > 1:
                seen.setdefault((line[0], step), tuple(line))
    return list(seen.values())


def turn_score(get, lines, placed: int, final: bool) -> tuple[int, int]:
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


def within_reach(grid: dict, cell) -> bool:
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


def placement_problem(grid: dict, placed: dict):
    """I5. Play 1–4 cards from hand onto empty cells, all in one row or all in one column,
    connected to the cards already played; the placed cards and the cards between them
    form one unbroken line ... Every line that a placed card belongs to, in both
    directions, must be valid (I3).

    ``placed`` maps cells to card ids. Returns ``(code, rule, message)`` for the first
    broken rule, or ``None``. Every cell is checked ``within_reach`` first, so the
    range between the placed cards is never longer than the grid's extent plus 8."""
    cells = list(placed)
    if not all(within_reach(grid, c) for c in cells):
        return "not_connected", "I5", "a card that far from the grid cannot connect to it"
    if any(c in grid for c in cells):
        return "cell_taken", "I5", "a card already lies on that cell"
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
            return "not_in_one_line", "I5", "the cards must lie in one row or one column"
        if any(c not in grid and c not in placed for c in between):
            return "gap_in_line", "I5", "the placed cards and the cards between them must form one unbroken line"
    if not any((x + dx, y + dy) in grid for x, y in cells for dx, dy in NEIGHBOURS):
        return "not_connected", "I5", "the cards must connect to the cards already played"
    merged = {**grid, **placed}
    get = merged.get
    lines = touched_lines(get, cells)
    if any(len(line) > LINE_MAX for line in lines):
        return "line_too_long", "I3", "no line may be longer than 4"
    wild_lines = False
    for line in lines:
        ids = [merged[c] for c in line]
        if any(i >= FACES for i in ids):
            wild_lines = True
        elif not is_valid_line(ids):
            return "invalid_line", "I3", "each property must be the same on all cards of a line or different on all"
    if wild_lines and not all(wild_candidates(get, _wild_cells(merged), check_only=True)):
        return "wild_without_identity", "I2", "every wild must keep at least one identity that fits all its lines"
    return None


def _wild_cells(grid: dict) -> list:
    return sorted(c for c, i in grid.items() if i >= FACES)


#: Per face id: its colour, number and shape as one 12-bit mask (4 bits each); a line's
#: faces OR'd together tell, property by property, how many values it shows.
_PACK = tuple((1 << (i >> 4)) | (1 << (4 + ((i >> 2) & 3))) | (1 << (8 + (i & 3))) for i in range(FACES))
#: ``_LINE_OK[n][m]``: n distinct faces whose packed masks OR to m form a valid line (I3):
#: each property shows one value or n values (``is_valid_line`` for distinct faces).
_LINE_OK = tuple(bytes(int(n <= LINE_MAX and all(_POP[(m >> s) & 15] in (1, n) for s in (0, 4, 8)))
                       for m in range(1 << 12)) for n in range(LINE_MAX + 2))


@lru_cache(maxsize=None)
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


def _line_fit(count: int, n: int, packed: int, face: int) -> int:
    """``fitting_faces`` of a line's faces for an empty cell, from the line's size
    (``count`` cards, wilds included), its faces' number ``n`` and packed masks, and its
    face when it has one: 0 once the line is full."""
    if count >= LINE_MAX:
        return 0
    if n == 0:
        return FULL
    if n == 1:
        return FULL & ~(1 << face)
    return _fit_of_packed(n, packed)


_EMPTY_LINE = (FULL, False, False)


class Board:
    """What legal-move generation needs to know of a grid, whatever the hand (worked out
    once per grid; ``board_of`` keeps it with a state, so passes reuse it, and grows the
    next one from it after a play, ``Board.grown``):

    - ``frontier``: the empty cells next to a card, sorted; a play puts at least one
      card on one (I5: "connected to the cards already played");
    - ``lines[cell]``: for a frontier cell, its line along a row and along a column, each
      as ``(fit, wild, near)``: the faces that may lie on the cell as far as that line
      goes (``fitting_faces``; 0 when the line is full), whether it holds a wild,
      whether it holds a card at all;
    - ``lanes[step][lane]``: per row (step H, lane y) and column (step V, lane x), with
      positions as bits (bit ``t - base[step]``): ``(cards, frontier cells, frontier
      cells with a card across, spots)``, ``spots[bit]`` for each position a segment may
      cover: a card's id, or an empty cell's ``(cell, fit, near, wild)`` across the lane.
    """

    __slots__ = ("grid", "wild_cells", "frontier", "lines", "lanes", "base")

    def __init__(self, grid: dict):
        self.grid = grid
        self.wild_cells = _wild_cells(grid)
        self.frontier = sorted({(x + dx, y + dy) for x, y in grid for dx, dy in NEIGHBOURS} - grid.keys())
        xs = [x for x, _ in grid] or [0]
        ys = [y for _, y in grid] or [0]
        # bit 0 sits well before every segment start (a frontier cell lies within 1 of the
        # cards, a segment starts at most 3 before it and looks one cell further)
        self.base = {H: min(xs) - 2 * LINE_MAX, V: min(ys) - 2 * LINE_MAX}
        lines = self.lines = {cell: (_line_info(grid, cell, H), _line_info(grid, cell, V))
                              for cell in self.frontier}
        self.lanes = {}
        for step, pos, lane_of in ((H, 0, 1), (V, 1, 0)):  # a row: lane y, position x
            base = self.base[step]
            perp = 1 if step == H else 0        # index of the cross line in lines[cell]
            table: dict = {}
            for cell in grid:
                entry = table.setdefault(cell[lane_of], [0, 0, 0])
                entry[0] |= 1 << (cell[pos] - base)
            for cell in self.frontier:
                entry = table.setdefault(cell[lane_of], [0, 0, 0])
                bit = 1 << (cell[pos] - base)
                entry[1] |= bit
                if lines[cell][perp][2]:
                    entry[2] |= bit
            self.lanes[step] = {lane: (occ, cand, near, _Spots(self, step, lane))
                                for lane, (occ, cand, near) in table.items() if cand}

    @classmethod
    def grown(cls, old: "Board", grid: dict, placed) -> "Board":
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
        fresh = {(x + dx, y + dy) for x, y in placed for dx, dy in NEIGHBOURS} - grid.keys()
        frontier = set(old.frontier)
        frontier.difference_update(placed)
        frontier |= fresh
        new.frontier = sorted(frontier)
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
            at = base[step]
            perp = 1 if step == H else 0
            touched = {cell[lane_of] for cell in touched_cells}
            table = {lane: [0, 0, 0] for lane in touched}
            for cell in grid:
                entry = table.get(cell[lane_of])
                if entry is not None:
                    entry[0] |= 1 << (cell[pos] - at)
            for cell in frontier:
                entry = table.get(cell[lane_of])
                if entry is not None:
                    bit = 1 << (cell[pos] - at)
                    entry[1] |= bit
                    if lines[cell][perp][2]:
                        entry[2] |= bit
            lanes = new.lanes[step] = {lane: entry for lane, entry in old.lanes[step].items()
                                       if lane not in touched}
            for lane, (occ, cand, near) in table.items():
                if cand:
                    lanes[lane] = (occ, cand, near, _Spots(new, step, lane))
        return new

    def line(self, cell, step) -> tuple[int, bool, bool]:
        """The line across an empty cell that may take part in a play."""
        info = self.lines.get(cell)
        if info is None:
            return _EMPTY_LINE  # not next to any card: nothing across it
        return info[0] if step == H else info[1]


def _line_info(grid: dict, cell, step) -> tuple[int, bool, bool]:
    """``Board.lines`` for one empty cell and direction: its line's ``(fit, wild, near)``,
    walking the cards on both sides."""
    dx, dy = step
    x, y = cell
    count = n = packed = 0
    face = None
    wild = False
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
                wild = True
            cx, cy = cx + sign * dx, cy + sign * dy
    if not count:
        return _EMPTY_LINE
    return _line_fit(count, n, packed, face), wild, True


class _Spots(dict):
    """The positions of one lane, worked out when first asked for (``board.lanes``):
    bit -> a card's id, or an empty cell's ``(cell, fit, near, wild)`` across the lane."""

    __slots__ = ("grid", "lines", "row", "lane", "base", "across")

    def __init__(self, board: Board, step, lane: int):
        super().__init__()
        self.grid, self.lines = board.grid, board.lines
        self.row, self.lane, self.base = step == H, lane, board.base[step]
        self.across = 1 if step == H else 0  # the cross line's index in board.lines[cell]

    def __missing__(self, p: int):
        t = p + self.base
        cell = (t, self.lane) if self.row else (self.lane, t)
        i = self.grid.get(cell)
        if i is not None:
            spot = i
        else:
            info = self.lines.get(cell)
            fit, wild, near = _EMPTY_LINE if info is None else info[self.across]
            spot = (cell, fit, near, wild)
        self[p] = spot
        return spot


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


def enumerate_plays(grid: dict, hand: list[int], board: Board | None = None) -> list[tuple]:
    """Every legal placement (I5) of cards from ``hand``, each as a tuple of
    ``((x, y), id)`` sorted by cell. ``board`` is ``Board(grid)`` when the caller has it.

    Driven by the grid's frontier (the empty cells next to a card: a play covers at least
    one of them). One card: every frontier cell, both of its lines checked. Two to four
    cards: each maximal segment of a row or column that holds a frontier cell, 2–4 cells
    long with 2+ empty cells and no frontier cell where no hand card fits across, found
    for a whole row at once with bit operations. A segment is filled with each ordering
    of distinct hand cards (``_orderings``) that its cells' cross lines allow (one bit
    test for all the cells) and that keeps the segment's line valid (one table look-up
    on the line's property masks); the wilds are solved exactly (I2), a wild alone in its
    lines without merging the grid (``_wild_fits_alone``)."""
    if not hand:
        return []
    if board is None:
        board = Board(grid)
    wild_cells = board.wild_cells
    lines = board.lines
    out: list[tuple] = []

    def wilds_fit(placed: dict) -> bool:
        cells = wild_cells + [c for c, i in placed.items() if i >= FACES]
        alone = [_wild_fits_alone(grid, placed, c) for c in cells]
        if None not in alone:  # no two wilds in one line: each on its own
            return all(alone)
        merged = dict(grid)
        merged.update(placed)
        return all(wild_candidates(merged.get, cells, check_only=True))

    one_fits: dict = {}

    def one_fit(cell, h) -> bool:
        """``wilds_fit({cell: h})``, remembered: a single card, or the one card of a segment
        whose cross line is the only line it touches that holds a wild (the other cards
        lie on no line through a wild, so they change nothing)."""
        got = one_fits.get((cell, h))
        if got is None:
            got = one_fits[(cell, h)] = wilds_fit({cell: h})
        return got

    # which hand cards (bit i: hand[i]) a cross line allows, per fit mask
    allowed_cache: dict = {}

    def allowed(fit: int) -> int:
        got = allowed_cache.get(fit)
        if got is None:
            got = 0
            for i, h in enumerate(hand):
                if (fit >> h & 1) if h < FACES else fit:
                    got |= 1 << i
            allowed_cache[fit] = got
        return got

    # one card: both of its lines
    for cell in board.frontier:
        (fit_h, wild_h, _), (fit_v, wild_v, _) = lines[cell]
        fit = fit_h & fit_v
        wild_line = wild_h or wild_v
        for h in hand:
            if h < FACES:
                if fit >> h & 1 and (not wild_line or one_fit(cell, h)):
                    out.append(((cell, h),))
            elif (fit if not wild_line else fit_h and fit_v and one_fit(cell, h)):
                out.append(((cell, h),))

    # two to four cards along a row (step H) or a column (step V)
    most = min(len(hand), LINE_MAX)
    if most < 2:
        return out
    rows = _orderings(hand, most)
    wild_memo: dict = {}
    line_ok = _LINE_OK
    for step in STEPS:
        for occ, cand, near, spot in board.lanes[step].values():
            # a frontier cell with a card across where no hand card fits is dead
            dead = 0
            bits = near
            while bits:
                low = bits & -bits
                bits ^= low
                if not allowed(spot[low.bit_length() - 1][1]):
                    dead |= low
            free = ~occ
            for length in range(2, LINE_MAX + 1):
                # segment starts (bit a: cells a .. a+length-1) that hold a frontier cell and
                # no dead one, with no card just before or just after
                reach = cand
                block = dead
                for j in range(1, length):
                    reach |= cand >> j
                    block |= dead >> j
                starts = reach & ~block & (free << 1) & (free >> length)
                while starts:
                    low = starts & -starts
                    starts ^= low
                    a = low.bit_length() - 1
                    k = (((1 << length) - 1) << a & free).bit_count()
                    if k < 2 or k > most:
                        continue
                    empties = []
                    fits = []
                    need = 0
                    faces = []
                    packed = 0
                    present_wild = False
                    wild_across = []  # the empty cells whose cross line holds a wild
                    for p in range(a, a + length):
                        s = spot[p]
                        if s.__class__ is int:
                            if s < FACES:
                                faces.append(s)
                                packed |= _PACK[s]
                            else:
                                present_wild = True
                        else:
                            cell, fit, _, wild = s
                            can = allowed_cache.get(fit)
                            if can is None:
                                can = allowed(fit)
                            need |= can << (4 * len(empties))
                            if wild:
                                wild_across.append(len(empties))
                            empties.append(cell)
                            fits.append(fit)
                    grid_wild = present_wild or bool(wild_across)
                    lone = wild_across[0] if not present_wild and len(wild_across) == 1 else None
                    n = len(faces)
                    if n > 1 and not line_ok[n][packed]:
                        continue
                    # each set of k hand cards that keeps the line valid with the faces
                    # already there (one look-up), in each order the cells allow (one bit test)
                    for pack, count, orders in rows[k]:
                        if n + count > 2 and not line_ok[n + count][packed | pack]:
                            continue
                        for code, ids, wilds in orders:
                            if code & need != code:
                                continue
                            if wilds or grid_wild:
                                if lone is not None and not wilds:
                                    if not one_fit(empties[lone], ids[lone]):
                                        continue
                                elif not _segment_wilds_fit(empties, ids, fits, faces, grid_wild, wilds,
                                                            wilds_fit, wild_memo, n + count, packed | pack):
                                    continue
                            out.append(tuple(zip(empties, ids)))
    return out


def _orderings(hand: list[int], most: int) -> dict:
    """Per count k (2 to ``most``), every set of k distinct hand cards as ``(pack, faces,
    orders)``: ``pack`` the faces' property masks OR'd, ``faces`` how many are faces, and
    each order as ``(code, ids, wilds)``: ``code`` has bit ``4j + i`` for hand[i] on the
    segment's j-th empty cell (tested against the cells' allowed cards at once), ``wilds``
    the positions of wilds."""
    packs = [_PACK[h] if h < FACES else 0 for h in hand]
    out = {}
    for k in range(2, most + 1):
        sets = out[k] = []
        for chosen, orders in _PERMUTATIONS[len(hand), k]:
            pack = 0
            for i in chosen:
                pack |= packs[i]
            rows = []
            for code, idx in orders:
                ids = tuple(hand[i] for i in idx)
                rows.append((code, ids, tuple(j for j, h in enumerate(ids) if h >= FACES)))
            sets.append((pack, sum(1 for i in chosen if hand[i] < FACES), rows))
    return out


#: Per hand size and count k: each set of k hand positions with its orders, each with its
#: ``code`` (bit ``4j + i`` for hand position i at the segment's j-th empty cell).
_PERMUTATIONS = {(size, k): [(chosen, [(sum(1 << (4 * j + i) for j, i in enumerate(idx)), idx)
                                       for idx in permutations(chosen)])
                             for chosen in combinations(range(size), k)]
                 for size in range(1, HAND_SIZE + 1) for k in range(2, LINE_MAX + 1)}


def _wild_fits_alone(grid: dict, placed: dict, cell) -> bool | None:
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


def _segment_wilds_fit(empties, ids, fits, faces, grid_wild, wilds, wilds_fit, memo: dict,
                       count: int, packed: int) -> bool:
    """I2 for a segment's placement: every wild keeps an identity. With a wild of the grid
    in a line it touches, all the wilds are solved on the merged grid; otherwise the placed
    wild(s) against the segment's faces (``count`` of them, ``packed``) and each one's
    cross line. ``memo``: the answers so far, for one ``enumerate_plays``, by the line's
    faces as ``fitting_faces`` tells them apart (how many, their packed masks, the face
    when there is one) and the wilds' cross lines."""
    if grid_wild:
        return wilds_fit(dict(zip(empties, ids)))
    face = None
    if count == 1:
        face = faces[0] if faces else next(h for h in ids if h < FACES)
    key = (count, packed, face, *[fits[j] for j in wilds])
    got = memo.get(key)
    if got is None:
        line = tuple(sorted(faces + [h for h in ids if h < FACES]))
        if len(wilds) == 2:
            got = bool(wild_pair(line, fits[wilds[0]], fits[wilds[1]], check_only=True)[0])
        else:
            got = bool(fitting_faces(line) & fits[wilds[0]])
        memo[key] = got
    return got


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class State:
    seats: int
    seed: str
    options: dict
    counter: int = 0
    hands: tuple = ()          # per seat, codes in hand order
    stock: tuple = ()          # codes, top first
    grid: dict | None = None   # (x, y) -> card id
    candidates: dict | None = None  # (x, y) of a wild -> mask of its candidate faces
    scores: tuple = ()
    turn: int | None = None
    passes: int = 0            # consecutive passes (I9)
    recycled: bool = False     # the seat to act has recycled this turn (I6)
    known: tuple = ()          # per seat, the stock cards it put there itself
    shown: tuple = ()          # per seat, hand cards every seat knows of (recycled wilds)
    last_play: dict | None = None
    resigned: tuple = ()       # seats, in the order they resigned
    over: bool = False
    result: dict | None = None

    def __getstate__(self) -> dict:
        """Copies and pickles (the store's snapshots) carry the fields only, not the
        ``Board`` that ``board_of`` keeps with the state."""
        fields = dict(self.__dict__)
        fields.pop("_board", None)
        fields.pop("_board_parent", None)
        return fields


def replace(state: State, **changes) -> State:
    """``dataclasses.replace`` without re-running ``__init__`` (states are frozen). The new
    state keeps the old one's ``Board`` while its grid is the same dict (``board_of``
    checks)."""
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def _set(tup: tuple, i: int, value) -> tuple:
    return tup[:i] + (value,) + tup[i + 1:]


def _next(state: State, seat: int) -> int:
    return (seat + 1) % state.seats


def _with_candidates(state: State, grid: dict) -> State:
    cells = _wild_cells(grid)
    masks = wild_candidates(grid.get, cells) if cells else []
    return replace(state, grid=grid, candidates=dict(zip(cells, masks)))


def _on_match_started(state, e):
    n = e["seats"]
    return State(seats=n, seed=e["seed"], options=dict(e["options"]), grid={}, candidates={},
                 scores=(0,) * n, known=((),) * n, shown=((),) * n)


def _on_cards_dealt(state, e):
    return replace(state, counter=state.counter + 1, hands=tuple(tuple(h) for h in e["hands"]),
                   stock=tuple(e["stock"]), grid={(0, 0): INDEX[e["starter"]]}, candidates={}, turn=0)


def _on_wild_recycled(state, e):
    seat, cell = e["seat"], (e["x"], e["y"])
    hand = list(state.hands[seat])
    hand.remove(e["card"])
    hand.append(e["wild"])
    grid = dict(state.grid)
    grid[cell] = INDEX[e["card"]]
    new = replace(state, hands=_set(state.hands, seat, tuple(hand)), recycled=True,
                  shown=_set(state.shown, seat, state.shown[seat] + (e["wild"],)))
    return _with_candidates(new, grid)


def _on_cards_played(state, e):
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


def _on_passed(state, e):
    seat = e["seat"]
    returned = list(e["returned"])
    hand = tuple(c for c in state.hands[seat] if c not in returned)
    known = _set(state.known, seat, state.known[seat] + tuple(returned))
    shown = _set(state.shown, seat, tuple(c for c in state.shown[seat] if c not in returned))
    return replace(state, hands=_set(state.hands, seat, hand), stock=state.stock + tuple(returned),
                   known=known, shown=shown, turn=_next(state, seat), passes=state.passes + 1, recycled=False)


def _on_cards_drawn(state, e):
    seat, cards = e["seat"], list(e["cards"])
    known = tuple(tuple(c for c in k if c not in cards) for k in state.known)
    return replace(state, hands=_set(state.hands, seat, state.hands[seat] + tuple(cards)),
                   stock=state.stock[len(cards):], known=known)


def _on_seat_resigned(state, e):
    return replace(state, resigned=state.resigned + (e["seat"],))


def _on_match_ended(state, e):
    return replace(state, over=True, turn=None, recycled=False,
                   result={"ranking": [list(p) for p in e["ranking"]], "scores": list(e["scores"])})


APPLY = {name[4:]: fn for name, fn in dict(globals()).items() if name.startswith("_on_")}


# --------------------------------------------------------------------------
# Rules as functions of the state
# --------------------------------------------------------------------------

def deal(deck: list[str], seats: int) -> dict:
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


def check_short_deck(deck) -> list[str]:
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


def final_ranking(state: State) -> dict:
    """I9. Highest score wins; equal scores share a place.
    I10. ``kids`` keeps no score: the first seat out of cards after the stock is empty
    wins, the others rank by cards left, fewest first.
    ENGINE.md "Resigning": resigned seats rank below all others, the latest to resign
    best among them."""
    if state.options["variant"] == "kids":
        left = [len(h) for h in state.hands]
        ranking = core.rank_by_scores(left, highest_first=False)
        return {"ranking": core.rank_with_resignations(ranking, state.resigned), "scores": left}
    scores = list(state.scores)
    return {"ranking": core.rank_with_resignations(MATCH_FORMAT.ranking(scores), state.resigned),
            "scores": scores}


def resigning_ends_match(state: State) -> bool:
    """ENGINE.md: when resigning leaves one seat not resigned, the match ends at once with
    it first."""
    return core.last_standing(range(state.seats), state.resigned)


def may_return(count: int, stock_size: int) -> bool:
    """I5. Pass, optionally putting any number of hand cards (1–4) on the bottom of the
    stock first and then drawing as many from its top (decided: no more than the stock
    holds)."""
    return count <= stock_size


def recycle_fits(state: State, cell, card: int) -> bool:
    """I6. Before playing, a player may replace a wild on the grid with a hand card that
    fits that cell in all its lines (leaving every other wild at least one candidate),
    and take the wild into hand."""
    return bool(state.candidates.get(cell, 0) >> card & 1)


# --------------------------------------------------------------------------
# The game object
# --------------------------------------------------------------------------

def _illegal(code: str, message: str, rule: str | None = None):
    raise IllegalMove(code, message, rule)


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _parse_cards(move: dict) -> list[tuple]:
    cards = move.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= HAND_SIZE:
        _illegal("malformed_move", "a play lists 1–4 cards as {card, x, y}", "I5")
    out = []
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


def _play_move(placements) -> dict:
    """A play in canonical form: cards sorted by (x, y)."""
    return {"type": "play", "cards": [{"card": CARDS[i], "x": x, "y": y}
                                      for (x, y), i in sorted(placements)]}


def _canonical(hand: tuple) -> list[str]:
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
    def start(self, seats, seed, options=None, deck=None) -> list[dict]:
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
                deal(deck, seats)]

    def apply(self, state, event):
        return APPLY[event["type"]](state, event)

    # -- moves ----------------------------------------------------------------
    def legal_moves(self, state: State, seat: int) -> list[dict]:
        if state is None or state.over or seat != state.turn:
            return []
        hand = state.hands[seat]
        ids = [INDEX[c] for c in hand]
        plays = enumerate_plays(state.grid, ids, board_of(state))
        plays.sort()             # fewer cards first, then by cells and cards: by (len(p), p)
        plays.sort(key=len)
        # each play's cards are sorted by cell already (enumerate_plays), as _play_move sorts them
        moves = []
        for p in plays:
            if len(p) == 1:
                ((x, y), i), = p
                moves.append({"type": "play", "cards": [{"card": CARDS[i], "x": x, "y": y}]})
            elif len(p) == 2:
                ((x, y), i), ((u, v), j) = p
                moves.append({"type": "play", "cards": [{"card": CARDS[i], "x": x, "y": y},
                                                         {"card": CARDS[j], "x": u, "y": v}]})
            else:
                moves.append({"type": "play", "cards": [{"card": CARDS[i], "x": x, "y": y}
                                                         for (x, y), i in p]})
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

    def play(self, state: State, seat: int, move: dict) -> list[dict]:
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

    def _resign(self, state: State, seat) -> list[dict]:
        """ENGINE.md "Resigning": legal for any seat that has not resigned, in or out of turn;
        when it leaves one seat not resigned, the match ends at once with it first."""
        core.may_resign(seat, state.seats, state.resigned)
        event = core.seat_resigned(seat)
        after = APPLY["seat_resigned"](state, event)
        if resigning_ends_match(after):
            return [event, self._end(after, "resigned")]
        return [event]

    def _play_cards(self, state: State, seat: int, cards: list[tuple]) -> list[dict]:
        hand = state.hands[seat]
        for code, _ in cards:
            if code not in hand:
                _illegal("card_not_in_hand", f"{code} is not in seat {seat}'s hand")
        placed = {cell: INDEX[code] for code, cell in cards}
        problem = placement_problem(state.grid, placed)
        if problem:
            code, rule, message = problem
            _illegal(code, message, rule)
        merged = {**state.grid, **placed}
        lines = touched_lines(merged.get, list(placed))
        final = is_final_play(len(placed), len(hand), len(state.stock))
        score, lots = turn_score(merged.get, lines, len(placed), final)
        if state.options["variant"] == "kids":
            score = 0
        events = [{"type": "cards_played", "seat": seat,
                   "cards": _play_move(placed.items())["cards"],
                   "score": score, "lots": lots, "final": final}]
        after = APPLY["cards_played"](state, events[0])
        need = HAND_SIZE - len(after.hands[seat])
        if need > 0 and after.stock:
            events.append({"type": "cards_drawn", "seat": seat, "cards": list(after.stock[:need])})
            after = APPLY["cards_drawn"](after, events[-1])
        if final:
            events.append(self._end(after, "last_card"))
        return events

    def _pass(self, state: State, seat: int, returned) -> list[dict]:
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

    def _recycle(self, state: State, seat: int, move: dict) -> list[dict]:
        code, x, y = move.get("card"), move.get("x"), move.get("y")
        if not isinstance(code, str) or not _int(x) or not _int(y):
            _illegal("malformed_move", "a recycle is {card, x, y}", "I6")
        if code not in INDEX:
            _illegal("unknown_card", f"no card {core.short(code)} in IOTA")
        if code not in state.hands[seat]:
            _illegal("card_not_in_hand", f"{code} is not in seat {seat}'s hand")
        if state.recycled:
            _illegal("already_recycled", "a wild may be recycled once per turn", "I6")
        cell = (x, y)
        wild = state.grid.get(cell)
        if wild is None or wild < FACES:
            _illegal("no_wild_there", "no wild lies on that cell", "I6")
        if code in WILDS or not recycle_fits(state, cell, INDEX[code]):
            _illegal("card_does_not_fit", f"{code} does not fit that cell in all its lines", "I6")
        return [{"type": "wild_recycled", "seat": seat, "card": code, "x": x, "y": y, "wild": CARDS[wild]}]

    def _end(self, state: State, reason: str) -> dict:
        result = final_ranking(state)
        return {"type": "match_ended", "reason": reason, "ranking": result["ranking"], "scores": result["scores"]}

    # -- views ------------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        """The seat whose turn it is (nobody acts out of turn in IOTA), without building a view."""
        return [] if state.over or state.turn is None else [state.turn]

    def score_order(self, options: dict | None) -> str:
        """I9: the highest score wins. I10 (``kids``): no scores are kept; ``outcome``'s scores are
        the cards left, fewest first."""
        return "lower" if (options or {}).get("variant") == "kids" else "higher"

    def view(self, state: State, seat: int | None) -> dict:
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

    def redact(self, event: dict, seat: int | None) -> dict | None:
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

    def outcome(self, state: State) -> dict | None:
        if state is None or not state.over:
            return None
        return {"ranking": [list(p) for p in state.result["ranking"]], "scores": list(state.result["scores"])}

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
    def sample_state(self, view: dict, seat: int, rng, legal=None) -> State:
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


def score_play(state: State, seat: int, cards: list[dict]) -> int:
    """The score ``seat`` would make by the play ``cards`` (``[{"card", "x", "y"}]``) now,
    doublings included (0 in ``kids``). Raises ``IllegalMove`` for an illegal play."""
    events = game.play(state, seat, {"type": "play", "cards": cards})
    return events[0]["score"]


def view_scorer(view: dict):
    """A function ``cards -> score`` for plays as a seat can work them out from its own
    view (for bots): the grid, its hand size and the stock size, doublings included.
    Assumes the play is legal; ignores ``kids``."""
    grid = {(p["x"], p["y"]): INDEX[p["card"]] for p in view["grid"]}
    hand_size, stock_size = len(view["hand"]), view["stock_size"]

    def score(cards: list[dict]) -> int:
        placed = {(p["x"], p["y"]): INDEX[p["card"]] for p in cards}

        def get(cell):
            i = placed.get(cell)
            return grid.get(cell) if i is None else i

        lines = touched_lines(get, list(placed))
        final = is_final_play(len(placed), hand_size, stock_size)
        return turn_score(get, lines, len(placed), final)[0]

    return score


#: The registry name (ENGINE.md "Module attributes") and the game object the registry hands out.
GAME = "iota"
game = Iota()
