"""The people's pages (``league/web/views.py``): sign-up (with the site's password rules), an organiser's
invitation link to a club, a person's own settings and token page, the forms' described fields, and the
e-mails that tell people a turn or a round waits for them."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from games import services as games
from games.models import Match, Seat
from games.services import SeatSpec, match_create
from league import services
from league.models import ClubInvite, PlayerProfile, Tournament
from tests.league.conftest import make_tournament


@pytest.fixture(autouse=True)
def _fresh_rate_counters():
    cache.clear()


def _signup(client, url="/accounts/signup/", **fields):
    data = {"username": "liga", "email": "liga@example.org", "password": "tram-line-riga-7",
            "password_again": "tram-line-riga-7", **fields}
    return client.post(url, data)


def test_a_person_signs_up_and_is_signed_in(db):
    client = Client()
    response = _signup(client)
    assert response.status_code == 302
    user = get_user_model().objects.get(username="liga")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert PlayerProfile.objects.get(user=user).name == "liga"


@pytest.mark.parametrize("password", ["password123", "12345678901", "liga@example.org", "short"])
def test_sign_up_refuses_weak_passwords(db, password):
    response = _signup(Client(), password=password, password_again=password)
    assert response.status_code == 400
    assert not get_user_model().objects.filter(username="liga").exists()


def test_sign_up_refuses_a_taken_name_and_differing_passwords(django_user_model):
    django_user_model.objects.create_user(username="Liga", password="x-y-z-123456")
    assert _signup(Client()).status_code == 400
    assert _signup(Client(), username="anna", password_again="other-pass-99").status_code == 400
    assert get_user_model().objects.count() == 1


def test_an_invitation_link_signs_a_new_person_up_into_the_club(club, django_user_model):
    organiser = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    invite = services.club_invite_create(club_id=club.pk, by=organiser, days=7, max_uses=2)
    client = Client()
    assert client.get(f"/join/{invite.token}/").status_code == 200
    assert _signup(client, url=f"/accounts/signup/{invite.token}/").status_code == 302
    user = get_user_model().objects.get(username="liga")
    assert club.members.filter(pk=user.pk).exists()
    assert PlayerProfile.objects.get(user=user).club == club
    assert ClubInvite.objects.get(pk=invite.pk).uses == 1


def test_a_signed_in_person_joins_with_the_link_once(club, django_user_model):
    user = django_user_model.objects.create_user(username="janis", password="pw-janis-1234")
    invite = services.club_invite_create(club_id=club.pk)
    client = Client()
    client.force_login(user)
    for _ in range(2):
        assert client.post(f"/join/{invite.token}/").status_code == 302
    assert club.members.filter(pk=user.pk).exists()
    assert ClubInvite.objects.get(pk=invite.pk).uses == 1


def test_an_expired_or_used_up_link_is_refused(club, django_user_model):
    expired = services.club_invite_create(club_id=club.pk)
    ClubInvite.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    full = services.club_invite_create(club_id=club.pk, max_uses=1)
    ClubInvite.objects.filter(pk=full.pk).update(uses=1)
    for invite in (expired, full):
        assert Client().get(f"/join/{invite.token}/").status_code == 410
        assert _signup(Client(), url=f"/accounts/signup/{invite.token}/").status_code == 410
    assert Client().get("/join/no-such-token/").status_code == 410
    assert not club.members.exists()


def test_a_person_turns_e_mails_off_and_chooses_a_language(django_user_model):
    user = django_user_model.objects.create_user(username="ruta", password="pw-ruta-12345")
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/settings/", {"email": "ruta@example.org", "language": "lt"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "lt"
    profile = PlayerProfile.objects.get(user=user)
    assert (profile.email_notifications, profile.language) == (False, "lt")
    assert get_user_model().objects.get(pk=user.pk).email == "ruta@example.org"


# -- e-mails ---------------------------------------------------------------------------------------------

def test_a_correspondence_turn_sends_an_e_mail_in_the_persons_language(django_user_model,
                                                                        django_capture_on_commit_callbacks):
    anna = django_user_model.objects.create_user(username="anna", password="pw", email="anna@example.org")
    janis = django_user_model.objects.create_user(username="janis", password="pw", email="janis@example.org")
    services.profile_update(user=janis, email_notifications=False)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(user=janis)], seed="mail",
                             clock={"move_days": 2})
    turn = Seat.objects.get(match=match, deadline__isnull=False)
    sent = [m for m in mail.outbox if match.get_game_display() in m.subject]
    if turn.user == anna:
        assert len(sent) == 1 and sent[0].to == ["anna@example.org"] and f"/matches/{match.pk}/" in sent[0].body
    else:
        assert sent == []  # janis turned e-mails off


def test_a_live_clock_sends_no_e_mails(django_user_model, django_capture_on_commit_callbacks):
    anna = django_user_model.objects.create_user(username="anna", password="pw", email="anna@example.org")
    janis = django_user_model.objects.create_user(username="janis", password="pw", email="janis@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(user=janis)], clock={"move_seconds": 60})
    assert mail.outbox == []


def test_a_new_round_e_mails_the_people_seated_in_it(league, django_user_model, django_capture_on_commit_callbacks):
    anna = django_user_model.objects.create_user(username="anna", password="pw", email="anna@example.org")
    tournament = make_tournament(league, format="swiss", players=3, rounds=1)
    services.entrant_add(tournament_id=tournament.pk, player_id=services.player_for_user(user=anna).pk)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = services.round_pair(tournament_id=tournament.pk)
        services.round_start(round_id=rnd.pk)
    sent = [m for m in mail.outbox if m.to == ["anna@example.org"]]
    assert len(sent) == 1 and tournament.name in sent[0].subject
    match = Seat.objects.get(user=anna).match
    assert f"/matches/{match.pk}/" in sent[0].body
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert games  # the match waits for anna to take her seat
    assert match.is_waiting


def test_a_tournament_match_page_names_its_tournament_round_and_table(league, django_user_model):
    anna = django_user_model.objects.create_user(username="anna", password="pw")
    tournament = make_tournament(league, format="swiss", players=1, rounds=1)
    services.entrant_add(tournament_id=tournament.pk, player_id=services.player_for_user(user=anna).pk)
    services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)
    match = Seat.objects.get(user=anna).match
    client = _signed_in(anna)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert tournament.name in page and f"/tournaments/{tournament.pk}/" in page and "Take my seat" in page
    home = client.get("/").content.decode()
    assert "Your tournaments" in home and "round 1" in home
    # she takes the seat from her home page's form
    assert client.post(f"/matches/{match.pk}/join/", {"entropy": "ef" * 16}).status_code == 302
    assert Match.objects.get(pk=match.pk).is_running


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_token_page_shows_the_token_alone_and_a_command_that_reads_it_from_the_environment():
    # given a signed-in person
    person = get_user_model().objects.create_user(username="anna", password="pw")
    client = Client()
    client.force_login(person)
    # when they create an outside bot on their settings page
    response = client.post("/accounts/bots/new/", {"name": "annabot"})
    html = response.content.decode()
    # then the token is shown on its own, and it works
    key = re.search(r'<code class="token" id="token">([^<]+)</code>', html).group(1)
    assert Client().get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200
    # and the suggested commands read it from CARDLEAGUE_TOKEN: it is on no command line
    commands = re.findall(r"<pre[^>]*>(.*?)</pre>", html, re.S)
    assert commands and all(key not in c and "--token" not in c for c in commands)
    assert any("export CARDLEAGUE_TOKEN=" in c and ".venv/bin/python clients/python/cardleague_client.py" in c
               for c in commands)
    # and the page says the project's .venv already has the client's dependency
    assert "<code>.venv</code> already has the client" in html and "httpx" in html


def _broken_references(html: str) -> list[str]:
    ids = set(re.findall(r'\sid="([^"]+)"', html))
    return [ref for refs in re.findall(r'aria-describedby="([^"]*)"', html) for ref in refs.split()
            if ref not in ids]


@pytest.mark.django_db
def test_the_settings_sign_up_and_sign_in_forms_describe_their_fields_with_elements_that_exist():
    # given a signed-in person and an anonymous visitor
    person = get_user_model().objects.create_user(username="anna", password="pw")
    signed_in = Client()
    signed_in.force_login(person)
    # when they open the forms, and post them wrongly (errors are described too)
    pages = {
        "settings": signed_in.get("/accounts/settings/"),
        "settings, a bad bot name": signed_in.post("/accounts/bots/new/", {"name": "not a name!"}),
        "sign up": Client().get("/accounts/signup/"),
        "sign up, passwords differ": Client().post("/accounts/signup/", {
            "username": "new one", "password": "a-long-password-1", "password_again": "another-password-2"}),
        "sign in": Client().get("/accounts/login/"),
    }
    # then every reference names an element of the page
    described = {name: html for name, r in pages.items() if "aria-describedby" in (html := r.content.decode())}
    assert {"settings", "settings, a bad bot name", "sign up", "sign up, passwords differ"} <= set(described)
    assert {name: _broken_references(html) for name, html in described.items()} == {
        name: [] for name in described}
