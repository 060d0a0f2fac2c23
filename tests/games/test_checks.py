"""A game the site lacks a piece for stops the server at start-up (Django's system check ``games.E001``),
naming the game and the file to create, instead of a ``KeyError`` on the first page that needs it, or in every
``manage.py`` command as the URLs are imported; a game without searching bots is warned of (``games.W001``)."""
from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

import cardleague.urls  # noqa: F401  (the URL check imports the API, whose schemas are built for the real games)
import engine.livol
from engine import registry
from games import kits
from games.checks import every_game_has_a_kit, every_game_has_searching_bots
from games.kits import GAME_LABELS

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_has_every_piece_the_site_needs():
    assert every_game_has_a_kit() == []


def test_a_registered_game_without_its_pieces_stops_the_start_naming_each(monkeypatch):
    monkeypatch.setattr(registry, "GAME_NAMES", (*registry.GAME_NAMES, "sixth"))
    errors = every_game_has_a_kit()
    assert {e.id for e in errors} == {"games.E001"} and {e.obj for e in errors} == {"sixth"}
    assert sorted(e.msg for e in errors) == [
        "The game 'sixth' has no engine module: create engine/sixth.py with GAME = 'sixth' and its game object as "
        "game (docs/engine-contract.md).",
        "The game 'sixth' has no kit: create games/kits/sixth.py with KIT = games.kits.Kit(game='sixth', …).",
        "The game 'sixth' has no rules page: create templates/rules/sixth.html."]
    assert list(GAME_LABELS) == kits.with_kits() == sorted(set(registry.names()) - {"sixth"})
    with pytest.raises(SystemCheckError, match="games.E001"):
        call_command("check")


def test_a_kit_without_its_rules_page_or_with_seats_its_engine_refuses_is_named(monkeypatch, settings):
    from dataclasses import replace

    from games import kits

    sixth = replace(kits.kit("livol"), game="sixth", default_seats=99)
    monkeypatch.setattr(registry, "GAME_NAMES", (*registry.GAME_NAMES, "sixth"))
    monkeypatch.setattr(registry, "MODULES", {**registry.MODULES, "sixth": "engine.livol"})
    monkeypatch.setattr(kits, "find", lambda game: sixth if game == "sixth" else kits.kit(game))
    said = sorted(e.msg for e in every_game_has_a_kit())
    assert said == ["The game 'sixth' has a kit whose default_seats 99 is outside its engine's 2..6.",
                    "The game 'sixth' has no rules page: create templates/rules/sixth.html.",
                    "The game 'sixth' has no static/games/sixth.css and no static/games/sixth.js: create them, "
                    "or set static_files=False in its kit."]
    monkeypatch.setattr(kits, "find", lambda game: replace(sixth, static_files=False) if game == "sixth" else
                        kits.kit(game))
    assert not [e for e in every_game_has_a_kit() if "static" in e.msg]


def test_an_event_type_a_game_declares_without_words_is_named(monkeypatch):
    monkeypatch.setattr(engine.livol, "EVENTS", {**engine.livol.EVENTS, "comet_seen": {"seat": "int"}})
    (error,) = every_game_has_a_kit()
    assert error.obj == "livol" and "no words for its events comet_seen" in error.msg


@pytest.mark.parametrize("command", [["check"], ["migrate", "--plan"]])
def test_every_command_stops_with_the_check_naming_the_file_to_create_not_a_key_error(command, tmp_path):
    """A fresh process, as ``manage.py`` starts: the URLs (imported by Django's own URL check) build the API's
    schemas from the kits, and a game without one is left out of them for ``games.E001`` to name."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "PYTEST_XDIST_WORKER")}
    env.update(ENGINE_GAMES="tally=tests.sixth_game.tally", DJANGO_SETTINGS_MODULE="tests.settings",
               CARDLEAGUE_VAR=str(tmp_path))
    run = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr and "KeyError" not in run.stderr, run.stderr[-3000:]
    assert "(games.E001) The game 'tally' has no kit: create games/kits/tally.py with KIT = games.kits.Kit(" \
           "game='tally', …)." in run.stderr, run.stderr[-3000:]
    assert "The game 'tally' has no rules page: create templates/rules/tally.html." in run.stderr


def test_a_kit_module_settings_names_that_is_missing_is_named_as_the_file_to_create(monkeypatch, settings):
    monkeypatch.setattr(registry, "GAME_NAMES", (*registry.GAME_NAMES, "sixth"))
    settings.GAME_KITS = {"sixth": "tests.sixth_game.sixth_kit"}
    said = [e.msg for e in every_game_has_a_kit() if "no kit" in e.msg]
    assert said == ["The game 'sixth' has no kit: create tests/sixth_game/sixth_kit.py (settings.GAME_KITS names "
                    "tests.sixth_game.sixth_kit for it) with KIT = games.kits.Kit(game='sixth', …)."]
    settings.GAME_KITS = {"sixth": "tests.sixth_game.bots"}  # a module without a KIT
    assert [e.msg for e in every_game_has_a_kit() if "no kit" in e.msg] == [
        "The game 'sixth' has no kit: tests/sixth_game/bots.py (settings.GAME_KITS names tests.sixth_game.bots "
        "for it) declares no KIT; add KIT = games.kits.Kit(game='sixth', …)."]


# -- games.W001: searching bots ------------------------------------------------------------------------------

def test_the_five_games_have_searching_bots():
    assert every_game_has_searching_bots() == []


@pytest.fixture
def sixth(monkeypatch):
    """A game "sixth" whose engine module (``sixth_engine``) and bots (``sixth_bots``) the test fills in."""
    engine_module, bots = types.ModuleType("sixth_engine"), types.ModuleType("sixth_bots")
    engine_module.game, engine_module.BOTS = types.SimpleNamespace(name="sixth"), "sixth_bots"
    bots.POLICIES = {"greedy": lambda view, legal, rng, must_act: legal[0]}
    monkeypatch.setitem(sys.modules, "sixth_engine", engine_module)
    monkeypatch.setitem(sys.modules, "sixth_bots", bots)
    monkeypatch.setattr(registry, "GAME_NAMES", registry.GAME_NAMES)
    monkeypatch.setattr(registry, "MODULES", dict(registry.MODULES))
    registry.register("sixth", "sixth_engine")
    return engine_module, bots


def test_a_game_whose_sample_state_is_not_a_method_of_its_game_object_is_warned_of(sixth):
    engine_module, bots = sixth
    engine_module.sample_state = lambda view, seat, rng, legal=None: None  # a function of the module
    (warning,) = every_game_has_searching_bots()
    assert warning.id == "games.W001" and warning.obj == "sixth"
    assert warning.msg == (
        "The game 'sixth' gets only random and greedy bots, none of the searching levels (search-easy, search, "
        "search-strong): its game object (sixth_engine.game) has no sample_state method (sixth_engine defines "
        "sample_state as a function; it must be a method of the game object).")
    engine_module.game.sample_state = engine_module.sample_state
    assert every_game_has_searching_bots() == []


def test_a_game_without_sample_state_or_a_greedy_bot_is_warned_of_naming_each(sixth):
    _engine_module, bots = sixth
    bots.POLICIES = {}
    (warning,) = every_game_has_searching_bots()
    assert warning.msg == (
        "The game 'sixth' gets only random bots, none of the searching levels (search-easy, search, "
        "search-strong): its game object (sixth_engine.game) has no sample_state method; it has no greedy bot "
        "(POLICIES[\"greedy\"] in sixth_bots).")
