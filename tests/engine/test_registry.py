"""The registry (docs/engine-contract.md "Registry"): the five games, and a game that lives outside ``engine/`` added by
``register`` or by ``ENGINE_GAMES`` (which a bare ``python -m engine.verify`` reads)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean_registry(monkeypatch):
    monkeypatch.setattr(registry, "GAME_NAMES", registry.GAME_NAMES)
    monkeypatch.setattr(registry, "MODULES", dict(registry.MODULES))


def test_register_adds_a_game_that_lives_outside_the_engine(clean_registry):
    registry.register("tally", "tests.sixth_game.tally")
    assert "tally" in registry.names() and registry.get("tally").name == "tally"
    assert registry.module("tally").RULES_VERSION == 1
    registry.register("tally", "tests.sixth_game.tally")  # the same again changes nothing
    assert registry.names().count("tally") == 1


@pytest.mark.parametrize("name, path", [("Tally", "tests.sixth_game.tally"), ("", "x"), ("a b", "x"),
                                        ("livol", "tests.sixth_game.tally")])
def test_register_refuses_a_name_that_is_no_games_or_is_another_modules(clean_registry, name, path):
    with pytest.raises(ValueError):
        registry.register(name, path)


def test_engine_games_in_the_environment_registers_for_a_bare_process():
    code = "from engine import registry; print(registry.names())"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "ENGINE_GAMES": "tally=tests.sixth_game.tally"}).stdout
    assert out.strip() == str(["cardavia", "iota", "karuselis", "livol", "tally", "uno_flip"])
