"""A sixth game is added in its own files (issue 22 item 1): Tally, whose engine module, kit, templates and
settings live only in ``tests/sixth_game``, is played end to end through the site — the new-match form, the
board and the log, the API, the record and ``python -m engine.verify``, the rules page, a bot tournament, its searching bots
and ``manage.py check`` — in a pytest process of its own (``tests/sixth_game/play_tally.py``), since the
registry of this process holds the five games; and the engine's protocol and hostile-move tests, which run
every registered game through the same checks, run it too."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: What the process of the sixth game does not inherit: the services and the worker this suite's process
#: uses (its own test database is SQLite in memory, its cache a directory of its own, its tasks in-process).
SHARED = ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "STREAMS_URL", "PYTEST_XDIST_WORKER",
          "PYTEST_ADDOPTS", "DJANGO_SETTINGS_MODULE", "ENGINE_GAMES")


@pytest.mark.slow
def test_a_sixth_game_in_its_own_files_is_played_end_to_end(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in SHARED}
    env.update(ENGINE_GAMES="tally=tests.sixth_game.tally", CARDLEAGUE_VAR=str(tmp_path), CELERY_TASK_ALWAYS_EAGER="1")
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/sixth_game/play_tally.py", "tests/engine/test_protocol.py",
                          "tests/engine/test_hostile_moves.py", "-k", "tally", "--ds", "tests.sixth_game.settings",
                          "-p", "no:cacheprovider", "-p", "no:xdist", "-rA"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    passed = [line for line in run.stdout.splitlines() if line.startswith("PASSED ")]
    assert sum("play_tally.py::" in line for line in passed) == 5, run.stdout[-4000:]
    assert any("test_protocol_random_play[tally-" in line for line in passed), run.stdout[-4000:]
