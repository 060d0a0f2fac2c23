"""The six places where the published tables' rules could be read two ways, each stated on the pages (the
ratings list's legend, the standings' legend) and checked here against what the code does."""
from __future__ import annotations

from fractions import Fraction as F

from django.test import Client

from league import services
from league.models import League, Rating, Table, TableSeat, Tournament
from league.rules import pairing
from league.rules.pairing import Contender
from league.rules.scoring import Rules
from league.rules.tiebreaks import Entry, Sitting, tie_break_values
from league.selectors import players, standings
from tests.league.conftest import make_tournament


def _legend(tournament: Tournament) -> dict[str, str]:
    return {r["key"]: r["text"] for r in standings.scoring_rules(tournament)}


# (1) the ratings list ----------------------------------------------------------------------------------

def test_ratings_share_a_position_only_when_they_read_the_same_at_one_decimal_and_the_api_agrees(db):
    # given ratings of 4.12, 4.05 (both read 4.1), 4.15 (reads 4.2) and 3.96 (reads 4.0)
    for name, ordinal in [("A bot", 4.12), ("B bot", 4.05), ("C bot", 4.15), ("D bot", 3.96)]:
        bot = services.player_bot_create(name=name, policy="greedy")
        Rating.objects.create(player=bot, game="livol", mu=ordinal + 3, sigma=1.0, matches=5)
    # when the list is read on the page and from the API
    ratings = players.ratings_for_game("livol")
    api = Client().get("/api/league/ratings/livol").json()
    # then only what reads the same shares: 4.2 first, 4.1 and 4.1 second, 4.0 fourth
    assert [(r["name"], r["shown"], r["position"]) for r in ratings] == [
        ("C bot", "4.2", 1), ("A bot", "4.1", 2), ("B bot", "4.1", 2), ("D bot", "4.0", 4)]
    # and the API gives the same positions, the value shown and the exact rating
    assert [(r["name"], r["shown"], r["position"]) for r in api] == [
        (r["name"], r["shown"], r["position"]) for r in ratings]
    assert abs(api[1]["rating"] - 4.12) < 1e-9
    # and the page says so
    page = Client().get("/ratings/livol/").content.decode()
    assert "4.12 and 4.05 both read 4.1" in page


# (2) a withdrawal in a round robin ------------------------------------------------------------------

def test_a_player_withdrawn_from_a_round_robin_stays_seated_as_a_forfeit_in_the_rounds_already_scheduled(league):
    # given a round robin of four under the award rule, round 1 under way
    league.forfeit_rule = League.ForfeitRule.AWARD
    league.save()
    tournament = make_tournament(league, format="round_robin", players=4)
    services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=tournament.round_set.get().pk)
    gone = tournament.entrants.get(seed=1)
    # when they withdraw and the tournament is played out
    services.entrant_withdraw(entrant_id=gone.pk)
    services.tournament_run(tournament_id=tournament.pk)
    # then they still hold a seat in rounds 2 and 3, forfeited, and each opponent scores the win
    later = TableSeat.objects.filter(entrant=gone, table__round__number__gte=2)
    assert sorted(later.values_list("table__round__number", flat=True)) == [2, 3]
    assert all(s.forfeited and s.table.kind == Table.Kind.MATCH for s in later)
    for seat in later:
        assert seat.table.seats.exclude(pk=seat.pk).get().points == league.win_points
    # and the legend says it
    assert "not an empty seat" in _legend(tournament)["withdrawn_seated"]


# (3) Swiss: seats before score gaps -----------------------------------------------------------------

def test_swiss_pairs_across_a_score_gap_rather_than_give_anyone_one_seat_three_times_in_a_row():
    # given two leaders who each held seat 0 twice in a row, two trailers who each held seat 1 twice
    leaders = [Contender(1, 200, (9,), 0, (0, 0)), Contender(2, 200, (8,), 0, (0, 0))]
    trailers = [Contender(3, 0, (7,), 0, (1, 1)), Contender(4, 0, (6,), 0, (1, 1))]
    # when they are paired
    tables = pairing.swiss_pairs(leaders + trailers).tables
    # then no leader meets the other (one of them would take seat 0 a third time): an absolute preference
    # weighs before the score gap
    assert {frozenset(t) for t in tables} in ({frozenset({1, 3}), frozenset({2, 4})},
                                             {frozenset({1, 4}), frozenset({2, 3})})
    assert all(t[0] in (3, 4) for t in tables)


def test_swiss_keeps_the_score_groups_together_rather_than_give_everyone_the_seat_they_are_merely_due():
    # given two leaders who each held seat 0 once (due seat 1: a strong preference), two trailers who held seat 1
    leaders = [Contender(1, 200, (9,), 0, (0,)), Contender(2, 200, (8,), 0, (0,))]
    trailers = [Contender(3, 0, (7,), 0, (1,)), Contender(4, 0, (6,), 0, (1,))]
    # when they are paired
    tables = pairing.swiss_pairs(leaders + trailers).tables
    # then the leaders meet (one of them takes seat 0 again): the score gap weighs before a milder preference
    assert {frozenset(t) for t in tables} == {frozenset({1, 2}), frozenset({3, 4})}


def test_the_swiss_legend_states_which_seat_rules_weigh_before_score_gaps(league):
    tournament = make_tournament(league, format="swiss", players=4, rounds=2)
    assert "weigh before the score gaps" in _legend(tournament)["swiss_seats"]


# (4) Buchholz and Sonneborn–Berger at a bigger table -------------------------------------------------

def test_buchholz_and_sonneborn_berger_at_a_table_of_three_take_one_value_per_round_the_mean_of_its_opponents():
    # given four players; round 1: 1, 2, 3 at one table (places 1, 2, 3) and 4 resting; round 2: 1 and 4
    entries = {1: Entry(1, 1, F(6)), 2: Entry(2, 2, F(3)), 3: Entry(3, 3, F(0)), 4: Entry(4, 4, F(2))}
    tables = [[(1, 1), (2, 2), (3, 3)], [(1, 2), (4, 1)]]
    # when the tie-breaks are computed
    values = tie_break_values(entries, tables, unplayed="none")
    # then player 1's round 1 counts once, as the mean of 3 and 0, and round 2 adds 2
    assert values[1]["buchholz"] == F(3, 2) + 2
    # and Sonneborn–Berger takes the mean of (3 × 1, 0 × 1) in round 1 and 2 × 0 in round 2
    assert values[1]["sonneborn_berger"] == F(3, 2)
    # and player 2 (above 3, below 1): Buchholz the mean of 6 and 0, Sonneborn–Berger the mean of 6 × 0 and 0 × 1
    assert (values[2]["buchholz"], values[2]["sonneborn_berger"]) == (F(3), F(0))


def test_median_buchholz_leaves_out_whole_rounds_not_single_opponents():
    # given player 1 in three rounds at tables of three: opponents' means 1, 2 and 5
    entries = {i: Entry(i, i, F(p)) for i, p in [(1, 0), (2, 0), (3, 2), (4, 1), (5, 3), (6, 4), (7, 6)]}
    tables = [[(1, 1), (2, 2), (3, 3)], [(1, 1), (4, 2), (5, 3)], [(1, 1), (6, 2), (7, 3)]]
    values = tie_break_values(entries, tables, unplayed="none")
    # then Buchholz is 1 + 2 + 5 and median Buchholz keeps the middle round only
    assert (values[1]["buchholz"], values[1]["median_buchholz"]) == (F(8), F(2))


# (5) a league's list at a smaller table --------------------------------------------------------------

def test_a_leagues_list_5_3_2_0_gives_a_table_of_three_5_then_5_halves_then_0(league):
    # given a league whose list of points by place is 5, 3, 2, 0
    rules = Rules(two_seat=False, place_points=(5, 3, 2, 0))
    # then a table of three takes 5, 5/2 and 0, and a table of two 5 and 0
    assert rules.by_place(3) == [F(5), F(5, 2), F(0)]
    assert rules.by_place(2) == [F(5), F(0)]
    # and the legend of a tournament under such a list states it
    league.place_points = [5, 3, 2, 0]
    league.save()
    tournament = make_tournament(league, format="swiss", players=4, seats=4, rounds=1)
    legend = _legend(tournament)
    assert "5, 3, 2, 0 gives a table of three 5, 2.5, 0" in legend["smaller_table"]
    assert "3 places: 5, 2.5, 0" in legend["points"]


# (6) Sonneborn–Berger of an unplayed round; a tie of two sides ---------------------------------------

def test_sonneborn_berger_of_an_unplayed_round_is_the_players_own_points_times_the_rounds_result():
    entries = {1: Entry(1, 1, F(4)), 2: Entry(2, 2, F(4)), 3: Entry(3, 3, F(4))}
    # a bye worth a win (1), a shared first place or a smaller bye (½), a forfeit lost (0)
    tables = [[Sitting(1, None, played=False, result=F(1))], [Sitting(2, None, played=False, result=F(1, 2))],
              [Sitting(3, None, played=False, result=F(0))]]
    virtual = tie_break_values(entries, tables, unplayed="virtual")
    assert [virtual[i]["sonneborn_berger"] for i in (1, 2, 3)] == [F(4), F(2), F(0)]
    assert [virtual[i]["buchholz"] for i in (1, 2, 3)] == [F(4), F(4), F(4)]
    # and without the virtual opponent it adds nothing
    none = tie_break_values(entries, tables, unplayed="none")
    assert [none[i]["sonneborn_berger"] for i in (1, 2, 3)] == [0, 0, 0]


def test_a_tie_of_two_sides_is_a_draw_and_two_places_means_two_sides_not_two_seats():
    plain = Rules(two_seat=False, win=3, draw=1, loss=0)
    listed = Rules(two_seat=False, place_points=(5, 3, 2, 0))
    # a table of two places (two players, or two partnerships at four seats): a tie is the draw's points
    assert plain.shared(2, 1, 2) == F(1)
    # with the league's list: the mean of its first and last
    assert listed.shared(2, 1, 2) == F(5, 2)
    # at three places, two tied for first share the mean of the places they cover (3 and 3/2)
    assert plain.shared(3, 1, 2) == F(9, 4)


def test_the_legend_of_a_bigger_table_states_the_unplayed_round_and_the_two_sides_rules(league):
    tournament = make_tournament(league, format="swiss", players=4, seats=3, rounds=1)
    tournament.league.tie_breaks = ["match_points", "sonneborn_berger", "buchholz"]
    legend = _legend(tournament)
    assert "times the round's result" in legend["unplayed_sb"]
    assert "means two sides, not two seats" in legend["two_places"] and "a draw: 1 each" in legend["two_places"]
    assert "one value: the mean over that round's opponents" in legend["per_round"]
