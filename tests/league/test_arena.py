"""The arena: free players paired at once within a time window, streaks scoring double, pauses."""
from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

from django.contrib.auth.models import Permission
from django.utils import timezone

from games import dispatch
from league import services
from league.formats.arena import FORMAT as ARENA
from league.formats.arena import arena_pairs
from league.formats.base import Setup
from league.models import Entrant, Folded, Round, Standing, Table, TableSeat, Tournament
from league.rules.pairing import Contender
from league.selectors import standings
from tests.league.conftest import make_tournament


def _arena(league, players: int, **options) -> Tournament:
    return make_tournament(league, format="arena", players=players,
                           format_options={"minutes": 30, "streak": 2, **options})


def _start(tournament: Tournament) -> Round:
    rnd = services.round_pair(tournament_id=tournament.pk)
    return services.round_start(round_id=rnd.pk)


def _open_tables(tournament: Tournament) -> list[Table]:
    return list(Table.objects.filter(round__tournament=tournament)
                .exclude(folds__projection=Folded.Projection.STANDINGS).order_by("number"))


def _seated(table: Table) -> set[int]:
    return set(table.seats.values_list("entrant_id", flat=True))


def _close_window(tournament: Tournament) -> None:
    """The window's time passes: it opened longer ago than it lasts."""
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(minutes=tournament.format_options["minutes"], seconds=1))


def test_arena_pairs_free_players_at_once(league):
    # given an arena of six bots, three tables in play
    tournament = _arena(league, 6)
    with dispatch.work_here():
        _start(tournament)
        first, second, third = _open_tables(tournament)
        # when the first table finishes, its two players have just met: they wait
        services.table_run(table_id=first.pk)
        assert [t.number for t in _open_tables(tournament)] == [2, 3]
        # when the second finishes, the four free players are seated at once, the third table still in play
        services.table_run(table_id=second.pk)
    added = [t for t in _open_tables(tournament) if t.number > 3]
    assert [t.number for t in added] == [4, 5]
    assert set().union(*map(_seated, added)) == _seated(first) | _seated(second)
    assert all(t.match_id for t in added) and Round.objects.filter(tournament=tournament).count() == 1


def test_arena_never_pairs_the_same_opponent_twice_in_a_row():
    # given four free players: 1 and 2 have just met, as have 3 and 4
    free = [Contender(1, 6, (2,)), Contender(2, 3, (2, 1)), Contender(3, 3, (1, 4)), Contender(4, 0, (3,))]
    # then each meets the nearest other one
    assert arena_pairs(free) == [(1, 3), (2, 4)]
    # and two players who have just met wait rather than meet again
    assert arena_pairs([Contender(1, 3, (2,)), Contender(2, 0, (1,))]) == []
    # but meet again once they have each met someone else
    assert arena_pairs([Contender(1, 3, (2, 3)), Contender(2, 0, (1, 4))]) == [(1, 2)]


def test_arena_stops_pairing_when_the_window_closes(league):
    # given an arena of four bots in play
    tournament = _arena(league, 4)
    with dispatch.work_here():
        _start(tournament)
        tables = _open_tables(tournament)
        # when the window closes, then the tables in play finish and count, and nobody is seated again
        _close_window(tournament)
        for table in tables:
            services.table_run(table_id=table.pk)
    assert Table.objects.filter(round__tournament=tournament).count() == 2
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert sum(s.played for s in Standing.objects.filter(tournament=tournament)) == 4


def test_arena_streak_bonus_doubles_a_result_after_two_wins_in_a_row():
    setup = Setup(options={"streak": 2})
    assert ARENA.streak_points(setup, 0, Fraction(3)) == 3
    assert ARENA.streak_points(setup, 1, Fraction(3)) == 3
    assert ARENA.streak_points(setup, 2, Fraction(3)) == 6      # the third win in a row
    assert ARENA.streak_points(setup, 5, Fraction(1)) == 2      # a draw on a streak (it ends the streak)
    assert ARENA.streak_points(Setup(options={"streak": 0}), 9, Fraction(3)) == 3


def test_arena_paused_players_are_not_paired(league):
    # given an arena of five bots, one paused before the start
    tournament = _arena(league, 5)
    paused = Entrant.objects.filter(tournament=tournament).order_by("seed").first()
    services.entrant_pause(entrant_id=paused.pk)
    with dispatch.work_here():
        _start(tournament)
        # then the four others are seated, the paused one is not
        assert paused.pk not in set(TableSeat.objects.filter(table__round__tournament=tournament)
                                    .values_list("entrant_id", flat=True))
        # when a table finishes, its players are free but have just met: they wait
        first = _open_tables(tournament)[0]
        services.table_run(table_id=first.pk)
        assert len(_open_tables(tournament)) == 1
        # when the paused player comes back, they are seated at once with a free one
        services.entrant_pause(entrant_id=paused.pk, paused=False)
    newest = _open_tables(tournament)[-1]
    assert paused.pk in _seated(newest) and _seated(newest) - {paused.pk} <= _seated(first)


def test_a_player_joins_an_arena_while_it_runs(league):
    # given an arena of three bots: two play, one waits
    tournament = _arena(league, 3)
    with dispatch.work_here():
        _start(tournament)
        newcomer = services.player_bot_create(name="Late bot", policy="greedy")
        # when a fourth joins during the window, then they meet the one waiting at once
        entrant = services.arena_join(tournament_id=tournament.pk, player_id=newcomer.pk)
    assert [len(_seated(t)) for t in _open_tables(tournament)] == [2, 2]
    assert entrant.pk in _seated(_open_tables(tournament)[-1])


def _recomputed(tournament: Tournament, league) -> dict[int, Fraction]:
    """Each player's arena points by hand: their tables in order, the league's points for each result,
    doubled after two wins in a row."""
    out: dict[int, Fraction] = {}
    for entrant in Entrant.objects.filter(tournament=tournament):
        total, streak = Fraction(0), 0
        seats = TableSeat.objects.filter(entrant=entrant).order_by("table__number")
        for seat in seats:
            other = seat.table.seats.exclude(pk=seat.pk).get()
            if seat.place == other.place:
                base, won = Fraction(league.draw_points), False
            elif seat.place < other.place:
                base, won = Fraction(league.win_points), True
            else:
                base, won = Fraction(league.loss_points), False
            total += base * 2 if streak >= 2 else base
            streak = streak + 1 if won else 0
        out[entrant.pk] = total
    return out


def test_an_arena_of_8_bots_in_a_short_window_runs_to_the_end(league):
    # given an arena of eight bots in a ten-minute window
    tournament = _arena(league, 8, minutes=10)
    played = 0
    with dispatch.work_here():
        _start(tournament)
        # when tables finish one by one, the window closing after twenty of them
        while Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED:
            pending = _open_tables(tournament)
            assert pending, "an arena with eight bots always has a table in play while it runs"
            services.table_run(table_id=pending[0].pk)
            played += 1
            if played == 20:
                _close_window(tournament)
    # then more tables were played than a round's four, in one round; none was added after the window closed
    # (at most the four in play then), and every one counted
    tables = Table.objects.filter(round__tournament=tournament)
    assert 20 < tables.count() == played <= 20 + 4 and Round.objects.filter(tournament=tournament).count() == 1
    assert sum(s.played for s in Standing.objects.filter(tournament=tournament)) == 2 * played
    # never the same opponent twice in a row, never two tables at once
    for entrant in Entrant.objects.filter(tournament=tournament):
        opponents = [seat.table.seats.exclude(pk=seat.pk).get().entrant_id
                     for seat in TableSeat.objects.filter(entrant=entrant).order_by("table__number")]
        assert all(a != b for a, b in zip(opponents, opponents[1:]))
    # and every published total is recomputed by hand from the rule the page states
    by_hand = _recomputed(tournament, league)
    assert {s.entrant_id: Fraction(s.points) for s in Standing.objects.filter(tournament=tournament)} == by_hand
    # as the standings' legend states it
    legend = standings.standings(Tournament.objects.get(pk=tournament.pk))["rules"]
    assert any("2 results just before it were all wins" in rule["text"] for rule in legend)


def test_a_player_pauses_and_resumes_from_the_api_and_the_page(league, client, django_user_model):
    # given a person entered in an arena of bots
    tournament = _arena(league, 3)
    user = django_user_model.objects.create_user("ilze", password="x")
    entrant = services.entrant_add(tournament_id=tournament.pk,
                                   player_id=services.player_for_user(user=user).pk)
    client.force_login(user)
    # when they pause through the API
    answer = client.post(f"/api/league/tournaments/{tournament.pk}/pause", content_type="application/json")
    # then they are paused, and the page offers them to come back
    assert answer.status_code == 200 and answer.json() == {"tournament_id": tournament.pk,
                                                           "entrant_id": entrant.pk, "paused": True}
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Come back: pair me again" in page and "ilze" in page
    # when they come back with the page's button
    client.post(f"/tournaments/{tournament.pk}/pause/", {"paused": "0"})
    assert Entrant.objects.get(pk=entrant.pk).paused is False
    assert client.post(f"/api/league/tournaments/{tournament.pk}/resume", content_type="application/json").json()["paused"] is False


def test_pausing_is_refused_outside_an_arena(league, client, django_user_model):
    tournament = make_tournament(league, format="swiss", players=2)
    user = django_user_model.objects.create_user("janis", password="x")
    services.entrant_add(tournament_id=tournament.pk, player_id=services.player_for_user(user=user).pk)
    client.force_login(user)
    answer = client.post(f"/api/league/tournaments/{tournament.pk}/pause", content_type="application/json")
    assert answer.status_code == 409 and answer.json()["code"] == "not_continuous"
    other = _arena(league, 2)
    assert client.post(f"/api/league/tournaments/{other.pk}/pause", content_type="application/json").json()["code"] == "not_entered"


def test_a_player_pauses_and_comes_back_at_api_tournaments(league, client, django_user_model):
    # given a person entered in an arena of bots
    tournament = _arena(league, 3)
    user = django_user_model.objects.create_user("liga", password="x")
    entrant = services.entrant_add(tournament_id=tournament.pk, player_id=services.player_for_user(user=user).pk)
    client.force_login(user)
    # when they pause and come back at the tournaments' paths
    paused = client.post(f"/api/tournaments/{tournament.pk}/pause", content_type="application/json")
    assert paused.status_code == 200 and paused.json()["paused"] is True
    assert Entrant.objects.get(pk=entrant.pk).paused is True
    back = client.post(f"/api/tournaments/{tournament.pk}/resume", content_type="application/json")
    # then the entry is paired again
    assert back.status_code == 200 and Entrant.objects.get(pk=entrant.pk).paused is False


def _staff(django_user_model, name, club, codenames):
    user = django_user_model.objects.create_user(username=name, password="pw", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="league", codename__in=codenames))
    club.organisers.add(user)
    return user


def test_an_organiser_pauses_and_brings_back_an_arena_player_from_the_admin(league, client, django_user_model):
    # given a running arena of four bots
    tournament = _arena(league, 4)
    _start(tournament)
    entrant = tournament.entrants.order_by("seed").first()
    # when a view-only member of staff tries the action, nothing changes
    client.force_login(_staff(django_user_model, "vera", league.club, ["view_entrant", "view_tournament"]))
    changelist = client.get("/admin/league/entrant/").content.decode()
    assert 'value="pause"' not in changelist
    client.post("/admin/league/entrant/", {"action": "pause", "_selected_action": [entrant.pk]})
    assert Entrant.objects.get(pk=entrant.pk).paused is False
    # when the organiser pauses them, they are paused; when they bring them back, they are paired again
    client.force_login(_staff(django_user_model, "olga", league.club, ["view_entrant", "change_entrant",
                                                                       "view_tournament"]))
    client.post("/admin/league/entrant/", {"action": "pause", "_selected_action": [entrant.pk]})
    assert Entrant.objects.get(pk=entrant.pk).paused is True
    client.post("/admin/league/entrant/", {"action": "resume", "_selected_action": [entrant.pk]})
    assert Entrant.objects.get(pk=entrant.pk).paused is False
