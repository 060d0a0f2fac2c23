"""Teams: Karuselis partners entered as teams, and a club team match over boards."""
from __future__ import annotations

import io
from fractions import Fraction

import pytest
from django.core.management import call_command

from league import services
from league.models import Entrant, Standing, Table, TableSeat, Tournament
from league.rules.scoring import sides_of
from league.selectors import live, rounds, standings
from tests.league.conftest import make_tournament


@pytest.fixture
def karuselis(club):
    return services.league_create(club_id=club.pk, name="Karuselis pairs", game="karuselis")


def _teams_of(tournament: Tournament, size: int) -> list:
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("seed"))
    return [services.team_create(tournament_id=tournament.pk, name=f"Pair {i // size + 1}",
                                 entrant_ids=[e.pk for e in entrants[i:i + size]])
            for i in range(0, len(entrants), size)]


def test_karuselis_team_mates_always_sit_as_partners_never_as_opponents(karuselis):
    # given a Swiss of eight bots at four seats, entered as four pairs
    tournament = make_tournament(karuselis, format="swiss", players=8, seats=4, rounds=3)
    _teams_of(tournament, 2)
    team_of = dict(Entrant.objects.filter(tournament=tournament).values_list("pk", "team_id"))
    # when bots play it to the end
    tournament = services.tournament_run(tournament_id=tournament.pk)
    assert tournament.status == Tournament.Status.FINISHED
    # then at every table each pair is one side: team-mates partners, never opponents
    for table in Table.objects.filter(round__tournament=tournament, kind=Table.Kind.MATCH):
        seats = list(table.seats.order_by("match_seat"))
        side = sides_of("karuselis", len(seats))
        for a in seats:
            for b in seats:
                if a.pk != b.pk:
                    assert (team_of[a.entrant_id] == team_of[b.entrant_id]) == (
                        side[a.match_seat] == side[b.match_seat])


def test_karuselis_team_standings_count_a_sides_result_once(karuselis):
    # given a round robin of four pairs of bots at four seats
    tournament = make_tournament(karuselis, format="round_robin", players=8, seats=4)
    teams = _teams_of(tournament, 2)
    services.round_pair(tournament_id=tournament.pk)
    # then the rounds still to play are listed by pairs
    fixtures = rounds.tournament_fixtures(Tournament.objects.get(pk=tournament.pk))
    assert [f["number"] for f in fixtures] == [2, 3]
    assert all(len(t) == 2 and all(n.startswith("Pair ") for n in t) for f in fixtures for t in f["tables"])
    tournament = services.tournament_run(tournament_id=tournament.pk)
    # then each pair met each other pair once: three rounds
    assert tournament.rounds == 3
    rows = live.team_standings(tournament)
    assert len(rows) == 4 and all(r["played"] == 3 for r in rows)
    # and a team's points are its side's points, once per table: equal to each member's own points
    points = {s.entrant_id: Fraction(s.points) for s in Standing.objects.filter(tournament=tournament)}
    for team in teams:
        a, b = team.members.all()
        assert points[a.pk] == points[b.pk]
        row = next(r for r in rows if r["team_id"] == team.pk)
        assert row["points_exact"] == standings.exact_text(points[a.pk])
        # each player's statistics still count
        assert Standing.objects.get(entrant=a).played == 3
    assert sum(r["wins"] for r in rows) + sum(r["draws"] for r in rows) // 2 == 6


def test_a_club_match_of_4_boards_is_won_by_boards_won(league, client):
    # given two club teams of four bots each, four boards
    tournament = make_tournament(league, format="team_match", players=8, format_options={"boards": 4})
    home, away = _teams_of(tournament, 4)
    tournament = services.tournament_run(tournament_id=tournament.pk)
    # then four boards, board i seating each team's i-th player, colours alternating
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    assert [t.number for t in tables] == [1, 2, 3, 4]
    home_players = list(home.members.order_by("seed").values_list("pk", flat=True))
    away_players = list(away.members.order_by("seed").values_list("pk", flat=True))
    for i, table in enumerate(tables):
        seated = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
        expected = [home_players[i], away_players[i]]
        assert seated == (expected if i % 2 == 0 else expected[::-1])
    # and the match score is the boards won, a drawn board half each, recomputed by hand
    won = {home.pk: Fraction(0), away.pk: Fraction(0)}
    for table in tables:
        first, second = table.seats.all()
        if first.place == second.place:
            won[first.entrant.team_id] += Fraction(1, 2)
            won[second.entrant.team_id] += Fraction(1, 2)
        else:
            won[min((first, second), key=lambda s: s.place).entrant.team_id] += 1
    assert won[home.pk] + won[away.pk] == 4
    score = live.match_score(live.team_standings(tournament))
    assert (Fraction(score["a_won"]), Fraction(score["b_won"])) == (won[home.pk], won[away.pk])
    # and the page shows the boards and the score
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Team standings" in page and f"{home.name} {score['a_won']} – {score['b_won']} {away.name}" in page
    # and the whole event's document carries the team table and the match score, as the page does
    doc = client.get(f"/api/tournaments/{tournament.pk}").json()
    assert [t["name"] for t in doc["team_standings"]] == [t["name"] for t in live.team_standings(tournament)]
    assert (Fraction(doc["match_score"]["a_won"]), Fraction(doc["match_score"]["b_won"])) == (won[home.pk],
                                                                                           won[away.pk])
    # and tournament_show prints the team table and the score
    out = io.StringIO()
    call_command("tournament_show", "--tournament", str(tournament.pk), stdout=out)
    assert f"{home.name} {score['a_won']} - {score['b_won']} {away.name}" in out.getvalue()
    assert sorted(doc["team_standings"][0]["members"] + doc["team_standings"][1]["members"]) == sorted(
        e.player.name for e in tournament.entrants.select_related("player"))


def test_a_team_match_needs_two_teams(league):
    tournament = make_tournament(league, format="team_match", players=4)
    with pytest.raises(services.InvalidTournament):
        services.round_pair(tournament_id=tournament.pk)


def test_team_create_command_puts_entrants_in_a_team(league, capsys):
    tournament = make_tournament(league, format="team_match", players=4)
    ids = list(Entrant.objects.filter(tournament=tournament).order_by("seed").values_list("pk", flat=True))
    call_command("team_create", "--tournament", str(tournament.pk), "--name", "Riga", "--entrants",
                 f"{ids[0]},{ids[1]}")
    assert "team" in capsys.readouterr().out
    assert set(Entrant.objects.filter(team__name="Riga").values_list("pk", flat=True)) == set(ids[:2])


def test_bot_tournament_runs_a_karuselis_pairs_event(db, capsys):
    call_command("bot_tournament", "--game", "karuselis", "--format", "swiss", "--players", "8", "--seats", "4",
                 "--rounds", "2", "--team-size", "2", "--sync", "--policy", "greedy")
    tournament = Tournament.objects.get(format="swiss")
    assert tournament.status == Tournament.Status.FINISHED and tournament.teams.count() == 4
    assert TableSeat.objects.filter(table__round__tournament=tournament).count() == 16
