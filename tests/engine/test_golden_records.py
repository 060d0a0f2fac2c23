"""Old matches stay verifiable: every golden record in tests/fixtures/records/ (real matches of every game
and variant, made by ``python -m tests.fixtures.records.make``) verifies with the offline verifier on
every run — so a change to the rules code that would alter an old match's events fails here — and any
byte changed in a record is caught. No Django, no database: the engine alone."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from engine import registry
from engine.core import match_seed, server_contribution
from engine.verify import record_schema, supported_versions, verify_record

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted((ROOT / "tests" / "fixtures" / "records").glob("*.json"))
SCHEMA = record_schema()


def load(name: str) -> dict:
    return json.loads((ROOT / "tests" / "fixtures" / "records" / f"{name}.json").read_text(encoding="utf-8"))


def test_there_is_a_golden_record_of_every_game_and_variant():
    records = [json.loads(p.read_text(encoding="utf-8")) for p in RECORDS]
    kinds = {(r["game"], json.dumps(r["options"], sort_keys=True)) for r in records}
    assert {"cardavia", "iota", "karuselis", "livol", "uno_flip"} <= {g for g, _ in kinds} <= set(registry.names())
    assert ("livol", '{"target": 40}') in kinds and any('"own_hand"' in o for g, o in kinds if g == "livol")
    assert {json.loads(o).get("variant") for g, o in kinds if g == "iota"} >= {None, "short", "kids"}
    met = {e["type"] for r in records for e in r["events"]}
    assert met >= {"match_opened", "entropy_contributed", "seat_timed_out", "bot_took_seat", "seat_resigned",
                   "match_awarded", "match_aborted", "seed_revealed"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_golden_record_verifies_and_follows_the_schema(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(record, SCHEMA)
    report = verify_record(record)
    assert report.ok, report.headline
    assert record["rules_version"] in supported_versions(record["game"])


def test_the_record_schema_lists_the_registered_games_so_a_new_game_needs_no_list_edited(monkeypatch):
    """The schema's ``game`` enum is the registry's games, read when asked: a sixth game's record is valid
    as soon as the game is registered, and a record of a game the registry lacks is refused by the schema
    as it is by the verifier."""
    record = load(RECORDS[0].stem)
    assert record_schema()["properties"]["game"]["enum"] == list(registry.names())
    monkeypatch.setattr(registry, "GAME_NAMES", (*registry.GAME_NAMES, "sixth"))
    assert "sixth" in record_schema()["properties"]["game"]["enum"]
    jsonschema.validate({**record, "game": "sixth"}, record_schema())
    monkeypatch.undo()
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**record, "game": "sixth"}, record_schema())
    assert not verify_record({**record, "game": "sixth"}).ok


def test_the_seed_is_the_secret_together_with_every_seats_value():
    record = load("livol-people-timeout-resign")
    values = [c["value"] for c in sorted(record["contributions"], key=lambda c: c["seat"])]
    started = next(e for e in record["events"] if e["type"] == "match_started")
    assert started["payload"]["seed"] == match_seed(record["secret"], values)
    # the bot's value is the one the committed secret fixes; the people's are their own
    assert [c["by"] for c in sorted(record["contributions"], key=lambda c: c["seat"])] == ["player", "player",
                                                                                          "server"]
    assert values[2] == server_contribution(record["secret"], 2)


def test_a_different_contribution_gives_a_different_deal():
    secret = "s" * 64
    a = match_seed(secret, ["00" * 16, "11" * 16])
    assert a == match_seed(secret, ["00" * 16, "11" * 16])
    assert a != match_seed(secret, ["00" * 16, "12" * 16])
    from engine import registry

    game = registry.get("livol")
    assert game.start(2, a)[1]["deck"] != game.start(2, match_seed(secret, ["00" * 16, "12" * 16]))[1]["deck"]


def _flip(value):
    """The same value with one byte (character or digit) changed."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return (chr(ord(value[0]) ^ 1) + value[1:]) if value else "x"
    raise TypeError(value)


TAMPERINGS = {
    "a payload card": lambda r: _set_first(r, lambda e: e["type"] == "card_played", ("payload", "card")),
    "a move": lambda r: _set_first(r, lambda e: e["move"] and "card" in e["move"], ("move", "card")),
    "a seat": lambda r: _set_first(r, lambda e: e["seat"] is not None, ("seat",)),
    "a position": lambda r: _set_first(r, lambda e: e["seq"] == 5, ("seq",)),
    "a time": lambda r: _set_first(r, lambda e: e["seq"] == 7, ("at",)),
    "a previous hash": lambda r: _set_first(r, lambda e: e["seq"] == 9, ("prev_hash",)),
    "a hash": lambda r: _set_first(r, lambda e: e["seq"] == 11, ("hash",)),
    "a timeout's deadline": lambda r: _set_first(r, lambda e: e["type"] == "seat_timed_out", ("payload", "deadline")),
    "a contribution": lambda r: _set_first(r, lambda e: e["type"] == "entropy_contributed", ("payload", "value")),
    "the revealed secret": lambda r: _set_first(r, lambda e: e["type"] == "seed_revealed", ("payload", "seed")),
    "the commitment": lambda r: r.__setitem__("commitment", _flip(r["commitment"])),
    "the options": lambda r: r["options"].__setitem__("target", r["options"]["target"] + 1),
    "the result": lambda r: r["result"]["scores"].__setitem__(0, r["result"]["scores"][0] + 1),
    "the match id": lambda r: r.__setitem__("match", r["match"] + 1),
    "the seats": lambda r: r["seats"].pop(),
    "an event dropped": lambda r: r["events"].pop(20),
    "the last event dropped": lambda r: r["events"].pop(),
}


def _set_first(record, where, path):
    event = next(e for e in record["events"] if where(e))
    target = event
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = _flip(target[path[-1]])


@pytest.mark.parametrize("what", TAMPERINGS)
def test_tampering_with_any_part_of_a_record_is_caught(what):
    record = load("livol-people-timeout-resign")
    assert verify_record(record).ok
    tampered = copy.deepcopy(record)
    TAMPERINGS[what](tampered)
    report = verify_record(tampered)
    assert not report.ok, what
    assert report.first_bad_seq is not None and report.headline.startswith("BAD at event ")


def test_a_byte_flipped_anywhere_in_the_file_is_caught(tmp_path):
    """Flip one byte at many places of the file itself: it stops parsing, or it stops verifying."""
    text = (ROOT / "tests" / "fixtures" / "records" / "iota-short.json").read_text(encoding="utf-8")
    caught = 0
    for i in range(0, len(text), max(1, len(text) // 1500)):
        if text[i] in ' ,:{}[]"':
            continue  # structure, not content: covered by the parse and the schema
        flipped = text[:i] + chr(ord(text[i]) ^ 1) + text[i + 1:]
        try:
            record = json.loads(flipped)
        except ValueError:
            caught += 1
            continue
        if record == json.loads(text):
            continue  # the same value (e.g. a digit of an unchecked spacing)
        assert not verify_record(record).ok, f"a byte at {i} was changed unseen: {flipped[max(0, i - 30):i + 30]}"
        caught += 1
    assert caught > 100


def test_the_verifier_command_says_verified_or_names_the_bad_event(tmp_path):
    good = ROOT / "tests" / "fixtures" / "records" / "cardavia.json"
    done = subprocess.run([sys.executable, "-m", "engine.verify", str(good)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stdout.strip().endswith("events)") and "verified" in done.stdout
    record = load("cardavia")
    record["events"][3]["payload"]["value" if "value" in record["events"][3]["payload"] else "type"] = "x" * 32
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine.verify", str(bad)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 1 and "BAD at event 4:" in done.stdout


def _rechain(record: dict) -> None:
    """Hash the record's events again (as a server of another version would have recorded them)."""
    from engine.record import GENESIS_HASH, event_hash

    prev = GENESIS_HASH
    for e in record["events"]:
        e["prev_hash"], e["hash"] = prev, event_hash(prev_hash=prev, match_id=record["match"], seq=e["seq"],
                                                     payload=e["payload"], seat=e["seat"], move=e["move"], at=e["at"],
                                                     chain_version=record["chain_version"])
        prev = e["hash"]
    record["last_hash"] = prev


def test_a_record_of_an_unknown_rules_version_names_the_version_it_needs():
    record = load("iota-standard")
    started = next(e for e in record["events"] if e["type"] == "match_started")
    started["payload"]["rules_version"] = record["rules_version"] = 99
    _rechain(record)
    report = verify_record(record)
    assert not report.ok
    assert "needs rules version 99 of iota" in report.headline
