"""Waiting for another process: the one loop the tests use to wait for a row a worker writes or a
server that is starting.

Where the product gives a signal (a stream's ``hello``, a DOM change), the tests wait on it. A
Celery worker or a fresh server gives none the test can hold: the test asks again, briefly, until
what it waits for is there, and fails with what it saw once the deadline has passed — never a
fixed sleep that hopes the other process was quick enough.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pytest

T = TypeVar("T")


def wait_until(check: Callable[[], T], *, within: float, why: str | Callable[[], str],
               every: float = 0.2, not_yet: tuple[type[Exception], ...] = (OSError,)) -> T:
    """Call ``check`` until it returns something true, and return that; after ``within`` seconds fail the
    test with ``why`` (a text, or a function that says what was seen). ``check`` raising one of
    ``not_yet`` (a server not answering yet: ``OSError``) counts as not yet."""
    deadline = time.monotonic() + within
    while True:
        try:
            found = check()
        except not_yet:
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(why() if callable(why) else why)
        time.sleep(every)
