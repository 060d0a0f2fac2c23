"""Filters for the settings' ``LOGGING``. Logging is configured while Django sets up, before the apps are
loaded, so this module imports no app."""
from __future__ import annotations

import logging


class ExpectedRefusals(logging.Filter):
    """On ``django.request`` (settings.LOGGING), which logs every 5xx as an error: not the refusals a
    server without streams is expected to give ("Service Unavailable: /api/stream" in the console of
    a copy without Redis, for every client that tried). ``games.web.streams`` marks them on the request
    (``expected_refusal``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(getattr(record, "request", None), "expected_refusal", False)
