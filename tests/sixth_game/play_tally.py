"""Tally, a sixth game that lives only in ``tests/sixth_game``, played end to end through the site with no
change outside that folder: the new-match form, the play page's board and log, the API
(view, legal, move, events, a refused move), the record export and ``python -m engine.verify``, the rules
page, a bot tournament, its searching bots (from the contract alone), and Django's start-up check.

Run by ``tests/games/test_sixth_game.py`` in its own pytest process with ``--ds tests.sixth_game.settings``
(the game registered, its kit named): the main suite's process knows only the five games. Not named
``test_*.py``, so the main suite does not collect it.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import jsonschema
import pytest
from django.core.management import call_command
from django.test import Client

from engine import registry, verify
from games.models import Match
from games.services import api_token_create, bots_advance
from league.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user(username="anna", password="pw")


def test_tally_is_a_registered_game_and_the_site_starts_with_it():
    assert "tally" in registry.names()
    # games.E001 would name a missing piece, games.W001 searching bots it lacks (a warning: fails here too)
    call_command("check", fail_level="WARNING")


def test_a_person_starts_a_tally_match_from_the_form_and_plays_it_through_the_api_to_a_verified_record(
        anna, tmp_path):
    browser = Client()
    browser.force_login(anna)
    # the form offers Tally with its tagline and its own options, and shows only the chosen game's fieldset
    home = browser.get("/").content.decode()
    assert 'value="tally"' in home and "the highest total wins" in home and 'name="tally-hand"' in home
    assert ".new-match:has(#game-tally:checked) .game-options[data-game=tally]" in home
    response = browser.post("/matches/new/", {"game": "tally", "tally-seats": 2, "tally-hand": 3, "bot": "random"})
    assert response.status_code == 302, response.content.decode()[:3000]
    match = Match.objects.get(game="tally")
    assert match.options == {"hand": 3}
    # the play page: Tally's board (its own template), the seat's hand and its moves, the log in words
    page = browser.get(f"/matches/{match.pk}/").content.decode()
    assert 'class="tally"' in page and "Tally" in page
    assert "The match starts: 3 cards each." in page
    # the API, as an outside client with a token
    token = api_token_create(user=anna, name="tally client")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    view = api.get(f"/api/matches/{match.pk}/view").json()
    seat = view["seat"]
    assert view["game"] == "tally" and len(view["view"]["hand"]) == 3
    events = api.get(f"/api/matches/{match.pk}/events?seat={seat}").json()
    dealt = [e["payload"] for e in events["events"] if e["type"] == "cards_dealt"]
    assert [("cards" in p) for p in dealt] == [s == seat for s in range(2)]  # T1: only its own cards
    refused = api.post(f"/api/matches/{match.pk}/moves", {"game": "tally", "move": {"type": "play", "card": "10"}},
                       content_type="application/json")
    assert refused.status_code in (409, 422) and refused.json()["code"] in ("card_not_in_hand", "not_your_turn")
    assert refused.json()["message"] != "That move is not allowed now."  # a sentence for its code
    match.refresh_from_db()
    assert match.last_seq == events["seq"]  # nothing recorded for the refused move
    moves = 0
    while True:
        match.refresh_from_db()
        if match.has_ended:
            break
        legal = api.get(f"/api/matches/{match.pk}/legal").json()
        assert legal["game"] == "tally"
        if not legal["moves"]:  # the bot's turn (its task runs on commit, which a test's transaction never does)
            bots_advance(match_id=match.pk)
            continue
        moved = api.post(f"/api/matches/{match.pk}/moves",
                         {"game": "tally", "move": legal["moves"][0], "expected_seq": legal["seq"]},
                         content_type="application/json")
        assert moved.status_code == 200, moved.content
        moves += 1
    assert moves == 3 and match.status == Match.Status.FINISHED
    # the board after the end, its log and round table in words
    board = browser.get(f"/matches/{match.pk}/board/").content.decode()
    assert "The match is over:" in board and "plays" in board
    # after the end every event is public: the other seat's cards too
    public = api.get(f"/api/matches/{match.pk}/events").json()["events"]
    assert all("cards" in e["payload"] for e in public if e["type"] == "cards_dealt")
    # the record: its schema (the registry's games), and the offline verifier in a bare process
    record = api.get(f"/api/matches/{match.pk}/record").json()
    assert record["game"] == "tally"
    jsonschema.validate(record, verify.record_schema())
    path = tmp_path / "tally.json"
    path.write_text(json.dumps(record))
    checked = subprocess.run([sys.executable, "-m", "engine.verify", str(path)], capture_output=True, text=True,
                             env={**os.environ, "ENGINE_GAMES": "tally=tests.sixth_game.tally"})
    assert checked.returncode == 0 and "verified" in checked.stdout, checked.stdout + checked.stderr
    exported = io.StringIO()
    call_command("match_export", match.pk, "--text", stdout=exported)
    assert "plays" in exported.getvalue()


def test_the_rules_page_of_tally_is_served_in_the_site():
    page = Client().get("/rules/tally/")
    assert page.status_code == 200 and 'id="rule-T2"' in page.content.decode()


def test_a_bot_tournament_of_tally_runs_to_its_end():
    out = io.StringIO()
    call_command("bot_tournament", "--game", "tally", "--format", "round_robin", "--players", "3", "--sync",
                 stdout=out)
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED
    assert Match.objects.filter(game="tally", status=Match.Status.FINISHED).count() == 3
    assert "Final standings" in out.getvalue()


def test_tally_has_every_bot_level_and_its_searching_bot_plays_a_tournament_without_a_line_in_search_py():
    """A greedy bot in its own bots module and its ``sample_state`` give Tally every level; the search knows
    it from the contract alone (no ``SEARCH``): the form, the admin and ``bot_tournament`` offer them all."""
    from engine.bots import POLICY_NAMES, levels_for, search

    assert levels_for("tally") == POLICY_NAMES
    assert search.spec_of("tally").horizon_events == frozenset({"match_ended"})
    out = io.StringIO()
    call_command("bot_tournament", "--game", "tally", "--format", "round_robin", "--players", "2", "--sync",
                 "--policy", "search", stdout=out)
    assert Match.objects.filter(game="tally", status=Match.Status.FINISHED).count() == 1
    assert "Final standings" in out.getvalue()

