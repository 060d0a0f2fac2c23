"""People at the table (``games/services/matches.py``): invitations, taking a seat with one's own randomness,
resigning, the organiser's abort and award, one seat per person. The clocks are in test_clocks.py, the
grace before a bot catches a missed call in test_bots.py."""
from __future__ import annotations

import pytest
from django.test import Client

from engine import registry
from engine.core import match_seed, server_contribution
from games import services, store
from games.errors import InvitationClosed, MatchWaiting, SeatedTwice, SeatForbidden
from games.models import Event, Match, Seat
from games.records import match_verify
from games.services import SeatSpec, bots_advance, match_create, move_submit

ENTROPY = "0123456789abcdef" * 2


def types(match) -> list[str]:
    return list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))


def person_to_act(match):
    match.refresh_from_db()
    state = store.load_state(match)
    game = registry.get(match.game)
    return game.view(state, None)["turn"], state


# -- invitations and joining -------------------------------------------------------------------------

def test_a_match_with_an_open_invitation_waits_and_starts_when_it_is_accepted(people):
    # given anna invites janis; a bot fills the third seat
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], entropy=ENTROPY),
                                              SeatSpec(user=people[1], invite=True), SeatSpec(bot="greedy")])
    # then nothing is dealt while the invitation is open
    assert match.status == Match.Status.WAITING
    assert types(match) == ["match_opened", "entropy_contributed", "entropy_contributed"]
    with pytest.raises(MatchWaiting):
        move_submit(match_id=match.pk, seat=0, move={"type": "draw"})
    # when janis accepts with the value his browser drew
    services.seat_join(match_id=match.pk, user=people[1], entropy="fe" * 16)
    match.refresh_from_db()
    # then the match starts, dealt from the secret together with every seat's value
    assert match.status == Match.Status.RUNNING
    values = [ENTROPY, "fe" * 16, server_contribution(match.seed, 2)]
    started = Event.objects.get(match=match, type="match_started")
    assert started.payload["seed"] == match_seed(match.seed, values)
    assert match_verify(match).ok


def test_declining_an_invitation_cancels_the_match(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    services.seat_decline(match_id=match.pk, user=people[1])
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    assert types(match)[-2:] == ["match_aborted", "seed_revealed"]
    with pytest.raises(InvitationClosed):
        services.seat_join(match_id=match.pk, user=people[1])
    assert match_verify(match).ok


def test_only_the_invited_person_can_accept_or_decline(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    with pytest.raises(SeatForbidden):
        services.seat_join(match_id=match.pk, user=people[2])
    with pytest.raises(InvitationClosed):
        services.seat_decline(match_id=match.pk, user=people[0])  # already at the table


def test_joining_twice_changes_nothing(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    services.seat_join(match_id=match.pk, user=people[1], entropy=ENTROPY)
    before = types(match)
    services.seat_join(match_id=match.pk, user=people[1], entropy="ab" * 16)
    assert types(match) == before


def test_a_contribution_is_hidden_from_other_seats_until_the_match_starts(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], entropy=ENTROPY),
                                              SeatSpec(user=people[1], invite=True)])
    event = Event.objects.get(match=match, type="entropy_contributed", seat=0)
    assert store.redact_event(match, event.payload, 1) == {"type": "entropy_contributed", "seat": 0, "by": "player"}
    assert store.redact_event(match, event.payload, 0)["value"] == ENTROPY
    services.seat_join(match_id=match.pk, user=people[1])
    match.refresh_from_db()
    assert store.redact_event(match, event.payload, 1)["value"] == ENTROPY


def test_the_invitations_api_lists_and_answers_invitations(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         created_by=people[0])
    client = Client()
    client.force_login(people[1])
    listed = client.get("/api/invitations").json()
    assert [(i["match"], i["seat"], i["status"], i["invited_by"]) for i in listed] == \
        [(match.pk, 1, "invited", "player0")]
    bad = client.post(f"/api/matches/{match.pk}/join", {"entropy": "not hex"}, content_type="application/json")
    assert bad.status_code == 400
    joined = client.post(f"/api/matches/{match.pk}/join", {"entropy": ENTROPY}, content_type="application/json")
    assert joined.status_code == 200 and joined.json()["status"] == "running"
    assert client.get("/api/invitations").json() == []


# -- resigning ------------------------------------------------------------------------------------------

def test_a_resigning_person_ranks_last_and_a_bot_plays_their_seat_on(people, django_capture_on_commit_callbacks):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1]),
                                              SeatSpec(bot="greedy")], seed="resign", options={"target": 40})
    services.match_resign(match_id=match.pk, seat=0)
    seat = Seat.objects.get(match=match, index=0)
    assert seat.stand_in == "greedy"
    assert types(match)[-2:] == ["seat_resigned", "bot_took_seat"]
    # the others play on to the end; the resigned seat is played by its stand-in
    for _ in range(5000):
        match.refresh_from_db()
        if not match.is_running:
            break
        turn, state = person_to_act(match)
        if turn == 1:
            legal = registry.get("livol").legal_moves(state, 1)
            move_submit(match_id=match.pk, seat=1, move=legal[0], expected_seq=match.last_seq)
        else:
            bots_advance(match_id=match.pk, budget=50)
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"][-1] == [0]
    assert match_verify(match).ok


def test_resigning_with_two_seats_ends_the_match_at_once(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="two")
    client = Client()
    client.force_login(people[1])
    response = client.post(f"/api/matches/{match.pk}/resign", {}, content_type="application/json")
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"] == [[0], [1]]
    assert types(match)[-1] == "seed_revealed" and match_verify(match).ok


# -- the organiser ------------------------------------------------------------------------------------------

def test_the_organiser_awards_a_match_and_the_award_is_an_event(people, django_user_model):
    organiser = django_user_model.objects.create_user(username="org", password="pw", is_staff=True)
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="award")
    services.match_award(match_id=match.pk, ranking=[[1], [0]], by=organiser, reason="anna left the club")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"] == [[1], [0]] and match.result["awarded"] is True
    assert types(match)[-2:] == ["match_awarded", "seed_revealed"]
    assert match_verify(match).ok


def test_an_award_must_rank_every_seat_once(people):
    from games.errors import MalformedRequest

    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="bad")
    for ranking in ([[1]], [[0], [0, 1]], [[0], [2]], "01", [[True], [0]]):
        with pytest.raises(MalformedRequest):
            services.match_award(match_id=match.pk, ranking=ranking)
    assert Match.objects.get(pk=match.pk).is_running


def test_an_abort_is_an_event_and_reveals_the_secret(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="abort")
    services.match_abort(match_id=match.pk, reason="power cut")
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and types(match)[-2:] == ["match_aborted", "seed_revealed"]
    assert match_verify(match).ok


def test_a_match_waiting_for_its_players_shows_a_short_board_that_says_so(people):
    # no deal yet: the page says who it waits for, and the board is a one-line banner, not an empty table
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)])
    client = Client()
    client.force_login(people[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'class="board live is-waiting"' in page
    assert "Waiting for the players to take their seats" in page
    assert f"Waiting for {people[1].username}" in page


def test_a_person_cannot_hold_two_seats_of_a_match(people):
    with pytest.raises(SeatedTwice):
        match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[0])])
    assert not Match.objects.exists()
