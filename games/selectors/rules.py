"""The rules pages: a game's name, the languages to read its rules in, and the cards they draw."""
from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import get_language_info

from engine import registry
from games.kits import GAME_LABELS, kit


def card(game: str, code: str, side: str = "light") -> dict:
    """One card as the templates draw it (its kit's ``card``; UNO FLIP: a face code, or a physical
    ``light/dark`` with ``side`` up)."""
    return kit(game).card(code, side)


def rules_page(game: str, language: str) -> dict:
    """The rules page of ``game``: its name, and the languages to read it in — the rulebook's
    own first, then the site's other languages (each a ``set_language`` form)."""
    rulebook = kit(game).rulebook_languages  # KeyError: not a game
    site = [code for code, _label in settings.LANGUAGES]
    ordered = [c for c in rulebook if c in site] + [c for c in site if c not in rulebook]
    languages = []
    for code in ordered:
        info = get_language_info(code)
        languages.append({"code": code, "name": info["name_local"], "english": info["name"],
                          "current": code == language, "rulebook": code in rulebook})
    examples = {key: card(game, code) for key, code in kit(game).rule_examples.items()}
    if kit(game).rule_extras is not None:
        examples.update(kit(game).rule_extras())
    return {"game": game, "game_name": GAME_LABELS.get(game, game), "languages": languages, "ex": examples,
            "rulebook": [lang for lang in languages if lang["rulebook"]],
            "rules_url": reverse("rules", args=[game]), **kit(game).assets(),
            "games": [{"game": g, "name": GAME_LABELS.get(g, g), "current": g == game} for g in registry.names()]}
