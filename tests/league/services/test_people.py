"""People's names and links that cannot be abused."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league import services
from league.rules.names import look_alike_taken, mixes_scripts, skeleton


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


def test_the_signup_limit_answers_429_with_retry_after(db, client, settings, one_rate_window):
    settings.CARDLEAGUE_RATES = {**settings.CARDLEAGUE_RATES, "signups": "2/h"}
    from django.core.cache import cache

    cache.clear()
    statuses = [signup(client, f"newcomer{i}").status_code for i in range(3)]
    client.logout()
    assert statuses[:2] == [302, 302]
    assert statuses[2] == 429
    response = signup(client, "newcomer9")
    assert response.status_code == 429 and response["Retry-After"]


# -- outside bots: a cap per person, the owner's budget, tokens revoked from the settings page --

def test_a_person_owns_at_most_the_cap_of_outside_bots(db, client, django_user_model, settings):
    settings.CARDLEAGUE_BOT_ACCOUNTS_PER_PERSON = 2
    owner = django_user_model.objects.create_user(username="owner", password="x")
    services.bot_account_create(owner=owner, name="botone")
    services.bot_account_create(owner=owner, name="bottwo")
    with pytest.raises(services.TooManyBots):
        services.bot_account_create(owner=owner, name="botthree")
    # and the page says so instead of making it
    client.force_login(owner)
    response = client.post("/accounts/bots/new/", {"name": "botthree"})
    assert response.status_code == 400 and "as many outside bots" in response.content.decode()
    assert not django_user_model.objects.filter(username="botthree").exists()


def test_an_outside_bots_requests_count_against_its_owners_budget(db, rf, django_user_model):
    from games.web.access import account_or_address

    owner = django_user_model.objects.create_user(username="owner", password="x")
    bot, _ = services.bot_account_create(owner=owner, name="budgetbot")
    request = rf.get("/api/invitations")
    request.user = bot
    assert account_or_address("api", request) == f"user:{owner.pk}"
    request.user = owner
    assert account_or_address("api", request) == f"user:{owner.pk}"


def test_an_owner_revokes_a_bots_token_from_the_settings_page(db, client, django_user_model):
    from games.models import ApiToken

    owner = django_user_model.objects.create_user(username="owner", password="x")
    bot, key = services.bot_account_create(owner=owner, name="revokebot")
    assert client.get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200
    client.force_login(owner)
    token = ApiToken.objects.get(user=bot)
    page = client.get("/accounts/settings/").content.decode()
    assert f'/accounts/tokens/{token.pk}/revoke/' in page and "Revoke" in page
    # when the owner revokes it
    response = client.post(f"/accounts/tokens/{token.pk}/revoke/")
    assert response.status_code == 302
    # then it is gone, and a program using it is refused
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    client.logout()
    assert client.get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 401


def test_nobody_revokes_a_token_that_is_not_theirs(db, client, django_user_model):
    from games.models import ApiToken

    owner = django_user_model.objects.create_user(username="owner", password="x")
    stranger = django_user_model.objects.create_user(username="stranger", password="x")
    bot, _ = services.bot_account_create(owner=owner, name="keptbot")
    token = ApiToken.objects.get(user=bot)
    client.force_login(stranger)
    assert client.post(f"/accounts/tokens/{token.pk}/revoke/").status_code == 404
    assert client.get(f"/accounts/tokens/{token.pk}/revoke/").status_code == 405
    assert ApiToken.objects.filter(pk=token.pk).exists()


# -- one person, one hand ------------------------------------------------------------------------

def test_a_person_and_their_own_bot_cannot_enter_one_tournament(db, django_user_model, league):
    from league.models import PlayerProfile

    owner = django_user_model.objects.create_user(username="owner", password="x")
    other = django_user_model.objects.create_user(username="other", password="x")
    bot, _ = services.bot_account_create(owner=owner, name="ownersbot")
    t1 = services.tournament_create(league_id=league.pk, name="Owner first", format="swiss", rounds=1)
    t2 = services.tournament_create(league_id=league.pk, name="Bot first", format="swiss", rounds=1)
    person = services.player_for_user(user=owner).pk
    robot = PlayerProfile.objects.get(user=bot).pk
    # the owner entered, then their bot: refused
    services.entrant_add(tournament_id=t1.pk, player_id=person)
    with pytest.raises(services.OwnBotEntered):
        services.entrant_add(tournament_id=t1.pk, player_id=robot)
    # the bot entered, then its owner: refused too
    services.entrant_add(tournament_id=t2.pk, player_id=robot)
    with pytest.raises(services.OwnBotEntered):
        services.entrant_add(tournament_id=t2.pk, player_id=person)
    # and someone else plays against the bot as usual
    services.entrant_add(tournament_id=t2.pk, player_id=services.player_for_user(user=other).pk)
    assert t2.entrants.count() == 2 and t1.entrants.count() == 1
