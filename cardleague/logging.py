"""The project's logging filters (``settings.LOGGING``). Read when logging is configured, before the apps are
ready: this module imports no model, nor anything that does."""
from __future__ import annotations

import logging


class ExpectedRefusals(logging.Filter):
    """On ``django.request`` (settings.LOGGING), which logs every 5xx as an error: not the refusals a
    server without streams is expected to give ("Service Unavailable: /api/stream" in the console of
    a copy without Redis, for every client that tried). A view marks such an answer with
    ``request.expected_refusal`` (``games.web.streams``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(getattr(record, "request", None), "expected_refusal", False)
