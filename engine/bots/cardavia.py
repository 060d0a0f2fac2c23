"""A sensible Cardavia bot: swap low cards, keep high ones, weighted by what it has seen.

It reads only its view: its own card, the face-up cards (a knocked Fool, the
matadors that refused), the matadors set aside from the stock, and in the log
the cards it received or gave in its own swaps. From the rest of the deck it
estimates, for keeping and for asking, the expected number of lives lost this
deal, and takes the smaller (keeping on a tie):

- keeping: the chance that no other participant ends lower (C9/C10: with one
  Fool elsewhere, the next-lowest pays with it; a held Fool always pays);
- asking: over the card the request will meet (the neighbour's, past known
  Horses and Houses, or the stock's for the dealer), a Dragoon or Cat costs a
  life and leaves the card, a Cuckoo stops the deal, an ordinary card is taken.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.bots.search import Spec, squash
from engine.cardavia import CHOPPERS, FOOL, PASSERS, RANK, cards

DECK = Counter(cards())
KEEP, ASK = {"type": "keep"}, {"type": "ask"}


def _p_lose(card: str, known: list[str], unknown: int, pool: Counter[str]) -> float:
    """Chance that ``card`` pays at settlement against ``known`` other cards and ``unknown``
    face-down ones drawn from ``pool``."""
    if card == FOOL:
        return 1.0
    if known.count(FOOL) >= 2:
        return 0.0
    if any(c != FOOL and RANK[c] < RANK[card] for c in known):
        return 0.0
    total = sum(pool.values())
    if unknown <= 0 or total == 0:
        return 1.0
    safe_for_them = sum(n for c, n in pool.items() if c == FOOL or RANK[c] >= RANK[card])
    return (safe_for_them / total) ** unknown


def _expected_ask(card: str, met: str | None, known: list[str], unknown: int, pool: Counter[str],
                  from_stock: bool) -> float:
    """Expected lives lost by asking, the met card known (``met``, not in ``known``) or
    drawn from ``pool``."""
    outcomes = (Counter({met: 1}) if met is not None
                else Counter({c: n for c, n in pool.items() if c not in PASSERS}))
    total = sum(outcomes.values())
    if total == 0:
        return _p_lose(card, known, unknown, pool)
    hidden_target = 0 if (met is not None or from_stock) else 1
    expected = 0.0
    for drawn, n in outcomes.items():
        rest = pool.copy()
        rest[drawn] -= 1
        if drawn in CHOPPERS:
            loss = 1 + _p_lose(card, known + [drawn], unknown - hidden_target, rest)
        elif drawn == "CUCKOO":
            loss = _p_lose(card, known + [drawn], unknown - hidden_target, rest)
        elif from_stock:
            loss = _p_lose(drawn, known, unknown, rest)          # our card goes under the stock
        else:
            loss = _p_lose(drawn, known + [card], unknown - hidden_target, rest)
        expected += n * loss
    return expected / total


def _knowledge(view: dict[str, Any]) -> tuple[list[str], Counter[str]]:
    """The other participants' cards we know, and the pool of cards we do not."""
    seat = view["seat"]
    received, with_others = [], []
    for e in view["log"]:
        if e["type"] == "cards_swapped" and "gave" in e and seat in (e["seat"], e["target"]):
            gave, got = (e["gave"], e["got"]) if e["seat"] == seat else (e["got"], e["gave"])
            with_others.append(gave)
            received.append(got)
        elif e["type"] == "swaps_undone":
            with_others = list(received)     # everyone holds the card it was dealt again
    face_up = [view["face_up"][s] for s in view["participants"] if s != seat and view["face_up"][s]]
    known = list(face_up)
    for code in with_others:
        if code in face_up:
            face_up.remove(code)
        else:
            known.append(code)
    pool = DECK.copy()
    for code in [*view["hand"], *known, *view["set_aside"]]:
        pool[code] = max(0, pool[code] - 1)
    return known, +pool


def sensible(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
    if not legal:
        return None
    card = view["hand"][0]
    seat, order = view["seat"], view["participants"]
    known, pool = _knowledge(view)
    unknown = max(0, len(order) - 1 - len(known))
    keep_loss = _p_lose(card, known, unknown, pool)
    i = order.index(seat)
    met, from_stock = None, True
    for target in order[i + 1:]:
        shown = view["face_up"][target]
        if shown in PASSERS:
            continue                       # the request passes it on (C6)
        met, from_stock = shown, False
        break
    if met is not None:
        known = list(known)
        known.remove(met)                  # it is the card the request meets
    ask_loss = _expected_ask(card, met, known, unknown, pool, from_stock)
    choice = ASK if ask_loss < keep_loss else KEEP
    return choice if choice in legal else rng.choice(legal)


POLICIES = {"greedy": sensible, "sensible": sensible}


# ---- the search (engine/bots/search.py) ------------------------------------------------

def _lives_reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
    """At the end of the deal, 0.5 + 0.5·tanh(o − m), m = lives I lost (twice when it was my last), o = the
    mean lives lost by the others."""
    lost = [a - b for a, b in zip(start.lives, end.lives)]
    mine = lost[me] * (2 if end.lives[me] == 0 and lost[me] else 1)
    others = [lost[s] for s in range(start.seats) if s != me and start.lives[s] > 0]
    return squash((sum(others) / len(others) if others else 0) - mine)


#: The search plays to the end of the deal.
SEARCH = Spec("cardavia", frozenset({"deal_settled", "deal_ended", "match_ended"}), 40, _lives_reward,
              budgets={"search-easy": 60, "search": 240, "search-strong": 960})
