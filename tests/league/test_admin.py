"""The organiser's workflow in the admin, through the test client: create a club, a league, a season
and a tournament; add entrants; generate a round; start it; see progress and standings; withdraw
a player; export standings and results as CSV."""
import csv
import io

import pytest

from league import services
from league.models import Club, Entrant, League, PlayerProfile, Round, Season, Table, Tournament


@pytest.fixture
def organiser(django_user_model, client):
    user = django_user_model.objects.create_superuser(username="organiser", password="pw", email="o@example.org")
    client.force_login(user)
    return user


def _inline(prefix, rows):
    data = {f"{prefix}-TOTAL_FORMS": str(len(rows)), f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"}
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-{k}": v for k, v in row.items()})
    return data


def _action(client, model, action, ids):
    return client.post(f"/admin/league/{model}/", {"action": action, "_selected_action": [str(i) for i in ids]},
                       follow=True)


def test_an_organiser_runs_a_swiss_from_the_admin(client, organiser, django_capture_on_commit_callbacks):
    # create a club, a league (short matches, own tie-break order) and a season
    r = client.post("/admin/league/club/add/", {"name": "Riga Card Club", "slug": "riga",
                                                "organisers": [organiser.pk], "members": [organiser.pk]})
    assert r.status_code == 302, r.content[:2000]
    club = Club.objects.get(slug="riga")
    r = client.post("/admin/league/league/add/", {
        "club": club.pk, "name": "LIVOL Tuesday", "game": "livol", "options": '{"target": 30}', "rated": "on",
        "win_points": "3", "draw_points": "1", "loss_points": "0", "place_points": "", "bye_points": "3",
        "tie_breaks": "match_points, buchholz, sonneborn_berger, wins", "forfeit_rule": "award"})
    assert r.status_code == 302, r.content[:3000]
    league = League.objects.get(name="LIVOL Tuesday")
    assert league.tie_breaks == ["match_points", "buchholz", "sonneborn_berger", "wins"]
    r = client.post("/admin/league/season/add/", {"league": league.pk, "name": "Autumn", "starts_on": "2025-09-02",
                                                  "ends_on": ""})
    assert r.status_code == 302
    season = Season.objects.get()
    # create a two-round Swiss with one player entered on the same page; rounds are started by hand
    solo = PlayerProfile.objects.create(name="Solo bot", bot_policy="greedy")
    r = client.post("/admin/league/tournament/add/", {
        "league": league.pk, "season": season.pk, "name": "Autumn Swiss", "format": "swiss", "game": "",
        "options": "", "seats_per_table": "2", "rounds": "2", "seeding": "entry", "starts_on": "",
        "days_between_rounds": "7", **_inline("entrants", [{"player": solo.pk, "id": "", "tournament": ""}])})
    assert r.status_code == 302, r.content[:4000]
    tournament = Tournament.objects.get(name="Autumn Swiss")
    assert (tournament.game, tournament.options, tournament.auto_advance) == ("livol", {"target": 30}, False)
    assert tournament.created_by == organiser
    # add three bots
    r = client.post(f"/admin/league/tournament/{tournament.pk}/add-bots/", {"count": "3", "policy": "greedy"})
    assert r.status_code == 302
    assert tournament.entrants.count() == 4
    # generate the next round (an action)
    r = _action(client, "tournament", "pair_next_round", [tournament.pk])
    assert "round 1 paired (2 tables)" in r.content.decode()
    # start the round's matches: the bots play them (the Celery tasks run on commit)
    with django_capture_on_commit_callbacks(execute=True):
        r = _action(client, "tournament", "start_round", [tournament.pk])
    assert "round 1 started" in r.content.decode()
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.CLOSED
    # progress and standings on the tournament's admin page
    page = client.get(f"/admin/league/tournament/{tournament.pk}/change/").content.decode()
    assert "Round 2 of 2: 0 of 2 matches finished" in page
    assert "2 of 4 overall" in page and "Solo bot" in page and "Sonneborn" in page
    listing = client.get("/admin/league/tournament/").content.decode()
    assert "round 2 of 2 · 0 of 2 matches finished" in listing
    # withdraw a player (the action on entrants): the round-2 table is forfeited
    leaver = Entrant.objects.get(tournament=tournament, player=solo)
    r = _action(client, "entrant", "withdraw", [leaver.pk])
    assert "Solo bot withdrawn." in r.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        _action(client, "tournament", "start_round", [tournament.pk])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Table.objects.filter(round__tournament=tournament, seats__entrant=leaver, seats__forfeited=True).count() == 1
    # export the standings and the results as CSV
    r = _action(client, "tournament", "export_standings", [tournament.pk])
    assert r["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert rows[0][:6] == ["position", "player", "match_points", "buchholz", "sonneborn_berger", "wins"]
    assert len(rows) == 5
    assert next(row for row in rows if row[1] == "Solo bot")[-1] == "withdrew in round 2"
    r = _action(client, "tournament", "export_results", [tournament.pk])
    results = list(csv.reader(io.StringIO(r.content.decode())))
    assert results[0][:5] == ["round", "table", "kind", "position", "player"] and len(results) == 1 + 8
    # the public tournament page shows the same standings
    public = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Autumn Swiss" in public and "withdrew in round 2" in public and "/replay/" in public


def test_an_organiser_who_is_not_a_superuser_sees_only_their_clubs(client, django_user_model, league):
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user(username="staff", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="league"))
    client.force_login(staff)
    assert "LIVOL league" not in client.get("/admin/league/league/").content.decode()
    league.club.organisers.add(staff)
    assert "LIVOL league" in client.get("/admin/league/league/").content.decode()


def test_the_admin_pages_render(client, organiser, league):
    tournament = services.tournament_create(league_id=league.pk, name="Open")
    for url in ["/admin/league/club/add/", "/admin/league/league/add/", f"/admin/league/league/{league.pk}/change/",
                "/admin/league/season/add/", "/admin/league/tournament/add/",
                f"/admin/league/tournament/{tournament.pk}/change/",
                f"/admin/league/tournament/{tournament.pk}/add-bots/", "/admin/league/entrant/",
                "/admin/league/round/", "/admin/league/playerprofile/", "/admin/league/rating/"]:
        assert client.get(url).status_code == 200, url
