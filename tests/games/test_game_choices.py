"""A new game needs no migration: every model field naming a game takes its choices from
``games.models.game_choices``, which reads the engine's registry when asked."""
from __future__ import annotations

from io import StringIO

from django.apps import apps
from django.core.management import call_command

from engine import registry
from games.kits import game_choices


def test_a_game_added_to_the_registry_is_a_choice_of_every_game_field_and_needs_no_migration(db, monkeypatch):
    monkeypatch.setattr(registry, "GAME_NAMES", (*registry.GAME_NAMES, "sixth"))
    assert ("sixth", "sixth") in game_choices()
    fields = [f for model in apps.get_models() for f in model._meta.get_fields()
              if getattr(f, "name", None) == "game" and getattr(f, "choices", None)]
    assert len(fields) >= 5
    assert all(("sixth", "sixth") in f.choices for f in fields), [f for f in fields if "sixth" not in dict(f.choices)]
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # SystemExit(1) if a migration were due
    assert "No changes detected" in out.getvalue()
