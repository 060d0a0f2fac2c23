"""The pure modules type-check: ``mypy`` (strict, configured in ``mypy.ini``) finds nothing in ``engine/``,
``games/kits/``, ``league/rules/``, ``league/formats/`` and ``league/selectors/exports.py``."""
from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

from tests.conftest import need

ROOT = Path(__file__).resolve().parents[1]


def _installed(distribution: str) -> bool:
    try:
        importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def test_the_pure_modules_type_check_under_mypy():
    # the kits and the league's rules read Django's types from django-stubs (the test extra)
    need(_installed("django-stubs"), "django-stubs is not installed: pip install -e '.[test]'")
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypy.ini")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
