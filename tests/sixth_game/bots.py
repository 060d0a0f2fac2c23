"""Tally's bots (its engine module names this module as ``BOTS``): ``greedy`` plays its highest card (T2: a
card's value is what it scores). With Tally's ``sample_state``, that is all the searching levels need: they
search Tally from the contract alone (``engine.bots.search.contract_spec``)."""
from __future__ import annotations

import random
from typing import Any


def greedy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
    if not legal:
        return None
    return max(legal, key=lambda move: int(move.get("card", 0)))


POLICIES = {"greedy": greedy}
