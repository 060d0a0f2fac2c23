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

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from engine import core
from engine.core import IllegalMove

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


def enumerate_plays(grid: dict, hand: list[int]) -> list[tuple]:
    """Every legal placement (I5) of cards from ``hand``, each as a tuple of
    ``((x, y), id)`` sorted by cell.

    One card: every empty cell next to the grid, both of its lines checked. Two to
    four cards: for each row and column, every maximal segment of 2–4 cells holding
    2+ empty cells (a row's cards as a bit mask, so most segments are refused by a few
    bit operations), filled by backtracking: each card's cross line is known per cell,
    the segment's faces are pruned as they are chosen (any part of a valid line is
    valid), and the wilds are solved exactly at the end."""
    if not hand:
        return []
    wild_cells = _wild_cells(grid)
    out: list[tuple] = []
    cross_cache: dict = {}

    def cross(cell, step):
        """(the faces that may lie on the empty ``cell`` as far as its line along
        ``step`` goes, as a mask; whether that line holds a wild; whether it holds a
        card at all)."""
        key = (cell, step)
        hit = cross_cache.get(key)
        if hit is None:
            dx, dy = step
            x, y = cell
            ids = []
            for sign in (-1, 1):
                cx, cy = x + sign * dx, y + sign * dy
                while (cx, cy) in grid:
                    ids.append(grid[(cx, cy)])
                    cx, cy = cx + sign * dx, cy + sign * dy
            faces = tuple(sorted(i for i in ids if i < FACES))
            fit = fitting_faces(faces) if len(ids) < LINE_MAX else 0
            hit = (fit, len(faces) < len(ids), bool(ids))
            cross_cache[key] = hit
        return hit

    def allowed(fit):
        return tuple(h for h in hand if (fit >> h & 1 if h < FACES else fit))

    def wilds_fit(placed: dict) -> bool:
        merged = dict(grid)
        merged.update(placed)
        cells = wild_cells + [c for c, i in placed.items() if i >= FACES]
        return all(wild_candidates(merged.get, cells, check_only=True))

    # one card: both of its lines
    frontier = sorted({(x + dx, y + dy) for x, y in grid for dx, dy in NEIGHBOURS} - grid.keys())
    for cell in frontier:
        fit_h, wild_h, _ = cross(cell, H)
        fit_v, wild_v, _ = cross(cell, V)
        fit = fit_h & fit_v
        for h in hand:
            if h < FACES:
                if fit >> h & 1 and (not (wild_h or wild_v) or wilds_fit({cell: h})):
                    out.append(((cell, h),))
            elif (fit if not (wild_h or wild_v) else fit_h and fit_v and wilds_fit({cell: h})):
                out.append(((cell, h),))

    # two to four cards along a row (step H) or a column (step V)
    xs = [x for x, _ in grid]
    ys = [y for _, y in grid]
    most = min(len(hand), LINE_MAX)
    for step in STEPS:
        perp = V if step == H else H
        if step == H:
            lanes, lo, hi = range(min(ys) - 1, max(ys) + 2), min(xs), max(xs)
        else:
            lanes, lo, hi = range(min(xs) - 1, max(xs) + 2), min(ys), max(ys)
        base = lo - LINE_MAX                   # bit 0 of a lane mask is position ``base``
        occupied: dict = {}
        touch: dict = {}                       # empty cells with a card across
        dead: dict = {}                        # ... where no hand card fits across
        for (x, y) in grid:
            lane, t = (y, x) if step == H else (x, y)
            occupied[lane] = occupied.get(lane, 0) | 1 << (t - base)
        for cell in frontier:
            fit, _, near = cross(cell, perp)
            if near:
                lane, t = (cell[1], cell[0]) if step == H else cell
                touch[lane] = touch.get(lane, 0) | 1 << (t - base)
                if not allowed(fit):
                    dead[lane] = dead.get(lane, 0) | 1 << (t - base)
        for lane in lanes:
            occ = occupied.get(lane, 0)
            near = touch.get(lane, 0)
            blocked = dead.get(lane, 0)

            def at(t):
                return (t, lane) if step == H else (lane, t)

            for a in range(lo - LINE_MAX + 1, hi + 1):
                ia = a - base
                if occ >> (ia - 1) & 1:
                    continue
                for length in range(2, LINE_MAX + 1):
                    seg = ((1 << length) - 1) << ia
                    if seg & blocked:
                        break
                    if occ >> (ia + length) & 1:
                        continue
                    present_bits = occ & seg
                    k = length - present_bits.bit_count()
                    if k < 2 or k > most or not (present_bits or seg & near):
                        continue
                    cells = [at(t) for t in range(a, a + length)]
                    empties = [c for c in cells if c not in grid]
                    present = [grid[c] for c in cells if c in grid]
                    faces = [i for i in present if i < FACES]
                    if len(faces) > 1 and not is_valid_line(faces):
                        continue
                    crossing = [cross(c, perp) for c in empties]
                    _fill(empties, [f for f, _, _ in crossing], faces,
                          len(faces) < len(present) or any(w for _, w, _ in crossing), hand, wilds_fit, out)
    return out


def _fill(empties, fits, faces, grid_wild, hand, wilds_fit, out) -> None:
    """Backtracking for ``enumerate_plays``: distinct hand cards onto ``empties``.

    ``fits[i]`` are the faces the cross line at ``empties[i]`` allows, ``faces`` the
    segment's faces so far (sorted), ``grid_wild`` whether a wild of the grid lies in a
    line this placement touches (then the wilds are solved in full)."""
    k = len(empties)
    chosen = [0] * k

    def step(i, faces):
        allowed = fitting_faces(faces) & fits[i]
        for h in hand:
            if h in chosen[:i]:
                continue
            if h < FACES:
                if not allowed >> h & 1:
                    continue
                more = tuple(sorted(faces + (h,)))
            elif fits[i]:
                more = faces
            else:
                continue
            chosen[i] = h
            if i + 1 < k:
                step(i + 1, more)
                continue
            wilds = [j for j, c in enumerate(chosen) if c >= FACES]
            if grid_wild:
                if not wilds_fit(dict(zip(empties, chosen))):
                    continue
            elif len(wilds) == 2:
                if not wild_pair(more, fits[wilds[0]], fits[wilds[1]], check_only=True)[0]:
                    continue
            elif wilds and not fitting_faces(more) & fits[wilds[0]]:
                continue
            out.append(tuple(zip(empties, chosen)))

    step(0, tuple(sorted(faces)))


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
    return _with_candidates(new, grid)


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
        plays = sorted(enumerate_plays(state.grid, ids), key=lambda p: (len(p), p))
        moves = [_play_move(p) for p in plays]
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


def score_play(state: State, seat: int, cards: list[dict]) -> int:
    """The score ``seat`` would make by the play ``cards`` (``[{"card", "x", "y"}]``) now,
    doublings included (0 in ``kids``). Raises ``IllegalMove`` for an illegal play."""
    events = GAME.play(state, seat, {"type": "play", "cards": cards})
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


GAME = Iota()
