#!/usr/bin/env python
"""Django's command-line utility for cardleague."""
import os
import sys
from pathlib import Path


def run_in_the_project_venv() -> None:
    """``python manage.py …`` from a shell whose ``python`` has no Django (the README's commands, right
    after ``make run``): run it with the project's own ``.venv`` (``make install`` made it)."""
    try:
        import django  # noqa: F401
    except ImportError:
        venv = Path(__file__).resolve().parent / ".venv"
        python = venv / "bin" / "python"
        if python.exists() and Path(sys.prefix).resolve() != venv.resolve():
            os.execv(python, [str(python), *sys.argv])
        raise


def main():
    run_in_the_project_venv()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
