"""Settings for the test suite: the project's settings as a local copy runs them (DEBUG on, so
no HTTPS redirect or secure-only cookies over the test client's plain HTTP).

Production behaviour is tested on purpose where it matters: ``check --deploy`` runs in a
subprocess with ``DEBUG=0`` (tests/games/web/test_access.py), CSRF is enforced by the clients that
test it, and pytest-django runs every test with ``settings.DEBUG = False`` anyway.

The tests never read this copy's own ``.env`` (``make install`` writes it): they behave the same
with or without it, and the processes they start inherit that (a test that wants a local settings
file names one with ``CARDLEAGUE_ENV_FILE``).
"""
import os

os.environ["CARDLEAGUE_ENV_FILE"] = ""
os.environ.setdefault("DEBUG", "1")

from cardleague.settings import *  # noqa: E402,F401,F403

# pytest-xdist: each worker its own cache (its rate-limit counts, kept log tails), as it has its own test
# database; a test that clears the cache clears only its own worker's (the processes a test starts inherit
# PYTEST_XDIST_WORKER, so they share the worker's cache).
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER:
    if CACHES["default"]["BACKEND"].endswith("FileBasedCache"):  # noqa: F405
        CACHES["default"]["LOCATION"] += f"-{_WORKER}"  # noqa: F405
    else:
        CACHES["default"]["KEY_PREFIX"] = _WORKER  # noqa: F405

# Passwords: a fast hash for the tests' thousands of users. Django's default (PBKDF2, a million rounds) costs
# about 0.3 s a user, most of a database test's set-up. The project keeps Django's default
# (tests/cardleague/test_settings.py holds it there).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
