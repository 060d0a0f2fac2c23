"""A game the site lacks a piece for stops the server at start-up (issue 22 item 1: Django's system check
``games.E001``), naming the game and the place, instead of a ``KeyError`` on the first page that needs it."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

import engine.livol
import league.urls  # noqa: F401  (the URL check imports the API, whose schemas are built for the real games)
from engine import registry
from games.checks import every_game_has_a_kit


def test_every_game_has_every_piece_the_site_needs():
    assert every_game_has_a_kit() == []


def test_a_registered_game_without_its_pieces_stops_the_start_naming_each(monkeypatch):
    monkeypatch.setattr(registry, "GAME_NAMES", (*registry.GAME_NAMES, "sixth"))
    errors = every_game_has_a_kit()
    assert {e.id for e in errors} == {"games.E001"} and {e.obj for e in errors} == {"sixth"}
    said = " ".join(e.msg for e in errors)
    for place in ("GAME_LABELS", "GAME_FORMS", "games.words.GAMES", "OPTION_WORDS", "BOARDS", "CARD_MAKERS",
                  "ROUND_STARTS", "RULEBOOK_LANGUAGES", "templates/rules/sixth.html"):
        assert place in said, place
    with pytest.raises(SystemCheckError, match="games.E001"):
        call_command("check")


def test_an_event_type_a_game_declares_without_words_is_named(monkeypatch):
    monkeypatch.setattr(engine.livol, "EVENTS", {**engine.livol.EVENTS, "comet_seen": {"seat": "int"}})
    (error,) = every_game_has_a_kit()
    assert error.obj == "livol" and "no words for its events comet_seen" in error.msg
