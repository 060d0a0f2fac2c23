"""Points per match and tie-breaks, as pure functions, with exact values."""
from decimal import Decimal

from league.rules.tiebreaks import Entry, head_to_head, rank_entries, tie_break_values
from league.services import Rules, SeatIn, table_scores

D = Decimal


def _points(scores):
    return [(s.place, s.points, s.result) for s in scores]


def test_two_seats_score_three_one_nothing():
    seats = [SeatIn(10, 0, False), SeatIn(11, 1, False)]
    win = table_scores(kind="match", seats=seats, result={"ranking": [[1], [0]], "scores": [40, 120]}, rules=Rules())
    draw = table_scores(kind="match", seats=seats, result={"ranking": [[0, 1]], "scores": [80, 80]}, rules=Rules())
    assert _points(win) == [(2, D(0), "loss"), (1, D(3), "win")]
    assert [s.game_points for s in win] == [40, 120]
    assert _points(draw) == [(1, D(1), "draw"), (1, D(1), "draw")]


def test_n_seats_score_by_place_with_ties_sharing_the_places_they_cover():
    # given four seats: seat 2 first, seats 0 and 3 tied second, seat 1 last
    seats = [SeatIn(i, i, False) for i in range(4)]
    result = {"ranking": [[2], [0, 3], [1]], "scores": [10, 0, 30, 10]}
    # when scored with the default n-1 … 0
    scores = table_scores(kind="match", seats=seats, result=result, rules=Rules(two_seat=False))
    # then 3 for first, (2+1)/2 each for the tied, 0 for last
    assert _points(scores) == [(2, D("1.5"), "loss"), (4, D(0), "loss"), (1, D(3), "win"), (2, D("1.5"), "loss")]
    # and with the league's own list 5/3/2/0
    custom = Rules(two_seat=False, place_points=(D(5), D(3), D(2), D(0)))
    assert [s.points for s in table_scores(kind="match", seats=seats, result=result, rules=custom)] == \
        [D("2.5"), D(0), D(5), D("2.5")]


def test_a_shared_first_place_at_a_multi_seat_table_is_a_draw():
    # three places score 3, 1.5, 0 (first the win points, last the loss points, evenly between)
    seats = [SeatIn(i, i, False) for i in range(3)]
    scores = table_scores(kind="match", seats=seats, result={"ranking": [[0, 1], [2]], "scores": [5, 5, 0]},
                          rules=Rules(two_seat=False))
    assert _points(scores) == [(1, D("2.25"), "draw"), (1, D("2.25"), "draw"), (3, D(0), "loss")]


def test_a_forfeit_awards_the_opponent_a_win_or_voids_the_table():
    seats = [SeatIn(1, None, True), SeatIn(2, None, False)]
    award = table_scores(kind="match", seats=seats, result=None, rules=Rules(forfeit_rule="award"))
    void = table_scores(kind="match", seats=seats, result=None, rules=Rules(forfeit_rule="void"))
    assert _points(award) == [(2, D(0), "loss"), (1, D(3), "win")]
    assert [s.forfeited for s in award] == [True, False]
    assert _points(void) == [(None, D(0), None), (None, D(0), None)]
    assert [s.forfeited for s in void] == [True, False]


def test_a_player_withdrawn_before_a_multi_seat_match_comes_last_under_award():
    # the others played a two-seat match of the three-seat table
    seats = [SeatIn(1, 0, False), SeatIn(2, None, True), SeatIn(3, 1, False)]
    result = {"ranking": [[1], [0]], "scores": [10, 30]}
    award = table_scores(kind="match", seats=seats, result=result, rules=Rules(two_seat=False))
    void = table_scores(kind="match", seats=seats, result=result, rules=Rules(two_seat=False, forfeit_rule="void"))
    assert _points(award) == [(2, D("1.5"), "loss"), (3, D(0), "loss"), (1, D(3), "win")]
    assert _points(void) == [(2, D(0), "loss"), (None, D(0), None), (1, D(3), "win")]


def test_a_swiss_bye_scores_the_bye_points():
    scores = table_scores(kind="bye", seats=[SeatIn(5, None, False)], result=None, rules=Rules(bye_points=D(3)))
    assert (scores[0].points, scores[0].bye, scores[0].result) == (D(3), True, None)


# A small two-seat event, 3/1/0:
#   A beat B · C drew D · A drew C · B beat E · D beat A · B beat C · E beat D
# Points: A 4, B 6, C 2, D 4, E 3.
A, B, C, E_, D_ = 1, 2, 3, 5, 4
TABLES = [[(A, 1), (B, 2)], [(C, 1), (D_, 1)], [(A, 1), (C, 1)], [(B, 1), (E_, 2)], [(D_, 1), (A, 2)],
          [(B, 1), (C, 2)], [(E_, 1), (D_, 2)]]
ENTRIES = [Entry(A, 1, D(4), 100, 1), Entry(B, 2, D(6), 50, 2), Entry(C, 3, D(2), 70, 0), Entry(D_, 4, D(4), 90, 1),
           Entry(E_, 5, D(3), 10, 1)]


def test_buchholz_median_buchholz_and_sonneborn_berger_have_their_exact_values():
    values = tie_break_values({e.id: e for e in ENTRIES}, TABLES)
    # Buchholz: the opponents' points
    assert {k: v["buchholz"] for k, v in values.items()} == {A: 12, B: 9, C: 14, D_: 9, E_: 10}
    # median Buchholz: without the best and the worst opponent (three or more opponents)
    assert {k: v["median_buchholz"] for k, v in values.items()} == {A: 4, B: 3, C: 4, D_: 3, E_: 10}
    # Sonneborn–Berger: beaten opponents' points, half of drawn opponents'
    assert {k: v["sonneborn_berger"] for k, v in values.items()} == {A: 7, B: 5, C: 4, D_: 5, E_: 4}
    assert {k: v["wins"] for k, v in values.items()} == {A: 1, B: 2, C: 0, D_: 1, E_: 1}


def test_head_to_head_counts_only_games_between_the_tied_players():
    assert head_to_head({A, D_}, TABLES, D(3), D(1), D(0)) == {A: 0, D_: 3}
    assert head_to_head({A, C, D_}, TABLES, D(3), D(1), D(0)) == {A: 1, C: 2, D_: 4}


def test_tie_breaks_apply_in_the_organisers_order():
    by_h2h = rank_entries(ENTRIES, TABLES, ["match_points", "head_to_head", "buchholz"])
    by_buchholz = rank_entries(ENTRIES, TABLES, ["match_points", "buchholz", "head_to_head"])
    by_game_points = rank_entries(ENTRIES, TABLES, ["match_points", "game_points"])
    assert [r.id for r in by_h2h] == [B, D_, A, E_, C]
    assert [r.id for r in by_buchholz] == [B, A, D_, E_, C]
    assert [r.id for r in by_game_points] == [B, A, D_, E_, C]
    # head-to-head is shown only where it decided something (A and D were tied)
    assert {r.id: r.values["head_to_head"] for r in by_h2h} == {B: None, D_: 3, A: 0, E_: None, C: None}
    # fewer game points win in games that count against (e.g. LIVOL's own-hand variant)
    fewest = rank_entries(ENTRIES, TABLES, ["match_points", "game_points"], higher_game_points=False)
    assert [r.id for r in fewest] == [B, D_, A, E_, C]


def test_players_equal_on_every_criterion_share_a_position():
    entries = [Entry(1, 1, D(3)), Entry(2, 2, D(3)), Entry(3, 3, D(0))]
    ranked = rank_entries(entries, [], ["match_points", "buchholz"])
    assert [(r.id, r.position) for r in ranked] == [(1, 1), (2, 1), (3, 3)]


def test_multi_seat_tables_give_partial_sonneborn_berger_and_pairwise_head_to_head():
    tables = [[(1, 1), (2, 2), (3, 2)]]
    entries = {1: Entry(1, 1, D(2)), 2: Entry(2, 2, D("0.5")), 3: Entry(3, 3, D("0.5"))}
    values = tie_break_values(entries, tables)
    # one value per round: the mean over the table's opponents
    assert values[1]["sonneborn_berger"] == D("0.5")      # (0.5 + 0.5) / 2, both beaten
    assert values[2]["sonneborn_berger"] == D("0.125")    # (nothing from 1 + half of 3's 0.5) / 2
    assert head_to_head({2, 3}, tables, D(3), D(1), D(0)) == {2: D(1), 3: D(1)}


def test_a_match_played_to_the_end_stands_even_if_a_player_withdrew_afterwards():
    seats = [SeatIn(1, 0, True), SeatIn(2, 1, False)]
    scores = table_scores(kind="match", seats=seats, result={"ranking": [[0], [1]], "scores": [30, 5]},
                          rules=Rules())
    assert _points(scores) == [(1, D(3), "win"), (2, D(0), "loss")]
