"""Pairings: pure functions from the field and its history to the next tables.

No Django here but the sentences that state the rules (lazily translated). Players are plain ids;
a table is a tuple of ids in seat order (seat 0 first); a ``Pairing`` is one round's tables and byes.
``sides`` (a game's partnerships, e.g. Karuselis at four seats: seats 0 and 2 against 1 and 3) is a
tuple of (table size, side of each seat) for the sizes at which partners play as one side.

- ``round_robin``: Berger tables for two seats (FIDE order, the dummy gives a rest when the field is
  odd), single or double. For 3+ seats: everyone at one table when they fit (seats rotate; with
  partnerships one round per way of splitting the table into partners, so four Karuselis players
  play three rounds, each partnering each other player once); otherwise the schedule of
  ``league.rules.schedules``: every round seats all it can, every pair meets, the fewest rounds, no pair
  more often than it must, meetings as even as possible, byes spread evenly.
- ``swiss_pairs``: two-seat Swiss as a maximum-weight matching (networkx) whose weights are
  lexicographic, so each criterion below counts only among the pairings that are best on all the
  criteria before it (``SWISS_CRITERIA`` says them on the tournament page):
  1. a player who has had a bye gets another only when everybody has had one;
  2. fewest repeat meetings;
  3. nobody goes to three more of one seat than of the other;
  4. the bye goes to the lowest-placed player who can take it (the last in the standings);
  5. no seat three times in a row (the other absolute seat preferences);
  6. the smallest score differences (sum of squares);
  7. milder seat preferences;
  8. top half against bottom half inside a score group.
  Seats at a table follow FIDE's colour allocation (the wider imbalance first between two absolute
  needs).
- ``swiss_tables``: 3+ seats: byes to the fewest byes so far, lowest-placed first; tables cut from
  the ranking top down, larger first (the smaller tables go to the lower-placed); then swaps between
  tables while they lower the repeat meetings, then the squared score gaps; seats rotated, partners
  changed where the table allows (``SWISS_TABLES_CRITERIA``).
- ``knockout_slots`` / ``knockout_next``: single elimination. The top seeds head one table each,
  kept apart as in a standard bracket; the byes go to the top seeds, then the tables short of a
  player or more to the next seeds; each table is filled from the bottom of the seeding, seed 1's
  first (two seats: the standard bracket, 1 against the last seed). ``KNOCKOUT_RULES``.
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypedDict

import networkx as nx
from django.utils.translation import gettext_lazy as _

from league.rules import schedules
from league.rules.schedules import table_sizes

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
    held at each table played, in order; ``byes`` counts byes received;
    ``partners`` repeats an id once per match played as partners.
    """
    id: int
    score: int = 0
    opponents: tuple[int, ...] = ()
    byes: int = 0
    seats: tuple[int, ...] = field(default=())
    partners: tuple[int, ...] = ()


Sides = tuple[tuple[int, tuple[int, ...]], ...]


class PairingRules(TypedDict):
    """A rule set in words, as the tournament page's legend "How the tables are drawn" shows it."""
    ordered: bool
    rules: list[str]


def sides_at(sides: Sides, size: int) -> tuple[int, ...] | None:
    """The side of each seat at a table of ``size`` when partners play there (else None)."""
    for k, of_seat in sides:
        if k == size and len(set(of_seat)) < size:
            return tuple(of_seat)
    return None


def partner_pairs(table: Sequence[int], of_seat: Sequence[int] | None) -> list[tuple[int, int]]:
    """The partners at a seated table: players whose seats are on one side."""
    if of_seat is None:
        return []
    return [(a, b) for (i, a), (j, b) in itertools.combinations(enumerate(table), 2) if of_seat[i] == of_seat[j]]


# ---------------------------------------------------------------------------
# Seats (the table sizes are ``league.rules.schedules.table_sizes``)
# ---------------------------------------------------------------------------

def seat_order(players: Sequence[int], seat_counts: dict[int, Counter[int]], of_seat: Sequence[int] | None = None,
               partner_counts: dict[int, Counter[int]] | None = None) -> tuple[int, ...]:
    """Seat the players of one table so that everyone gets the seats they held least.

    An assignment problem (minimum total of "times already in this seat", squared), solved as a
    maximum-weight matching; ties keep the given order. With partnerships at this table
    (``of_seat``: the side of each seat) the partners are chosen first: the seating with the fewest
    pairs of partners who have partnered before (``partner_counts``), then the seats as above.
    """
    k = len(players)
    if k <= 1:
        return tuple(players)
    counts = [seat_counts.get(p, Counter()) for p in players]
    if of_seat is not None and len(of_seat) == k and len(set(of_seat)) < k:
        partner_counts = partner_counts or {}

        def key(order: tuple[int, ...]) -> tuple[int, int, int]:
            repeats = sum(partner_counts.get(players[i], Counter())[players[j]]
                          for (si, i), (sj, j) in itertools.combinations(enumerate(order), 2)
                          if of_seat[si] == of_seat[sj])
            seats = sum(counts[i][s] ** 2 for s, i in enumerate(order))
            return repeats, seats, sum((s - i) % k for s, i in enumerate(order))

        best = min(itertools.permutations(range(k)), key=key)
        return tuple(players[i] for i in best)
    most = max([c[s] for c in counts for s in range(k)] + [0])
    graph = nx.Graph()
    for i in range(len(players)):
        for s in range(k):
            # cost first, then a small preference for the given order (i at seat i)
            cost = counts[i][s] ** 2 * (k * k + 1) + ((s - i) % k)
            graph.add_edge(("p", i), ("s", s), weight=((most + 1) ** 2) * (k * k + 1) * 2 - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seat_of: dict[int, int] = {}
    for a, b in matching:
        (pa, ia), (_x, ib) = a, b
        if pa == "p":
            seat_of[ia] = ib
        else:
            seat_of[ib] = ia
    out = [0] * k
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


def round_robin(n: int, seats: int = 2, min_seats: int = 2, double: bool = False, sides: Sides = ()) -> list[Pairing]:
    """Every round of a round robin for players ``0..n-1`` (seed order).

    Two seats: Berger tables (a double round robin repeats them with seats
    swapped). More seats: see ``_multi_seat_round_robin``.
    """
    if n < 2:
        return []
    if seats == 2:
        rounds = []
        for pairs in berger_rounds(n):
            tables = tuple((a, b) for a, b in pairs if a is not None and b is not None)
            rests = tuple(p for a, b in pairs if a is None or b is None for p in (a, b) if p is not None)
            rounds.append(Pairing(tables, rests))
        if double:
            rounds += [Pairing(tuple((b, a) for a, b in p.tables), p.byes) for p in rounds]
        return rounds
    return list(_multi_seat_round_robin(n, seats, min_seats, double, tuple(sides)))


def partner_splits(players: Sequence[int], of_seat: Sequence[int]) -> list[frozenset[frozenset[int]]]:
    """Every way of splitting one table's players into partnerships of the sizes ``of_seat`` gives."""
    shapes = sorted(Counter(of_seat).values(), reverse=True)
    out: list[frozenset[frozenset[int]]] = []

    def walk(rest: list[int], sizes: list[int], done: list[frozenset[int]]) -> None:
        if not rest:
            split = frozenset(done)
            if split not in out:
                out.append(split)
            return
        first = rest[0]
        for i, size in enumerate(sizes):
            if size in sizes[:i]:
                continue
            for others in itertools.combinations(rest[1:], size - 1):
                group = frozenset((first, *others))
                walk([p for p in rest if p not in group], sizes[:i] + sizes[i + 1:], done + [group])

    walk(list(players), shapes, [])
    return out


@lru_cache(maxsize=64)
def _multi_seat_round_robin(n: int, seats: int, min_seats: int, double: bool, sides: Sides) -> tuple[Pairing, ...]:
    """Round robin at tables of 3+ seats.

    When the whole field fits one table: without partnerships it plays n rounds and seats rotate
    (every player holds every seat once; twice for a double); with partnerships at that size it
    plays one round per way of splitting the players into partners (three for four Karuselis
    players), seats balanced. Otherwise the tables of each round come from
    ``league.rules.schedules.schedule`` for the shape ``table_sizes`` gives; seats are balanced round
    by round by ``seat_order`` (with partnerships, fewest repeat partners first). A double round
    robin plays the same tables again: with the seat order reversed, or, with partnerships,
    seated again the same way (so the partners change where they can).
    """
    seat_counts: dict[int, Counter[int]] = {p: Counter() for p in range(n)}
    partner_counts: dict[int, Counter[int]] = {p: Counter() for p in range(n)}

    def seated(table: Sequence[int]) -> tuple[int, ...]:
        of_seat = sides_at(sides, len(table))
        order = seat_order(sorted(table), seat_counts, of_seat, partner_counts)
        for s, p in enumerate(order):
            seat_counts[p][s] += 1
        for a, b in partner_pairs(order, of_seat):
            partner_counts[a][b] += 1
            partner_counts[b][a] += 1
        return order

    cycles = 2 if double else 1
    if n <= seats:
        if n < min_seats:
            raise ValueError("too few players for one table")
        of_seat = sides_at(sides, n)
        if of_seat is None:
            return tuple([Pairing((tuple((s + r) % n for s in range(n)),)) for r in range(n)] * cycles)
        count = len(partner_splits(range(n), of_seat))
        return tuple(Pairing((seated(range(n)),)) for _round in range(count * cycles))
    sizes, nbyes = table_sizes(n, seats, min_seats)
    plan = schedules.schedule(n, tuple(sizes), nbyes)
    rounds = [Pairing(tuple(seated(t) for t in tables), tuple(byes)) for tables, byes in plan]
    if double and not sides:
        rounds += [Pairing(tuple(tuple(reversed(t)) for t in p.tables), p.byes) for p in rounds]
    elif double:
        rounds += [Pairing(tuple(seated(t) for t in tables), tuple(byes)) for tables, byes in plan]
    return tuple(rounds)


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
    want = (1 if diff > 0 else 0) if diff != 0 else 1 - last
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


Forbidden = frozenset[frozenset[int]]


def forbidden_at(table: Sequence[int], forbidden: Forbidden) -> list[tuple[int, int]]:
    """The forbidden pairs (two players not to be seated together) at one table."""
    return [(a, b) for a, b in itertools.combinations(table, 2) if frozenset((a, b)) in forbidden]


def clubmate_pairs(clubs: dict[int, frozenset[int]]) -> Forbidden:
    """Every pair of players who share a club (``clubs``: player → the clubs they belong to)."""
    return frozenset(frozenset((a, b)) for a, b in itertools.combinations(sorted(clubs), 2)
                     if clubs[a] & clubs[b])


def swiss_pairs(players: Sequence[Contender], forbidden: Forbidden = frozenset()) -> Pairing:
    """Two-seat Swiss pairing of ``players`` given in ranking order (best first).

    Maximum-weight perfect matching; each edge's weight is a fixed top value minus lexicographic
    penalties, so a level counts only between matchings equal on every level above it:
    0. the two are a forbidden pair (``forbidden``: family members, clubmates in the first rounds),
       so they meet only when no perfect matching avoids it;
    1. times the two have already met (so rematches happen only when no
       perfect matching without them exists);
    2. both already hold one seat twice more than the other, the same seat
       (one of them would go to three more: the seat rule's hard limit);
    3. the bye (odd field): an edge from each player who may take it (the
       fewest byes so far: ``bye_candidates``) to a bye vertex, its penalty the
       number of such players ranked below: the bye goes to the lowest-ranked
       of them unless that forces a level 1 or 2 breach another choice avoids;
    4. both have the same absolute seat preference otherwise (one of them gets
       a seat three times in a row);
    5. (score difference)²;
    6. both have the same milder seat preference;
    7. inside one score group, distance from "top half meets bottom half".
    Each scale exceeds the largest total of all the levels below it (``_lexicographic``).
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
    levels = [(1, edges_in_matching), (max_met + 1, edges_in_matching), (1, edges_in_matching), (n, 1),
              (1, edges_in_matching), ((hi - lo) ** 2, edges_in_matching), (1, edges_in_matching),
              (n, edges_in_matching)]
    s_forbidden, s_met, s_limit, s_bye, s_strong, s_score, s_mild, s_half = _lexicographic(levels)
    top = s_forbidden * (levels[0][0] * levels[0][1] + 1)

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
            ib, _x = pos_in_group[b.id]
            half = abs(abs(ia - ib) - size // 2)
        penalty = (int(frozenset((a.id, b.id)) in forbidden) * s_forbidden + met[a.id][b.id] * s_met
                   + limit * s_limit + strong * s_strong
                   + (a.score - b.score) ** 2 * s_score
                   + mild * s_mild + half * s_half)
        graph.add_edge(a.id, b.id, weight=top - penalty)
    if n % 2:
        eligible = bye_candidates(players)
        for below, p in enumerate(reversed(eligible)):
            graph.add_edge(p.id, BYE, weight=top - below * s_bye)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables, byes = [], []
    for a, b in matching:
        if BYE in (a, b):
            byes.append(a if b == BYE else b)
            continue
        tables.append(_seat_pair(a, b, rank, prefs, imbalance))
    tables.sort(key=lambda t: min(rank[t[0]], rank[t[1]]))
    return Pairing(tuple(tables), tuple(byes))


def bye_candidates(players: Sequence[Contender]) -> list[Contender]:
    """Who may take a two-seat Swiss bye, in ranking order: those with the fewest byes so far (no bye
    yet, while anybody has none)."""
    fewest = min(p.byes for p in players)
    return [p for p in players if p.byes == fewest]


def _seat_pair(a: int, b: int, rank: dict[int, int], prefs: dict[int, tuple[int, int]],
               imbalance: dict[int, int]) -> tuple[int, int]:
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

def swiss_tables(players: Sequence[Contender], seats: int, min_seats: int, sides: Sides = (),
                 forbidden: Forbidden = frozenset()) -> Pairing:
    """Multi-seat Swiss: tables grouped by score, few players meeting again, seats rotated.

    ``players`` in ranking order. Byes (when the field cannot be split into
    tables of ``min_seats``..``seats``) go to the players with the fewest byes
    so far, lowest-ranked first (``swiss_table_byes``). The rest are cut into
    tables from the top of the ranking, larger tables first (``table_sizes``),
    so the smaller tables go to the lower-ranked; then swaps between tables are
    made while they lower, lexicographically, (forbidden pairs at a table, times
    players at a table have met before, sum of squared score gaps at a table). Seats follow
    ``seat_order``; with partnerships at a table's size, the fewest repeat
    partners first.
    """
    if len({p.id for p in players}) != len(players):
        raise ValueError("duplicate players")
    sizes, nbyes = table_sizes(len(players), seats, min_seats)
    rank = {p.id: i for i, p in enumerate(players)}
    bye_ids = set(swiss_table_byes(players, nbyes))
    field_ = [p for p in players if p.id not in bye_ids]
    met = {p.id: Counter(p.opponents) for p in players}
    score = {p.id: p.score for p in players}
    tables: list[list[int]] = []
    i = 0
    for size in sizes:
        tables.append([p.id for p in field_[i:i + size]])
        i += size
    spread_max = max((score[a] - score[b]) ** 2 for a in score for b in score) if score else 0
    pairs = sum(s * (s - 1) // 2 for s in sizes)
    weight = spread_max * pairs + 1
    max_met = max([c for m in met.values() for c in m.values()] + [0])
    apart = (max_met * weight + spread_max) * pairs + 1

    def cost(table: list[int]) -> int:
        return sum(int(frozenset((a, b)) in forbidden) * apart + met[a][b] * weight + (score[a] - score[b]) ** 2
                   for a, b in itertools.combinations(table, 2))

    for _step in range(200):
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
    partner_counts = {p.id: Counter(p.partners) for p in players}
    seated = [seat_order(sorted(t, key=rank.__getitem__), seat_counts, sides_at(sides, len(t)), partner_counts)
              for t in tables]
    seated.sort(key=lambda t: min(rank[p] for p in t))
    return Pairing(tuple(seated), tuple(sorted(bye_ids, key=rank.__getitem__)))


def swiss_table_byes(players: Sequence[Contender], count: int) -> list[int]:
    """The ``count`` byes of a multi-seat Swiss round: the fewest byes so far first, then the
    lowest-ranked (``players`` in ranking order)."""
    rank = {p.id: i for i, p in enumerate(players)}
    return [p.id for p in sorted(players, key=lambda p: (p.byes, -rank[p.id]))[:count]]


def repeat_meetings(tables: Iterable[Sequence[int]], opponents: dict[int, Counter[int]]) -> int:
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

    Built level by level: each seed s of the smaller bracket (of M slots) heads
    a table, followed by the seeds it meets, taken from the bottom of the
    M * seats: seed 1 gets the last ``seats - 1`` seeds, seed 2 the ones before
    them, and so on (two seats: s meets 2M + 1 - s, the standard bracket). So if
    the better seed always wins, level by level the survivors are exactly the
    best seeds, the top seeds stay apart until the end, and a better seed never
    has a harder table than a worse one.
    """
    positions, m = [1], 1
    for _level in range(rounds):
        positions = [seed for s in positions
                     for seed in [s] + sorted(seats * m - (seats - 1) * (s - 1) - j for j in range(seats - 1))]
        m *= seats
    return positions


def knockout_slots(n: int, seats: int = 2, min_seats: int = 2) -> list[tuple[int | None, ...]]:
    """First-round tables as seed numbers (1 = top seed); ``None`` is an empty slot.

    The top seeds 1..T (T = the number of first-round tables) head one table
    each, in the order of ``bracket_positions`` (so they stay apart). The empty
    slots go to the top seeds' tables first: a whole table's worth (a bye: the
    seed goes through alone) while enough are left, then the rest to the next
    seeds, as few tables as ``min_seats`` allows (a table is either a bye or
    seats at least ``min_seats``). The other seeds fill the tables from the
    bottom of the seeding: seed 1's table takes the lowest seeds, then seed 2's
    the next lowest, and so on. Two seats: the standard bracket (seed s against
    seed 2T + 1 - s, byes to the top seeds). Where no such split exists some
    table is left smaller than ``min_seats`` (the caller refuses the field).
    """
    if n < 1:
        return []
    rounds = knockout_rounds(n, seats)
    if rounds == 0:
        return [(1,)]
    heads = seats ** (rounds - 1)
    empty = seats * heads - n
    per_table = max(seats - max(min_seats, 2), 0)   # empty slots a table may have and still be played
    short = []
    for _head in range(heads):
        if empty >= seats - 1:
            take = seats - 1
        elif empty <= per_table or per_table == 0:
            take = empty
        else:
            take = per_table
        short.append(take)
        empty -= take
    fill = list(range(n, heads, -1))   # the other seeds, lowest first
    tables = {}
    for head in range(1, heads + 1):
        count = seats - 1 - short[head - 1]
        others, fill = fill[:count], fill[count:]
        tables[head] = (head, *sorted(others), *([None] * short[head - 1]))
    return [tables[head] for head in bracket_positions(rounds - 1, seats)]


def knockout_apart(tables: Sequence[Sequence[int]], forbidden: Forbidden) -> list[tuple[int, ...]]:
    """A first round's tables with forbidden pairs kept apart where the seeds allow: a player (never the
    table's head, the top seed there) changes places with the player in the same position of another
    table, the nearest in the bracket first, when that leaves neither table with a forbidden pair. A
    pair no such swap separates stays (the draft reports it)."""
    out = [list(t) for t in tables]
    for ti in range(len(out)):
        for a, b in forbidden_at(out[ti], forbidden):
            if frozenset((a, b)) not in {frozenset(p) for p in forbidden_at(out[ti], forbidden)}:
                continue
            mover = max(out[ti].index(a), out[ti].index(b))
            if mover == 0:
                continue
            for tj in sorted(range(len(out)), key=lambda j: (abs(j - ti), j)):
                if tj == ti or len(out[tj]) <= mover:
                    continue
                first, second = list(out[ti]), list(out[tj])
                first[mover], second[mover] = second[mover], first[mover]
                if not forbidden_at(first, forbidden) and not forbidden_at(second, forbidden):
                    out[ti], out[tj] = first, second
                    break
    return [tuple(t) for t in out]


def knockout_next(winners: Sequence[int | None], seats: int = 2) -> list[tuple[int | None, ...]]:
    """The next round's tables: the winners of consecutive tables meet, in bracket order."""
    return [tuple(winners[i:i + seats]) for i in range(0, len(winners), seats)]


# ---------------------------------------------------------------------------
# The rules in words (the tournament page's "How the tables are drawn")
# ---------------------------------------------------------------------------

SWISS_CRITERIA = (
    _("A player who has had a bye gets another only when everybody has had one."),
    _("Nobody meets an opponent again if another pairing of the round avoids it (otherwise, as few repeat "
      "meetings as possible)."),
    _("Nobody gets three more games in one seat than in the other, if another pairing avoids it."),
    _("With an odd number of players, the bye goes to the lowest-placed player in the standings who may have it; "
      "it moves up, one place at a time, only as far as the two rules above require."),
    _("Nobody gets the same seat three times in a row, if another pairing avoids it."),
    _("Opponents are as close in points as possible: the sum of the squared differences in points of the tables "
      "is as small as possible."),
    _("Each player gets the seat they are due (the one held less often; with equal counts, the one not held last "
      "time), where possible."),
    _("Among players on the same points, the upper half meets the lower half: the first against the first of the "
      "lower half, and so on."),
)
SWISS_SEATS = _("At a table, when both players are due the same seat it goes to the stronger claim: first a player "
                "who has held the other seat two more times or in each of the last two games (between two such, "
                "the one further out of balance), then one who has held it once more; then the higher-placed "
                "player.")
SWISS_TABLES_CRITERIA = (
    _("Byes, only when the players cannot all be seated at tables of %(min)s to %(max)s: to the players with the "
      "fewest byes so far, the lowest-placed first."),
    _("The others are seated from the top of the standings down, larger tables first, so that the smaller tables "
      "go to the lower-placed players."),
    _("Then two players at different tables change places while that lowers, first, the number of earlier "
      "meetings among the players of each table, then the sum of the squared differences in points of the "
      "players of each table (the largest improvement first)."),
    _("Seats: each player gets the seats they have held least."),
)
PARTNER_ROTATION = _("Partnerships (tables of %(n)s): the partners at each table are chosen so that nobody partners "
                     "the same player again where the table allows it; then the seats as above.")
KNOCKOUT_RULES = (
    _("Round 1: the top seeds head one table each (as many as there are tables), placed so that, if the better "
      "seed always wins, the top seeds meet only at the end."),
    _("Byes go to the top seeds; then the tables short of a player (or more) to the next seeds; the other "
      "tables are full."),
    _("Each table is filled from the bottom of the seeding: seed 1's table takes the lowest seeds, seed 2's "
      "the next lowest, and so on."),
    _("The winners of neighbouring tables meet in the next round."),
)
ROUND_ROBIN_TWO_SEATS = (
    _("Berger tables (FIDE): every pair meets once (in a double round robin twice, seats swapped); with an odd "
      "number of players one player rests each round."),
)
ROUND_ROBIN_ONE_TABLE = _("Everybody fits one table: the seats rotate, so each player holds each seat once "
                          "(twice in a double round robin).")
ROUND_ROBIN_ONE_TABLE_PARTNERS = _("Everybody fits one table of partnerships: one round for each way of splitting "
                                  "the table into partners, so that everybody partners everybody once (twice in "
                                  "a double round robin).")
ROUND_ROBIN_TABLES = (
    _("Every round seats everybody it can: the fewest byes, then the fewest tables, sizes as even as possible."),
    _("Every pair of players meets at least once, in the fewest rounds in which that is possible (checked "
      "exhaustively up to 9 players; above that, the shortest schedule a long search found). No pair meets more "
      "often than those rounds force, and the meetings are as even as possible: with 5 players at tables of 3, for "
      "example, 3 rounds are enough, and in any 3 such rounds one pair meets three times."),
    _("Byes are spread evenly: nobody rests more than once more than anybody else."),
    _("Seats are balanced round by round: each player gets the seats they have held least."),
)
ROUND_ROBIN_DOUBLE = _("A double round robin plays the same tables again, the seat order reversed.")
ROUND_ROBIN_DOUBLE_PARTNERS = _("A double round robin plays the same tables again, seated again by the rules above "
                                "(so that the partners change where they can).")


def _partner_lines(seats: int, sides: Sides) -> list[str]:
    """One sentence per table size up to ``seats`` at which partners play (``PARTNER_ROTATION``)."""
    partnered = sorted({k for k, of_seat in sides if k <= seats and len(set(of_seat)) < k})
    return [str(PARTNER_ROTATION % {"n": k}) for k in partnered]


# Each rule set in words: ``rules`` (sentences) and ``ordered`` (true when each rule decides only among
# the draws equal on the ones before it). The tournament formats (``league.formats``) say which is theirs.

def swiss_rules(seats: int, min_seats: int = 2, sides: Sides = ()) -> PairingRules:
    """How a Swiss round is drawn (``swiss_pairs`` at two seats, ``swiss_tables`` at more)."""
    if seats == 2:
        return {"ordered": True, "rules": [str(s) for s in SWISS_CRITERIA] + [str(SWISS_SEATS)]}
    return {"ordered": True, "rules": [str(SWISS_TABLES_CRITERIA[0] % {"min": min_seats, "max": seats})]
            + [str(s) for s in SWISS_TABLES_CRITERIA[1:]] + _partner_lines(seats, sides)}


def knockout_rules() -> PairingRules:
    """How a knockout's tables are drawn (``knockout_slots``, ``knockout_next``)."""
    return {"ordered": False, "rules": [str(s) for s in KNOCKOUT_RULES]}


def round_robin_rules(seats: int, sides: Sides = (), field: int | None = None,
                      double: bool = False) -> PairingRules:
    """How a round robin's schedule is drawn (``round_robin``), played twice when ``double``. ``field``:
    the number of players, when known (it decides whether everybody fits one table)."""
    if seats == 2:
        return {"ordered": False, "rules": [str(s) for s in ROUND_ROBIN_TWO_SEATS]}
    if field is not None and field <= seats:
        one = ROUND_ROBIN_ONE_TABLE_PARTNERS if sides_at(sides, field) is not None else ROUND_ROBIN_ONE_TABLE
        return {"ordered": False, "rules": [str(one)]}
    partner_lines = _partner_lines(seats, sides)
    again = ROUND_ROBIN_DOUBLE_PARTNERS if partner_lines else ROUND_ROBIN_DOUBLE
    return {"ordered": True, "rules": [str(s) for s in ROUND_ROBIN_TABLES] + partner_lines
            + ([str(again)] if double else [])}
