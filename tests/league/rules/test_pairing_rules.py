"""Pairings an organiser can check: the Swiss bye where the rules say, balanced multi-seat round robins
in the fewest rounds, knockout byes and small tables to the top seeds, Karuselis partners that rotate.

The pure rules are checked against brute force (every pairing of a round, every schedule of a small
field); the last tests run real Karuselis tournaments of bots through the services.
"""
from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league import services
from league.models import Round, Table, TableSeat, Tournament
from league.rules import pairing, schedules
from league.rules.pairing import Contender

KARUSELIS = ((4, (0, 1, 0, 1)),)   # Karuselis at four seats: seats 0 and 2 against 1 and 3 (rule K1)


# ---------------------------------------------------------------------------
# The Swiss bye
# ---------------------------------------------------------------------------

def _breaches(field: list[Contender], pairs) -> tuple[int, int]:
    """(repeat meetings, pairs of players both already two of one seat over and due the same seat)."""
    met = {c.id: Counter(c.opponents) for c in field}
    by_id = {c.id: c for c in field}
    rematches = sum(met[a][b] for a, b in pairs)
    limit = 0
    for a, b in pairs:
        (wa, _sa), (wb, _sb) = pairing.seat_preference(by_id[a].seats), pairing.seat_preference(by_id[b].seats)
        if wa >= 0 and wa == wb and min(pairing.seat_imbalance(by_id[a].seats),
                                        pairing.seat_imbalance(by_id[b].seats)) >= 2:
            limit += 1
    return rematches, limit


def _best_pairing_breaches(field: list[Contender], ids: list[int]) -> tuple[int, int]:
    """Brute force: the fewest (repeat meetings, seat-limit breaches) any pairing of ``ids`` has."""
    if not ids:
        return (0, 0)
    first, rest = ids[0], ids[1:]
    return min(tuple(map(sum, zip(_breaches(field, [(first, b)]),
                                  _best_pairing_breaches(field, rest[:i] + rest[i + 1:]))))
               for i, b in enumerate(rest))


def _bye_by_the_rules(field: list[Contender]) -> int:
    """The documented rule, computed by brute force: among the players with the fewest byes, the
    lowest-placed one whose bye leaves a pairing as good on repeat meetings and the seat limit as any
    other choice of bye."""
    fewest = min(c.byes for c in field)
    may = [c.id for c in field if c.byes == fewest]
    cost = {c: _best_pairing_breaches(field, [x.id for x in field if x.id != c]) for c in may}
    best = min(cost.values())
    return next(c for c in reversed(may) if cost[c] == best)


def _simulate(n: int, rounds: int, seats: int, data, check) -> None:
    """A Swiss of ``n`` players; before each round Hypothesis may withdraw players (not paired again)."""
    history = {i: {"score": 0, "opponents": [], "byes": 0, "seats": []} for i in range(n)}
    active = list(range(n))
    for _ in range(rounds):
        leaving = data.draw(st.lists(st.sampled_from(active), unique=True, max_size=max(0, len(active) - seats)))
        active = [p for p in active if p not in leaving]
        order = sorted(active, key=lambda i: (-history[i]["score"], i))
        field = [Contender(i, history[i]["score"], tuple(history[i]["opponents"]), history[i]["byes"],
                           tuple(history[i]["seats"])) for i in order]
        p = (pairing.swiss_pairs(field) if seats == 2
             else pairing.swiss_tables(field, seats, min_seats=2))
        check(field, p)
        for t in p.tables:
            for s, player in enumerate(t):
                history[player]["seats"].append(s)
                history[player]["opponents"] += [q for q in t if q != player]
            winner = data.draw(st.sampled_from(t))
            history[winner]["score"] += 2
        for x in p.byes:
            history[x]["byes"] += 1
            history[x]["score"] += 2


@settings(max_examples=150, deadline=None)
@given(n=st.integers(3, 9), rounds=st.integers(1, 7), seats=st.sampled_from([2, 2, 3, 4]), data=st.data())
def test_the_swiss_bye_goes_exactly_where_the_documented_rule_says(n, rounds, seats, data):
    # given a Swiss of odd and even fields, with withdrawals before any round, at tables of 2 to 4
    def check(field, p):
        # when a round is paired, then the bye goes where the rules say
        if seats == 2:
            if len(field) % 2:
                # two seats: the lowest-placed player with the fewest byes, unless that forces a repeat
                # meeting or a seat-limit breach another bye avoids (rules 1-4 of SWISS_CRITERIA)
                assert p.byes == (_bye_by_the_rules(field),), (field, p)
            else:
                assert p.byes == ()
        else:
            # more seats: the fewest byes so far first, then the lowest-placed (SWISS_TABLES_CRITERIA)
            _sizes, count = schedules.table_sizes(len(field), seats, 2)
            rank = {c.id: i for i, c in enumerate(field)}
            expected = sorted(field, key=lambda c: (c.byes, -rank[c.id]))[:count]
            assert set(p.byes) == {c.id for c in expected}

    _simulate(n, rounds, seats, data, check)


def test_the_bye_is_not_passed_up_for_a_milder_seat_preference():
    """Seven players before round 2 (found by the property test above on the old weights), in
    standings order 1, 3, 5, 6 (2 points; 6 had the bye) and 0, 2, 4 (0 points). The last player
    without a bye is 4. With 4 on the bye, 0 and 2 meet (both on 0 points, both due seat 1: a mild
    clash); the old weights gave the bye to 2 instead, so that 0 could meet 4 (who is due seat 0)."""
    # given
    field = [Contender(1, 2, (4,), 0, (0,)), Contender(3, 2, (0,), 0, (1,)), Contender(5, 2, (2,), 0, (1,)),
             Contender(6, 2, (), 1, ()), Contender(0, 0, (3,), 0, (0,)), Contender(2, 0, (5,), 0, (0,)),
             Contender(4, 0, (1,), 0, (1,))]
    # when
    p = pairing.swiss_pairs(field)
    # then the bye goes to the lowest-placed player who may have it: seat preferences come after the bye
    assert p.byes == (4,)
    assert frozenset((0, 2)) in {frozenset(t) for t in p.tables}


def test_the_bye_is_not_passed_up_for_a_smaller_score_gap_only_to_avoid_a_repeat_meeting():
    """Five players before round 3, in standings order 1 (3 points), 4 (3, had a bye), 0 (2, had a bye),
    2 (2) and 3 (2). The last player without a bye is 3. With 3 on the bye, 1-0 and 4-2 meet (score
    gaps of 1 and 1; 0-2 would be a repeat meeting); the old weights gave the bye to 2 instead, so that
    1-4 and 0-3 could meet (gaps 0 and 1)."""
    # given
    field = [Contender(1, 3, (3, 2), 0, (0, 1)), Contender(4, 3, (3,), 1, (1,)), Contender(0, 2, (2,), 1, (0,)),
             Contender(2, 2, (0, 1), 0, (1, 0)), Contender(3, 2, (1, 4), 0, (1, 0))]
    # when
    p = pairing.swiss_pairs(field)
    # then the bye goes to 3, and nobody meets again
    assert p.byes == (3,)
    assert {frozenset(t) for t in p.tables} == {frozenset((1, 0)), frozenset((4, 2))}
    # and where the last player's bye would force a repeat meeting, it moves up one place: 0 has met
    # 1, 2 and 3, so without 4 every pairing of 0-3 repeats a meeting; without 3, 0-4 and 1-2 are new
    again = [Contender(0, 6, (1, 2, 3)), Contender(1, 2, (0,)), Contender(2, 2, (0,)), Contender(3, 2, (0,)),
             Contender(4, 0, ())]
    p = pairing.swiss_pairs(again)
    assert p.byes == (3,) and {frozenset(t) for t in p.tables} == {frozenset((0, 4)), frozenset((1, 2))}


@given(n=st.integers(3, 20), seats=st.sampled_from([3, 4, 5]), min_seats=st.sampled_from([2, 3]))
def test_a_first_multi_seat_swiss_round_seats_from_the_top_larger_tables_first(n, seats, min_seats):
    # given a field on equal points that has met nobody, in seed order
    if min_seats > seats:
        return
    field = [Contender(i) for i in range(n)]
    # when
    p = pairing.swiss_tables(field, seats, min_seats)
    # then the byes are the last seeds, and the tables take the others from the top, larger tables
    # first (so the smaller tables are the lower-placed players')
    sizes, count = schedules.table_sizes(n, seats, min_seats)
    assert p.byes == tuple(range(n - count, n))
    cut, start = [], 0
    for size in sizes:
        cut.append(list(range(start, start + size)))
        start += size
    assert sorted(sorted(t) for t in p.tables) == cut


def test_the_tournament_page_states_the_swiss_criteria_in_order():
    # given the two-seat Swiss rules
    rules = pairing.swiss_rules(2)["rules"]
    # then the bye comes after repeat meetings and the seat limit and before seat preferences and scores
    text = [str(r) for r in pairing.SWISS_CRITERIA]
    assert rules[:len(text)] == text
    bye = next(i for i, r in enumerate(text) if "bye goes to the lowest-placed" in r)
    assert "again" in text[bye - 2] and "three more" in text[bye - 1] and "three times in a row" in text[bye + 1]


# ---------------------------------------------------------------------------
# Multi-seat round robin
# ---------------------------------------------------------------------------

def _round_options(n: int, sizes: list[int], byes: int) -> list[tuple[int, ...]]:
    """Every possible round of this shape, as the indices of the pairs it seats together."""
    pair_index = {p: i for i, p in enumerate(itertools.combinations(range(n), 2))}

    def splits(players, sizes):
        if not sizes:
            yield []
            return
        first = players[0]
        for k, size in enumerate(sizes):
            if size in sizes[:k]:
                continue
            for others in itertools.combinations(players[1:], size - 1):
                group = (first, *others)
                rest = [p for p in players if p not in group]
                for tail in splits(rest, sizes[:k] + sizes[k + 1:]):
                    yield [group] + tail

    out = set()
    for resting in itertools.combinations(range(n), byes):
        seated = [p for p in range(n) if p not in resting]
        for tables in splits(seated, sorted(sizes, reverse=True)):
            out.add(tuple(sorted(pair_index[pr] for t in tables for pr in itertools.combinations(sorted(t), 2))))
    return sorted(out)


def _exists(n: int, options: list[tuple[int, ...]], rounds: int, most: int) -> bool:  # noqa: C901 - a brute-force search, kept in one piece for speed
    """Brute force: is there a schedule of ``rounds`` rounds meeting every pair, none more than ``most``
    times? (Round 1 is fixed: every round of a shape is a relabelling of any other; each next round
    must seat the first pair not met yet, in some order of the rounds.)"""
    pairs = n * (n - 1) // 2
    per_round = len(options[0])
    count = [0] * pairs
    for i in options[0]:
        count[i] += 1
    containing = {p: [o for o in options if p in o] for p in range(pairs)}

    def fill(left: int, start: int) -> bool:       # any rounds at all, within the limit
        if left == 0:
            return True
        for k in range(start, len(options)):
            o = options[k]
            if all(count[i] < most for i in o):
                for i in o:
                    count[i] += 1
                ok = fill(left - 1, k)
                for i in o:
                    count[i] -= 1
                if ok:
                    return True
        return False

    def walk(left: int) -> bool:
        missing = [p for p in range(pairs) if count[p] == 0]
        if not missing:
            return fill(left, 0)
        if len(missing) > left * per_round:
            return False
        for o in containing[missing[0]]:
            if all(count[i] < most for i in o):
                for i in o:
                    count[i] += 1
                ok = walk(left - 1)
                for i in o:
                    count[i] -= 1
                if ok:
                    return True
        return False

    return walk(rounds - 1)


def _fewest(n: int, seats: int, min_seats: int) -> tuple[int, int]:
    """Brute force: (fewest rounds in which every pair meets, fewest meetings of the most-met pair then)."""
    sizes, byes = schedules.table_sizes(n, seats, min_seats)
    options = _round_options(n, sizes, byes)
    rounds = 1
    while not _exists(n, options, rounds, rounds):
        rounds += 1
    most = 1
    while not _exists(n, options, rounds, most):
        most += 1
    return rounds, most


def _meetings(n: int, rounds: list[pairing.Pairing]) -> Counter:
    met = Counter({frozenset(p): 0 for p in itertools.combinations(range(n), 2)})
    for r in rounds:
        for t in r.tables:
            met.update(frozenset(p) for p in itertools.combinations(t, 2))
    return met


def _small_fields() -> list[tuple[int, int, int]]:
    """Fields of up to 9 players at tables of 3 to 6 (and 10 at 4: a pair must meet in all 4 rounds),
    one per shape."""
    out, shapes = [], set()
    for n, seats, min_seats in [(n, s, m) for s in (3, 4, 5, 6) for m in (2, 3) for n in range(s + 1, 10)] + [(10, 4, 2)]:
        sizes, byes = schedules.table_sizes(n, seats, min_seats)
        if (n, tuple(sizes), byes) not in shapes:
            shapes.add((n, tuple(sizes), byes))
            out.append((n, seats, min_seats))
    return out


SMALL_FIELDS = _small_fields()


@pytest.mark.parametrize("n,seats,min_seats", SMALL_FIELDS)
def test_a_multi_seat_round_robin_has_the_fewest_rounds_and_no_pair_meets_more_than_the_sizes_force(
        n, seats, min_seats):
    # given a field too big for one table, and the brute-force optimum for its shape
    fewest_rounds, fewest_most = _fewest(n, seats, min_seats)
    # when the round robin is drawn
    rounds = pairing.round_robin(n, seats, min_seats)
    # then every pair meets, in the fewest rounds possible, and no pair more often than those rounds force
    met = _meetings(n, rounds)
    assert min(met.values()) >= 1
    assert len(rounds) == fewest_rounds
    assert max(met.values()) == fewest_most


def test_five_players_at_tables_of_three_play_three_rounds_not_four():
    # given the field: 5 players at 3 seats (4 rounds before, seeds 2 and 3 together in all four)
    # when
    rounds = pairing.round_robin(5, 3, 2)
    # then 3 rounds; any 3 rounds of a table of 3 and a table of 2 make one pair meet three times (the
    # brute force above proves it), and every other pair meets once or twice
    met = _meetings(5, rounds)
    assert len(rounds) == 3
    assert sorted(met.values()) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 3]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 16), seats=st.sampled_from([3, 4]), min_seats=st.sampled_from([2, 3]),
       double=st.booleans())
def test_multi_seat_round_robins_of_any_club_size_meet_every_pair_with_byes_spread(n, seats, min_seats, double):
    # given any club-sized field at tables of 3 or 4
    if n <= seats:
        return
    # when
    rounds = pairing.round_robin(n, seats, min_seats, double=double)
    # then every round has the shape, every pair meets (twice in a double), the schedule is no shorter
    # than the counting bound allows, and byes differ by at most one a cycle
    sizes, byes = schedules.table_sizes(n, seats, min_seats)
    cycles = 2 if double else 1
    assert len(rounds) % cycles == 0
    single = len(rounds) // cycles
    assert single >= schedules.lower_bound(n, sizes, byes)
    rests = Counter()
    for r in rounds:
        assert sorted(r.players()) == list(range(n))
        assert sorted((len(t) for t in r.tables), reverse=True) == sizes and len(r.byes) == byes
        rests.update(r.byes)
    met = _meetings(n, rounds)
    assert min(met.values()) >= cycles
    assert max(rests[p] for p in range(n)) - min(rests[p] for p in range(n)) <= cycles
    # the stored schedule is the one used, and it is as good as a fresh search finds
    stored = schedules.schedule(n, tuple(sizes), byes)
    assert schedules.quality(n, stored)[:3] <= schedules.quality(n, schedules.search(n, sizes, byes, 2000, 1))[:3]


def test_every_stored_schedule_has_its_shape_and_meets_every_pair():
    # given the schedules stored for the sizes clubs use
    for n, sizes, byes in schedules.stored_shapes():
        stored = schedules.schedule(n, sizes, byes)
        # then each is complete and valid: every round seats everyone once, every pair meets, byes even
        for tables, rest in stored:
            assert sorted(len(t) for t in tables) == sorted(sizes) and len(rest) == byes
            assert sorted([p for t in tables for p in t] + list(rest)) == list(range(n))
        unmet, length, _most, _squares, bye_spread = schedules.quality(n, stored)
        assert unmet == 0 and bye_spread <= 1 and length >= schedules.lower_bound(n, sizes, byes)


# ---------------------------------------------------------------------------
# Knockout
# ---------------------------------------------------------------------------

@given(n=st.integers(2, 90), seats=st.sampled_from([3, 4, 5]), min_seats=st.sampled_from([2, 3]))
def test_in_a_knockout_of_three_or_more_seats_the_top_seeds_get_the_byes_and_the_smaller_tables(
        n, seats, min_seats):
    # given a knockout field at tables of 3 to 5
    # when round 1 is drawn
    slots = pairing.knockout_slots(n, seats, min_seats)
    tables = sorted(([s for s in t if s is not None] for t in slots), key=min)
    # then every seed plays once; the top seeds head the tables
    assert sorted(s for t in tables for s in t) == list(range(1, n + 1))
    assert [min(t) for t in tables] == list(range(1, len(tables) + 1))
    # and a better seed never has a bigger table (byes first, then the smaller tables), nor a stronger
    # opponent: seed 1's table takes the lowest seeds, seed 2's the next lowest, ...
    sizes = [len(t) for t in tables]
    assert sizes == sorted(sizes)
    others = [sorted(t)[1:] for t in tables]
    for better, worse in itertools.pairwise(others):
        if better and worse:
            assert min(better) > max(worse)
    # and the tables are playable (a bye, or at least min_seats) whenever some split allows it
    if not all(s == 1 or s >= min_seats for s in sizes):
        assert not any(_splits(n, len(tables), seats, min_seats))


def _splits(n: int, heads: int, seats: int, min_seats: int):
    """Every way to split n players into ``heads`` tables of 1 or min_seats..seats."""
    allowed = [1] + list(range(min_seats, seats + 1))
    for combo in itertools.combinations_with_replacement(allowed, heads):
        if sum(combo) == n:
            yield combo


def test_seven_players_at_three_seats_give_the_top_seed_the_bye():
    # given 7 players at tables of 3 (before: (1, 6, 7), (2, 5), (3, 4) — the top seed at the hardest table)
    # when
    slots = pairing.knockout_slots(7, 3)
    # then seed 1 has the bye, seed 2 meets the two lowest seeds, seed 3 the next two
    assert sorted(tuple(s for s in t if s is not None) for t in slots) == [(1,), (2, 6, 7), (3, 4, 5)]


@given(n=st.integers(1, 130))
def test_the_two_seat_knockout_keeps_the_standard_bracket(n):
    # given the standard bracket: level by level seed s meets 2M + 1 - s, byes to the top seeds
    def standard(rounds):
        positions, m = [1], 1
        for _ in range(rounds):
            positions = [x for s in positions for x in (s, 2 * m + 1 - s)]
            m *= 2
        return positions

    rounds = pairing.knockout_rounds(n, 2)
    expected = [p if p <= n else None for p in standard(rounds)] if rounds else [1]
    # when / then
    assert [s for t in pairing.knockout_slots(n, 2) for s in t] == expected


# ---------------------------------------------------------------------------
# Karuselis partnerships
# ---------------------------------------------------------------------------

def _partners(table, of_seat=(0, 1, 0, 1)) -> set[frozenset]:
    return {frozenset(p) for p in pairing.partner_pairs(table, of_seat)}


@pytest.mark.parametrize("double", [False, True])
def test_four_karuselis_players_at_one_table_partner_each_other_once(double):
    # given a round robin of four at one four-seat Karuselis table (A, B, C, D = 0, 1, 2, 3)
    # when
    rounds = pairing.round_robin(4, seats=4, min_seats=2, double=double, sides=KARUSELIS)
    # then three rounds a cycle: (A, C) vs (B, D), then the two other splits; each pair partners once
    assert len(rounds) == (6 if double else 3)
    cycle = rounds[:3]
    assert _partners(cycle[0].tables[0]) == {frozenset((0, 2)), frozenset((1, 3))}
    partnered = Counter(p for r in cycle for p in _partners(r.tables[0]))
    assert partnered == Counter({frozenset(p): 1 for p in itertools.combinations(range(4), 2)})
    # and nobody holds one seat more than twice in the three rounds
    seats = Counter((p, s) for r in cycle for s, p in enumerate(r.tables[0]))
    assert max(seats.values()) <= 2


@settings(max_examples=25, deadline=None)
@given(n=st.integers(5, 12), double=st.booleans())
def test_karuselis_round_robin_partners_rotate_at_every_table(n, double):
    # given a Karuselis round robin at four-seat tables
    rounds = pairing.round_robin(n, seats=4, min_seats=2, double=double, sides=KARUSELIS)
    plain = pairing.round_robin(n, seats=4, min_seats=2, double=double)
    # then the same tables as without partnerships (only the seating changes)
    assert [sorted(map(sorted, r.tables)) for r in rounds] == [sorted(map(sorted, r.tables)) for r in plain]
    # and each four-seat table's partners are a split with the fewest repeat partnerships at that moment
    partnered: Counter = Counter()
    for r in rounds:
        for t in r.tables:
            if len(t) != 4:
                continue
            repeats = sum(partnered[p] for p in _partners(t))
            splits = [_partners((a, b, c, d)) for a, b, c, d in [(t[0], t[1], t[2], t[3]), (t[0], t[2], t[1], t[3]),
                                                              (t[0], t[1], t[3], t[2])]]
            assert repeats == min(sum(partnered[p] for p in s) for s in splits)
            partnered.update(_partners(t))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 13), rounds=st.integers(1, 5), data=st.data())
def test_a_karuselis_swiss_avoids_repeat_partners_where_the_table_allows(n, rounds, data):
    # given a Swiss at four-seat Karuselis tables, results drawn by Hypothesis
    history = {i: {"score": 0, "opponents": [], "byes": 0, "seats": [], "partners": []} for i in range(n)}
    for _ in range(rounds):
        order = sorted(range(n), key=lambda i: (-history[i]["score"], i))
        field = [Contender(i, history[i]["score"], tuple(history[i]["opponents"]), history[i]["byes"],
                           tuple(history[i]["seats"]), tuple(history[i]["partners"])) for i in order]
        # when
        p = pairing.swiss_tables(field, 4, 2, sides=KARUSELIS)
        # then at every four-seat table, the partners are the split with the fewest repeat partnerships
        for t in p.tables:
            if len(t) == 4:
                before = Counter(frozenset((a, b)) for a in t for b in history[a]["partners"] if a < b)
                chosen = sum(before[x] for x in _partners(t))
                a, b, c, d = t
                assert chosen == min(sum(before[x] for x in _partners(s))
                                     for s in [(a, b, c, d), (a, c, b, d), (a, b, d, c)])
            for s, player in enumerate(t):
                history[player]["seats"].append(s)
                history[player]["opponents"] += [q for q in t if q != player]
            for x, y in pairing.partner_pairs(t, (0, 1, 0, 1) if len(t) == 4 else None):
                history[x]["partners"].append(y)
                history[y]["partners"].append(x)
            winner = data.draw(st.sampled_from(t))
            history[winner]["score"] += 3
        for x in p.byes:
            history[x]["byes"] += 1


@pytest.fixture
def karuselis(club):
    return services.league_create(club_id=club.pk, name="Karuselis league", game="karuselis",
                                  options={"deck": "small", "target": 15})


def _played_partners(tournament: Tournament) -> list[set[frozenset]]:
    out = []
    for rnd in Round.objects.filter(tournament=tournament).order_by("number"):
        partners = set()
        for table in Table.objects.filter(round=rnd, kind=Table.Kind.MATCH):
            seats = list(TableSeat.objects.filter(table=table).order_by("match_seat")
                         .values_list("entrant_id", "match_seat"))
            if len(seats) == 4:
                partners |= {frozenset((a, b)) for (a, sa), (b, sb) in itertools.combinations(seats, 2)
                             if sa % 2 == sb % 2}
        out.append(partners)
    return out


def test_a_karuselis_round_robin_of_four_plays_three_rounds_with_new_partners_each(karuselis):
    from tests.league.conftest import make_tournament

    # given four bots in a Karuselis round robin at one four-seat table
    tournament = make_tournament(karuselis, format="round_robin", players=4, seats=4)
    # when it is played
    services.tournament_run(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    # then three rounds, and each player partners each other player once
    assert tournament.rounds == 3 and tournament.status == Tournament.Status.FINISHED
    rounds = _played_partners(tournament)
    assert all(len(r) == 2 for r in rounds)
    assert Counter(p for r in rounds for p in r) == Counter(
        {frozenset(p): 1 for p in itertools.combinations(tournament.entrants.values_list("pk", flat=True), 2)})


def test_a_karuselis_swiss_changes_partners_from_round_to_round(karuselis):
    from tests.league.conftest import make_tournament

    # given four bots in a three-round Karuselis Swiss at one four-seat table
    tournament = make_tournament(karuselis, format="swiss", players=4, seats=4, rounds=3)
    # when it is played
    services.tournament_run(tournament_id=tournament.pk)
    # then no two players partner twice (three rounds, three ways to split four players)
    rounds = _played_partners(tournament)
    assert len(rounds) == 3
    assert max(Counter(p for r in rounds for p in r).values()) == 1
