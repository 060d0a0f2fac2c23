"""The random bot: any legal move, uniformly; optional moves half of the time."""
from __future__ import annotations

import random


def random_policy(view: dict, legal: list[dict], rng: random.Random, must_act: bool) -> dict | None:
    if not must_act and rng.random() < 0.5:
        return None
    return rng.choice(legal)
