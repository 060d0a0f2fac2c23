"""Tables an organiser can check by hand: partners as a side, FIDE's virtual opponent for
rounds without an opponent, head-to-head only among players who all met, points comparable across
table sizes, exact shared places, withdrawals counted as they happened, shared rating positions, and
every rule stated on the tournament page."""
from __future__ import annotations

import csv
import io
import itertools
from fractions import Fraction

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from league import services
from league.models import Entrant, League, Rating, Round, Standing, Table, TableSeat
from league.rules.scoring import Rules, SeatIn, sides_of, table_scores
from league.rules.tiebreaks import Entry, Sitting, head_to_head, rank_entries, tie_break_values
from league.selectors import players, rounds, standings
from tests.league.conftest import make_tournament

F = Fraction


def _run_round(tournament, number):
    """Start round ``number`` (paired) and play its tables to the end."""
    rnd = Round.objects.get(tournament=tournament, number=number)
    services.round_start(round_id=rnd.pk)
    for table in rnd.tables.all():
        services.table_run(table_id=table.pk)


@pytest.fixture
def karuselis(club):
    return services.league_create(club_id=club.pk, name="Karuselis league", game="karuselis",
                                  options={"deck": "small", "target": 15})


# ---------------------------------------------------------------------------
# Partners are one side
# ---------------------------------------------------------------------------

def test_partners_score_as_one_side_and_a_sides_win_is_a_win():
    # given a four-seat Karuselis match won by seats 0 and 2 (one partnership) against 1 and 3
    assert sides_of("karuselis", 4) == (0, 1, 0, 1) and sides_of("livol", 4) == (0, 1, 2, 3)
    seats = [SeatIn(10 + i, i, False, side) for i, side in enumerate(sides_of("karuselis", 4))]
    result = {"ranking": [[0, 2], [1, 3]], "scores": [31, 12, 31, 12]}
    # when the table is scored
    scores = table_scores(kind="match", seats=seats, result=result, rules=Rules(two_seat=False))
    # then both winners win (first of two places: the win points), both losers lose; nobody "draws"
    assert [(s.place, s.points, s.result) for s in scores] == [
        (1, 3, "win"), (2, 0, "loss"), (1, 3, "win"), (2, 0, "loss")]


def test_a_partner_is_never_an_opponent_in_buchholz_sonneborn_berger_or_head_to_head():
    """Seats 0+2 (players 1 and 3) beat seats 1+3 (players 2 and 4) at one table; each player has
    played only this round. Points: 1 and 3 have 3, 2 and 4 have 0.

    By hand: player 1's opponents are 2 and 4 (not 3, the partner): Buchholz = mean(0, 0) = 0,
    Sonneborn–Berger = mean(0 × 1, 0 × 1) = 0. Player 2's opponents are 1 and 3: Buchholz =
    mean(3, 3) = 3, SB = mean(3 × 0, 3 × 0) = 0. Partners 1 and 3 are tied and never met as
    opponents: head-to-head decides nothing between them (no "draw")."""
    table = [Sitting(1, 1, 0), Sitting(2, 2, 1), Sitting(3, 1, 0), Sitting(4, 2, 1)]
    entries = {1: Entry(1, 1, F(3)), 2: Entry(2, 2, F(0)), 3: Entry(3, 3, F(3)), 4: Entry(4, 4, F(0))}
    values = tie_break_values(entries, [table])
    assert {e: (v["buchholz"], v["sonneborn_berger"]) for e, v in values.items()} == {
        1: (0, 0), 2: (3, 0), 3: (0, 0), 4: (3, 0)}
    assert head_to_head({1, 3}, [table], 3, 1, 0) is None
    assert head_to_head({1, 2}, [table], 3, 1, 0) == {1: 3, 2: 0}


def test_a_karuselis_partnership_wins_as_a_side_in_a_real_tournament_and_is_rated_as_a_team(karuselis):
    from openskill.models import PlackettLuce

    # given four bots at one four-seat Karuselis table (two partnerships)
    tournament = make_tournament(karuselis, format="swiss", players=4, seats=4, rounds=1)
    # when the one-round tournament is played
    services.tournament_run(tournament_id=tournament.pk)
    table = Table.objects.get(round__tournament=tournament)
    match = table.match
    seat_of = dict(table.seats.values_list("entrant_id", "match_seat"))
    winners = {e for e, seat in seat_of.items() if seat in match.result["ranking"][0]}
    # then the winning side's two players each won (3 points, "W" 1, "D" 0) and the others lost
    assert len(winners) == 2 and len(match.result["ranking"]) == 2
    rows = {r["entrant_id"]: r for r in standings.standings(tournament)["rows"]}
    for entrant, row in rows.items():
        won = entrant in winners
        assert (row["wins"], row["draws"], row["losses"]) == ((1, 0, 0) if won else (0, 0, 1))
        assert Standing.objects.get(entrant_id=entrant).points == (3 if won else 0)
        # Buchholz: the mean of the two opponents' points, never the partner's
        assert row["raw"]["buchholz"] == (0 if won else 3)
    # and openskill rated the two partnerships as teams of two
    model = PlackettLuce()
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    (win_a, _win_b), (lose_a, _lose_b) = model.rate(teams, ranks=[1, 2])
    for entrant, row in rows.items():
        rating = Rating.objects.get(player_id=row["player_id"], game="karuselis")
        expected = win_a if entrant in winners else lose_a
        assert (rating.mu, rating.sigma) == pytest.approx((expected.mu, expected.sigma))


# ---------------------------------------------------------------------------
# Rounds without an opponent: FIDE's virtual opponent
# ---------------------------------------------------------------------------

A, B, C, D, E = 1, 2, 3, 4, 5
# A two-seat Swiss of five, 3/1/0 and a bye worth 3 (a win):
#   round 1: A beat B, C drew D, E had the bye
#   round 2: A beat C, E beat B, D had the bye
#   round 3: A drew E, D beat B, C had the bye
ROUNDS = [
    [[Sitting(A, 1), Sitting(B, 2)], [Sitting(C, 1), Sitting(D, 1)], [Sitting(E, None, played=False, result=F(1))]],
    [[Sitting(A, 1), Sitting(C, 2)], [Sitting(E, 1), Sitting(B, 2)], [Sitting(D, None, played=False, result=F(1))]],
    [[Sitting(A, 1), Sitting(E, 1)], [Sitting(D, 1), Sitting(B, 2)], [Sitting(C, None, played=False, result=F(1))]],
]
TABLES = [t for r in ROUNDS for t in r]
POINTS = {A: 7, B: 0, C: 4, D: 7, E: 7}
ENTRIES = [Entry(e, e, F(p)) for e, p in POINTS.items()]


def test_buchholz_and_sonneborn_berger_count_a_bye_as_a_game_against_a_virtual_opponent():
    """FIDE's tie-break regulations (2023): a round without an opponent counts as a game against a
    virtual opponent who has the player's own points, with the round's result (a bye worth a win: 1).

    Points: A 3+3+1 = 7, B 0, C 1+0+3 = 4, D 1+3+3 = 7, E 3+3+1 = 7.
    Buchholz (the opponents' points, one per round):
      A: B 0 + C 4 + E 7 = 11;  D: C 4 + virtual 7 + B 0 = 11;  E: virtual 7 + B 0 + A 7 = 14.
    Sonneborn–Berger (opponent's points × 1 won, ½ drawn, 0 lost):
      A: 0×1 + 4×1 + 7×½ = 7.5;  D: 4×½ + 7×1 (the bye) + 0×1 = 9;  E: 7×1 (the bye) + 0×1 + 7×½ = 10.5.
    Without the virtual opponent (the league's "none"): Buchholz A 11, D 4, E 7; SB A 7.5, D 2, E 3.5.
    So by points, Buchholz, SB: E (14), D (11, SB 9), A (11, SB 7.5) — and without: A, E, D."""
    by_id = {e.id: e for e in ENTRIES}
    virtual = tie_break_values(by_id, TABLES)
    assert {e: virtual[e]["buchholz"] for e in (A, D, E)} == {A: 11, D: 11, E: 14}
    assert {e: virtual[e]["sonneborn_berger"] for e in (A, D, E)} == {A: F(15, 2), D: 9, E: F(21, 2)}
    none = tie_break_values(by_id, TABLES, unplayed="none")
    assert {e: none[e]["buchholz"] for e in (A, D, E)} == {A: 11, D: 4, E: 7}
    assert {e: none[e]["sonneborn_berger"] for e in (A, D, E)} == {A: F(15, 2), D: 2, E: F(7, 2)}
    order = ["match_points", "buchholz", "sonneborn_berger"]
    assert [r.id for r in rank_entries(ENTRIES, TABLES, order)][:3] == [E, D, A]
    assert [r.id for r in rank_entries(ENTRIES, TABLES, order, unplayed="none")][:3] == [A, E, D]


def test_a_forfeit_is_a_round_without_an_opponent_not_a_game_against_the_absent_player():
    """A beat B over the board; C won by forfeit against D (D withdrew), so C met nobody that round.
    Points: A 3, B 0, C 3, D 0. C's Buchholz: a virtual opponent with C's own 3 points (not D's 0);
    SB: 3 × 1 (a forfeit won) = 3. A's Buchholz: B's 0."""
    tables = [[Sitting(A, 1), Sitting(B, 2)],
              [Sitting(C, 1, played=False, result=F(1)), Sitting(D, 2, played=False, result=F(0))]]
    entries = {e.id: e for e in [Entry(A, 1, F(3)), Entry(B, 2, F(0)), Entry(C, 3, F(3)), Entry(D, 4, F(0))]}
    values = tie_break_values(entries, tables)
    assert (values[C]["buchholz"], values[C]["sonneborn_berger"]) == (3, 3)
    assert (values[A]["buchholz"], values[A]["sonneborn_berger"]) == (0, 0)
    assert head_to_head({C, D}, tables, 3, 1, 0) is None


def test_a_swiss_bye_receiver_keeps_a_virtual_opponent_in_the_standings(league):
    # given a three-player two-seat Swiss of two rounds (one bye a round), the league's default rule
    tournament = services.tournament_run(tournament_id=make_tournament(league, players=3, rounds=2).pk)
    points = {s.entrant_id: s.points for s in Standing.objects.filter(tournament=tournament)}
    rows = {r["entrant_id"]: r for r in standings.standings(tournament)["rows"]}
    # then each player's Buchholz is the opponents' points plus their own for the round of their bye
    for entrant, row in rows.items():
        expected = Fraction(0)
        for seat in TableSeat.objects.filter(entrant_id=entrant).select_related("table"):
            others = seat.table.seats.exclude(entrant_id=entrant)
            expected += points[others.get().entrant_id] if others.exists() else points[entrant]
        assert row["raw"]["buchholz"] == expected, row
    assert sum(row["byes"] for row in rows.values()) == 2
    assert League.objects.get(pk=league.pk).unplayed_rounds == League.UnplayedRounds.VIRTUAL


# ---------------------------------------------------------------------------
# Head-to-head only when every two of the tied players met
# ---------------------------------------------------------------------------

def test_head_to_head_decides_only_when_every_two_of_the_tied_players_met():
    """A, B and C are tied on 3 points. A beat B, B beat C, and A and C never met: head-to-head
    (FIDE's direct encounter) does not apply, and Buchholz decides. Between A and B alone, who met,
    it does: A took 3 from B."""
    tables = [[(A, 1), (B, 2)], [(B, 1), (C, 2)], [(C, 1), (D, 2)], [(A, 2), (D, 1)]]
    entries = [Entry(A, 1, F(3)), Entry(B, 2, F(3)), Entry(C, 3, F(3)), Entry(D, 4, F(3))]
    assert head_to_head({A, B, C}, tables, 3, 1, 0) is None
    assert head_to_head({A, B}, tables, 3, 1, 0) == {A: 3, B: 0}
    # D beat A and lost to C, so all four tied on 3; A, B, C, D never all met: Buchholz decides alone
    ranked = rank_entries(entries, tables, ["match_points", "head_to_head", "buchholz"])
    assert all(r.values["head_to_head"] is None for r in ranked)
    assert [r.position for r in ranked] == [1, 1, 1, 1]   # everybody's opponents have 3 points


@st.composite
def _rounds_of_meetings(draw):
    """A few two-seat tables among players 1..6 (who met whom, who finished above)."""
    pairs = draw(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6), st.sampled_from([(1, 2), (2, 1), (1, 1)]))
                          .filter(lambda t: t[0] != t[1]), max_size=10))
    return [[(a, pa), (b, pb)] for a, b, (pa, pb) in pairs]


@settings(max_examples=80, deadline=None)
@given(tables=_rounds_of_meetings(), group=st.sets(st.integers(1, 6), min_size=2, max_size=4))
def test_head_to_head_applies_exactly_when_every_two_of_the_group_met(tables, group):
    met = {frozenset((a, b)) for (a, _pa), (b, _pb) in tables}
    everyone_met = all(frozenset(pair) in met for pair in itertools.combinations(group, 2))
    values = head_to_head(group, tables, 3, 1, 0)
    assert (values is not None) == everyone_met
    if values is not None:   # 3 + 0 for a decided meeting, 1 + 1 for a draw: each meeting hands out 3 or 2
        inside = [t for t in tables if {t[0][0], t[1][0]} <= group]
        assert sum(values.values()) == sum(3 if pa != pb else 2 for (_a, pa), (_b, pb) in inside)


@settings(max_examples=60, deadline=None)
@given(ranking=st.permutations([0, 1]), tie=st.booleans(), points=st.lists(st.integers(0, 9), min_size=4, max_size=4))
def test_partners_always_share_place_points_and_result_and_never_meet(ranking, tie, points):
    # any outcome of a four-seat Karuselis table: side 0 (seats 0, 2) against side 1 (seats 1, 3)
    by_side = [[0, 2], [1, 3]]
    groups = [by_side[0] + by_side[1]] if tie else [by_side[ranking[0]], by_side[ranking[1]]]
    seats = [SeatIn(10 + i, i, False, side) for i, side in enumerate(sides_of("karuselis", 4))]
    scores = table_scores(kind="match", seats=seats, result={"ranking": groups, "scores": [5] * 4},
                          rules=Rules(two_seat=False))
    for a, b in ([0, 2], [1, 3]):
        assert (scores[a].place, scores[a].points, scores[a].result) == (scores[b].place, scores[b].points,
                                                                         scores[b].result)
    assert sorted(s.result for s in scores) == (["draw"] * 4 if tie else ["loss", "loss", "win", "win"])
    # and a partner never counts as an opponent
    table = [Sitting(10 + i, s.place, s.side) for i, s in enumerate(scores)]
    entries = {10 + i: Entry(10 + i, i, F(p)) for i, p in enumerate(points)}
    values = tie_break_values(entries, [table])
    for me in range(4):
        opponents = [o for o in range(4) if o % 2 != me % 2]
        assert values[10 + me]["buchholz"] == F(sum(points[o] for o in opponents), 2)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 10), cuts=st.lists(st.integers(1, 9), max_size=9),
       custom=st.one_of(st.just(()), st.lists(st.integers(0, 12), min_size=2, max_size=6)))
def test_tied_places_share_exactly_what_the_places_give(n, cuts, custom):
    # any table of n places split into tied groups, with the default points or a league's own list
    rules = Rules(two_seat=False, place_points=tuple(sorted(custom, reverse=True)))
    bounds = sorted({c for c in cuts if c < n})
    groups, start = [], 0
    for end in bounds + [n]:
        groups.append(list(range(start, end)))
        start = end
    scores = table_scores(kind="match", seats=[SeatIn(i, i, False) for i in range(n)],
                          result={"ranking": groups, "scores": [0] * n}, rules=rules)
    # each group's shares add up exactly to its places' points (a two-way tie of two places: a draw each)
    for group in groups:
        share = sum((scores[i].points for i in group), F(0))
        places = sum(rules.by_place(n)[group[0]:group[-1] + 1], F(0))
        assert share == (2 * rules.draw if n == 2 and len(group) == 2 and not rules.uses_list else places)
    if not rules.uses_list:   # first the win points, last the loss points, evenly spaced, at every size
        by_place = rules.by_place(n)
        assert by_place[0] == 3 and by_place[-1] == 0
        assert len({a - b for a, b in zip(by_place, by_place[1:])}) == 1


# ---------------------------------------------------------------------------
# Points comparable across table sizes; shared places exact
# ---------------------------------------------------------------------------

def test_a_win_is_worth_the_same_at_every_table_size():
    rules = Rules(two_seat=False)      # 3 for a win, 1 for a draw, 0 for a loss
    assert rules.by_place(4) == [3, 2, 1, 0]
    assert rules.by_place(3) == [3, F(3, 2), 0]
    assert rules.by_place(2) == [3, 0]
    # the league's own list is for a full table; a smaller one takes it in proportion
    custom = Rules(two_seat=False, place_points=(5, 3, 2, 0))
    assert custom.by_place(4) == [5, 3, 2, 0] and custom.by_place(3) == [5, F(5, 2), 0] and custom.by_place(2) == [5, 0]
    # and Buchholz counts one value per round: at a table of three, the mean of the two opponents
    tables = [[(A, 1), (B, 2), (C, 3)], [(A, 2), (D, 1)]]
    entries = {e.id: e for e in [Entry(A, 1, F(4)), Entry(B, 2, F(2)), Entry(C, 3, F(0)), Entry(D, 4, F(6))]}
    assert tie_break_values(entries, tables)[A]["buchholz"] == F(2 + 0, 2) + 6


def test_three_players_sharing_places_take_exact_shares_that_add_up():
    # given a four-seat table with the league's points 5, 3, 2, 0 and three players tied first
    rules = Rules(two_seat=False, place_points=(5, 3, 2, 0))
    seats = [SeatIn(i, i, False) for i in range(4)]
    scores = table_scores(kind="match", seats=seats, result={"ranking": [[0, 1, 2], [3]], "scores": [9, 9, 9, 1]},
                          rules=rules)
    # then each takes exactly 10/3, and the three shares add up to 5 + 3 + 2
    assert [s.points for s in scores] == [F(10, 3)] * 3 + [0]
    assert sum(s.points for s in scores[:3]) == 10


def test_shared_places_stay_exact_in_the_standings_the_page_the_csv_and_the_api(league, client):
    # given a four-seat LIVOL tournament with points 5, 3, 2, 0 whose one match had three players tied first
    league.place_points = [5, 3, 2, 0]
    league.save()
    tournament = services.tournament_run(tournament_id=make_tournament(league, players=4, seats=4, rounds=1).pk)
    match = Table.objects.get(round__tournament=tournament).match
    match.result = {"ranking": [[0, 1, 2], [3]], "scores": [0, 0, 0, 40]}
    match.save(update_fields=["result"])
    # when the standings are folded again from the results
    services.projections_rebuild()
    # then the three shares are exact and add up to the places' 10 points
    points = sorted(Standing.objects.filter(tournament=tournament).values_list("points", flat=True))
    assert points == [0, F(10, 3), F(10, 3), F(10, 3)] and sum(points) == 10
    # and the page shows 3.33 with the exact value in the title; the CSV gives it exactly
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'title="10/3">3.33<' in page
    rows = list(csv.reader(io.StringIO(client.get(f"/tournaments/{tournament.pk}/standings.csv").content.decode())))
    column = rows[0].index("match_points")
    assert sorted(r[column] for r in rows[1:]) == ["0", "10/3", "10/3", "10/3"]
    # and so does the API
    api = client.get(f"/api/league/tournaments/{tournament.pk}/standings").json()
    assert sorted(r["tie_breaks"]["match_points"] for r in api["rows"]) == ["0", "10/3", "10/3", "10/3"]


# ---------------------------------------------------------------------------
# Withdrawals
# ---------------------------------------------------------------------------

def test_a_round_robin_rest_after_withdrawing_is_no_forfeit(league):
    # given a five-player round robin (one player rests each round), round 1 played, round 2 paired
    tournament = make_tournament(league, format="round_robin", players=5, auto_advance=False)
    services.round_pair(tournament_id=tournament.pk)
    _run_round(tournament, 1)
    tournament.refresh_from_db()
    # a player whose rest is still to come (round 3 or later) withdraws
    rests = {f["number"]: f["rests"] for f in rounds.tournament_fixtures(tournament)}
    name = next(names[0] for number, names in sorted(rests.items()) if number >= 3 and names)
    leaver = Entrant.objects.get(tournament=tournament, player__name=name)
    services.entrant_withdraw(entrant_id=leaver.pk)
    # when the tournament is played to the end
    services.tournament_run(tournament_id=tournament.pk)
    # then the leaver has one forfeit for each of the 3 matches missed (rounds 2 to 5 but the rest)
    missed = TableSeat.objects.filter(entrant=leaver, table__kind=Table.Kind.MATCH, forfeited=True)
    rest = TableSeat.objects.get(entrant=leaver, table__kind=Table.Kind.BYE)
    standing = Standing.objects.get(entrant=leaver)
    assert missed.count() == 3 and standing.forfeits == 3
    # and the rest scored nothing, was no forfeit and no bye taken
    assert rest.table.round.number >= 3 and rest.points == 0 and standing.byes == 0


def test_a_withdrawn_players_bye_scores_nothing_and_is_no_forfeit(league, client):
    # given a five-player Swiss: round 1 played, round 2 paired with a bye
    tournament = make_tournament(league, players=5, rounds=2, auto_advance=False)
    services.round_pair(tournament_id=tournament.pk)
    _run_round(tournament, 1)
    bye = Table.objects.get(round__tournament=tournament, round__number=2, kind=Table.Kind.BYE)
    leaver = bye.seats.get().entrant
    # when the player holding the bye withdraws and the round is played
    services.entrant_withdraw(entrant_id=leaver.pk)
    _run_round(tournament, 2)
    # then their bye scores nothing and is neither a bye taken nor a forfeit (no match was missed)
    seat = bye.seats.get()
    standing = Standing.objects.get(entrant=leaver)
    assert (seat.forfeited, seat.points, standing.byes, standing.forfeits) == (True, 0, 0, 0)
    # and everyone else played a match that round: nobody else needed the bye
    others = TableSeat.objects.filter(table__round__number=2, table__round__tournament=tournament).exclude(
        entrant=leaver)
    assert others.count() == 4 and all(s.table.kind == Table.Kind.MATCH and s.place for s in others)
    row = next(r for r in standings.standings(tournament)["rows"] if r["entrant_id"] == leaver.pk)
    assert row["note"] == "withdrew in round 2"
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "withdrawn</small>" in page


def test_a_knockout_player_out_in_round_1_withdraws_after_round_1(league):
    # given a four-player knockout whose round 1 is played and the final paired
    tournament = make_tournament(league, format="knockout", players=4, auto_advance=False)
    services.round_pair(tournament_id=tournament.pk)
    _run_round(tournament, 1)
    finalists = set(TableSeat.objects.filter(table__round__tournament=tournament, table__round__number=2)
                    .values_list("entrant_id", flat=True))
    out = Entrant.objects.filter(tournament=tournament).exclude(pk__in=finalists).first()
    # when a player knocked out in round 1 withdraws
    services.entrant_withdraw(entrant_id=out.pk)
    # then the page says they left after round 1 (the last round they played), not "in round 2"
    row = next(r for r in standings.standings(tournament)["rows"] if r["entrant_id"] == out.pk)
    assert row["note"] == "withdrew after round 1"


# ---------------------------------------------------------------------------
# The ratings list
# ---------------------------------------------------------------------------

def test_identical_ratings_share_a_position_on_the_ratings_list(db):
    # given three players, two of them with the same rating
    bots = [services.player_bot_create(name=f"Bot {i}", policy="greedy") for i in range(3)]
    for player, (mu, sigma) in zip(bots, [(30.0, 5.0), (30.0, 5.0), (25.0, 8.0)]):
        Rating.objects.create(player=player, game="livol", mu=mu, sigma=sigma, matches=3)
    # when the ratings list is read
    ratings = players.ratings_for_game("livol")
    # then the two equal ratings share first place, and the next is third
    assert [r["position"] for r in ratings] == [1, 1, 3]


# ---------------------------------------------------------------------------
# Every rule on the tournament page
# ---------------------------------------------------------------------------

def test_the_tournament_page_states_every_rule_an_organiser_needs_to_recompute_the_table(league, client):
    # given a two-seat Swiss (3/1/0, a bye worth 3) and the league's default rule for rounds without an opponent
    tournament = services.tournament_run(tournament_id=make_tournament(league, players=3, rounds=2).pk)
    page = " ".join(client.get(f"/tournaments/{tournament.pk}/").content.decode().split())
    # then the legend states the points per result, the bye's points, the virtual opponent, withdrawals,
    # each tie-break's definition and their order
    for sentence in ["A match: a win scores 3, a draw 1, a loss 0.",
                     "A bye (when the players do not fill the tables) scores 3, in a round without an opponent.",
                     "a game against a virtual opponent who has the player&#x27;s own match points",
                     "A withdrawn player is not paired again.",
                     "only when every two of the players still tied have met",
                     "Ties are broken column by column, in this order:"]:
        assert sentence in page, sentence
    # and a league choosing no opponent for such rounds says so
    league.unplayed_rounds = League.UnplayedRounds.NONE
    league.save()
    page = " ".join(client.get(f"/tournaments/{tournament.pk}/").content.decode().split())
    assert "adds nothing to Buchholz or Sonneborn–Berger" in page
    # a multi-seat tournament lists the points by place for every table size
    rules = standings.scoring_rules(make_tournament(league, players=4, seats=4))
    points = next(r["text"] for r in rules if r["key"] == "points")
    assert "4 places: 3, 2, 1, 0; 3 places: 3, 1.5, 0; 2 places: 3, 0" in points


def test_the_league_command_and_the_admin_choose_how_rounds_without_an_opponent_count(club, client, organiser):
    call_command("league_create", "--club", club.slug, "--name", "No virtual", "--game", "livol",
                 "--unplayed-rounds", "none", stdout=io.StringIO())
    assert League.objects.get(name="No virtual").unplayed_rounds == "none"
    page = client.get("/admin/league/league/add/").content.decode()
    assert 'name="unplayed_rounds"' in page
