"""Round-robin schedules at tables of three or more seats: which players sit together in each round.

No Django here. A *shape* is what every round looks like: ``n`` players, the table sizes of a round
and the number of byes (``table_sizes``). A schedule for a shape is a list of rounds, each a
list of tables (player numbers ``0..n-1``) and the round's byes. What a schedule must be, in order:

1. every round has the shape (every player once: at one table, or on a bye);
2. every pair of players meets at least once;
3. it has as few rounds as possible;
4. within that length, no pair meets more often than it must (the largest number of meetings of any
   pair is as small as possible);
5. then the meetings are as even as possible (the sum of the squared meeting counts is smallest);
6. byes are spread evenly (nobody rests twice more than another).

Finding such schedules is a covering-design problem; the search here is a deterministic simulated
annealing (fixed seeds, a fixed number of steps): the same shape always gives the same schedule.
For the sizes clubs use (up to 16 players, tables of 3 to 10) the result of a long search is stored in
``schedules.json`` (written by ``python -m league.rules.schedules``, never by hand), so a page or a round
never waits for it; other shapes are searched on first use with a shorter budget. For up to nine
players the exhaustive check in the tests confirms that rules 3 and 4 hold exactly; above that the
length is the shortest the search found (it is at least ``lower_bound``).
"""
from __future__ import annotations

import itertools
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

TABLE_FILE = Path(__file__).with_name("schedules.json")

Round = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]   # (tables, byes)
Quality = tuple[int, int, int, int, int]   # ``quality``: smaller is better


def table_sizes(n: int, seats: int, min_seats: int) -> tuple[list[int], int]:
    """Split ``n`` players into tables of ``min_seats``..``seats`` players.

    Fewest byes first, then fewest tables, with sizes as even as possible
    (largest first). Returns (sizes, byes).
    """
    if seats < min_seats or min_seats < 1:
        raise ValueError("seats per table must be at least the game's minimum")
    for byes in range(n + 1):
        m = n - byes
        if m == 0:
            return [], byes
        t = math.ceil(m / seats)
        if t * min_seats <= m:
            base, extra = divmod(m, t)
            return [base + 1] * extra + [base] * (t - extra), byes
    return [], n  # pragma: no cover - the loop always returns


def shape_key(n: int, sizes: Sequence[int], byes: int) -> str:
    """How a shape is named in ``schedules.json``: ``"7:3+2+2:0"``."""
    return f"{n}:{'+'.join(str(s) for s in sizes)}:{byes}"


def lower_bound(n: int, sizes: Sequence[int], byes: int) -> int:
    """Rounds no schedule of this shape can do without.

    Each round covers sum(s(s-1)/2) pairs, and all n(n-1)/2 must be covered; a player who rests
    b times meets at most (largest table - 1) others in each of the other rounds; and some player
    sits at a largest table at most floor(R * seats at largest tables / n) times.
    """
    pairs = n * (n - 1) // 2
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    if not sizes or per_round == 0:
        raise ValueError("a round robin needs tables of two or more")
    big = max(sizes)
    big_seats = big * sizes.count(big)
    rounds = max(1, math.ceil(pairs / per_round))
    while True:
        most_byes = math.ceil(rounds * byes / n)
        fewest_big = rounds * big_seats // n
        if ((rounds - most_byes) * (big - 1) >= n - 1
                and fewest_big * (big - 1) + (rounds - fewest_big) * (big - 2) >= n - 1):
            return rounds
        rounds += 1


def quality(n: int, schedule: Sequence[Round]) -> Quality:
    """(pairs never meeting, rounds, most meetings of a pair, sum of squared meetings, bye spread):
    smaller is better, in this order."""
    met = [[0] * n for _ in range(n)]
    rests = [0] * n
    for tables, byes in schedule:
        for t in tables:
            for a, b in itertools.combinations(t, 2):
                met[a][b] += 1
        for p in byes:
            rests[p] += 1
    counts = [met[min(a, b)][max(a, b)] for a, b in itertools.combinations(range(n), 2)]
    return (sum(1 for c in counts if c == 0), len(schedule), max(counts, default=0),
            sum(c * c for c in counts), max(rests) - min(rests))


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------

class _Bag:
    """A set one can draw from at random (the pairs still wrong)."""

    def __init__(self) -> None:
        self.items: list[int] = []
        self.where: dict[int, int] = {}

    def add(self, x: int) -> None:
        if x not in self.where:
            self.where[x] = len(self.items)
            self.items.append(x)

    def discard(self, x: int) -> None:
        i = self.where.pop(x, None)
        if i is None:
            return
        last = self.items.pop()
        if i < len(self.items):
            self.items[i] = last
            self.where[last] = i


def _anneal(n: int, sizes: Sequence[int], byes: int, rounds: int, rng: random.Random, steps: int,  # noqa: C901 - the annealing's hot loop, kept in one piece for speed
            cost: list[int], wrong: list[bool], start: list[list[list[int]]] | None = None) -> list[list[list[int]]]:
    """Simulated annealing over the rounds' groups (the tables, then the byes as one more group).

    A step swaps two players of one round between groups; ``cost[m]`` is the price of a pair that
    meets m times and ``wrong[m]`` marks the counts the steps aim at (half the steps move a player of
    such a pair). A swap with a player on a bye only trades a bye between players whose byes differ
    by one, so the byes stay as even as they start. Returns the cheapest state seen.
    """
    groups = list(sizes) + ([byes] if byes else [])
    tables = len(sizes)
    members: list[list[list[int]]] = []
    if start is None:
        for r in range(rounds):
            order = list(range(n))
            rng.shuffle(order)
            # byes rotate to start with: round r rests players r*byes, r*byes+1, ... (mod n)
            resting = [(r * byes + j) % n for j in range(byes)]
            order = [p for p in order if p not in resting] + resting
            cut: list[list[int]] = []
            i = 0
            for size in groups:
                cut.append(order[i:i + size])
                i += size
            members.append(cut)
    else:
        members = [[list(g) for g in mem] for mem in start]
    group_of: list[list[int]] = []
    for mem in members:
        go = [0] * n
        for gi, g in enumerate(mem):
            for p in g:
                go[p] = gi
        group_of.append(go)
    met = [[0] * n for _ in range(n)]
    rests = [0] * n
    for mem in members:
        for gi, g in enumerate(mem):
            if gi < tables:
                for a, b in itertools.combinations(g, 2):
                    met[a][b] += 1
                    met[b][a] += 1
            else:
                for p in g:
                    rests[p] += 1
    bad = _Bag()

    def mark(a: int, b: int) -> None:
        if a > b:
            a, b = b, a
        if wrong[met[a][b]]:
            bad.add(a * n + b)
        else:
            bad.discard(a * n + b)

    for a, b in itertools.combinations(range(n), 2):
        mark(a, b)
    total = sum(cost[met[a][b]] for a, b in itertools.combinations(range(n), 2))
    best, best_members = total, [[list(g) for g in mem] for mem in members]
    t_hot, t_cold = 1.0, 0.1
    ratio = (t_cold / t_hot) ** (1 / max(steps, 1))
    temp = t_hot
    rand, randrange, exp = rng.random, rng.randrange, math.exp
    for _ in range(steps):
        if best == 0:
            break
        temp *= ratio
        r = randrange(rounds)
        go = group_of[r]
        if bad.items and rand() < 0.5:
            a, b = divmod(bad.items[randrange(len(bad.items))], n)
            if rand() < 0.5:
                a, b = b, a
            if met[a][b] == 0:      # bring b to a's table
                if go[a] >= tables or go[a] == go[b]:
                    continue
                at_a = members[r][go[a]]
                x, y = b, at_a[randrange(len(at_a))]
                if y == a:
                    continue
            else:                   # take b away from a's table
                if go[a] != go[b] or go[a] >= tables:
                    continue
                x, y = b, randrange(n)
        else:
            x, y = randrange(n), randrange(n)
        gx, gy = go[x], go[y]
        if gx == gy:
            continue
        if gx >= tables and rests[y] != rests[x] - 1 or gy >= tables and rests[x] != rests[y] - 1:
            continue
        mx, my = members[r][gx], members[r][gy]
        row_x, row_y = met[x], met[y]
        delta = 0
        if gx < tables:
            for z in mx:
                if z != x:
                    u, v = row_x[z], row_y[z]
                    delta += cost[u - 1] - cost[u] + cost[v + 1] - cost[v]
        if gy < tables:
            for z in my:
                if z != y:
                    u, v = row_y[z], row_x[z]
                    delta += cost[u - 1] - cost[u] + cost[v + 1] - cost[v]
        if delta > 0 and rand() >= exp(-delta / temp):
            continue
        if gx < tables:
            for z in mx:
                if z != x:
                    row_x[z] -= 1
                    met[z][x] -= 1
                    row_y[z] += 1
                    met[z][y] += 1
                    mark(x, z)
                    mark(y, z)
        else:
            rests[x] -= 1
            rests[y] += 1
        if gy < tables:
            for z in my:
                if z != y:
                    row_y[z] -= 1
                    met[z][y] -= 1
                    row_x[z] += 1
                    met[z][x] += 1
                    mark(y, z)
                    mark(x, z)
        else:
            rests[y] -= 1
            rests[x] += 1
        mx[mx.index(x)] = y
        my[my.index(y)] = x
        go[x], go[y] = gy, gx
        total += delta
        if total < best:
            best, best_members = total, [[list(g) for g in mem] for mem in members]
    return best_members


def _as_rounds(members: list[list[list[int]]], tables: int) -> list[Round]:
    return [(tuple(tuple(sorted(g)) for g in mem[:tables]), tuple(sorted(p for g in mem[tables:] for p in g)))
            for mem in members]


def search(n: int, sizes: Sequence[int], byes: int, steps: int = 30_000, restarts: int = 3) -> list[Round]:
    """The best schedule the search finds for this shape (rules 1–6 of the module's docstring).

    Stage 1 finds the fewest rounds that cover every pair, from ``lower_bound`` up; stage 2 lowers
    the most meetings of a pair while it can; stage 3 evens the meetings out. Each stage tries
    ``restarts`` seeded runs of ``steps`` steps.
    """
    tables = len(sizes)
    pairs = n * (n - 1) // 2
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    label = shape_key(n, sizes, byes)
    rounds = lower_bound(n, sizes, byes)
    while True:
        cover_cost = [1] + [0] * (rounds + 1)
        cover_wrong = [True] + [False] * (rounds + 1)
        found: tuple[Quality, list[list[list[int]]]] | None = None
        for attempt in range(restarts):
            rng = random.Random(f"{label}/{rounds}/cover/{attempt}")
            members = _anneal(n, sizes, byes, rounds, rng, steps, cover_cost, cover_wrong)
            q = quality(n, _as_rounds(members, tables))
            if found is None or q < found[0]:
                found = (q, members)
            if q[0] == 0:
                break
        assert found is not None  # restarts >= 1
        if found[0][0] == 0:
            break
        rounds += 1
    fewest_most = math.ceil(rounds * per_round / pairs)
    while found[0][2] > fewest_most:
        cap = found[0][2] - 1
        cap_cost = [1] + [max(0, m - cap) for m in range(1, rounds + 2)]
        cap_wrong = [True] + [m > cap for m in range(1, rounds + 2)]
        better = None
        for attempt in range(restarts):
            rng = random.Random(f"{label}/{rounds}/cap{cap}/{attempt}")
            members = _anneal(n, sizes, byes, rounds, rng, steps, cap_cost, cap_wrong,
                              start=found[1] if attempt == 0 else None)
            q = quality(n, _as_rounds(members, tables))
            if q[0] == 0 and q[2] <= cap:
                better = (q, members)
                break
        if better is None:
            break
        found = better
    cap = found[0][2]
    heavy = pairs * (cap + 1) ** 2 + 1
    even_cost = [heavy] + [m * m + (heavy * (m - cap) if m > cap else 0) for m in range(1, rounds + 2)]
    even_wrong = [True] + [m > cap for m in range(1, rounds + 2)]
    rng = random.Random(f"{label}/{rounds}/even")
    members = _anneal(n, sizes, byes, rounds, rng, steps, even_cost, even_wrong, start=found[1])
    q = quality(n, _as_rounds(members, tables))
    if q < found[0]:
        found = (q, members)
    return canonical(n, _as_rounds(found[1], tables))


def canonical(n: int, schedule: Sequence[Round]) -> list[Round]:
    """The same schedule with the players renumbered so that the first round reads 0, 1, 2, … table
    by table (the byes last); tables sorted, largest first."""
    first_tables, first_byes = schedule[0]
    order = [p for t in first_tables for p in t] + list(first_byes)
    new = {old: i for i, old in enumerate(order)}
    out = []
    for tables, byes in schedule:
        renamed = sorted((tuple(sorted(new[p] for p in t)) for t in tables), key=lambda t: (-len(t), t))
        out.append((tuple(renamed), tuple(sorted(new[p] for p in byes))))
    return out


# ---------------------------------------------------------------------------
# The stored schedules
# ---------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _stored() -> dict[str, list[Any]]:
    try:
        stored: dict[str, list[Any]] = json.loads(TABLE_FILE.read_text(encoding="utf-8"))["schedules"]
        return stored
    except FileNotFoundError:  # pragma: no cover - the file ships with the code
        return {}


@lru_cache(maxsize=256)
def schedule(n: int, sizes: tuple[int, ...], byes: int) -> tuple[Round, ...]:
    """The schedule of a shape: the stored one, or (for a shape not stored) a fresh search."""
    stored = _stored().get(shape_key(n, sizes, byes))
    if stored is not None:
        return tuple((tuple(tuple(t) for t in tables), tuple(rest)) for tables, rest in stored)
    return tuple(search(n, sizes, byes))


# sizes clubs use: stored in schedules.json by ``python -m league.rules.schedules``
STORED_PLAYERS = range(3, 17)
STORED_SEATS = range(3, 11)
STORED_MIN_SEATS = (2, 3)
LONG_SEARCH = {"steps": 400_000, "restarts": 6}


def stored_shapes() -> list[tuple[int, tuple[int, ...], int]]:
    """Every shape ``schedules.json`` holds: more players than one table seats, for each table size
    and game minimum clubs use."""
    shapes = []
    for seats in STORED_SEATS:
        for min_seats in STORED_MIN_SEATS:
            for n in STORED_PLAYERS:
                if n <= seats or n < min_seats:
                    continue
                sizes, byes = table_sizes(n, seats, min_seats)
                shape = (n, tuple(sizes), byes)
                if shape not in shapes:
                    shapes.append(shape)
    return sorted(shapes)


def main() -> None:  # pragma: no cover - run by hand to refresh schedules.json (takes a few minutes)
    out = dict(_stored())
    for n, sizes, byes in stored_shapes():
        key = shape_key(n, sizes, byes)
        if key in out and "--all" not in sys.argv:
            continue
        began = time.time()
        found = search(n, sizes, byes, **LONG_SEARCH)
        if key in out:
            old = [(tuple(tuple(t) for t in tables), tuple(rest)) for tables, rest in out[key]]
            if quality(n, old) <= quality(n, found):
                continue
        out[key] = [[list(map(list, tables)), list(rest)] for tables, rest in found]
        print(key, quality(n, found), f"{time.time() - began:.1f}s", flush=True)
    def order(key: str) -> list[int]:
        return [int(x) for x in key.replace("+", ":").split(":")]

    about = ("Round-robin schedules found by league/rules/schedules.py's search (python -m league.rules.schedules); "
             "players 0..n-1 are seeds 1..n; each round: [tables, byes]. Do not edit by hand.")
    lines = [f"{json.dumps(key)}: {json.dumps(out[key], separators=(',', ':'))}" for key in sorted(out, key=order)]
    body = ",\n".join(lines)
    TABLE_FILE.write_text(f'{{"about": {json.dumps(about)},\n"schedules": {{\n{body}\n}}}}\n', encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()
