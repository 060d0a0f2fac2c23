"""Groups then play-offs and double elimination with the database: run from the admin, and through the
services with a bracket reset."""
from __future__ import annotations

import pytest

from league import services
from league.models import Club, League, Round, Table, Tournament
from league.selectors import rounds as rounds_selectors
from league.selectors import standings
from league.selectors.groups import group_standings, tournament_brackets
from tests.league.conftest import make_tournament


@pytest.fixture
def organiser(django_user_model, client):
    user = django_user_model.objects.create_superuser(username="organiser", password="pw", email="o@example.org")
    client.force_login(user)
    return user


def _inline(prefix, rows):
    return {f"{prefix}-TOTAL_FORMS": str(len(rows)), f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"}


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
            "auto_advance": "on", "timeout_rule": "", **_inline("entrants", [])}
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


def test_a_double_elimination_of_six_bots_runs_to_its_final(league):
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
