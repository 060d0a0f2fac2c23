"""A sixth game is added in its own files: Tally, whose engine module, bots, kit, templates and settings live
only in ``tests/sixth_game``, is played end to end through the site — the new-match form, the board and the
log, the API, the record and ``python -m engine.verify``, the rules page, a bot tournament, its searching bots
and ``manage.py check`` — in a pytest process of its own (``tests/sixth_game/play_tally.py``), since the
registry of this process holds the five games. The engine's and the words' tests, which run every registered
game through the same checks (protocol, hostile moves, event declarations, option bounds, the search, words
for every event and refusal), run it there too."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
#: The tests that read the registry and run every registered game through the same checks.
EVERY_GAMES_TESTS = ("tests/engine/test_protocol.py", "tests/engine/test_hostile_moves.py",
                     "tests/engine/test_event_declarations.py", "tests/engine/test_options_bounds.py",
                     "tests/engine/test_search.py", "tests/games/test_words.py")
#: What the process of the sixth game does not inherit: the services and the worker this suite's process
#: uses (its own test database is SQLite in memory, its cache a directory of its own, its tasks in-process).
SHARED = ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "STREAMS_URL", "PYTEST_XDIST_WORKER",
          "PYTEST_ADDOPTS", "DJANGO_SETTINGS_MODULE", "ENGINE_GAMES")


@pytest.mark.slow
def test_a_sixth_game_in_its_own_files_is_played_end_to_end(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in SHARED}
    env.update(ENGINE_GAMES="tally=tests.sixth_game.tally", CARDLEAGUE_VAR=str(tmp_path), CELERY_TASK_ALWAYS_EAGER="1")
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/sixth_game/play_tally.py", *EVERY_GAMES_TESTS,
                          "-k", "tally", "--ds", "tests.sixth_game.settings", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "-rA"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    passed = [line for line in run.stdout.splitlines() if line.startswith("PASSED ")]
    assert sum("play_tally.py::" in line for line in passed) == 5, run.stdout[-4000:]
    assert any("test_protocol_random_play[tally-" in line for line in passed), run.stdout[-4000:]
    for path in EVERY_GAMES_TESTS:  # each ran Tally through its checks, none skipped it
        assert any(line.startswith(f"PASSED {path}::") and "tally" in line for line in passed), path
    assert not [line for line in run.stdout.splitlines() if line.startswith("SKIPPED")], run.stdout[-4000:]


def test_this_process_knows_only_the_five_games():
    """Tally is registered in its own process only: here, every test that reads the registry sees the five."""
    assert registry.names() == ["cardavia", "iota", "karuselis", "livol", "uno_flip"]


def test_tallys_engine_module_and_bots_type_check_as_the_engine_does(tmp_path):
    """``mypy --strict`` (the engine's ``mypy.ini``) holds Tally's game object to the contract
    (``game: SearchableGame``), as it does every module of ``engine/`` (``tests/test_types.py``)."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypy.ini"), "--cache-dir",
                           str(tmp_path), "tests/sixth_game/tally.py", "tests/sixth_game/bots.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
