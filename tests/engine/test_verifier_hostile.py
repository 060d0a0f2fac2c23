"""The offline verifier never says "verified" for what it did not check, and never crashes on a hostile
record. Hostile records are made here from the golden ones
(``tests/fixtures/records/``), re-chained where a forger would re-chain them."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.record import GENESIS_HASH, event_hash
from engine.verify import main, summary, verify_record

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "fixtures" / "records"


def load(name: str) -> dict:
    return json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def rechain(record: dict) -> dict:
    """Hash the events again, as a forger holding the server would: the chain alone then proves nothing."""
    prev = GENESIS_HASH
    for e in record["events"]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(prev_hash=prev, match_id=record["match"], seq=e["seq"], payload=e["payload"],
                                      seat=e.get("seat"), move=e.get("move"), at=e.get("at"),
                                      chain_version=record.get("chain_version", 1))
    record["last_seq"], record["last_hash"] = len(record["events"]), prev
    return record


def cli(tmp_path, record_or_text) -> subprocess.CompletedProcess:
    path = tmp_path / "record.json"
    path.write_text(record_or_text if isinstance(record_or_text, str) else json.dumps(record_or_text),
                    encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "engine.verify", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def running(name: str) -> dict:
    """A golden record cut back to a running match: everything before the secret's reveal."""
    record = load(name)
    record["events"] = [e for e in record["events"] if e["type"] != "seed_revealed"]
    record.update(status="running", secret=None, result=None)
    return rechain(record)


# -- "verified" only for what was checked -------------------------------------------------------------

def test_a_running_match_is_chain_only_never_verified(tmp_path):
    report = verify_record(running("livol-winner-scores"))
    assert report.ok and not report.verified and report.exit_code == 2
    assert report.headline.startswith("chain only, not replayed")
    done = cli(tmp_path, running("livol-winner-scores"))
    assert done.returncode == 2 and "chain only, not replayed" in done.stdout and "verified (" not in done.stdout


def test_an_aborted_record_without_an_opening_is_chain_only(tmp_path):
    record = load("cardavia-aborted")
    record["events"] = [e for e in record["events"] if e["type"] not in ("match_opened", "seed_revealed",
                                                                          "match_aborted")][:3]
    for i, e in enumerate(record["events"], start=1):
        e["seq"] = i
    record.update(status="aborted", secret=None, result=None, contributions=[
        {k: e["payload"].get(k) for k in ("seat", "value", "by")} for e in record["events"]
        if e["type"] == "entropy_contributed"])
    rechain(record)
    report = verify_record(record)
    assert not report.verified and report.exit_code in (1, 2)
    assert cli(tmp_path, record).returncode in (1, 2)


def test_a_forged_result_of_a_match_that_did_not_finish_is_bad():
    record = running("iota-short")
    record["result"] = {"ranking": [[1], [0]], "scores": [0, 99]}
    report = verify_record(record)
    assert not report.ok and "did not finish" in report.problems[0]


def test_a_forged_result_of_a_finished_match_is_bad():
    record = load("livol-winner-scores")
    record["result"] = {**record["result"], "ranking": list(reversed(record["result"]["ranking"]))}
    assert verify_record(record).exit_code == 1


def test_a_whole_finished_match_is_verified(tmp_path):
    report = verify_record(load("livol-people-timeout-resign"))
    assert report.verified and report.exit_code == 0
    assert cli(tmp_path, load("livol-people-timeout-resign")).returncode == 0


# -- hostile shapes end in "bad", named, never a traceback ----------------------------------------------

def hostile(name: str):
    record = load("iota-short")
    if name == "list payload":
        record["events"][2]["payload"] = [1, 2, 3]
    elif name == "chain_version text":
        record["chain_version"] = "2"
    elif name == "time not text":
        record["events"][1]["at"] = 12345
    elif name == "unknown stand-in":
        record = load("livol-people-timeout-resign")
        timeout = next(e for e in record["events"] if e["type"] == "seat_timed_out")
        timeout["payload"]["policy"] = "telepathy"
        rechain(record)
    elif name == "seq not a number":
        record["events"][0]["seq"] = "1"
    return record


@pytest.mark.parametrize("name", ["list payload", "chain_version text", "time not text", "unknown stand-in",
                                  "seq not a number"])
def test_a_hostile_record_is_bad_and_named_never_a_crash(tmp_path, name):
    record = hostile(name)
    report = verify_record(copy.deepcopy(record))
    assert not report.ok and report.problems
    done = cli(tmp_path, record)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "BAD" in done.stdout + done.stderr


def test_json_nested_too_deep_is_bad_and_named(tmp_path):
    done = cli(tmp_path, "[" * 100_000 + "]" * 100_000)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "too deep" in done.stderr or "BAD" in done.stderr


def test_the_command_called_wrongly_is_a_usage_error_not_a_verdict():
    assert main([]) == 64


# -- a timeout's position is checked -----------------------------------------------------------------

def test_a_timeout_claiming_another_position_is_bad():
    record = load("livol-people-timeout-resign")
    timeout = next(e for e in record["events"] if e["type"] == "seat_timed_out")
    timeout["payload"]["position"] -= 1
    rechain(record)
    report = verify_record(record)
    assert not report.ok and f"event {timeout['seq']}" in report.headline and "position" in report.headline


# -- whose randomness went into the deal ---------------------------------------------------------------

def test_the_summary_says_when_the_server_alone_fixed_the_deal():
    lines = summary(load("cardavia"))
    assert any("the server alone fixed it" in line for line in lines)
    assert any(line.startswith("commitment: ") for line in lines) and any(line.startswith("result: ") for line in lines)


def test_the_summary_names_the_seats_the_server_contributed_for(tmp_path):
    record = load("livol-people-timeout-resign")
    lines = summary(record)
    assert any("the server contributed for seat(s) 2; the others gave their own" in line for line in lines)
    done = cli(tmp_path, record)
    assert "players: 0: " in done.stdout and "commitment: " in done.stdout and done.stdout.strip().endswith("events)")
