"""The entries API: sign up, withdraw, check in, and their refusals; the page's panel and the check-in QR."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from league import services
from league.models import Entrant, Registration, Tournament
from league.selectors import entries

JSON = "application/json"


@pytest.fixture(autouse=True)
def _fresh_rate_counters():
    cache.clear()


def open_tournament(league, **terms) -> Tournament:
    t = services.tournament_create(league_id=league.pk, name="Club night")
    return services.entry_terms_set(tournament_id=t.pk, entries_open=True, **terms)


@pytest.fixture
def person(django_user_model):
    def make(name):
        user = django_user_model.objects.create_user(username=name, password="pw")
        client = Client()
        client.force_login(user)
        return client
    return make


def token_client(django_user_model, name, scopes=("play",)):
    user = django_user_model.objects.create_user(username=name, password="pw")
    key = services.personal_token_create(owner=user, name="script", scopes=list(scopes))
    return user, {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_api_sign_up_answers_entered_then_waiting_with_position(league, person):
    t = open_tournament(league, capacity=1)
    first = person("anna").post(f"/api/tournaments/{t.pk}/entries", content_type=JSON)
    second = person("janis").post(f"/api/tournaments/{t.pk}/entries", content_type=JSON)
    assert first.status_code == 200 and first.json()["status"] == "entered"
    assert second.json() == {"tournament_id": t.pk, "status": "waiting", "position": 1, "reason": "",
                             "checked_in": False}


def test_api_sign_up_with_approval_answers_pending(league, person):
    t = open_tournament(league, approval=True)
    assert person("anna").post(f"/api/tournaments/{t.pk}/entries", content_type=JSON).json()["status"] == "pending"


def test_api_sign_up_with_a_token(league, django_user_model):
    t = open_tournament(league)
    _user, auth = token_client(django_user_model, "anna")
    assert Client().post(f"/api/tournaments/{t.pk}/entries", content_type=JSON, **auth).json()["status"] == "entered"


def test_api_sign_up_needs_the_play_scope(league, django_user_model):
    t = open_tournament(league)
    _user, auth = token_client(django_user_model, "anna", scopes=("challenge",))
    answer = Client().post(f"/api/tournaments/{t.pk}/entries", content_type=JSON, **auth)
    assert answer.status_code == 403 and answer.json()["code"] == "token_scope"


def test_api_refusals_have_their_codes(league, person, client):
    t = open_tournament(league)
    closed = services.tournament_create(league_id=league.pk, name="Invitational")
    anna = person("anna")
    assert anna.post("/api/tournaments/999999/entries", content_type=JSON).json()["code"] == "not_found"
    assert anna.post(f"/api/tournaments/{closed.pk}/entries", content_type=JSON).json()["code"] == "entries_not_open"
    assert anna.post(f"/api/tournaments/{t.pk}/entries", content_type=JSON).status_code == 200
    twice = anna.post(f"/api/tournaments/{t.pk}/entries", content_type=JSON)
    assert twice.status_code == 409 and twice.json()["code"] == "already_signed_up"
    assert client.post(f"/api/tournaments/{t.pk}/entries", content_type=JSON).status_code == 401


def test_api_withdraw_moves_the_waiting_list_up(league, person):
    t = open_tournament(league, capacity=1)
    anna, janis = person("anna"), person("janis")
    anna.post(f"/api/tournaments/{t.pk}/entries", content_type=JSON)
    janis.post(f"/api/tournaments/{t.pk}/entries", content_type=JSON)
    assert anna.delete(f"/api/tournaments/{t.pk}/entries").json()["status"] == "withdrawn"
    assert list(t.entrants.values_list("player__name", flat=True)) == ["janis"]
    again = anna.delete(f"/api/tournaments/{t.pk}/entries")
    assert again.status_code == 409 and again.json()["code"] == "already_withdrawn"
    never = person("liga").delete(f"/api/tournaments/{t.pk}/entries")
    assert never.json()["code"] == "not_signed_up"


def test_api_check_in_inside_the_window_and_refusals_outside(league, person):
    soon = open_tournament(league, starts_at=timezone.now() + timedelta(minutes=10), checkin_minutes=30)
    later = open_tournament(league, starts_at=timezone.now() + timedelta(hours=3), checkin_minutes=30)
    anna = person("anna")
    for t in (soon, later):
        anna.post(f"/api/tournaments/{t.pk}/entries", content_type=JSON)
    answer = anna.post(f"/api/tournaments/{soon.pk}/check-in", content_type=JSON)
    assert answer.status_code == 200 and answer.json()["checked_in"] is True
    assert anna.post(f"/api/tournaments/{soon.pk}/check-in", content_type=JSON).json()["code"] == "already_checked_in"
    early = anna.post(f"/api/tournaments/{later.pk}/check-in", content_type=JSON).json()
    assert early["code"] == "checkin_not_open" and "opens_at" in early


def test_the_page_signs_a_person_up_with_htmx_and_shows_their_status(league, person):
    t = open_tournament(league, capacity=1)
    anna = person("anna")
    page = anna.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="entries"' in page and "Sign up" in page
    panel = anna.post(f"/tournaments/{t.pk}/entry/signup/", HTTP_HX_REQUEST="true").content.decode()
    assert "You are in." in panel and "Withdraw" in panel
    janis = person("janis")
    janis.post(f"/tournaments/{t.pk}/entry/signup/")
    assert "on the waiting list, number 1" in janis.get(f"/tournaments/{t.pk}/").content.decode()


def test_the_door_qr_code_checks_in_who_opens_it_signed_in(league, person, django_user_model):
    t = open_tournament(league, starts_at=timezone.now() + timedelta(minutes=10), checkin_minutes=30)
    organiser = django_user_model.objects.create_superuser(username="org", password="pw", email="o@example.org")
    staff = Client()
    staff.force_login(organiser)
    page = staff.get(f"/tournaments/{t.pk}/").content.decode()
    assert "<svg" in page and entries.checkin_code(t) in page
    anna = person("anna")
    anna.post(f"/tournaments/{t.pk}/entry/signup/")
    assert "<svg" not in anna.get(f"/tournaments/{t.pk}/").content.decode()  # only the organiser sees the code
    door = anna.get(f"/tournaments/{t.pk}/check-in/{entries.checkin_code(t)}/")
    assert door.status_code == 200 and "Checked in." in door.content.decode()
    assert Entrant.objects.get(player__name="anna").checked_in_at is not None
    assert anna.get(f"/tournaments/{t.pk}/check-in/wrong-code/").status_code == 404
    # the printable page is the organiser's
    assert "<svg" in staff.get(f"/tournaments/{t.pk}/check-in-qr/").content.decode()
    assert anna.get(f"/tournaments/{t.pk}/check-in-qr/").status_code == 403


def test_a_view_only_staff_cannot_approve(league, django_user_model, client):
    # given a sign-up waiting for approval, and a staff organiser who may only view
    t = open_tournament(league, approval=True)
    anna = django_user_model.objects.create_user(username="anna", password="pw")
    services.entry_signup(tournament_id=t.pk, player_id=services.player_for_user(user=anna).pk)
    registration = Registration.objects.get()
    viewer = django_user_model.objects.create_user(username="viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(*Permission.objects.filter(codename__in=["view_registration", "view_tournament"]))
    league.club.organisers.add(viewer)
    client.force_login(viewer)
    # then the list shows the sign-up but offers no action
    listing = client.get("/admin/league/registration/")
    assert listing.status_code == 200 and "anna" in listing.content.decode()
    assert 'value="approve"' not in listing.content.decode()
    # and neither the action nor the refusal form acts
    client.post("/admin/league/registration/", {"action": "approve", "_selected_action": [registration.pk]})
    assert client.post(f"/admin/league/registration/refuse/?ids={registration.pk}", {"reason": "no"}).status_code == 403
    registration.refresh_from_db()
    assert registration.status == Registration.Status.PENDING


def test_an_organiser_approves_and_refuses_in_the_admin(league, django_user_model, client):
    t = open_tournament(league, approval=True)
    for name in ("anna", "janis"):
        user = django_user_model.objects.create_user(username=name, password="pw")
        services.entry_signup(tournament_id=t.pk, player_id=services.player_for_user(user=user).pk)
    anna, janis = Registration.objects.order_by("created_at")
    client.force_login(django_user_model.objects.create_superuser(username="org", password="pw", email="o@x.org"))
    client.post("/admin/league/registration/", {"action": "approve", "_selected_action": [anna.pk]})
    assert Entrant.objects.filter(tournament=t, player__name="anna").exists()
    form = client.post("/admin/league/registration/", {"action": "refuse", "_selected_action": [janis.pk]})
    assert form.status_code == 302
    client.post(form["Location"], {"reason": "Members only", "ids": str(janis.pk)})
    janis.refresh_from_db()
    assert janis.status == Registration.Status.REFUSED and janis.reason == "Members only"
    page = client.get(f"/admin/league/tournament/{t.pk}/change/").content.decode()
    assert "id_capacity" in page and "id_checkin_minutes" in page and "waiting list" in page.lower()
    assert 'value="close_checkin"' in client.get("/admin/league/tournament/").content.decode()
