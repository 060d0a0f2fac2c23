"""H1: a match's ``target`` is bounded in the engine (LIVOL, UNO FLIP), so no challenge can ask
for a match that never ends; the standard values stay valid and the form uses the same bounds."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from engine import livol, registry, uno_flip
from games.kits import kit
from league import services

HUGE = 10**30


def _game(module):
    return registry.get(module.GAME)


@pytest.mark.parametrize("game", [livol, uno_flip])
def test_an_astronomical_target_is_refused_by_the_engine(game):
    with pytest.raises(ValueError):
        _game(game).start(2, "s", options={"target": HUGE})
    with pytest.raises(ValueError):
        _game(game).start(2, "s", options={"target": game.MAX_TARGET + 1})


@pytest.mark.parametrize("game", [livol, uno_flip])
def test_the_standard_target_and_the_bounds_stay_valid(game):
    for target in (500, game.MIN_TARGET, game.MAX_TARGET):
        assert _game(game).fold(_game(game).start(2, "s", options={"target": target})).options["target"] == target


@pytest.mark.parametrize("game", [livol, uno_flip])
def test_the_form_uses_the_engine_bounds(game):
    field = kit(game.GAME).form.base_fields["target"]
    assert (field.min_value, field.max_value) == (game.MIN_TARGET, game.MAX_TARGET)


@pytest.mark.django_db
def test_an_astronomical_target_is_refused_by_the_api(django_user_model):
    anna = django_user_model.objects.create_user(username="anna", password="pw")
    olga = django_user_model.objects.create_user(username="olga", password="pw")
    services.bot_account_create(owner=olga, name="olga-bot")
    client = Client()
    client.force_login(anna)
    response = client.post("/api/challenges", json.dumps({"game": "livol", "opponents": ["olga-bot"],
                                                          "options": {"target": HUGE}}),
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_match_settings", response.content
