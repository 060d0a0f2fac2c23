"""One kit per game: every registered game's kit is found from the registry, and the
site's per-game tables are views of the kits, keyed by the registered games."""
from __future__ import annotations

import pytest

from engine import registry
from games import kits
from games.kits import GAME_LABELS
from games.web.forms import GAME_FORMS
from games.web.schemas import GAME_MOVES
from games.words import GAMES as WORDS


@pytest.mark.parametrize("game", registry.names())
def test_every_game_has_a_kit_whose_form_offers_the_seats_its_engine_allows(game):
    kit = kits.kit(game)
    engine_game = registry.get(game)
    seats = kit.form().fields["seats"]
    assert (seats.min_value, seats.max_value) == (engine_game.MIN_SEATS, engine_game.MAX_SEATS)
    assert engine_game.MIN_SEATS <= kit.default_seats <= engine_game.MAX_SEATS


def test_the_per_game_tables_are_views_of_the_kits_keyed_by_the_registered_games():
    for table, attribute in ((GAME_LABELS, "label"), (GAME_FORMS, "form"), (WORDS, "words")):
        assert list(table) == registry.names()
        assert all(table[game] is getattr(kits.kit(game), attribute) for game in registry.names())
    assert all(GAME_MOVES[game] is kits.kit(game).moves for game in registry.names())
    with pytest.raises(KeyError):
        GAME_LABELS["chess"]
    assert GAME_LABELS.get("chess", "chess") == "chess"


def test_an_unknown_game_has_no_kit():
    with pytest.raises(KeyError):
        kits.kit("chess")
    assert kits.find("chess") is None
