"""A game offers only the bot levels it has: the new-match form, the admin's "add bots",
a tournament's entry, ``bot_tournament`` and ``match_create`` refuse a level the game lacks, and no seat
is played by another level under the missing level's name (a "Greedy bot 01" that played at random)."""
from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

import engine.bots
from engine import registry
from engine.bots import POLICY_NAMES, levels_for
from games.models import Match, bot_choices
from games.services import SeatSpec, match_create
from games.web.forms import NewMatchForm
from league import services
from league.admin.tournaments import BotsForm
from tests.league.conftest import make_tournament


@pytest.fixture
def iota_random_only(monkeypatch):
    """IOTA as a game whose bots module has no greedy policy (and so no searching levels either)."""
    real = engine.bots.policies_for

    def policies_for(game):
        found = real(game)
        return {"random": found["random"]} if game == "iota" else found

    monkeypatch.setattr(engine.bots, "policies_for", policies_for)
    assert levels_for("iota") == ("random",)


def test_each_game_offers_its_levels_weakest_first():
    for game in registry.names():
        levels = levels_for(game)
        assert levels[0] == "random"
        assert list(levels) == [level for level in POLICY_NAMES if level in levels]
        assert [value for value, _label in bot_choices(game)] == list(levels)


def test_the_new_match_form_refuses_a_level_the_game_lacks(db, iota_random_only, django_user_model):
    anna = django_user_model.objects.create_user("anna", password="x")
    form = NewMatchForm({"game": "iota", "bot": "greedy", "iota-seats": "2", "iota-variant": "standard"}, user=anna)
    assert not form.is_valid()
    assert "IOTA has no bots of that level: choose random." in form.non_field_errors()
    assert NewMatchForm({"game": "iota", "bot": "random", "iota-seats": "2", "iota-variant": "standard"}, user=anna).is_valid()


def test_match_create_refuses_a_bot_seat_of_a_level_the_game_lacks_and_writes_nothing(db, iota_random_only):
    with pytest.raises(ValueError, match="iota has no greedy bots"):
        match_create(game="iota", seats=[SeatSpec(bot="random"), SeatSpec(bot="greedy")])
    assert not Match.objects.exists()


def test_the_admin_offers_only_the_tournaments_games_levels(iota_random_only):
    assert [value for value, _ in BotsForm(game="iota").fields["policy"].choices] == ["random"]
    assert not BotsForm({"count": 2, "policy": "greedy"}, game="iota").is_valid()
    assert [value for value, _ in BotsForm(game="livol").fields["policy"].choices] == ["mixed", *POLICY_NAMES]


def test_a_bot_of_a_level_the_game_lacks_cannot_enter_a_tournament(club, iota_random_only):
    league = services.league_create(club_id=club.pk, name="IOTA league", game="iota")
    tournament = services.tournament_create(league_id=league.pk, name="IOTA cup", format="swiss",
                                            seats_per_table=2)
    greedy = services.player_bot_create(name="Greedy bot 01", policy="greedy")
    with pytest.raises(services.NoSuchBotLevel):
        services.entrant_add(tournament_id=tournament.pk, player_id=greedy.pk)
    with pytest.raises(services.NoSuchBotLevel):
        services.bots_add(tournament_id=tournament.pk, count=2, policy="mixed")
    assert not tournament.entrants.exists()
    assert len(services.bots_add(tournament_id=tournament.pk, count=2, policy="random")) == 2


def test_bot_tournament_refuses_a_level_the_game_lacks(db, iota_random_only):
    with pytest.raises(CommandError, match="iota has no greedy bots: choose from random"):
        call_command("bot_tournament", "--game", "iota", "--format", "swiss", "--players", "2", "--sync",
                     "--policy", "greedy")


def test_a_tournaments_bot_plays_the_level_it_is_named_after(league):
    tournament = make_tournament(league, players=2, rounds=1, policy="greedy")
    services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)
    match = Match.objects.get()
    assert sorted(match.seats.values_list("bot", "name")) == [("greedy", "Greedy bot 01"),
                                                                ("greedy", "Greedy bot 02")]
