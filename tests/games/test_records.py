"""A finished match's portable record: exported by the command and the API, verified offline by the engine
alone, and readable as text."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from engine.verify import record_schema
from games import services
from games.models import Match
from games.services import SeatSpec, bots_advance, match_create

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = record_schema()


def _finished(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0], entropy="c3" * 16), SeatSpec(bot="greedy")],
                         options={"target": 30})
    services.match_resign(match_id=match.pk, seat=0)
    bots_advance(match_id=match.pk, budget=10000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_an_exported_record_verifies_offline_with_the_engine_alone(people, tmp_path):
    match = _finished(people)
    path = tmp_path / "record.json"
    call_command("match_export", str(match.pk), "-o", str(path))
    record = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(record, SCHEMA)
    assert record["secret"] == match.seed and record["contributions"][0] == {"seat": 0, "value": "c3" * 16,
                                                                              "by": "player"}
    # a fresh interpreter that imports nothing of Django checks it
    done = subprocess.run([sys.executable, "-c", "import sys, runpy; sys.argv = ['engine.verify', sys.argv[1]]; "
                           "runpy.run_module('engine.verify', run_name='__main__'); "
                           "assert 'django' not in sys.modules", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "verified" in done.stdout, done.stdout + done.stderr


def test_a_running_match_has_no_record_yet(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])])
    client = Client()
    client.force_login(people[0])
    response = client.get(f"/api/matches/{match.pk}/record")
    assert response.status_code == 409 and response.json()["code"] == "match_running"
    with pytest.raises(CommandError):
        call_command("match_export", str(match.pk))


def test_the_api_gives_the_record_of_an_ended_match(people):
    match = _finished(people)
    client = Client()
    client.force_login(people[2])  # any signed-in person: the match is over, everything is public
    record = client.get(f"/api/matches/{match.pk}/record").json()
    assert record["format"] == "cardleague-match-record" and len(record["events"]) == match.last_seq


def test_the_text_form_has_header_tags_and_the_moves_in_words(people, capsys):
    match = _finished(people)
    call_command("match_export", str(match.pk), "--text")
    text = capsys.readouterr().out
    assert '[Game "LIVOL"]' in text and f'[Match "{match.pk}"]' in text and f'[Secret "{match.seed}"]' in text
    assert "Round 1" in text and "player0 resigned" in text
    assert "{" not in text.split("\n\n", 1)[1]  # the moves are words, not JSON
