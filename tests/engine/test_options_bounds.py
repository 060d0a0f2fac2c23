"""An integer option is bounded in the engine (``OPTIONS``: ``core.int_between(low, high)``), so no
challenge can ask for a match that never ends (a ``target`` of 10**30); the bounds and the default stay
valid, and the new-match form and the API use the same bounds. Every registered game's every integer option
(a game registered beside the five, ``tests/sixth_game``, too)."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from engine import registry
from games.kits import kit
from league import services

HUGE = 10**30
#: (game, option, its check) for every integer option of every registered game.
BOUNDED = [(name, option, check) for name in registry.names()
           for option, (_default, check) in registry.options(name).items() if hasattr(check, "low")]


def start(name: str, options: dict) -> list[dict]:
    game = registry.get(name)
    return game.start(game.MIN_SEATS, "s", options=options)


@pytest.mark.parametrize("name", registry.names())
def test_every_option_is_a_list_of_choices_or_a_whole_number_between_bounds(name):
    """What the form, the API's schema and the rules pages can state: a tuple of the allowed values, or
    ``core.int_between(low, high)`` (another predicate, such as ``core.positive_int``, states no bounds)."""
    for option, (default, check) in registry.options(name).items():
        assert isinstance(check, tuple) or {"low", "high", "none"} <= set(vars(check)), \
            f"{name}'s option {option!r}: declare its bounds with core.int_between(low, high), or a tuple of choices"
        assert default in check if isinstance(check, tuple) else check(default), (name, option)


def test_the_five_games_integer_options_are_all_here():
    assert {(name, option) for name, option, _ in BOUNDED} >= {
        ("livol", "target"), ("livol", "challenge_extra_penalty"), ("uno_flip", "target"),
        ("karuselis", "target"), ("cardavia", "lives")}


@pytest.mark.parametrize("name,option,check", BOUNDED, ids=[f"{n}-{o}" for n, o, _ in BOUNDED])
def test_a_value_outside_the_bounds_is_refused_by_the_engine(name, option, check):
    for value in (HUGE, check.high + 1, check.low - 1, -HUGE, "5", 5.0, True):
        with pytest.raises(ValueError):
            start(name, {option: value})


@pytest.mark.parametrize("name,option,check", BOUNDED, ids=[f"{n}-{o}" for n, o, _ in BOUNDED])
def test_the_default_and_the_bounds_stay_valid(name, option, check):
    for value in (registry.options(name)[option][0], check.low, check.high):
        assert start(name, {option: value})  # no ValueError


@pytest.mark.parametrize("name,option,check", BOUNDED, ids=[f"{n}-{o}" for n, o, _ in BOUNDED])
def test_the_form_uses_the_engine_bounds(name, option, check):
    field = kit(name).form.base_fields[option]
    assert (field.min_value, field.max_value) == (check.low, check.high)


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
