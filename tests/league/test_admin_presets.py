"""Presets in the admin: a new tournament starts from a named preset that fills the form, a club saves its
own from a tournament; and seeds typed by hand in the entrants inline."""
from __future__ import annotations

import pytest

from league import services
from league.models import Entrant, Tournament, TournamentPreset
from league.rules import presets
from tests.league.conftest import inline_forms
from tests.league.test_admin_tournaments import PASSWORD, form_as_rendered


@pytest.fixture
def organiser(django_user_model, client, club):
    """A club's organiser (staff, not a superuser) with the tournament permissions."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user(username="org", password=PASSWORD, is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="league"))
    club.organisers.add(user)
    client.force_login(user)
    return user


def test_the_built_in_presets_are_the_four_clubs_ask_for():
    labels = [str(p.label) for p in presets.BUILT_IN]
    assert labels == ["Club night Swiss: 5 rounds, 15+10 clock", "Weekly league", "Knockout cup",
                      "Groups then play-offs"]
    night = presets.built_in("club-night-swiss").values
    assert (night["format"], night["rounds"], night["clock"]) == ("swiss", 5, {"move_seconds": 10,
                                                                               "bank_seconds": 900})
    groups = presets.built_in("groups-then-play-offs").values
    assert (groups["format"], groups["format_options"]) == ("groups_knockout", {"group_size": 4, "advance": 2})


def test_starting_from_a_preset_fills_the_add_tournament_form(client, organiser, league):
    # given the add form offers every preset
    page = client.get(f"/admin/league/tournament/add/?league={league.pk}").content.decode()
    assert "Club night Swiss: 5 rounds, 15+10 clock" in page and "preset=builtin%3Aknockout-cup" in page
    # when the organiser starts from "Club night Swiss"
    page = client.get(f"/admin/league/tournament/add/?league={league.pk}&preset=builtin:club-night-swiss")
    form = form_as_rendered(page.content.decode())
    # then the form comes filled: Swiss, five rounds, the 15+10 clock typed as another clock, the same day
    assert (form["format"], form["rounds"], form["days_between_rounds"]) == ("swiss", "5", "0")
    assert form["clock_choice"] == "custom" and form["clock"] in ('{"move_seconds": 10, "bank_seconds": 900}',)
    # and saved as it comes, the tournament has those settings
    form.update({"league": str(league.pk), "name": "Friday night", **inline_forms("entrants", [])})
    form.pop("_save", None)
    response = client.post("/admin/league/tournament/add/", form)
    assert response.status_code == 302, response.context["adminform"].form.errors
    made = Tournament.objects.get(name="Friday night")
    assert (made.format, made.rounds, made.clock, made.days_between_rounds) == (
        "swiss", 5, {"move_seconds": 10, "bank_seconds": 900}, 0)


def test_a_club_saves_a_tournament_as_its_own_preset_and_starts_from_it(client, organiser, league):
    # given a knockout of the club
    cup = services.tournament_create(league_id=league.pk, name="Spring cup", format="knockout", seats_per_table=3,
                                     clock={"move_seconds": 60}, days_between_rounds=1)
    # when the organiser saves it as a preset
    response = client.post("/admin/league/tournament/", {"action": "save_as_preset", "_selected_action": [cup.pk]})
    assert response.status_code == 302
    # then the club has it, with the tournament's settings and not its name or league
    preset = TournamentPreset.objects.get(club=league.club, name="Spring cup")
    assert preset.values["format"] == "knockout" and preset.values["seats_per_table"] == 3
    assert "league" not in preset.values and "name" not in preset.values
    # and a new tournament starts from it
    form = form_as_rendered(client.get(f"/admin/league/tournament/add/?preset=club:{preset.pk}").content.decode())
    assert (form["format"], form["seats_per_table"], form["clock_choice"]) == ("knockout", "3", "live-60")


def test_another_clubs_preset_fills_nothing(client, organiser, league):
    other = services.club_create(name="Elsewhere", slug="elsewhere")
    theirs = TournamentPreset.objects.create(club=other, name="Theirs", values={"format": "knockout", "rounds": 9})
    page = client.get(f"/admin/league/tournament/add/?preset=club:{theirs.pk}").content.decode()
    assert "Theirs" not in page and form_as_rendered(page)["format"] == "swiss"


def test_seeds_typed_in_the_entrants_inline_are_kept_for_seeding_by_hand(client, organiser, league):
    # given a tournament seeded by hand with three bots
    tournament = services.tournament_create(league_id=league.pk, name="Hand seeded", format="swiss", rounds=1,
                                            seeding=Tournament.Seeding.HAND)
    services.bots_add(tournament_id=tournament.pk, count=3, policy="greedy")
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("pk"))
    # when the organiser types the seeds 3, 1, 2 in the inline and saves
    page = client.get(f"/admin/league/tournament/{tournament.pk}/change/").content.decode()
    data = form_as_rendered(page)
    data.pop("_save", None)
    data.update({"entrants-TOTAL_FORMS": "3", "entrants-INITIAL_FORMS": "3", "entrants-MIN_NUM_FORMS": "0",
                 "entrants-MAX_NUM_FORMS": "1000"})
    for i, (entrant, seed) in enumerate(zip(entrants, [3, 1, 2])):
        data.update({f"entrants-{i}-id": str(entrant.pk), f"entrants-{i}-tournament": str(tournament.pk),
                     f"entrants-{i}-player": str(entrant.player_id), f"entrants-{i}-seed": str(seed)})
    response = client.post(f"/admin/league/tournament/{tournament.pk}/change/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    # and round 1 is paired
    services.round_pair(tournament_id=tournament.pk)
    # then the seeds are as typed
    by_seed = list(Entrant.objects.filter(tournament=tournament).order_by("seed").values_list("pk", flat=True))
    assert by_seed == [entrants[1].pk, entrants[2].pk, entrants[0].pk]


def test_tournament_create_starts_from_a_preset_and_a_flag_overrides_it(league):
    from io import StringIO

    from django.core.management import call_command

    # when a tournament is created from the club night preset, with six rounds instead of five
    call_command("tournament_create", "--league", str(league.pk), "--name", "Night", "--preset",
                 "builtin:club-night-swiss", "--rounds", "6", stdout=StringIO())
    night = Tournament.objects.get(name="Night")
    # then it has the preset's settings but the rounds asked for
    assert (night.format, night.rounds, night.clock, night.days_between_rounds, night.auto_advance) == (
        "swiss", 6, {"move_seconds": 10, "bank_seconds": 900}, 0, True)
    # and a tournament seeded from its standings names it
    call_command("tournament_create", "--league", str(league.pk), "--name", "Next", "--seeding", "standings",
                 "--seeded-from", str(night.pk), stdout=StringIO())
    assert Tournament.objects.get(name="Next").seeded_from == night
