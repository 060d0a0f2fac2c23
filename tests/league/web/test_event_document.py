"""The whole event as one document: ``GET /api/tournaments/{id}`` and ``tournament_show --json``."""
from __future__ import annotations

import io
import json

from django.core.management import call_command

from league import services
from tests.league.conftest import make_tournament


def _keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_the_event_document_has_terms_entrants_rounds_with_bracket_positions_and_standings(league, client):
    # given a knockout of four bots played to its final
    tournament = make_tournament(league, format="knockout", players=4)
    tournament.format_options = {"note": "kept as set"}
    tournament.save(update_fields=["format_options"])
    services.tournament_run(tournament_id=tournament.pk)
    # when the event is read from the API
    response = client.get(f"/api/league/tournaments/{tournament.pk}")
    assert response.status_code == 200
    doc = response.json()
    # then its terms say what it plays and how it scores
    assert doc["terms"]["format"] == "knockout" and doc["terms"]["format_options"] == {"note": "kept as set"}
    assert doc["terms"]["seats_per_table"] == 2 and doc["terms"]["scoring"]["win"] == "3"
    assert doc["terms"]["time_zone"] == league.club.time_zone
    # and every entrant is there with their seed
    assert sorted(e["seed"] for e in doc["entrant_list"]) == [1, 2, 3, 4]
    # and the rounds' tables have seats, results and their place in the bracket
    semis, final = doc["rounds_played"]
    assert [t["bracket"]["slot"] for t in semis["tables"]] == [1, 2]
    assert all(t["bracket"]["next"] == 1 for t in semis["tables"])
    champion = final["tables"][0]["bracket"]["winner"]
    assert champion in {s["entrant_id"] for s in final["tables"][0]["seats"]}
    assert all(s["place"] in (1, 2) for t in semis["tables"] for s in t["seats"])
    # and the standings put the bracket's winner first
    assert doc["standings"]["rows"][0]["entrant_id"] == champion
    # and nothing of any match's cards is in it
    assert not _keys(doc) & {"hand", "hands", "deck", "secret", "events", "state", "view"}


def test_tournament_show_json_prints_the_same_document_as_the_api(league, client):
    # given a Swiss event with a round played
    tournament = make_tournament(league, format="swiss", players=4, rounds=1)
    services.tournament_run(tournament_id=tournament.pk)
    # when the command prints it
    out = io.StringIO()
    call_command("tournament_show", "--tournament", str(tournament.pk), "--json", stdout=out)
    # then it is the API's document
    assert json.loads(out.getvalue()) == client.get(f"/api/league/tournaments/{tournament.pk}").json()


def test_a_bye_and_a_withdrawal_are_in_the_document_as_the_tables_recorded_them(league, client):
    # given a Swiss of three (a bye each round) where one player withdrew after round 1
    tournament = make_tournament(league, format="swiss", players=3, rounds=2)
    services.round_pair(tournament_id=tournament.pk)
    services.round_start(round_id=tournament.round_set.get().pk)
    services.tournament_sweep(tournament_id=tournament.pk)
    gone = tournament.entrants.get(seed=3)
    services.entrant_withdraw(entrant_id=gone.pk)
    services.tournament_run(tournament_id=tournament.pk)
    # when the event is read
    doc = client.get(f"/api/league/tournaments/{tournament.pk}").json()
    # then round 1's bye is a table of kind "bye" with its points, and the withdrawal is on the entrant
    byes = [t for t in doc["rounds_played"][0]["tables"] if t["kind"] == "bye"]
    assert len(byes) == 1 and byes[0]["seats"][0]["points"] == "3" and byes[0]["bracket"] is None
    assert next(e for e in doc["entrant_list"] if e["id"] == gone.pk)["withdrawn_in"] >= 1
    assert doc["stages"] == []


def test_the_event_document_is_at_api_tournaments_as_well_as_under_the_league(league, client):
    # given a Swiss event with a round played
    tournament = make_tournament(league, format="swiss", players=4, rounds=1)
    services.tournament_run(tournament_id=tournament.pk)
    # when anyone reads /api/tournaments/{id}, signed in or not
    answer = client.get(f"/api/tournaments/{tournament.pk}")
    # then it is the same document as the league's older path
    assert answer.status_code == 200
    assert answer.json() == client.get(f"/api/league/tournaments/{tournament.pk}").json()
    # and an unknown event is a 404 with the error's shape
    missing = client.get("/api/tournaments/999999")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
