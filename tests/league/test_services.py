"""League services: running tournaments, scoring from match results, ratings, withdrawals,
closing rounds exactly once, idempotent table tasks."""
from __future__ import annotations

import threading
from collections import Counter
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection, connections

from engine import registry
from games import dispatch, store
from games.models import Event, Match
from games.services import bots_advance, match_finished, move_submit
from league import services, tasks
from league.models import Entrant, Folded, Rating, RatingHistory, Round, Standing, Table, TableSeat, Tournament
from league.selectors import rounds, standings
from league.services import rounds as rounds_service
from tests.conftest import need
from tests.league.conftest import expected_points, make_tournament
from tests.waiting import wait_until


def _tables(tournament):
    return (Table.objects.filter(round__tournament=tournament).select_related("match", "round")
            .order_by("round__number", "number"))


def assert_standings_match_the_match_results(tournament):
    """Every table's points follow from its match's ranking; every standing is the sum of its tables."""
    league = tournament.league
    totals, played, game_points = Counter(), Counter(), Counter()
    for table in _tables(tournament):
        seats = list(table.seats.all())
        if table.kind == Table.Kind.BYE:
            expected = {seats[0].entrant_id: league.bye_points if tournament.format == "swiss" else Decimal(0)}
        elif table.match and table.match.status == Match.Status.FINISHED and not any(s.forfeited for s in seats):
            expected = expected_points(seats, table.match.result, league, tournament.seats_per_table)
            for s in seats:
                played[s.entrant_id] += 1
                game_points[s.entrant_id] += table.match.result["scores"][s.match_seat]
                assert s.game_points == table.match.result["scores"][s.match_seat]
        else:
            expected = {s.entrant_id: s.points for s in seats}  # forfeits: checked in their own tests
            for s in seats:
                played[s.entrant_id] += 1 if s.place else 0
        for s in seats:
            assert s.points == expected[s.entrant_id], (table, s.entrant_id)
            totals[s.entrant_id] += expected[s.entrant_id]
    for standing in Standing.objects.filter(tournament=tournament):
        assert standing.points == totals[standing.entrant_id]
        assert standing.played == played[standing.entrant_id]
        assert standing.game_points == game_points[standing.entrant_id]


def expected_ratings(tournaments) -> dict:
    """openskill Plackett–Luce replayed over every finished match, in the order they finished."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {}
    tables = (Table.objects.filter(round__tournament__in=tournaments, match__status=Match.Status.FINISHED)
              .select_related("match").order_by("match__finished_at", "match_id"))
    for table in tables:
        seat_player = dict(table.seats.filter(match_seat__isnull=False).values_list("match_seat", "entrant__player_id"))
        order = sorted(seat_player)
        rank = {s: i + 1 for i, g in enumerate(table.match.result["ranking"]) for s in g}
        before = [ratings.get(seat_player[s]) or model.rating() for s in order]
        after = model.rate([[b] for b in before], ranks=[rank[s] for s in order])
        for s, (new,) in zip(order, after):
            ratings[seat_player[s]] = new
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


# ---------------------------------------------------------------------------

def test_a_swiss_of_bots_runs_to_the_end_with_standings_and_ratings_from_the_match_results(league):
    # given six bots in a three-round Swiss
    tournament = make_tournament(league, format="swiss", players=6, rounds=3)
    # when it runs in this process
    tournament = services.tournament_run(tournament_id=tournament.pk)
    # then three rounds closed, three tables each, nobody met twice
    assert tournament.status == Tournament.Status.FINISHED
    assert list(tournament.round_set.values_list("number", "status")) == [(n, "closed") for n in (1, 2, 3)]
    pairs = Counter(frozenset(t.seats.values_list("entrant_id", flat=True)) for t in _tables(tournament))
    assert len(pairs) == 9 and set(pairs.values()) == {1}
    assert_standings_match_the_match_results(tournament)
    # and the ratings are openskill over every match, with one history entry per player and match
    expected = expected_ratings([tournament])
    got = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(game="livol")}
    assert got.keys() == expected.keys()
    for player, (mu, sigma) in expected.items():
        assert got[player] == pytest.approx((mu, sigma), abs=1e-9)
    assert RatingHistory.objects.count() == 9 * 2
    assert all(r.matches == 3 for r in Rating.objects.all())


def test_recording_a_finished_table_again_changes_nothing(league):
    tournament = make_tournament(league, format="swiss", players=2, rounds=1)
    services.tournament_run(tournament_id=tournament.pk)
    table = _tables(tournament).get()
    before = list(Standing.objects.order_by("pk").values_list("points", "played"))
    # when the match's end is announced twice more
    assert services.match_result_record(match_id=table.match_id) is False
    assert services.table_record(table_id=table.pk) is False
    # then nothing was folded twice
    assert list(Standing.objects.order_by("pk").values_list("points", "played")) == before
    assert Folded.objects.filter(table=table).count() == 2  # standings and ratings, once each
    assert RatingHistory.objects.count() == 2


def test_the_tables_match_is_created_once(league):
    tournament = make_tournament(league, format="swiss", players=4, rounds=1)
    rnd = services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=rnd.pk)
    table = rnd.tables.first()
    first = services.table_match_create(table_id=table.pk)
    again = services.table_match_create(table_id=table.pk)
    assert first.pk == again.pk == Table.objects.get(pk=table.pk).match_id
    assert Match.objects.count() == 2


def test_a_redelivered_table_task_continues_without_duplicating(league):
    # given a started round whose first table's task died after five bot moves
    tournament = make_tournament(league, format="swiss", players=4, rounds=1)
    rnd = services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=rnd.pk)
    table = rnd.tables.order_by("number").first()
    match = Table.objects.get(pk=table.pk).match
    bots_advance(match_id=match.pk, budget=5)
    halfway = Match.objects.get(pk=match.pk).last_seq
    # when the task is delivered again, twice
    tasks.table_play.apply(args=(table.pk,)).get()
    tasks.table_play.apply(args=(table.pk,)).get()
    # then it continued the same match from its events to the end, recorded once
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.last_seq > halfway
    seqs = list(Event.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.last_seq + 1))
    assert Match.objects.count() == 2
    assert Folded.objects.filter(table=table, projection="standings").count() == 1
    # which is what makes acks_late safe for this task
    assert tasks.table_play.acks_late is True


def test_a_round_closes_once_and_pairs_the_next_once_whatever_order_tables_finish(league):
    # given a Swiss whose rounds are started by hand
    tournament = make_tournament(league, format="swiss", players=4, rounds=2, auto_advance=False)
    rnd = services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=rnd.pk)
    first, second = rnd.tables.order_by("number")
    # when the first table ends, the round stays open
    services.table_run(table_id=first.pk)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RUNNING and tournament.round_set.count() == 1
    # and when the last ends, it closes and round 2 is paired (not started: auto_advance is off)
    services.table_run(table_id=second.pk)
    services.table_run(table_id=second.pk)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert list(tournament.round_set.values_list("number", "status")) == [(1, "closed"), (2, "paired")]
    assert services.round_close(round_id=rnd.pk) is False
    with pytest.raises(services.RoundNotClosed):
        services.round_pair(tournament_id=tournament.pk)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_match_finished_signals_arriving_together_close_the_round_exactly_once(monkeypatch, caplog):
    need(connection.vendor == "postgresql", "row locks need PostgreSQL")
    from tests.league.conftest import FAST

    # given round 1 of a Swiss with two tables whose matches both just ended, unrecorded
    club = services.club_create(name="Race club", slug="race")
    league = services.league_create(club_id=club.pk, name="Race", game="livol", options=dict(FAST))
    tournament = make_tournament(league, format="swiss", players=4, rounds=2, auto_advance=False)
    rnd = services.round_pair(tournament_id=tournament.pk)
    with dispatch.work_here():  # the tables' tasks are not sent (tasks run eagerly here: they would play
        services.round_start(round_id=rnd.pk)  # and record both tables before the race)
    match_ids = list(rnd.tables.order_by("number").values_list("match_id", flat=True))
    assert not Folded.objects.filter(table__round=rnd).exists()
    assert match_finished.disconnect(dispatch_uid="league.match_finished")
    try:
        for match_id in match_ids:
            bots_advance(match_id=match_id, budget=100000)
    finally:
        from league.receivers import on_match_finished

        match_finished.connect(on_match_finished, dispatch_uid="league.match_finished")
    assert all(Match.objects.get(pk=m).status == Match.Status.FINISHED for m in match_ids)
    assert not Folded.objects.filter(table__round=rnd).exists()
    # (each table's record waits, once it has folded its table in its own transaction, until the other
    # has folded too: neither fold is committed when the first checks the round, the race itself)
    real_fold = services.standings_apply
    folded = threading.Barrier(2, timeout=30)

    def fold_together(**kwargs):
        result = real_fold(**kwargs)
        folded.wait()
        return result

    monkeypatch.setattr("league.services.rounds.standings_apply", fold_together)
    # (and the first to check the round holds its commit until the other has checked it too — or waits on
    # a row lock, as it does while ``round_close`` locks the round: without that lock both would count one
    # folded table of two, and neither would close the round)
    real_close = services.round_close
    checked = []

    def waits_on_a_lock() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
            return cursor.fetchone()[0] > 0

    def close_then_hold(**kwargs):
        result = real_close(**kwargs)
        checked.append(kwargs["round_id"])
        wait_until(lambda: len(checked) == 2 or waits_on_a_lock(), within=30,
                   why="the other table's record neither checked the round nor waited on a lock")
        return result

    monkeypatch.setattr("league.services.rounds.round_close", close_then_hold)
    barrier = threading.Barrier(2)
    errors = []

    def announce(match_id):
        try:
            barrier.wait()
            match_finished.send(sender=Match, match_id=match_id)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(repr(exc))
        finally:
            connections.close_all()

    # when both ends are announced at the same moment
    threads = [threading.Thread(target=announce, args=(m,)) for m in match_ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    # then both tables were folded once, round 1 closed once and round 2 paired once
    assert not errors and not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert Folded.objects.filter(table__round=rnd, projection="standings").count() == 2
    assert list(tournament.round_set.order_by("number").values_list("number", "status")) == [
        (1, "closed"), (2, "paired")]
    assert Table.objects.filter(round__tournament=tournament, round__number=2).count() == 2
    assert sum(Standing.objects.filter(tournament=tournament).values_list("played", flat=True)) == 4


def test_withdrawal_forfeits_the_remaining_round_robin_matches_to_the_opponents(league):
    # given a four-player round robin after its first round
    tournament = make_tournament(league, format="round_robin", players=4)
    services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=tournament.round_set.get().pk)
    for table in Table.objects.filter(round__tournament=tournament):
        services.table_run(table_id=table.pk)
    assert tournament.round_set.filter(status=Round.Status.CLOSED).count() == 1
    leaver = Entrant.objects.get(tournament=tournament, seed=4)
    # when the seed-4 player withdraws during round 2 (its match is aborted)
    services.entrant_withdraw(entrant_id=leaver.pk, reason="moved away")
    services.tournament_run(tournament_id=tournament.pk)
    # then the two remaining matches were forfeited: the opponents scored a win, the leaver nothing
    forfeits = TableSeat.objects.filter(entrant=leaver, table__round__number__gte=2)
    assert forfeits.count() == 2 and all(s.forfeited and s.points == 0 and s.place == 2 for s in forfeits)
    for seat in forfeits:
        opponent = seat.table.seats.exclude(pk=seat.pk).get()
        assert (opponent.points, opponent.place) == (Decimal(3), 1)
    round2 = Table.objects.get(round__number=2, seats__entrant=leaver)
    assert round2.match is not None and round2.match.status == Match.Status.ABORTED
    assert Table.objects.get(round__number=3, seats__entrant=leaver).match is None
    # and the standings say so
    row = next(r for r in standings.standings(tournament)["rows"] if r["entrant_id"] == leaver.pk)
    assert (row["forfeits"], row["note"]) == (2, "withdrew in round 2")


def test_under_the_void_rule_nobody_scores_from_a_withdrawn_players_matches(league):
    league.forfeit_rule = "void"
    league.save()
    tournament = make_tournament(league, format="round_robin", players=4)
    leaver = Entrant.objects.get(tournament=tournament, player__name="Greedy bot 02")
    services.entrant_withdraw(entrant_id=leaver.pk)
    services.tournament_run(tournament_id=tournament.pk)
    # the leaver withdrew before the start: out of the schedule, three players, each with a rest
    assert not TableSeat.objects.filter(entrant=leaver).exists()
    assert Table.objects.filter(round__tournament=tournament, kind=Table.Kind.BYE).count() == 3
    assert standings.standings(tournament)["rows"][-1]["note"] == "withdrew before the start"
    # and a withdrawal mid-way voids the withdrawn player's later tables for everyone
    t2 = make_tournament(league, format="round_robin", players=4)
    t2.name = "second"
    t2.save()
    services.round_pair(tournament_id=t2.pk)
    services.round_start(round_id=t2.round_set.get().pk)
    gone = Entrant.objects.get(tournament=t2, seed=1)
    services.entrant_withdraw(entrant_id=gone.pk)
    services.tournament_run(tournament_id=t2.pk)
    for seat in TableSeat.objects.filter(entrant=gone):
        other = seat.table.seats.exclude(pk=seat.pk).get()
        assert (seat.points, other.points, other.place) == (0, 0, None)
    assert Standing.objects.get(entrant=gone).forfeits == 3


def test_a_withdrawn_player_is_not_paired_again_in_a_swiss(league):
    tournament = make_tournament(league, format="swiss", players=5, rounds=2, auto_advance=False)
    services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=tournament.round_set.get().pk)
    for table in Table.objects.filter(round__tournament=tournament):
        services.table_run(table_id=table.pk)
    leaver = Entrant.objects.get(tournament=tournament, seed=1)
    # round 2 was paired when round 1 closed: the leaver's seat there is forfeited
    services.entrant_withdraw(entrant_id=leaver.pk)
    services.tournament_run(tournament_id=tournament.pk)
    seat = TableSeat.objects.get(entrant=leaver, table__round__number=2)
    assert seat.forfeited
    # (and a later round would not include the leaver at all)
    drawn = rounds_service._pair(tournament, 3, list(tournament.entrants.all()), {leaver.pk: 2})
    assert drawn and leaver.pk not in [e for _, _, seated in drawn for e in seated]


def test_a_knockout_seeds_the_bracket_gives_byes_to_the_top_seeds_and_crowns_one_winner(league):
    tournament = make_tournament(league, format="knockout", players=6)
    tournament = services.tournament_run(tournament_id=tournament.pk)
    seeds = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "seed"))
    round1 = Round.objects.get(tournament=tournament, number=1)
    byes = [seeds[t.seats.get().entrant_id] for t in round1.tables.filter(kind=Table.Kind.BYE)]
    assert tournament.rounds == 3 and sorted(byes) == [1, 2]
    assert [sorted(seeds[e] for e in t.seats.values_list("entrant_id", flat=True))
            for t in round1.tables.filter(kind=Table.Kind.MATCH).order_by("number")] == [[4, 5], [3, 6]]
    final = Table.objects.get(round__tournament=tournament, round__number=3)
    champion = rounds.table_winner(final)
    rows = standings.standings(tournament)["rows"]
    assert rows[0]["entrant_id"] == champion and rows[0]["stage"] == "Winner"
    assert sorted(r["stage"] for r in rows) == ["Final", "Quarter-final", "Quarter-final", "Semi-final",
                                                "Semi-final", "Winner"]
    bracket = rounds.tournament_bracket(tournament)
    assert [c["label"] for c in bracket] == ["Quarter-final", "Semi-final", "Final"]
    assert bracket[-1]["tables"][0]["winner"] == champion


def test_a_multi_seat_swiss_groups_tables_and_rotates_seats(league):
    tournament = make_tournament(league, format="swiss", players=7, seats=3, rounds=2)
    services.tournament_run(tournament_id=tournament.pk)
    sizes = sorted(t.seats.count() for t in _tables(tournament).filter(round__number=1))
    assert sizes == [2, 2, 3]
    assert_standings_match_the_match_results(tournament)


def test_a_person_plays_on_the_match_page_while_bots_move_on_their_turns(league, django_user_model, client,
                                                                        django_capture_on_commit_callbacks):
    # given a person among three bots
    person = django_user_model.objects.create_user(username="anna", password="pw")
    tournament = make_tournament(league, format="swiss", players=3, rounds=1)
    services.entrant_add(tournament_id=tournament.pk, player_id=services.player_for_user(user=person).pk)
    # when the round starts, the bots' table plays out and the person's waits for them
    with pytest.raises(services.WaitingForPeople):
        services.tournament_run(tournament_id=tournament.pk)
    table = Table.objects.get(round__tournament=tournament, seats__entrant__player__user=person)
    match = table.match
    assert match.seats.filter(user=person).exists()
    client.force_login(person)
    assert client.get(f"/matches/{match.pk}/").status_code == 200
    # the person takes the seat the tournament gave them (with their own randomness): it starts
    assert match.status == Match.Status.WAITING
    with django_capture_on_commit_callbacks(execute=True):
        taken = client.post(f"/api/matches/{match.pk}/join", {"entropy": "ab" * 16}, content_type="application/json")
    assert taken.status_code == 200, taken.content
    # and the person plays; after each move the bot answers on commit
    seat = match.seats.get(user=person).index
    game = registry.get("livol")
    for _ in range(3000):
        match.refresh_from_db()
        if not match.is_running:
            break
        state = store.load_state(match)
        legal = game.legal_moves(state, seat)
        if not legal:
            with django_capture_on_commit_callbacks(execute=True):
                bots_advance(match_id=match.pk)
            continue
        move = next((m for m in legal if m["type"] == "play" and m.get("call")), None) or \
            next((m for m in legal if m["type"] in ("play", "color", "accept")), legal[0])
        with django_capture_on_commit_callbacks(execute=True):
            move_submit(match_id=match.pk, seat=seat, move=move, expected_seq=match.last_seq)
    # then the match ended, its table was recorded and the one-round tournament finished
    tournament.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert tournament.status == Tournament.Status.FINISHED
    assert_standings_match_the_match_results(tournament)


def test_a_league_season_is_a_weekly_fixture_list(league):
    season = services.season_create(league_id=league.pk, name="Spring", starts_on=date(2025, 3, 3))
    tournament = services.tournament_create(league_id=league.pk, name="Spring league", format="league",
                                            season_id=season.pk, seeding="entry")
    services.bots_add(tournament_id=tournament.pk, count=4, policy="greedy")
    services.round_pair(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    # home and away: six rounds, a week apart from the season's start
    assert tournament.rounds == 6
    assert tournament.round_set.get().scheduled_on == date(2025, 3, 3)
    fixtures = rounds.tournament_fixtures(tournament)
    assert [f["number"] for f in fixtures] == [2, 3, 4, 5, 6]
    assert [f["scheduled_on"] for f in fixtures] == [date(2025, 3, 3) + timedelta(weeks=w) for w in range(1, 6)]
    # the second half repeats the first with the seats swapped
    assert fixtures[2]["tables"][0] == list(reversed(
        [s.entrant.player.name for s in tournament.round_set.get().tables.get(number=1).seats.order_by("position")]))


def test_tournaments_refuse_impossible_setups(league, club):
    with pytest.raises(services.InvalidTournament, match="seats"):
        services.tournament_create(league_id=league.pk, name="x", seats_per_table=7)
    with pytest.raises(services.InvalidTournament, match="options"):
        services.tournament_create(league_id=league.pk, name="x", options={"target": "lots"})
    cardavia = services.league_create(club_id=club.pk, name="Cardavia", game="cardavia")
    with pytest.raises(services.InvalidTournament, match="seats"):
        services.tournament_create(league_id=cardavia.pk, name="x", seats_per_table=2)


def test_entries_close_when_the_first_round_is_paired(league):
    tournament = make_tournament(league, format="swiss", players=4, rounds=1)
    with pytest.raises(services.AlreadyEntered):
        services.entrant_add(tournament_id=tournament.pk, player_id=Entrant.objects.first().player_id)
    services.round_pair(tournament_id=tournament.pk)
    with pytest.raises(services.NotTakingEntries):
        services.bots_add(tournament_id=tournament.pk, count=1)


def test_game_points_count_the_way_the_game_ranks_them(club):
    # LIVOL's own-hand variant ranks the fewest points first; the standings follow its results
    own_hand = services.league_create(club_id=club.pk, name="Own hand", game="livol",
                                      options={"target": 30, "variant": "own_hand"})
    t = services.tournament_run(tournament_id=make_tournament(own_hand, format="swiss", players=2, rounds=1).pk)
    assert rounds.higher_game_points_win(t) is False
    table = Table.objects.get(round__tournament=t)
    winner = table.seats.get(place=1)
    assert winner.game_points == min(table.match.result["scores"])


def test_game_points_count_the_way_the_tournaments_own_options_rank_them(club):
    # given a LIVOL league scored by the winner, and a tournament of it played with the own-hand variant
    league = services.league_create(club_id=club.pk, name="Winner scores", game="livol",
                                    options={"target": 30, "variant": "winner_scores"})
    own_hand = make_tournament(league, format="swiss", players=2, rounds=1,
                               options={"target": 30, "variant": "own_hand"})
    # then fewer game points are better in that tournament, as its matches rank them
    assert rounds.higher_game_points_win(own_hand) is False
    assert rounds.higher_game_points_win(make_tournament(league, format="swiss", players=2, rounds=1)) is True

def test_a_lost_match_finished_is_recovered_by_the_sweep(league):
    tournament = make_tournament(league, format="swiss", players=2, rounds=1)
    rnd = services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=rnd.pk)
    table = rnd.tables.get()
    # the match ends but nobody hears of it (no receiver ran: a worker stopped)
    bots_advance(match_id=table.match_id, budget=100000)
    assert not Folded.objects.filter(table=table).exists()
    # when the organiser records finished matches
    assert services.tournament_sweep(tournament_id=tournament.pk) == 1
    # then the table is folded and the (only) round closed
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_failing_receiver_leaves_the_move_committed_and_retries_in_the_background(league, monkeypatch,
                                                                                   django_capture_on_commit_callbacks):
    from django.db import OperationalError

    tournament = make_tournament(league, format="swiss", players=2, rounds=1)
    rnd = services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=rnd.pk)
    table = rnd.tables.get()
    real, calls = services.match_result_record, []

    def flaky(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise OperationalError("deadlock detected")
        return real(**kwargs)

    monkeypatch.setattr("league.services.rounds.match_result_record", flaky)
    # when the last move is made and the first attempt to record it fails
    with django_capture_on_commit_callbacks(execute=True):
        bots_advance(match_id=table.match_id, budget=100000)
    # then the match stays finished and the retry (league.match_record) recorded it
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED
    assert len(calls) == 2
    assert Folded.objects.filter(table=table, projection="standings").exists()
