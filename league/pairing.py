"""Pairings: pure functions from the field and its history to the next tables.

No Django here. Players are plain ids; a table is a tuple of ids in seat order
(seat 0 first); a ``Pairing`` is one round's tables and byes.

- ``round_robin``: Berger tables for two seats (FIDE order, the dummy gives a
  rest when the field is odd), single or double; for 3+ seats a rotation at one
  table when everybody fits, otherwise rounds of tables chosen so that every
  pair meets (a greedy covering), with seats balanced.
- ``swiss_pairs``: two-seat Swiss as a maximum-weight perfect matching
  (networkx) whose weights are lexicographic: fewest rematches, then nobody
  past two more of one seat than the other, then no other absolute first-seat
  conflict, then the smallest score differences, then milder seat preferences,
  then top half against bottom half inside a score group; the bye (odd field)
  goes to the lowest-ranked player without one. Seats at a table follow FIDE's
  colour allocation (the wider imbalance first between two absolute needs).
- ``swiss_tables``: 3+ seats: tables cut from the ranking (score groups), then
  improved by swaps to avoid players meeting again, seats rotated.
- ``knockout_slots`` / ``knockout_next``: single elimination with standard
  seeding (top seeds apart, byes to the top seeds), for tables of any size.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Sequence

import networkx as nx

BYE = "bye"


@dataclass(frozen=True)
class Pairing:
    """One round: ``tables`` (ids in seat order) and ``byes`` (ids sitting out)."""
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    def players(self) -> list[int]:
        return [p for t in self.tables for p in t] + list(self.byes)


@dataclass(frozen=True)
class Contender:
    """A player as the Swiss system sees it.

    ``score`` is in the smallest unit of points (an int, higher is better);
    ``opponents`` repeats an id once per table shared; ``seats`` is the seat
    held at each table played, in order; ``byes`` counts byes received.
    """
    id: int
    score: int = 0
    opponents: tuple[int, ...] = ()
    byes: int = 0
    seats: tuple[int, ...] = field(default=())


# ---------------------------------------------------------------------------
# Table sizes and seats
# ---------------------------------------------------------------------------

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


def seat_order(players: Sequence[int], seat_counts: dict[int, Counter]) -> tuple[int, ...]:
    """Seat the players of one table so that everyone gets the seats they held least.

    An assignment problem (minimum total of "times already in this seat"),
    solved as a maximum-weight matching; ties keep the given order.
    """
    k = len(players)
    if k <= 1:
        return tuple(players)
    counts = [seat_counts.get(p, Counter()) for p in players]
    most = max([c[s] for c in counts for s in range(k)] + [0])
    graph = nx.Graph()
    for i, p in enumerate(players):
        for s in range(k):
            # cost first, then a small preference for the given order (i at seat i)
            cost = counts[i][s] ** 2 * (k * k + 1) + ((s - i) % k)
            graph.add_edge(("p", i), ("s", s), weight=((most + 1) ** 2) * (k * k + 1) * 2 - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seat_of = {}
    for a, b in matching:
        (pa, ia), (_, ib) = a, b
        if pa == "p":
            seat_of[ia] = ib
        else:
            seat_of[ib] = ia
    out = [None] * k
    for i, s in seat_of.items():
        out[s] = players[i]
    return tuple(out)


# ---------------------------------------------------------------------------
# Round robin
# ---------------------------------------------------------------------------

def berger_rounds(n: int) -> list[list[tuple[int | None, int | None]]]:
    """FIDE Berger tables for players ``0..n-1``: rounds of (first seat, second seat).

    With an odd field a dummy is added (the last number); whoever meets it rests,
    shown as ``None``. Round r has the dummy/last player against s_r, where s
    starts at 1 and moves on by n/2 each round; the other boards pair s+b
    (first seat) with s-b, counted cyclically over 1..n-1.
    """
    if n < 2:
        return []
    players = n + (n % 2)
    m = players - 1
    half = players // 2
    out = []
    s = 1
    for r in range(1, players):
        pairs = [(s, players) if r % 2 == 1 else (players, s)]
        for b in range(1, half):
            pairs.append(((s + b - 1) % m + 1, (s - b - 1) % m + 1))
        out.append([(None if a > n else a - 1, None if b > n else b - 1) for a, b in pairs])
        s = (s + half - 1) % m + 1
    return out


def round_robin(n: int, seats: int = 2, min_seats: int = 2, double: bool = False) -> list[Pairing]:
    """Every round of a round robin for players ``0..n-1``.

    Two seats: Berger tables (a double round robin repeats them with seats
    swapped). More seats: see ``_multi_seat_round_robin``.
    """
    if n < 2:
        return []
    if seats == 2:
        rounds = []
        for pairs in berger_rounds(n):
            tables = tuple((a, b) for a, b in pairs if a is not None and b is not None)
            rests = tuple(a if b is None else b for a, b in pairs if a is None or b is None)
            rounds.append(Pairing(tables, rests))
        if double:
            rounds += [Pairing(tuple((b, a) for a, b in p.tables), p.byes) for p in rounds]
        return rounds
    return list(_multi_seat_round_robin(n, seats, min_seats, double))


@lru_cache(maxsize=64)
def _multi_seat_round_robin(n: int, seats: int, min_seats: int, double: bool) -> tuple[Pairing, ...]:
    """Round robin at tables of 3+ seats.

    When the whole field fits one table it plays n rounds and seats rotate
    (every player holds every seat once; twice for a double). Otherwise each
    round splits the field into tables (``table_sizes``) chosen greedily so
    that players who have not met sit together, until every pair has met;
    byes rotate and seats are balanced by ``seat_order``. The greedy runs
    under a few fixed relabellings of the players and the shortest schedule
    wins. A double round robin plays the same tables again with the seat
    order reversed.
    """
    if n <= seats:
        if n < min_seats:
            raise ValueError("too few players for one table")
        cycle = [Pairing((tuple((s + r) % n for s in range(n)),)) for r in range(n)]
        return tuple(cycle * (2 if double else 1))
    best = None
    for attempt in range(24):
        labels = list(range(n))
        if attempt:
            random.Random(attempt).shuffle(labels)
        rounds = _cover_rounds(n, seats, min_seats, labels)
        if best is None or len(rounds) < len(best):
            best = rounds
    if double:
        best = best + [Pairing(tuple(tuple(reversed(t)) for t in p.tables), p.byes) for p in best]
    return tuple(best)


def _cover_rounds(n: int, seats: int, min_seats: int, labels: list[int]) -> list[Pairing]:
    """Greedy rounds until every pair has met; ``labels`` orders the tie-breaks."""
    met: Counter = Counter()
    seat_counts: dict[int, Counter] = {p: Counter() for p in range(n)}
    bye_counts: Counter = Counter()
    all_pairs = n * (n - 1) // 2
    rounds: list[Pairing] = []
    while sum(1 for v in met.values() if v) < all_pairs and len(rounds) < n * n:
        sizes, nbyes = table_sizes(n, seats, min_seats)
        byes = sorted(range(n), key=lambda p: (bye_counts[p], -labels[p]))[:nbyes]
        remaining = [p for p in range(n) if p not in byes]
        tables = []
        for size in sizes:
            def unmet(p, pool):
                return sum(1 for q in pool if q != p and not met[_key(p, q)])
            start = max(remaining, key=lambda p: (unmet(p, remaining), -labels[p]))
            table = [start]
            while len(table) < size:
                rest = [p for p in remaining if p not in table]
                table.append(max(rest, key=lambda c: (sum(1 for t in table if not met[_key(c, t)]),
                                                      -sum(met[_key(c, t)] for t in table),
                                                      unmet(c, rest), -labels[c])))
            remaining = [p for p in remaining if p not in table]
            tables.append(table)
        seated = []
        for table in tables:
            order = seat_order(sorted(table), seat_counts)
            for s, p in enumerate(order):
                seat_counts[p][s] += 1
            for a, b in itertools.combinations(order, 2):
                met[_key(a, b)] += 1
            seated.append(order)
        for p in byes:
            bye_counts[p] += 1
        rounds.append(Pairing(tuple(seated), tuple(sorted(byes))))
    return rounds


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


# ---------------------------------------------------------------------------
# Swiss, two seats
# ---------------------------------------------------------------------------

def seat_preference(seats: Sequence[int]) -> tuple[int, int]:
    """(wanted seat or -1, strength) from a player's seat history.

    Strength, as FIDE's colour preferences: 3 (absolute): the difference between
    first and second seats is 2 or more, or the last two seats were the same;
    2 (strong): the difference is 1; 1 (mild): no difference, the seat not held
    last; 0: no history.
    """
    if not seats:
        return -1, 0
    diff = seats.count(0) - seats.count(1)
    last = seats[-1]
    if diff != 0:
        want = 1 if diff > 0 else 0
    else:
        want = 1 - last
    if abs(diff) >= 2 or (len(seats) >= 2 and seats[-1] == seats[-2] == 1 - want):
        return want, 3
    return want, 2 if diff else 1


def seat_imbalance(seats: Sequence[int]) -> int:
    """|first seats - second seats|: the seat rule keeps it at 2 or less."""
    return abs(seats.count(0) - seats.count(1))


def _lexicographic(levels: list[tuple[int, int]]) -> list[int]:
    """Scales for penalty levels [(max per edge, edges)], most important first."""
    scales = [1] * len(levels)
    for i in range(len(levels) - 2, -1, -1):
        below_max, count = levels[i + 1]
        scales[i] = scales[i + 1] * (below_max * count + 1)
    return scales


def swiss_pairs(players: Sequence[Contender]) -> Pairing:
    """Two-seat Swiss pairing of ``players`` given in ranking order (best first).

    Maximum-weight perfect matching; each edge's weight is a fixed top value
    minus lexicographic penalties:
    1. times the two have already met (so rematches happen only when no
       perfect matching without them exists);
    2. both already hold one seat twice more than the other, the same seat
       (one of them would go to three more: the seat rule's hard limit);
    3. both have the same absolute seat preference otherwise (one of them gets
       a seat three times in a row);
    4. (score difference)²;
    5. both have the same milder seat preference;
    6. inside one score group, distance from "top half meets bottom half".
    An odd field adds a bye vertex joined to players without a bye (everyone,
    if all have had one), preferring the lowest score, then the lowest rank.
    """
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate players")
    n = len(players)
    if n == 0:
        return Pairing(())
    if n == 1:
        return Pairing((), (players[0].id,))
    rank = {p.id: i for i, p in enumerate(players)}
    met = {p.id: Counter(p.opponents) for p in players}
    prefs = {p.id: seat_preference(p.seats) for p in players}
    imbalance = {p.id: seat_imbalance(p.seats) for p in players}
    groups: dict[int, list[int]] = {}
    for p in players:
        groups.setdefault(p.score, []).append(p.id)
    pos_in_group = {pid: (i, len(g)) for g in groups.values() for i, pid in enumerate(g)}
    scores = {p.id: p.score for p in players}
    lo, hi = min(scores.values()), max(scores.values())
    edges_in_matching = n // 2 + 1
    max_met = max([c for m in met.values() for c in m.values()] + [0])
    per_edge = [max_met + 1, 1, 1, (hi - lo) ** 2 + (hi - lo) + n, 1, n]
    levels = [(most, edges_in_matching) for most in per_edge]
    s_met, s_limit, s_strong, s_score, s_mild, s_half = _lexicographic(levels)
    top = s_met * (levels[0][0] * levels[0][1] + 1)

    graph = nx.Graph()
    for a, b in itertools.combinations(players, 2):
        pa, pb = prefs[a.id], prefs[b.id]
        same_pref = pa[0] >= 0 and pa[0] == pb[0]
        # _seat_pair gives the seat to the wider imbalance, so the limit only
        # breaks when both are already at it
        limit = 1 if same_pref and min(imbalance[a.id], imbalance[b.id]) >= 2 else 0
        strong = 1 if same_pref and not limit and min(pa[1], pb[1]) == 3 else 0
        mild = 1 if same_pref and not limit and not strong else 0
        half = 0
        if a.score == b.score:
            ia, size = pos_in_group[a.id]
            ib, _ = pos_in_group[b.id]
            half = abs(abs(ia - ib) - size // 2)
        penalty = (met[a.id][b.id] * s_met + limit * s_limit + strong * s_strong
                   + (a.score - b.score) ** 2 * s_score
                   + mild * s_mild + half * s_half)
        graph.add_edge(a.id, b.id, weight=top - penalty)
    if n % 2:
        eligible = [p for p in players if p.byes == 0] or list(players)
        for p in eligible:
            # lowest score first, then lowest rank: scaled into the score level
            penalty = ((p.score - lo) ** 2 + (p.score - lo)) * s_score + (n - 1 - rank[p.id]) * s_half
            graph.add_edge(p.id, BYE, weight=top - penalty)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables, byes = [], []
    for a, b in matching:
        if BYE in (a, b):
            byes.append(a if b == BYE else b)
            continue
        tables.append(_seat_pair(a, b, rank, prefs, imbalance))
    tables.sort(key=lambda t: min(rank[t[0]], rank[t[1]]))
    return Pairing(tuple(tables), tuple(byes))


def _seat_pair(a: int, b: int, rank: dict, prefs: dict, imbalance: dict) -> tuple[int, int]:
    """Who takes seat 0, as FIDE allocates colours: satisfy both preferences
    when they differ; otherwise the stronger preference wins (absolute, then
    strong, then mild); between two absolute ones the wider seat imbalance
    (so that nobody goes past two more of one seat while the other can take
    three in a row instead); then the higher-ranked player's."""
    (wa, sa), (wb, sb) = prefs[a], prefs[b]
    if rank[b] < rank[a]:
        a, b, wa, sa, wb, sb = b, a, wb, sb, wa, sa
    # a is the higher ranked
    if wa < 0 and wb < 0:
        return (a, b)
    if wa < 0 or wb < 0 or wa != wb:
        # at most one preference, or two that fit together
        want_a = wa if wa >= 0 else 1 - wb
        return (a, b) if want_a == 0 else (b, a)
    if (sb, imbalance[b]) > (sa, imbalance[a]):
        return (b, a) if wb == 0 else (a, b)
    return (a, b) if wa == 0 else (b, a)


# ---------------------------------------------------------------------------
# Swiss, three or more seats
# ---------------------------------------------------------------------------

def swiss_tables(players: Sequence[Contender], seats: int, min_seats: int) -> Pairing:
    """Multi-seat Swiss: tables grouped by score, few players meeting again, seats rotated.

    ``players`` in ranking order. Byes (when the field cannot be split into
    tables of ``min_seats``..``seats``) go to the lowest-ranked players with the
    fewest byes. The rest are cut into tables from the top of the ranking;
    then swaps between tables are made while they lower, lexicographically,
    (times players at a table have met before, sum of squared score gaps at a
    table). Seats follow ``seat_order``.
    """
    if len({p.id for p in players}) != len(players):
        raise ValueError("duplicate players")
    sizes, nbyes = table_sizes(len(players), seats, min_seats)
    rank = {p.id: i for i, p in enumerate(players)}
    by_rank = sorted(players, key=lambda p: (p.byes, -rank[p.id]))
    bye_ids = {p.id for p in by_rank[:nbyes]}
    field_ = [p for p in players if p.id not in bye_ids]
    met = {p.id: Counter(p.opponents) for p in players}
    score = {p.id: p.score for p in players}
    tables: list[list[int]] = []
    i = 0
    for size in sizes:
        tables.append([p.id for p in field_[i:i + size]])
        i += size
    spread_max = max((score[a] - score[b]) ** 2 for a in score for b in score) if score else 0
    weight = spread_max * sum(s * (s - 1) // 2 for s in sizes) + 1

    def cost(table: list[int]) -> int:
        return sum(met[a][b] * weight + (score[a] - score[b]) ** 2 for a, b in itertools.combinations(table, 2))

    for _ in range(200):
        best = None
        for ti, tj in itertools.combinations(range(len(tables)), 2):
            base = cost(tables[ti]) + cost(tables[tj])
            for xi, x in enumerate(tables[ti]):
                for yi, y in enumerate(tables[tj]):
                    a = tables[ti][:xi] + [y] + tables[ti][xi + 1:]
                    b = tables[tj][:yi] + [x] + tables[tj][yi + 1:]
                    delta = cost(a) + cost(b) - base
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, ti, tj, xi, yi)
        if best is None:
            break
        _, ti, tj, xi, yi = best
        tables[ti][xi], tables[tj][yi] = tables[tj][yi], tables[ti][xi]
    seat_counts = {p.id: Counter(p.seats) for p in players}
    seated = [seat_order(sorted(t, key=rank.get), seat_counts) for t in tables]
    seated.sort(key=lambda t: min(rank[p] for p in t))
    return Pairing(tuple(seated), tuple(sorted(bye_ids, key=rank.get)))


def repeat_meetings(tables: Iterable[Sequence[int]], opponents: dict[int, Counter]) -> int:
    """How many earlier meetings the players at these tables have had with each other."""
    return sum(opponents.get(a, Counter())[b] for t in tables for a, b in itertools.combinations(t, 2))


# ---------------------------------------------------------------------------
# Knockout
# ---------------------------------------------------------------------------

def knockout_rounds(n: int, seats: int = 2) -> int:
    """Rounds of a single elimination for ``n`` players, ``seats`` per table."""
    rounds, size = 0, 1
    while size < n:
        size *= seats
        rounds += 1
    return rounds


def bracket_positions(rounds: int, seats: int = 2) -> list[int]:
    """Seed numbers in bracket order for ``seats ** rounds`` slots.

    Built level by level: each seed s of the smaller bracket (of M slots)
    becomes a table of ``seats`` seeds, alternating s + jM and (j+1)M + 1 - s,
    so that if the better seed always wins, level by level the survivors are
    exactly the best seeds, and the top seeds stay apart until the end.
    """
    positions, m = [1], 1
    for _ in range(rounds):
        positions = [jm for s in positions for jm in
                     ((j * m + s) if j % 2 == 0 else ((j + 1) * m + 1 - s) for j in range(seats))]
        m *= seats
    return positions


def knockout_slots(n: int, seats: int = 2) -> list[tuple[int | None, ...]]:
    """First-round tables as seed numbers (1 = top seed); ``None`` is an empty slot.

    A table with one seed left is a bye: that seed goes through.
    """
    if n < 1:
        return []
    rounds = knockout_rounds(n, seats)
    if rounds == 0:
        return [(1,)]
    positions = [p if p <= n else None for p in bracket_positions(rounds, seats)]
    return [tuple(positions[i:i + seats]) for i in range(0, len(positions), seats)]


def knockout_next(winners: Sequence[int | None], seats: int = 2) -> list[tuple[int | None, ...]]:
    """The next round's tables: the winners of consecutive tables meet, in bracket order."""
    return [tuple(winners[i:i + seats]) for i in range(0, len(winners), seats)]
