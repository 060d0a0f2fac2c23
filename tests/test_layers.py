"""One-way layers (issue 22 item 3): the import contracts in pyproject.toml ([tool.importlinter]) hold — the
engine imports no Django and nothing of the site, games does not import the league, the event store does
not publish, and services do not import the edge. Checked with import-linter on the real import graph.
And the tree passes ruff ([tool.ruff]: errors and likely bugs, issue 22 item 5)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold():
    done = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_tree_passes_ruff():
    done = subprocess.run([str(Path(sys.executable).parent / "ruff"), "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
