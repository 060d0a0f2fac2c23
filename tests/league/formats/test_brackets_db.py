"""Groups then play-offs and double elimination with the database: run from the admin, and through the
services with a bracket reset."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import services as games
from league import services
from league.models import Club, League, Round, Table, Tournament
from league.selectors import rounds, standings
from league.selectors.groups import group_standings, tournament_brackets
from tests.league.conftest import inline_forms, make_tournament


def _action(client, action, ids):
    return client.post("/admin/league/tournament/", {"action": action, "_selected_action": [str(i) for i in ids]},
                       follow=True)


def test_groups_then_play_offs_of_twelve_bots_run_from_the_admin_to_the_final(client, organiser,
                                                                             django_capture_on_commit_callbacks):
    club = Club.objects.create(name="Riga Card Club", slug="riga")
    league = League.objects.create(club=club, name="LIVOL Tuesday", game="livol", options={"target": 30})
    # the add form offers the format, and its settings are checked against it
    form = client.get("/admin/league/tournament/add/").content.decode()
    assert '<option value="groups_knockout">Groups then play-offs</option>' in form
    data = {"league": league.pk, "name": "Cup", "format": "groups_knockout", "game": "", "options": "",
            "seats_per_table": "2", "rounds": "", "seeding": "entry", "starts_on": "", "days_between_rounds": "7",
            "auto_advance": "on", "timeout_rule": "", **inline_forms("entrants", []), **inline_forms("teams", [])}
    refused = client.post("/admin/league/tournament/add/", {**data, "format_options": '{"group_size": 1}'})
    assert refused.status_code == 200 and "a group has 2 to 32 players" in refused.content.decode()
    r = client.post("/admin/league/tournament/add/", {**data, "format_options": '{"group_size": 4, "advance": 2}'})
    assert r.status_code == 302, r.context["adminform"].form.errors if r.status_code == 200 else r
    tournament = Tournament.objects.get(name="Cup")
    assert tournament.format_options == {"group_size": 4, "advance": 2}
    r = client.post(f"/admin/league/tournament/{tournament.pk}/add-bots/", {"count": "12", "policy": "greedy"})
    assert r.status_code == 302 and tournament.entrants.count() == 12
    # the organiser pairs round 1 and starts it; the rounds after it start as the ones before end
    r = _action(client, "pair_next_round", [tournament.pk])
    assert "round 1 paired (6 tables)" in r.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        _action(client, "start_round", [tournament.pk])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    change = client.get(f"/admin/league/tournament/{tournament.pk}/change/")
    assert change.status_code == 200 and "group_size" in change.content.decode()
    # three groups of four play three rounds (tables marked with the group), then six go through to the play-offs
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [r.stage for r in rounds] == ["groups"] * 3 + ["playoffs"] * 3
    group_tables = Table.objects.filter(round__tournament=tournament, round__stage="groups")
    assert sorted(set(group_tables.values_list("stage", flat=True))) == ["A", "B", "C"]
    assert group_tables.count() == 18
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert page.count('class="lg-table lg-standings lg-group"') == 3
    assert "Group A" in page and "counting only that group&#x27;s tables" in page
    assert 'data-round="winner"' in page and "Semi-final" in page
    table = standings.standings(tournament)
    assert table["rows"][0]["stage"] == "Winner" and table["rows"][1]["stage"] == "Final"
    assert sum(1 for r in table["rows"] if r["stage"] == "Group stage") == 6
    # the play-offs' players are the two best of each group on the group's own table
    groups = group_standings(tournament)["groups"]
    best = {r["entrant_id"] for g in groups for r in g["rows"][:2]}
    first = Table.objects.filter(round=rounds[3])
    assert {s.entrant_id for t in first for s in t.seats.all()} == best


def test_a_double_elimination_of_six_bots_runs_to_its_final(league, client):
    tournament = make_tournament(league, format="double_elimination", players=6)
    tournament = services.tournament_run(tournament_id=tournament.pk)
    assert tournament.status == Tournament.Status.FINISHED
    stages = list(Round.objects.filter(tournament=tournament).order_by("number").values_list("stage", flat=True))
    assert stages[0] == "winners" and stages[-1] == "final"
    assert set(Table.objects.filter(round__tournament=tournament).values_list("stage", flat=True)) == {"W", "L", "GF"}
    table = standings.standings(tournament)
    assert table["rows"][0]["stage"] == "Winner"
    brackets = tournament_brackets(tournament)
    assert [b["key"] for b in brackets] == ["W", "L", "GF"]
    # the page draws the two brackets and the final, and states how the bracket advances
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-bracket="W"' in page and 'data-bracket="L"' in page and 'data-bracket="GF"' in page
    assert "Winners&#x27; round 1" in page and "Losers&#x27; final" in page
    assert "who enter in the first of these orders in which nobody meets a player they have met before" in page
    # and the API gives each round's and table's stage
    detail = client.get(f"/api/league/tournaments/{tournament.pk}").json()
    assert detail["rounds_played"][0]["stage"] == "winners" and detail["rounds_played"][-1]["stage"] == "final"
    assert {t["stage"] for r in detail["rounds_played"] for t in r["tables"]} == {"W", "L", "GF"}


def test_the_command_twins_write_the_formats_settings(league, capsys):
    call_command("tournament_create", "--league", str(league.pk), "--name", "Cup", "--format", "groups_knockout",
                 "--group-size", "3", "--advance", "1")
    assert Tournament.objects.get(name="Cup").format_options == {"group_size": 3, "advance": 1}
    call_command("tournament_create", "--league", str(league.pk), "--name", "DE", "--format", "double_elimination",
                 "--no-bracket-reset")
    assert Tournament.objects.get(name="DE").format_options == {"bracket_reset": False}
    call_command("bot_tournament", "--game", "livol", "--format", "groups_knockout", "--players", "6",
                 "--group-size", "3", "--advance", "1", "--sync", "--policy", "greedy", "--option", "target=30")
    assert "Final standings" in capsys.readouterr().out
    run = Tournament.objects.filter(format="groups_knockout").exclude(name="Cup").get()
    assert run.status == Tournament.Status.FINISHED and run.format_options == {"group_size": 3, "advance": 1}
    # two groups of three (three rounds), then the two group winners meet in the final
    assert list(run.round_set.order_by("number").values_list("stage", flat=True)) == ["groups"] * 3 + ["playoffs"]
    with pytest.raises(CommandError, match="a group has 2 to 32 players"):
        call_command("tournament_create", "--league", str(league.pk), "--name", "Bad", "--format",
                     "groups_knockout", "--group-size", "1")


def _play_by_hand(tournament, winner_of):
    """Pair, start and decide every round by hand (the organiser's award): ``winner_of(round, stage,
    seats)`` names the entrant who wins each table."""
    rnd = services.round_pair(tournament_id=tournament.pk)
    while rnd is not None:
        services.round_start(round_id=rnd.pk)
        for table in rnd.tables.filter(kind=Table.Kind.MATCH).select_related("match"):
            seats = list(table.seats.order_by("position"))
            winner = winner_of(rnd, table.stage, seats)
            by_entrant = {s.entrant_id: s.match_seat for s in seats}
            loser = next(e for e in by_entrant if e != winner)
            games.match_award(match_id=table.match_id, ranking=[[by_entrant[winner]], [by_entrant[loser]]])
            services.table_record(table_id=table.pk)
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.CLOSED
        rnd = Round.objects.filter(tournament=tournament, number=rnd.number + 1).first()
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize("players", [6, 7])
def test_a_double_elimination_with_a_bracket_reset(league, players):
    # the better seed wins every table, except the first grand final, which the losers' side wins
    tournament = make_tournament(league, format="double_elimination", players=players, auto_advance=False)

    def winner_of(rnd, stage, seats):
        better, worse = sorted(seats, key=lambda s: s.entrant.seed)
        if stage == "GF" and not Table.objects.filter(round__tournament=tournament, stage="GF",
                                                      round__number__lt=rnd.number).exists():
            return worse.entrant_id
        return better.entrant_id

    tournament = _play_by_hand(tournament, winner_of)
    assert tournament.status == Tournament.Status.FINISHED
    finals = list(Table.objects.filter(round__tournament=tournament, stage="GF").order_by("round__number"))
    assert len(finals) == 2, "the losers' side won the first final: a second one"
    seeds = [sorted(s.entrant.seed for s in f.seats.all()) for f in finals]
    assert seeds == [[1, 2], [1, 2]]
    # seed 1 lost once (the first final) and won the reset; seed 2 lost twice
    table = standings.standings(tournament)
    assert [(r["seed"], r["stage"]) for r in table["rows"][:2]] == [(1, "Winner"), (2, "Grand final, reset")]
    assert all(r["losses"] == 2 for r in table["rows"][1:])
    assert table["rows"][0]["losses"] == 1
    # drawn as two brackets and the final, on the public page too
    assert [b["key"] for b in tournament_brackets(tournament)] == ["W", "L", "GF"]


def test_without_the_bracket_reset_the_first_final_decides(league):
    tournament = make_tournament(league, format="double_elimination", players=6, auto_advance=False,
                                 format_options={"bracket_reset": False})

    def winner_of(rnd, stage, seats):
        better, worse = sorted(seats, key=lambda s: s.entrant.seed)
        return worse.entrant_id if stage == "GF" else better.entrant_id

    tournament = _play_by_hand(tournament, winner_of)
    assert Table.objects.filter(round__tournament=tournament, stage="GF").count() == 1
    assert standings.standings(tournament)["rows"][0]["seed"] == 2
    # and its progress ends at the round it ended in, not at the most it could have taken
    progress = rounds.tournament_progress(tournament)
    assert progress["round"] == progress["rounds"] < tournament.rounds and progress["percent"] == 100


def test_a_double_elimination_is_refused_at_tables_of_three(league):
    with pytest.raises(services.InvalidTournament, match="tables of two"):
        services.tournament_create(league_id=league.pk, name="DE", format="double_elimination", seats_per_table=3)
