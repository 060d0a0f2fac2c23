"""A game the site lacks a piece for stops the server at start-up (issue 22 item 1: Django's system check
``games.E001``), naming the game and the place, instead of a ``KeyError`` on the first page that needs it."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

import engine.livol
import cardleague.urls  # noqa: F401  (the URL check imports the API, whose schemas are built for the real games)
from engine import registry
from games.checks import every_game_has_a_kit


def test_every_game_has_every_piece_the_site_needs():
    assert every_game_has_a_kit() == []


def test_a_registered_game_without_its_pieces_stops_the_start_naming_each(monkeypatch):
    monkeypatch.setattr(registry, "GAME_NAMES", (*registry.GAME_NAMES, "sixth"))
    errors = every_game_has_a_kit()
    assert {e.id for e in errors} == {"games.E001"} and {e.obj for e in errors} == {"sixth"}
    (error,) = errors
    assert "no kit (games.kits.sixth.KIT" in error.msg
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
                    "The game 'sixth' has no rules page (templates/rules/sixth.html)."]


def test_an_event_type_a_game_declares_without_words_is_named(monkeypatch):
    monkeypatch.setattr(engine.livol, "EVENTS", {**engine.livol.EVENTS, "comet_seen": {"seat": "int"}})
    (error,) = every_game_has_a_kit()
    assert error.obj == "livol" and "no words for its events comet_seen" in error.msg
