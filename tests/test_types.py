"""The engine type-checks: ``mypy`` (strict, configured in ``mypy.ini``) finds nothing in ``engine/``."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_engine_type_checks_under_mypy():
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypy.ini")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
