"""The play, board, move, replay and audit pages."""
import json

import pytest
from django.test import Client

from games.models import Match
from games.services import SeatSpec, bots_advance, match_create
from tests.games.conftest import first_actor


@pytest.fixture
def signed_in(people):
    c = Client()
    c.force_login(people[0])
    return c


def test_a_player_starts_a_match_against_bots_from_the_home_page(signed_in, people):
    response = signed_in.post("/matches/new/", {"game": "livol", "seats": 3, "bot": "random"})
    assert response.status_code == 302
    match = Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert [s.user_id for s in match.seats.order_by("index")] == [people[0].pk, None, None]
    assert list(match.seats.exclude(bot="").values_list("bot", flat=True)) == ["random", "random"]


def test_a_player_can_seat_other_people_and_bots_fill_the_rest(signed_in, people):
    response = signed_in.post("/matches/new/", {"game": "livol", "seats": 4, "bot": "greedy",
                                                "people": f"{people[1].username}, {people[2].username}"})
    assert response.status_code == 302
    match = Match.objects.latest("created_at")
    assert [s.user_id for s in match.seats.order_by("index")] == [p.pk for p in people] + [None]
    assert signed_in.post("/matches/new/", {"game": "livol", "seats": 3, "bot": "greedy",
                                            "people": "nobody-here"}).status_code == 400


def test_the_new_match_form_refuses_a_seat_count_outside_the_game(signed_in):
    response = signed_in.post("/matches/new/", {"game": "cardavia", "seats": 2, "bot": "random"})
    assert response.status_code == 400


def test_the_play_page_shows_the_seats_hand_and_its_legal_moves(livol_match, people):
    seat, legal = first_actor(livol_match)
    c = Client()
    c.force_login(people[seat])
    page = c.get(f"/matches/{livol_match.pk}/")
    assert page.status_code == 200
    assert page.context["seat"] == seat
    assert [m["move"] for m in page.context["legal"]] == legal
    assert b'hx-post="/matches/' in page.content


def test_a_move_posted_from_the_page_is_recorded_and_the_board_comes_back(livol_match, people):
    seat, legal = first_actor(livol_match)
    c = Client()
    c.force_login(people[seat])
    response = c.post(f"/matches/{livol_match.pk}/move/?seat={seat}",
                      {"move": json.dumps(legal[0]), "expected_seq": livol_match.last_seq}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    livol_match.refresh_from_db()
    assert response.context["seq"] == livol_match.last_seq > 0
    assert response.context.get("error") is None


def test_an_illegal_move_from_the_page_shows_its_code_and_records_nothing(livol_match, people):
    seat, _ = first_actor(livol_match)
    c = Client()
    c.force_login(people[1 - seat])
    before = livol_match.last_seq
    response = c.post(f"/matches/{livol_match.pk}/move/", {"move": '{"type":"draw"}', "expected_seq": before},
                      HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.context["error"]["code"] == "not_your_turn"
    livol_match.refresh_from_db()
    assert livol_match.last_seq == before
    # without htmx the status carries the error
    response = c.post(f"/matches/{livol_match.pk}/move/", {"move": "nonsense", "expected_seq": before})
    assert response.status_code == 400


def test_a_stranger_cannot_post_a_move(livol_match, people):
    c = Client()
    c.force_login(people[2])
    response = c.post(f"/matches/{livol_match.pk}/move/", {"move": '{"type":"draw"}'})
    assert response.status_code == 403


def test_polling_answers_204_when_nothing_changed(livol_match, people):
    c = Client()
    c.force_login(people[0])
    assert c.get(f"/matches/{livol_match.pk}/board/?since={livol_match.last_seq}").status_code == 204
    assert c.get(f"/matches/{livol_match.pk}/board/?since=0").status_code == 200


def test_the_replay_page_steps_through_a_finished_match(people, signed_in):
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")],
                         seed="replay", options={"target": 40})
    bots_advance(match_id=match.pk, budget=100000)
    first = signed_in.get(f"/matches/{match.pk}/replay/")
    assert first.status_code == 200 and first.context["step"] == 0
    last_step = first.context["last_step"]
    assert last_step > 5
    # each step shows every hand (the match is over) and the move that led there
    step3 = signed_in.get(f"/matches/{match.pk}/replay/?step=3", HTTP_HX_REQUEST="true")
    assert step3.context["position"]["move"] is not None
    assert all(h is not None for h in step3.context["hands"])
    last = signed_in.get(f"/matches/{match.pk}/replay/?step={last_step}")
    assert last.context["view"]["over"] is True
    audit = signed_in.get(f"/matches/{match.pk}/audit/")
    assert audit.status_code == 200 and audit.context["report"].ok


def test_an_unknown_match_page_is_404(signed_in):
    assert signed_in.get("/matches/987654/").status_code == 404
