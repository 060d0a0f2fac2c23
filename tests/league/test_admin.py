"""The organiser's workflow in the admin, through the test client: create a club, a league, a season
and a tournament; add entrants; generate a round; start it; see progress and standings; withdraw
a player; export standings and results as CSV."""
import csv
import io

import pytest
from django.contrib.auth.models import Permission

from league import services
from league.models import (
    DEFAULT_TIE_BREAKS,
    Club,
    Entrant,
    League,
    PlayerProfile,
    Round,
    Season,
    Table,
    Tournament,
    Withdrawal,
)
from tests.league.conftest import inline_forms, make_tournament


def _action(client, model, action, ids):
    return client.post(f"/admin/league/{model}/", {"action": action, "_selected_action": [str(i) for i in ids]},
                       follow=True)


def test_an_organiser_runs_a_swiss_from_the_admin(client, organiser, django_capture_on_commit_callbacks):
    # create a club, a league (short matches, own tie-break order) and a season
    r = client.post("/admin/league/club/add/", {"name": "Riga Card Club", "slug": "riga", "time_zone": "Europe/Riga",
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
        "days_between_rounds": "7", **inline_forms("entrants", [{"player": solo.pk, "id": "", "tournament": ""}]), **inline_forms("teams", [])})
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
    assert rows[0][:7] == ["tournament", "position", "player", "match_points", "buchholz", "sonneborn_berger",
                           "wins"]
    assert len(rows) == 5 and {row[0] for row in rows[1:]} == {"Autumn Swiss"}
    assert next(row for row in rows if row[2] == "Solo bot")[-1] == "withdrew in round 2"
    r = _action(client, "tournament", "export_results", [tournament.pk])
    results = list(csv.reader(io.StringIO(r.content.decode())))
    assert results[0][:6] == ["tournament", "round", "table", "kind", "position", "player"]
    assert len(results) == 1 + 8
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


# -- permissions -------------------------------------------------------------------------------------

def _staff(django_user_model, name, club, codenames_like):
    """A staff account organising ``club`` with the permissions whose codename starts with one of
    ``codenames_like`` on every model of the league and games apps."""
    user = django_user_model.objects.create_user(username=name, password="pw", is_staff=True)
    perms = Permission.objects.filter(content_type__app_label__in=["league", "games"])
    user.user_permissions.set([p for p in perms if p.codename.startswith(tuple(codenames_like))])
    club.organisers.add(user)
    return user


@pytest.fixture
def desk(league):
    """A tournament taking entries and two whose first round is paired, all of bots."""
    draft = make_tournament(league, players=4)
    paired = []
    for _ in range(2):
        t = make_tournament(league, players=4)
        services.round_pair(tournament_id=t.pk)
        paired.append(t)
    return {"draft": draft, "paired": paired[0], "other": paired[1]}


def _listed_actions(client, model) -> str:
    return client.get(f"/admin/league/{model}/").content.decode()


def test_a_view_only_staff_account_can_change_nothing(client, django_user_model, league, desk):
    # given
    client.force_login(_staff(django_user_model, "viewer", league.club, ["view_"]))
    draft, paired = desk["draft"], desk["paired"]
    rnd = paired.round_set.get()
    entrant = draft.entrants.first()
    rounds, entrants = Round.objects.count(), Entrant.objects.count()
    # when: every state-changing action and custom view, by POST
    tried = [
        ("tournament", "pair_next_round", [draft.pk]), ("tournament", "start_round", [paired.pk]),
        ("tournament", "record_finished", [paired.pk]), ("entrant", "withdraw", [entrant.pk]),
        ("round", "start", [rnd.pk]), ("tournament", "delete_selected", [draft.pk]),
        ("entrant", "delete_selected", [entrant.pk]),
    ]
    for model, action, ids in tried:
        # then: not even offered, and refused when posted anyway
        assert f'value="{action}"' not in _listed_actions(client, model), action
        _action(client, model, action, ids)
    assert client.get(f"/admin/league/tournament/{draft.pk}/add-bots/").status_code == 403
    assert client.post(f"/admin/league/tournament/{draft.pk}/add-bots/",
                       {"count": "2", "policy": "greedy"}).status_code == 403
    assert client.post(f"/admin/league/tournament/{draft.pk}/change/", {"name": "renamed"}).status_code == 403
    for url in [f"/admin/league/tournament/{draft.pk}/change/", f"/admin/league/tournament/{paired.pk}/change/",
                f"/admin/league/round/{rnd.pk}/change/", f"/admin/league/league/{league.pk}/change/"]:
        assert client.get(url).status_code == 200, url  # looking is allowed
    # and the state is as it was
    rnd.refresh_from_db()
    assert (Round.objects.count(), Entrant.objects.count()) == (rounds, entrants)
    assert rnd.status == Round.Status.PAIRED and not Withdrawal.objects.exists()
    assert Tournament.objects.filter(pk=draft.pk, name=draft.name).exists()


def test_a_view_only_staff_account_may_export(client, django_user_model, league, desk):
    # given
    client.force_login(_staff(django_user_model, "viewer", league.club, ["view_"]))
    # when
    r = _action(client, "tournament", "export_standings", [desk["paired"].pk])
    # then
    assert r["Content-Type"].startswith("text/csv")


def test_a_staff_account_with_change_permissions_runs_the_actions(client, django_user_model, league, desk,
                                                                  django_capture_on_commit_callbacks):
    # given
    client.force_login(_staff(django_user_model, "changer", league.club, ["view_", "change_"]))
    draft, paired, other = desk["draft"], desk["paired"], desk["other"]
    # when / then
    _action(client, "tournament", "pair_next_round", [draft.pk])
    assert draft.round_set.count() == 1
    _action(client, "tournament", "start_round", [paired.pk])
    assert paired.round_set.get().status != Round.Status.PAIRED
    _action(client, "round", "start", [other.round_set.get().pk])
    assert other.round_set.get().status != Round.Status.PAIRED
    r = _action(client, "tournament", "record_finished", [paired.pk])
    assert "tables recorded" in r.content.decode()
    entrant = other.entrants.first()
    _action(client, "entrant", "withdraw", [entrant.pk])
    assert Withdrawal.objects.filter(entrant=entrant).exists()
    fresh = make_tournament(league, players=2)
    r = client.post(f"/admin/league/tournament/{fresh.pk}/add-bots/", {"count": "2", "policy": "greedy"})
    assert r.status_code == 302 and fresh.entrants.count() == 4


def test_deletion_is_not_offered_where_it_is_refused(client, organiser, league, desk):
    # given: rounds and ratings are records; a started tournament and its entrants stay
    paired = desk["paired"]
    # when / then
    for model in ("round", "rating"):
        assert 'value="delete_selected"' not in _listed_actions(client, model), model
    assert client.get(f"/admin/league/tournament/{paired.pk}/delete/").status_code == 403
    assert client.get(f"/admin/league/entrant/{paired.entrants.first().pk}/delete/").status_code == 403
    _action(client, "tournament", "delete_selected", [paired.pk])
    assert Tournament.objects.filter(pk=paired.pk).exists()
    # a tournament still taking entries may go, and its entrants through the service
    draft = desk["draft"]
    entrant = draft.entrants.first()
    assert client.post(f"/admin/league/entrant/{entrant.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Entrant.objects.filter(pk=entrant.pk).exists()


# -- the organiser's forms -------------------------------------------------------------------------------

def _form(response):
    return response.context["adminform"].form


def test_a_new_league_starts_from_the_default_tie_break_order(client, organiser, club):
    # when
    page = client.get("/admin/league/league/add/").content.decode()
    # then
    assert f'value="{", ".join(DEFAULT_TIE_BREAKS)}"' in page


def test_league_match_options_are_checked_against_the_game(client, organiser, club):
    # when
    r = client.post("/admin/league/league/add/", {
        "club": club.pk, "name": "IOTA nights", "game": "iota", "options": '{"target": 30}', "rated": "on",
        "win_points": "3", "draw_points": "1", "loss_points": "0", "place_points": "", "bye_points": "3",
        "tie_breaks": ", ".join(DEFAULT_TIE_BREAKS), "forfeit_rule": "award"})
    # then
    assert r.status_code == 200
    assert "iota: unknown option(s) target" in " ".join(_form(r).errors["options"])
    assert not League.objects.filter(name="IOTA nights").exists()


def _tournament_post(league, **changes):
    return {"league": league.pk, "season": "", "name": "Cup", "format": "swiss", "options": "",
            "seats_per_table": "2", "rounds": "2", "seeding": "entry", "starts_on": "", "days_between_rounds": "7",
            **inline_forms("entrants", []), **inline_forms("teams", []), **changes}


def test_a_tournament_plays_its_leagues_game(client, organiser, league):
    # given
    cardavia = services.league_create(club_id=league.club_id, name="Cardavia league", game="cardavia")
    # when: the add form has no game to choose
    page = client.get("/admin/league/tournament/add/")
    # then
    assert "game" not in _form(page).fields
    r = client.post("/admin/league/tournament/add/", _tournament_post(cardavia, seats_per_table="3",
                                                                       game="livol"))
    assert r.status_code == 302, _form(r).errors if r.status_code == 200 else r
    cup = Tournament.objects.get(name="Cup")
    assert cup.game == "cardavia"
    # a league with tournaments keeps its game
    assert "game" not in _form(client.get(f"/admin/league/league/{cardavia.pk}/change/")).fields
    # and on the change form the game is shown, not chosen; moving the draft to another league moves its game
    change = client.get(f"/admin/league/tournament/{cup.pk}/change/")
    assert "game" not in _form(change).fields and "Cardavia" in change.content.decode()
    r = client.post(f"/admin/league/tournament/{cup.pk}/change/",
                    _tournament_post(league, seats_per_table="2", options='{"target": 30}'))
    assert r.status_code == 302, _form(r).errors if r.status_code == 200 else r
    cup.refresh_from_db()
    assert (cup.league, cup.game, cup.options) == (league, "livol", {"target": 30})


def test_tournament_match_options_are_checked_against_the_leagues_game_before_saving(client, organiser, league):
    # given
    iota = services.league_create(club_id=league.club_id, name="IOTA league", game="iota")
    # when: a new tournament of the IOTA league with a LIVOL option
    r = client.post("/admin/league/tournament/add/", _tournament_post(iota, options='{"target": 30}'))
    # then
    assert r.status_code == 200
    assert "iota: unknown option(s) target" in " ".join(_form(r).errors["options"])
    assert not Tournament.objects.filter(name="Cup").exists()
    # when: a LIVOL draft with that option moved to the IOTA league (its game comes from the league)
    cup = services.tournament_create(league_id=league.pk, name="Cup", options={"target": 30})
    r = client.post(f"/admin/league/tournament/{cup.pk}/change/",
                    _tournament_post(iota, options='{"target": 30}', game="livol"))  # a stale game is ignored
    # then
    assert r.status_code == 200
    assert "iota: unknown option(s) target" in " ".join(_form(r).errors["options"])
    cup.refresh_from_db()
    assert (cup.league, cup.game) == (league, "livol")


def test_the_season_choices_are_the_leagues(client, organiser, league):
    # given
    other = services.league_create(club_id=league.club_id, name="Other league", game="livol")
    autumn = services.season_create(league_id=league.pk, name="Autumn")
    spring = services.season_create(league_id=other.pk, name="Spring")
    cup = services.tournament_create(league_id=league.pk, name="Cup")
    # when / then: the change form offers the tournament's league's seasons only
    change = _form(client.get(f"/admin/league/tournament/{cup.pk}/change/"))
    assert list(change.fields["season"].queryset) == [autumn]
    # the add form asked for a league offers its seasons only
    add = _form(client.get(f"/admin/league/tournament/add/?league={other.pk}"))
    assert list(add.fields["season"].queryset) == [spring]
    # another league's season is refused with a clear error, and nothing is saved
    r = client.post("/admin/league/tournament/add/", _tournament_post(league, name="Winter cup", season=spring.pk))
    assert r.status_code == 200
    assert _form(r).errors["season"] == ["Choose a season of the tournament's league."]
    assert not Tournament.objects.filter(name="Winter cup").exists()


def test_an_organiser_chooses_only_among_their_own_clubs_leagues(client, django_user_model, league):
    # given
    elsewhere = services.club_create(name="Elsewhere", slug="elsewhere")
    theirs = services.league_create(club_id=elsewhere.pk, name="Not yours", game="livol")
    client.force_login(_staff(django_user_model, "organiser2", league.club, ["view_", "change_", "add_"]))
    # when
    form = _form(client.get("/admin/league/tournament/add/"))
    # then
    assert list(form.fields["league"].queryset) == [league]
    r = client.post("/admin/league/tournament/add/", _tournament_post(theirs))
    assert r.status_code == 200 and "league" in _form(r).errors


# -- exports ---------------------------------------------------------------------------------------------

def _csv_rows(response) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_the_standings_export_names_each_column_once(client, organiser, league):
    # given: wins is both a tie-break and a counter
    assert "wins" in league.tie_breaks
    done = services.tournament_run(tournament_id=make_tournament(league, players=4, rounds=2).pk)
    # when
    header, *rows = _csv_rows(_action(client, "tournament", "export_standings", [done.pk]))
    # then
    assert len(header) == len(set(header)) and header.count("wins") == 1
    assert all(len(row) == len(header) for row in rows) and len(rows) == 4


def test_several_tournaments_export_as_one_csv(client, organiser, league):
    # given
    swiss = services.tournament_run(tournament_id=make_tournament(league, players=4, rounds=2).pk)
    robin = services.tournament_run(tournament_id=make_tournament(league, format="round_robin", players=3).pk)
    # when
    standings = _csv_rows(_action(client, "tournament", "export_standings", [swiss.pk, robin.pk]))
    results = _csv_rows(_action(client, "tournament", "export_results", [swiss.pk, robin.pk]))
    # then: one table, a leading tournament column naming each row's tournament
    assert standings[0][:3] == ["tournament", "position", "player"]
    assert [row[0] for row in standings[1:]] == [swiss.name] * 4 + [robin.name] * 3
    assert results[0][:2] == ["tournament", "round"]
    assert {row[0] for row in results[1:]} == {swiss.name, robin.name}
    for table in (standings, results):
        assert all(len(row) == len(table[0]) for row in table)


def test_a_clubs_time_zone_must_be_a_real_one(admin_client):
    """An organiser who types a time zone that does not exist is told so; the club is not saved."""
    r = admin_client.post("/admin/league/club/add/", {"name": "Vilnius Cards", "slug": "vilnius",
                                                      "time_zone": "Europe/Atlantis"})
    assert r.status_code == 200
    assert b"Not a time zone" in r.content
    assert not Club.objects.filter(slug="vilnius").exists()
    r = admin_client.post("/admin/league/club/add/", {"name": "Vilnius Cards", "slug": "vilnius",
                                                      "time_zone": "Europe/Vilnius"})
    assert r.status_code == 302
    assert Club.objects.get(slug="vilnius").time_zone == "Europe/Vilnius"
