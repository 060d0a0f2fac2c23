"""Tournament formats: one object per format (``Tournament.Format``'s values), one registry.

Each format declares, as data, what the services and selectors used to ask with ``if format == …``:
how its rounds are paired (``pairing``: ``"schedule"`` — everybody meets everybody on a fixed
schedule, ``league.rules.pairing.round_robin``; ``"swiss"``; ``"knockout"``), whether the schedule is played
twice (``repeats``: home and away), whether a bye scores the league's bye points (``bye_scores``) and
whether it has a bracket of knockout stages (``bracket``). ``planned_rounds`` gives the number of rounds
for a field. Pure: no models, no queries (``league.models`` and the services read a tournament's format
through ``of``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from league.rules import pairing


@dataclass(frozen=True)
class TournamentFormat:
    key: str
    pairing: str            # "schedule", "swiss" or "knockout"
    repeats: bool = False   # the schedule is played twice (home and away)
    bye_scores: bool = False  # a bye scores the league's bye points (otherwise nothing)
    bracket: bool = False   # knockout stages: a bracket, who goes through, stages in the standings

    @property
    def scheduled(self) -> bool:
        """Everybody meets everybody on a schedule fixed at the start (a round robin)."""
        return self.pairing == "schedule"

    def schedule(self, field: int, seats: int, min_seats: int = 2,
                 sides: pairing.Sides = ()) -> list[pairing.Pairing]:
        """The whole schedule of a round robin for ``field`` players (``league.rules.pairing.round_robin``)."""
        return pairing.round_robin(field, seats, min_seats, double=self.repeats, sides=sides)

    def planned_rounds(self, field: int, seats: int, min_seats: int = 2, sides: pairing.Sides = (),
                       rounds: int | None = None) -> int:
        """How many rounds ``field`` players play: a round robin's schedule, a knockout's stages, or
        Swiss's ``rounds`` as set (by default enough to single out a winner: log2 of the field)."""
        if self.scheduled:
            return len(self.schedule(field, seats, min_seats, sides))
        if self.pairing == "knockout":
            return pairing.knockout_rounds(field, seats)
        return rounds or max(1, math.ceil(math.log2(max(field, 2))))


ROUND_ROBIN = TournamentFormat("round_robin", "schedule")
DOUBLE_ROUND_ROBIN = TournamentFormat("double_round_robin", "schedule", repeats=True)
LEAGUE = TournamentFormat("league", "schedule", repeats=True)
SWISS = TournamentFormat("swiss", "swiss", bye_scores=True)
KNOCKOUT = TournamentFormat("knockout", "knockout", bracket=True)

FORMATS: dict[str, TournamentFormat] = {f.key: f for f in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, LEAGUE, SWISS, KNOCKOUT)}


def of(key: str) -> TournamentFormat:
    """The format object of a ``Tournament.Format`` value (``KeyError`` for an unknown one)."""
    return FORMATS[key]
