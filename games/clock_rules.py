"""What a clock may be: its keys and their bounds. A pure rule (no Django, no database), so that models,
forms and services check a clock the same way without the models importing a service
(``games.services.clocks`` runs the clocks)."""
from __future__ import annotations

LIVE_KEYS = {"move_seconds", "bank_seconds", "join_seconds"}
CORRESPONDENCE_KEYS = {"move_days", "join_days"}


def check_clock(clock) -> None:
    """A clock is None (none), or live: ``move_seconds`` 5–86,400 with optional ``bank_seconds``
    0–86,400 and ``join_seconds`` 10–604,800; or correspondence: ``move_days`` 1–60 with optional
    ``join_days`` 1–60. Anything else raises ``ValueError``."""
    if not clock:
        return
    if not isinstance(clock, dict):
        raise ValueError("a clock is an object such as {\"move_seconds\": 60} or {\"move_days\": 2}")
    keys = set(clock)
    bounds = {"move_seconds": (5, 86_400), "bank_seconds": (0, 86_400), "join_seconds": (10, 604_800),
              "move_days": (1, 60), "join_days": (1, 60)}
    if not (keys <= LIVE_KEYS and "move_seconds" in keys) and not (keys <= CORRESPONDENCE_KEYS and "move_days" in keys):
        raise ValueError("a clock is live ({\"move_seconds\": 60}, optionally bank_seconds, join_seconds) or "
                         "correspondence ({\"move_days\": 2}, optionally join_days)")
    for key, value in clock.items():
        low, high = bounds[key]
        if type(value) is not int or not low <= value <= high:
            raise ValueError(f"clock: {key} is a whole number from {low} to {high}")
