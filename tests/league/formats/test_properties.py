"""Every format keeps its promises over many fields (odd and even, with withdrawals mid-event): every entrant
plays what the format promises, nobody meets twice where the format forbids it, a bracket advances the
right player, a bye goes at most once per player where the format says so, a double elimination puts a
player out only after two losses, a group stage's groups differ in size by one at most, an arena never
pairs the same opponents twice in a row, and a team match seats board i with each team's i-th player.

Driven through the pure format objects with a stand-in tournament (``Event``): no database."""
from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.formats import base
from league.formats.arena import arena_pairs
from league.formats.base import SeatedTable, Setup
from league.formats.double_elimination import FORMAT as DOUBLE
from league.formats.groups_knockout import FORMAT as GROUPS
from league.formats.team_match import FORMAT as TEAM_MATCH
from league.rules.pairing import Contender

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Event:
    """A tournament played by the rules of ``fmt`` without a database: tables are decided by a seeded coin
    (or by ``decide``), a withdrawn player forfeits every table they are seated at and is not paired again
    by the formats that pair from the standings."""

    def __init__(self, fmt, players: int, seats: int = 2, rounds=None, options=None, seed: int = 0,
                 withdraw: dict[int, int] | None = None, decide=None, forbidden=frozenset()):
        self.fmt, self.players = fmt, list(range(1, players + 1))
        self.forbidden = forbidden
        self.setup = Setup(seats=seats, min_seats=2, rounds=rounds, options=options or {}, forbidden=forbidden)
        self.rng = random.Random(seed)
        self.withdraw = withdraw or {}       # entrant → the round from which they are withdrawn
        self.decide = decide
        self.rounds: list[list[SeatedTable]] = []
        self.stage_of: dict[int, str] = {}
        self.points: Counter[int] = Counter()
        self.withdrawn: set[int] = set()

    # -- what a format asks (base.Field) ----------------------------------------------------------------
    def starters(self):
        return list(self.players)

    def contenders(self):
        history = defaultdict(list)
        byes = Counter()
        for tables in self.rounds:
            for t in tables:
                if t.bye:
                    byes[t.entrants[0]] += 1
                for a, b in itertools.permutations(t.entrants, 2):
                    history[a].append(b)
        active = [p for p in self.players if p not in self.withdrawn]
        active.sort(key=lambda p: (-self.points[p], p))
        return [Contender(p, self.points[p], tuple(history[p]), byes[p]) for p in active]

    def winners(self, number):
        tables = {t.number: t.winner for t in self.rounds[number - 1]}
        return [tables.get(i) for i in range(1, max(tables, default=0) + 1)]

    def last_rounds(self):
        return {e: n for n, tables in enumerate(self.rounds, start=1) for t in tables for e in t.entrants}

    def seated(self, number):
        return list(self.rounds[number - 1])

    def round_stages(self):
        return dict(self.stage_of)

    def ranking(self, entrants, stage):
        won = Counter(t.winner for tables in self.rounds for t in tables if t.stage == stage and not t.bye)
        return sorted(entrants, key=lambda e: (-won[e], e))

    # -- playing --------------------------------------------------------------------------------------
    def _winner(self, entrants):
        present = [e for e in entrants if e not in self.withdrawn]
        if not present:
            return None
        if self.decide is not None:
            return self.decide(present, len(self.rounds) + 1)
        return self.rng.choice(present)

    def play(self, limit: int = 200) -> Event:
        planned = self.fmt.planned_rounds(self.setup, len(self.players))
        self.setup = Setup(seats=self.setup.seats, min_seats=2, rounds=planned, options=self.setup.options,
                           forbidden=self.forbidden)
        for number in range(1, planned + 1):
            self.withdrawn |= {p for p, r in self.withdraw.items() if r <= number}
            seatings = self.fmt.pair(number, self.setup, self)
            if seatings is None:
                break
            assert len({s.number for s in seatings}) == len(seatings), "two tables of a round share a number"
            assert len({e for s in seatings for e in s.entrants}) == sum(len(s.entrants) for s in seatings)
            tables = []
            for s in seatings:
                winner = self._winner(s.entrants)
                if winner is not None:
                    self.points[winner] += 2
                tables.append(SeatedTable(s.stage, s.number, s.entrants, winner, s.bye))
            self.rounds.append(tables)
            self.stage_of[number] = self.fmt.round_stage(number, seatings)
            assert number < limit
        return self

    # -- reading back ----------------------------------------------------------------------------------
    def meetings(self, stage=None) -> Counter:
        return Counter(frozenset(pair) for tables in self.rounds for t in tables if not t.bye
                       and (stage is None or t.stage == stage) for pair in itertools.combinations(t.entrants, 2))

    def byes(self) -> Counter:
        return Counter(t.entrants[0] for tables in self.rounds for t in tables if t.bye)

    def seated_in(self, number) -> set[int]:
        return {e for t in self.rounds[number - 1] for e in t.entrants}


sizes = st.integers(min_value=2, max_value=24)


def withdrawals(players: int, data) -> dict[int, int]:
    """Up to two players withdrawing after round 1 or later."""
    count = data.draw(st.integers(min_value=0, max_value=min(2, players - 2)), label="withdrawing")
    who = data.draw(st.lists(st.sampled_from(range(1, players + 1)), min_size=count, max_size=count, unique=True),
                    label="who")
    return {p: data.draw(st.integers(min_value=2, max_value=6), label=f"round of {p}") for p in who}


# -- round robin, double round robin, league season ---------------------------------------------------------

@FAST
@given(players=sizes, data=st.data())
@pytest.mark.parametrize("name, times", [("round_robin", 1), ("double_round_robin", 2), ("league", 2)])
def test_in_a_round_robin_every_pair_meets_as_often_as_the_schedule_says(name, times, players, data):
    event = Event(base.get(name), players, withdraw=withdrawals(players, data)).play()
    # a withdrawn player keeps their seats (forfeited), so every pair is seated together the promised times
    assert event.meetings() == {frozenset(p): times for p in itertools.combinations(event.players, 2)}
    assert len(event.rounds) == event.setup.rounds


@FAST
@given(players=sizes)
@pytest.mark.parametrize("name, times", [("round_robin", 1), ("double_round_robin", 2)])
def test_in_a_round_robin_of_an_odd_field_everyone_rests_once_per_cycle(name, times, players):
    event = Event(base.get(name), players).play()
    expected = times if players % 2 else 0
    assert all(event.byes()[p] == expected for p in event.players)


@settings(max_examples=8, deadline=None)
@given(players=st.integers(min_value=3, max_value=9))
def test_a_round_robin_at_tables_of_three_seats_every_pair_at_least_once(players):
    event = Event(base.get("round_robin"), players, seats=3).play()
    assert all(event.meetings()[frozenset(p)] >= 1 for p in itertools.combinations(event.players, 2))


# -- Swiss -------------------------------------------------------------------------------------------------

@FAST
@given(players=sizes, rounds=st.integers(min_value=1, max_value=5), data=st.data())
def test_in_swiss_nobody_meets_twice_and_a_bye_goes_once_while_the_field_allows(players, rounds, data):
    withdraw = withdrawals(players, data)
    event = Event(base.get("swiss"), players, rounds=rounds, withdraw=withdraw).play()
    active_end = players - len(withdraw)
    if rounds < active_end - 1:
        # fewer rounds than a round robin needs: a pairing without a repeat exists, and Swiss finds it
        assert max(event.meetings().values(), default=1) == 1
    if rounds <= active_end:
        assert max(event.byes().values(), default=0) <= 1
    for number, _tables in enumerate(event.rounds, start=1):
        withdrawn = {p for p, r in withdraw.items() if r <= number}
        # everybody still in is seated every round, the withdrawn are not paired again
        assert event.seated_in(number) == set(event.players) - withdrawn


# -- knockout ------------------------------------------------------------------------------------------------

@FAST
@given(players=sizes, data=st.data())
def test_a_knockout_advances_each_tables_winner_and_ends_with_one_champion(players, data):
    event = Event(base.get("knockout"), players, withdraw=withdrawals(players, data)).play()
    for before, after in itertools.pairwise(event.rounds):
        winners = [t.winner for t in sorted(before, key=lambda t: t.number)]
        seated_next = [e for t in sorted(after, key=lambda t: t.number) for e in t.entrants]
        assert seated_next == [w for w in winners if w is not None]
    assert len(event.rounds[-1]) == 1
    assert max(event.meetings().values(), default=1) == 1
    # byes in round 1 only (to the top seeds), unless a table had nobody to send on (both players withdrawn)
    for before, after in itertools.pairwise(event.rounds):
        if any(t.bye for t in after):
            assert any(t.winner is None for t in before)


# -- groups then play-offs ----------------------------------------------------------------------------------

group_options = st.fixed_dictionaries({"group_size": st.integers(min_value=2, max_value=6),
                                       "advance": st.integers(min_value=1, max_value=2)})


@FAST
@given(players=st.integers(min_value=3, max_value=24), options=group_options, data=st.data())
def test_groups_differ_in_size_by_one_at_most_and_hold_every_seed_once(players, options, data):
    groups = GROUPS.groups(Setup(options=options), list(range(1, players + 1)))
    sizes_ = [len(m) for _name, m in groups]
    assert max(sizes_) - min(sizes_) <= 1 and max(sizes_) <= options["group_size"]
    assert sorted(p for _n, m in groups for p in m) == list(range(1, players + 1))
    # snaked: the first row holds seeds 1..G, one in each group
    assert sorted(m[0] for _n, m in groups) == list(range(1, len(groups) + 1))


@FAST
@given(players=st.integers(min_value=4, max_value=24), options=group_options, data=st.data())
def test_groups_play_a_round_robin_then_the_best_of_each_go_through_crossed(players, options, data):
    withdraw = withdrawals(players, data)
    event = Event(GROUPS, players, options=options, withdraw=withdraw).play()
    groups = dict(GROUPS.groups(Setup(options=options), event.players))
    group_of = {p: name for name, members in groups.items() for p in members}
    # group stage: every pair of a group meets once, at a table of its group; nobody meets outside their group
    for name, members in groups.items():
        assert event.meetings(name) == {frozenset(p): 1 for p in itertools.combinations(members, 2)}
    group_rounds = [n for n, s in event.stage_of.items() if s == "groups"]
    playoff_rounds = [n for n, s in event.stage_of.items() if s == "playoffs"]
    assert group_rounds == list(range(1, len(group_rounds) + 1))
    if not playoff_rounds:
        return
    # the play-offs' players: the best `advance` still in of each group, by the group's ranking
    first = event.rounds[playoff_rounds[0] - 1]
    qualified = {e for t in first for e in t.entrants}
    withdrawn = {p for p, r in withdraw.items() if r <= playoff_rounds[0]}
    expected = set()
    for name, members in groups.items():
        expected |= set([e for e in event.ranking(members, name) if e not in withdrawn][:options["advance"]])
    assert qualified == expected
    # with two groups, the group winners meet the other group's runners-up first
    if len(groups) == 2 and options["advance"] == 2 and not withdrawn and len(first) == 2:
        assert all(group_of[t.entrants[0]] != group_of[t.entrants[1]] for t in first)
    # then a knockout: each table's winner goes on
    for a, b in itertools.pairwise(playoff_rounds):
        winners = [t.winner for t in sorted(event.rounds[a - 1], key=lambda t: t.number)]
        assert [e for t in sorted(event.rounds[b - 1], key=lambda t: t.number) for e in t.entrants] == \
            [w for w in winners if w is not None]


def test_two_groups_of_four_cross_a1_b2_and_b1_a2():
    # the better seed always wins
    event = Event(GROUPS, 8, options={"group_size": 4, "advance": 2}, decide=lambda present, _n: min(present)).play()
    groups = dict(GROUPS.groups(event.setup, event.players))
    assert groups == {"A": [1, 4, 5, 8], "B": [2, 3, 6, 7]}
    semi = event.rounds[3]
    assert [t.entrants for t in semi] == [(1, 3), (2, 4)]  # A1–B2, B1–A2
    assert event.rounds[-1][0].entrants == (1, 2)


# -- double elimination ----------------------------------------------------------------------------------------

@FAST
@given(players=sizes, reset=st.booleans(), data=st.data())
def test_double_elimination_puts_a_player_out_only_after_two_losses(players, reset, data):
    withdraw = withdrawals(players, data)
    event = Event(DOUBLE, players, options={"bracket_reset": reset}, withdraw=withdraw).play()
    losses: Counter[int] = Counter()
    out_after: dict[int, int] = {}
    for number, tables in enumerate(event.rounds, start=1):
        for t in tables:
            assert len(t.entrants) == (1 if t.bye else 2)
            assert all(p not in out_after for p in t.entrants), "a player out played on"
            if t.bye or t.winner is None:
                continue
            loser = next(e for e in t.entrants if e != t.winner)
            losses[loser] += 1
            if losses[loser] == 2:
                out_after[loser] = number
    state, _slots = DOUBLE.replay(event.setup, event.players, event, len(event.rounds))
    assert state.done
    champion = state.champion
    # everybody else is out: two losses each (or withdrawn, or out with one loss in a final without reset)
    for p in event.players:
        if p == champion or p in withdraw:
            continue
        if not reset and losses[p] == 1:
            last = event.rounds[-1][0]
            assert last.stage == "GF" and p in last.entrants
            continue
        assert losses[p] == 2, (p, losses)
    assert losses[champion] <= 1 if champion is not None else True
    # byes only in the winners' first round, to the top seeds, once each
    assert all(not t.bye for tables in event.rounds[1:] for t in tables)
    byes = event.byes()
    assert max(byes.values(), default=0) <= 1
    assert set(byes) == set(range(1, len(byes) + 1))


@FAST
@given(players=sizes, data=st.data())
def test_double_elimination_advances_each_tables_winner_in_the_winners_bracket(players, data):
    event = Event(DOUBLE, players, withdraw=withdrawals(players, data)).play()
    winners_rounds = [[t for t in tables if t.stage == "W"] for tables in event.rounds]
    winners_rounds = [r for r in winners_rounds if r]
    for before, after in itertools.pairwise(winners_rounds):
        # a table's loser leaves the winners' bracket; its winner goes on (or one passes an empty slot)
        losers = {e for t in before if not t.bye for e in t.entrants if e != t.winner}
        seated = {e for t in after for e in t.entrants}
        assert not seated & losers
        if not any(t.winner is None for t in before):
            assert seated <= {t.winner for t in before} | ({e for t in after for e in t.entrants}
                                                          - {e for t in before for e in t.entrants})


@FAST
@given(players=st.integers(min_value=8, max_value=24))
def test_double_elimination_losers_do_not_meet_again_when_they_drop(players):
    # the better seed always wins: every loser dropping into the losers' bracket meets somebody new
    event = Event(DOUBLE, players, decide=lambda present, _n: min(present)).play()
    before: set[frozenset] = set()
    for tables in event.rounds:
        stage = tables[0].stage
        pairs = {frozenset(t.entrants) for t in tables if not t.bye}
        if stage == "L" and len(tables) > 1:
            assert not pairs & before
        before |= pairs


@pytest.mark.parametrize("players", [6, 7])
def test_a_bracket_reset_is_played_when_the_losers_side_wins_the_first_final(players):
    def losers_side_wins_the_final(present, number):
        return max(present) if event.rounds and number == len(event.rounds) + 1 and _is_final(present) else min(present)

    def _is_final(present):
        state, slots = DOUBLE.replay(event.setup, event.players, event, len(event.rounds))
        return state.current() == ("GF", 1)

    event = Event(DOUBLE, players, options={"bracket_reset": True}, decide=losers_side_wins_the_final)
    event.play()
    finals = [t for tables in event.rounds for t in tables if t.stage == "GF"]
    assert len(finals) == 2 and finals[0].winner == 2 and finals[1].winner == 1
    no_reset = Event(DOUBLE, players, options={"bracket_reset": False}, decide=losers_side_wins_the_final)
    event = no_reset
    event.play()
    finals = [t for tables in event.rounds for t in tables if t.stage == "GF"]
    assert len(finals) == 1 and finals[0].winner == 2


@FAST
@given(groups=st.integers(min_value=2, max_value=6), size=st.integers(min_value=3, max_value=5))
def test_the_first_play_off_round_seats_no_two_players_of_one_group_at_two_seats(groups, size):
    event = Event(GROUPS, groups * size, options={"group_size": size, "advance": 2},
                  decide=lambda present, _n: min(present))
    event.play()
    group_of = {p: name for name, members in GROUPS.groups(event.setup, event.players) for p in members}
    first = event.rounds[[n for n, s in event.stage_of.items() if s == "playoffs"][0] - 1]
    assert all(group_of[t.entrants[0]] != group_of[t.entrants[1]] for t in first if not t.bye)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(min_value=6, max_value=14), data=st.data())
def test_groups_at_tables_of_three_play_the_round_robins_schedule_then_the_play_offs(players, data):
    event = Event(GROUPS, players, seats=3, options={"group_size": 5, "advance": 2},
                  withdraw=withdrawals(players, data)).play()
    groups = dict(GROUPS.groups(event.setup, event.players))
    for name, members in groups.items():
        met = event.meetings(name)
        assert all(met[frozenset(p)] >= 1 for p in itertools.combinations(members, 2))
        assert {p for pair in met for p in pair} <= set(members)
    assert "playoffs" in event.stage_of.values()


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=25, max_value=70), reset=st.booleans(), data=st.data())
def test_large_double_eliminations_and_groups_keep_their_promises(players, reset, data):
    withdraw = withdrawals(players, data)
    event = Event(DOUBLE, players, options={"bracket_reset": reset}, withdraw=withdraw, seed=players).play()
    state, _slots = DOUBLE.replay(event.setup, event.players, event, len(event.rounds))
    assert state.done
    assert all(state.losses.get(p, 0) >= 2 or p in withdraw or p == state.champion
               or (not reset and state.losses.get(p) == 1) for p in event.players)
    groups = Event(GROUPS, players, options={"group_size": 6, "advance": 2}, withdraw=withdraw).play()
    assert groups.stage_of[len(groups.rounds)] == "playoffs" and len(groups.rounds[-1]) == 1


@pytest.mark.parametrize("fmt, options, words", [
    (GROUPS, {"group_sise": 4}, "does not read the settings group_sise; it reads group_size, advance"),
    (GROUPS, {"group_size": 1}, "a group has 2 to 32 players"),
    (GROUPS, {"group_size": 4, "advance": 5}, "at most the group size (here 4)"),
    (GROUPS, {"advance": "two"}, "whole numbers"),
    (DOUBLE, {"bracket_reset": "yes"}, "true or false"),
    (DOUBLE, {"reset": True}, "does not read the settings reset"),
])
def test_each_format_refuses_settings_it_cannot_play_in_words(fmt, options, words):
    assert words in fmt.options_problem(options, 2)
    assert fmt.options_problem({}, 2) is None


def test_a_double_elimination_is_refused_at_tables_of_three():
    assert "tables of two" in DOUBLE.options_problem({}, 3)


# -- arena ----------------------------------------------------------------------------------------------------

@FAST
@given(players=st.integers(min_value=2, max_value=16), tables=st.integers(min_value=1, max_value=60),
       seed=st.integers(min_value=0, max_value=10_000))
def test_an_arena_pairs_only_free_players_never_the_same_opponent_twice_in_a_row(players, tables, seed):
    """Tables finish one at a time in a random order; each time, the free players are paired at once."""
    rng = random.Random(seed)
    opponents: dict[int, list[int]] = {p: [] for p in range(1, players + 1)}
    points: Counter[int] = Counter()
    playing: list[tuple[int, int]] = []
    for _ in range(tables):
        busy = {p for pair in playing for p in pair}
        free = sorted((p for p in opponents if p not in busy), key=lambda p: (-points[p], p))
        drawn = arena_pairs([Contender(p, points[p], tuple(opponents[p])) for p in free])
        seated = [p for pair in drawn for p in pair]
        # only free players are seated, each once
        assert len(seated) == len(set(seated)) and set(seated) <= set(free)
        # a player who waits could be paired with nobody free who did not just meet them
        waiting = [p for p in free if p not in seated]
        for p, q in itertools.combinations(waiting, 2):
            assert opponents[p][-1:] == [q] or opponents[q][-1:] == [p]
        for a, b in drawn:
            assert opponents[a][-1:] != [b] and opponents[b][-1:] != [a]
            opponents[a].append(b)
            opponents[b].append(a)
        playing += drawn
        if not playing:
            break
        # one table finishes
        a, b = playing.pop(rng.randrange(len(playing)))
        points[rng.choice((a, b))] += 2
    for p, met in opponents.items():
        assert all(x != y for x, y in itertools.pairwise(met)), f"{p} met the same opponent twice in a row"


# -- club team match ------------------------------------------------------------------------------------------

@FAST
@given(a=st.integers(min_value=1, max_value=10), b=st.integers(min_value=1, max_value=10),
       boards=st.one_of(st.none(), st.integers(min_value=1, max_value=10)))
def test_a_team_match_seats_board_i_with_each_teams_i_th_player(a, b, boards):
    home, away = list(range(1, a + 1)), list(range(100, 100 + b))

    class Teams:
        def teams(self):
            return [home, away]

    setup = Setup(seats=2, min_seats=2, options={} if boards is None else {"boards": boards})
    expected = boards if boards is not None else min(a, b)
    if expected > min(a, b):
        with pytest.raises(base.CannotPair):
            TEAM_MATCH.pair(1, setup, Teams())
        return
    tables = TEAM_MATCH.pair(1, setup, Teams())
    assert [t.number for t in tables] == list(range(1, expected + 1))
    for i, table in enumerate(tables):
        # board i seats each team's i-th player, the home player first on odd boards
        assert set(table.entrants) == {home[i], away[i]}
        assert table.entrants[0] == (home[i] if i % 2 == 0 else away[i])
    # one round: the match is its boards
    assert TEAM_MATCH.pair(2, setup, Teams()) is None


@FAST
@given(players=st.integers(min_value=4, max_value=24), data=st.data())
def test_double_elimination_keeps_a_forbidden_pair_apart_in_its_first_round_and_still_runs_to_one_champion(
        players, data):
    a, b = data.draw(st.lists(st.integers(min_value=1, max_value=players), min_size=2, max_size=2, unique=True))
    forbidden = frozenset({frozenset((a, b))})
    event = Event(DOUBLE, players, seed=data.draw(st.integers(0, 1000)), forbidden=forbidden).play()
    first = event.rounds[0]
    # a swap with another table of two keeps them apart; only with no other such table do they meet
    together = [t for t in first if {a, b} <= set(t.entrants)]
    assert not together or sum(1 for t in first if len(t.entrants) == 2) == 1
    # and every player still goes out only after two losses, one champion left
    losses = Counter(e for tables in event.rounds for t in tables if not t.bye and t.winner is not None
                     for e in t.entrants if e != t.winner)
    alive = [p for p in event.players if losses[p] < 2]
    assert len(alive) == 1
