"""The random bot: any legal move, uniformly; optional moves half of the time."""
from __future__ import annotations

import random
from typing import Any


def random_policy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
    if not must_act and rng.random() < 0.5:
        return None
    return rng.choice(legal)
