"""The pages of people at the table: invitations answered, seats taken with the browser's randomness,
the clock's countdown, resigning (after a confirmation), where a match belongs, and what waits for a
person on the home page."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from engine import registry
from games import store
from games.models import Event, Match, Seat
from games.services import SeatSpec, match_create


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_naming_people_on_the_new_match_form_invites_them_and_the_match_waits(people):
    client = signed_in(people[0])
    response = client.post("/matches/new/", {"game": "livol", "livol-seats": 3, "livol-variant": "winner_scores",
                                             "bot": "greedy", "people": "player1", "clock": "live-60",
                                             "entropy": "ab" * 16})
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.status == Match.Status.WAITING and match.clock == {"move_seconds": 60}
    assert list(match.seats.values_list("status", flat=True)) == ["joined", "invited", "joined"]
    mine = Event.objects.get(match=match, type="entropy_contributed", seat=0).payload
    assert mine["value"] == "ab" * 16 and mine["by"] == "player"
    # janis sees the invitation on his home page and on the match page
    other = signed_in(people[1])
    home = other.get("/").content.decode()
    assert f"/matches/{match.pk}/join/" in home and f"/matches/{match.pk}/decline/" in home
    page = other.get(f"/matches/{match.pk}/").content.decode()
    assert "Accept and take my seat" in page and "data-entropy" in page


def test_accepting_on_the_page_starts_the_match_with_the_browsers_value(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         created_by=people[0])
    response = signed_in(people[1]).post(f"/matches/{match.pk}/join/", {"entropy": "cd" * 16})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert Event.objects.get(match=match, type="entropy_contributed", seat=1).payload["value"] == "cd" * 16


def test_without_script_the_server_contributes_for_the_seat(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    signed_in(people[1]).post(f"/matches/{match.pk}/join/", {"entropy": ""})
    assert Event.objects.get(match=match, type="entropy_contributed", seat=1).payload["by"] == "server"


@pytest.mark.parametrize("broken", ["abc", "ab" * 65, "AB" * 16, "zz" * 16])
def test_a_broken_value_from_the_page_is_no_error_the_server_contributes_instead(people, broken):
    """One rule for a seat's value (``games.web.params.entropy``): too short, too long, upper case or not hex,
    the page's join and new-match form go on, and the server contributes for the seat."""
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    assert signed_in(people[1]).post(f"/matches/{match.pk}/join/", {"entropy": broken}).status_code == 302
    assert Event.objects.get(match=match, type="entropy_contributed", seat=1).payload["by"] == "server"
    response = signed_in(people[2]).post("/matches/new/", {"game": "livol", "livol-seats": 2, "bot": "greedy",
                                                          "livol-variant": "winner_scores", "entropy": broken})
    assert response.status_code == 302
    new = Match.objects.exclude(pk=match.pk).get()
    assert Event.objects.get(match=new, type="entropy_contributed", seat=0).payload["by"] == "server"


def test_the_audit_page_and_the_api_name_the_seats_the_server_contributed_for(people):
    """a seat with no person's value is flagged, and a deal no person's value went into is
    said to be the server's alone."""
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], entropy="ab" * 16), SeatSpec(bot="greedy"),
                                              SeatSpec(user=people[1])])
    detail = signed_in(people[0]).get(f"/api/matches/{match.pk}").json()["randomness"]
    assert detail == {"players": [0], "server": [1, 2], "complete": True, "server_alone": False}
    client = signed_in(people[0])
    client.post(f"/matches/{match.pk}/resign/", {"confirm": "yes"})
    signed_in(people[1]).post(f"/matches/{match.pk}/resign/", {"confirm": "yes"})
    audit = client.get(f"/matches/{match.pk}/audit/").content.decode()
    assert "The server contributed the random value of: 2. greedy bot 1, 3. player1" in audit

    alone = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")])
    assert signed_in(people[0]).get(f"/api/matches/{alone.pk}").json()["randomness"]["server_alone"] is True
    signed_in(people[0]).post(f"/matches/{alone.pk}/resign/", {"confirm": "yes"})
    page = signed_in(people[0]).get(f"/matches/{alone.pk}/audit/").content.decode()
    assert "the server alone fixed it" in page


def test_declining_on_the_page_cancels_the_match(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    assert signed_in(people[1]).post(f"/matches/{match.pk}/decline/").status_code == 302
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED
    page = signed_in(people[0]).get(f"/matches/{match.pk}/").content.decode()
    assert "This match never started." in page


def test_a_stranger_cannot_take_or_decline_a_seat(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    stranger = signed_in(people[2])
    assert stranger.post(f"/matches/{match.pk}/join/").status_code == 403
    assert stranger.post(f"/matches/{match.pk}/decline/").status_code == 403
    assert Match.objects.get(pk=match.pk).is_waiting


def test_the_seat_to_act_sees_its_countdown(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="clock",
                         clock={"move_seconds": 60})
    turn = Seat.objects.get(match=match, deadline__isnull=False)
    page = signed_in(people[0]).get(f"/matches/{match.pk}/").content.decode()
    assert f'data-deadline="{turn.deadline.isoformat()}"' in page
    assert "60 seconds a move" in page


def test_resigning_on_the_page_needs_a_confirmation(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="resign")
    client = signed_in(people[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Resign this match?" in page
    assert client.post(f"/matches/{match.pk}/resign/").status_code == 400
    assert Match.objects.get(pk=match.pk).is_running
    assert client.post(f"/matches/{match.pk}/resign/", {"confirm": "yes"}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"][-1] == [0]


def test_the_home_page_lists_the_matches_where_it_is_your_turn_with_the_clock(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="home",
                         clock={"move_days": 2})
    game = registry.get("livol")
    turn = game.view(store.load_state(match), None)["turn"]
    home = signed_in(people[turn]).get("/").content.decode()
    section = home.split("Your turn", 1)[1].split("</ul>", 1)[0]
    assert f"/matches/{match.pk}/" in section and "data-deadline" in section


def test_a_finished_match_offers_its_record_for_download(people):
    from games.services import bots_advance

    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")],
                         options={"target": 30})
    bots_advance(match_id=match.pk, budget=10000)
    client = signed_in(people[0])
    for page in (f"/matches/{match.pk}/replay/", f"/matches/{match.pk}/audit/"):
        assert f"/matches/{match.pk}/record.json" in client.get(page).content.decode()
    response = client.get(f"/matches/{match.pk}/record.json")
    assert response.status_code == 200 and response["Content-Disposition"].endswith(f'match-{match.pk}.json"')
    assert json.loads(response.content)["format"] == "cardleague-match-record"


@pytest.mark.parametrize("path", ["/accounts/signup/", "/accounts/settings/"])
def test_the_people_pages_render(people, path):
    assert signed_in(people[0]).get(path).status_code == 200


@pytest.mark.parametrize("game", registry.names())
def test_the_rules_page_states_every_option_and_its_bounds_as_the_engine_checks_them(db, game):
    """the bounds are stated where a club reads the rules, and they are the engine's."""

    page = Client().get(f"/rules/{game}/").content.decode()
    assert "What a club can set for a match" in page
    for name, (_default, check) in registry.options(game).items():
        if isinstance(check, tuple):
            continue
        assert f"a whole number from {check.low} to {check.high}" in page, name
        assert not check(check.high + 1) and check(check.high)


def test_a_livol_target_beyond_the_bound_is_refused_by_the_engine_and_the_form(people):
    from engine import livol

    with pytest.raises(ValueError):
        registry.get("livol").start(2, "s", options={"target": livol.MAX_TARGET + 1})
    with pytest.raises(ValueError):
        registry.get("livol").start(2, "s", options={"challenge_extra_penalty": 10**30})
    response = signed_in(people[0]).post("/matches/new/", {"game": "livol", "livol-seats": 2,
                                                           "livol-variant": "winner_scores", "bot": "greedy",
                                                           "livol-challenge_extra_penalty": 11})
    assert response.status_code == 400 and not Match.objects.exists()
