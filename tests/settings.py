"""Settings for the test suite: the project's settings as a local copy runs them (DEBUG on, so
no HTTPS redirect or secure-only cookies over the test client's plain HTTP).

Production behaviour is tested on purpose where it matters: ``check --deploy`` runs in a
subprocess with ``DEBUG=0`` (tests/games/test_settings.py), CSRF is enforced by the clients that
test it, and pytest-django runs every test with ``settings.DEBUG = False`` anyway.
"""
import os

os.environ.setdefault("DEBUG", "1")

from league.settings import *  # noqa: E402,F401,F403
