"""People's names and links that cannot be abused (issue 23: L-4, L-8, L-9, L-14)."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league import services
from league.services.names import look_alike_taken, mixes_scripts, skeleton
from league.settings import streams_prefix


def signup(client, name, password="A-long-pass-phrase-42"):
    return client.post("/accounts/signup/", {"username": name, "password": password, "password_again": password})


@pytest.mark.parametrize("name", ["\u0430nna", "ANN\u0410", "\uff41\uff4e\uff4e\uff41", "\u0391nna"])
def test_a_name_that_looks_like_a_taken_one_is_refused(db, client, name):
    # given "anna" has an account
    get_user_model().objects.create_user(username="anna", password="x")
    # when someone signs up as a look-alike (Cyrillic а, upper case, fullwidth letters, Greek Α)
    response = signup(client, name)
    # then the name is refused, and no second account exists
    assert response.status_code == 400
    assert get_user_model().objects.count() == 1


def test_a_fullwidth_name_is_stored_as_plain_letters(db, client):
    assert signup(client, "\uff4a\uff41\uff4e\uff49\uff53").status_code == 302
    assert get_user_model().objects.filter(username="janis").exists()


def test_names_in_one_alphabet_and_with_their_own_marks_stay_free(db, client):
    get_user_model().objects.create_user(username="Anna", password="x")
    get_user_model().objects.create_user(username="Janis", password="x")
    # "Анна" is written in Cyrillic only; "Jānis" has a macron anyone sees
    assert signup(client, "\u0410\u043d\u043d\u0430").status_code == 302
    assert signup(client, "J\u0101nis").status_code == 302


def test_a_name_mixing_latin_with_cyrillic_is_refused_even_when_free(db):
    assert mixes_scripts("m\u0430rta") and not mixes_scripts("marta") and not mixes_scripts("\u043c\u0430\u0440\u0442\u0430")
    with pytest.raises(services.NameTaken):
        services.person_signup(username="m\u0430rta", password="A-long-pass-phrase-42")


def test_an_outside_bot_cannot_take_a_look_alike_name(db, django_user_model):
    owner = django_user_model.objects.create_user(username="owner", password="x")
    django_user_model.objects.create_user(username="rutabot", password="x")
    with pytest.raises(services.NameTaken):
        services.bot_account_create(owner=owner, name="RUTAB\u041eT")


def test_the_skeleton_folds_case_width_and_look_alike_letters():
    assert skeleton("\u0410NN\u0410") == skeleton("\uff41nna") == "anna"
    assert skeleton("J\u0101nis") != skeleton("Janis")


def test_look_alike_taken_finds_the_existing_name(db, django_user_model):
    django_user_model.objects.create_user(username="Ruta", password="x")
    assert look_alike_taken("r\u0443ta") is False  # у (u-like) is "y" in Unicode's confusables: not "u"
    assert look_alike_taken("RUT\u0430")


@pytest.mark.parametrize("path", ["/join/abc%00def/", "/accounts/signup/abc%00def/", "/join/" + "a" * 5000 + "/",
                                  "/join/..%2F..%2Fetc/"])
def test_a_nul_or_a_huge_invitation_token_is_a_404_not_a_500(db, client, path):
    assert client.get(path).status_code == 404


def test_the_signup_limit_answers_429_with_retry_after(db, client, settings):
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "signups": "2/h"}
    from django.core.cache import cache

    cache.clear()
    statuses = [signup(client, f"newcomer{i}").status_code for i in range(3)]
    client.logout()
    assert statuses[:2] == [302, 302]
    assert statuses[2] == 429
    response = signup(client, "newcomer9")
    assert response.status_code == 429 and response["Retry-After"]


@pytest.mark.parametrize("url,given,expected", [
    ("redis://127.0.0.1:6379/2", None, "cardleague:2"),
    ("redis://127.0.0.1:6379", None, "cardleague:0"),
    ("redis://127.0.0.1:6379/5", "club-a", "club-a"),
    ("", None, "cardleague:0"),
])
def test_two_deployments_on_one_redis_do_not_hear_each_other(url, given, expected):
    assert streams_prefix(url, given) == expected
