"""Ladder: a tournament format in one module outside ``league/formats/``, named in
``settings.TOURNAMENT_FORMATS`` (``tests/league/test_toy_format.py``).

Every round, neighbours in the standings meet: first against second, third against fourth, and so on
(the whole field of a round in one pass, tables of the tournament's size); whoever is left over sits out and
scores half the league's bye points. Three rounds unless the organiser sets another number.
"""
from __future__ import annotations

from fractions import Fraction

from league.formats.base import Field, Seating, Setup, TournamentFormat, numbered
from league.rules.pairing import PairingRules


class Ladder(TournamentFormat):
    name = "ladder"
    label = "Ladder"
    description = "Every round, neighbours in the standings meet; three rounds unless set otherwise."

    def planned_rounds(self, setup: Setup, field: int) -> int:
        return setup.rounds or 3

    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        ladder = [c.id for c in field.contenders()]
        if len(ladder) < setup.min_seats:
            return None
        seated = len(ladder) - len(ladder) % setup.seats
        tables = [ladder[i:i + setup.seats] for i in range(0, seated, setup.seats)]
        return numbered(tables, ladder[seated:])

    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        return {"ordered": False, "rules": ["Neighbours in the standings meet: 1st against 2nd, 3rd against 4th."]}

    def bye_points(self, league_bye: Fraction) -> Fraction:
        return league_bye / 2

    def bye_rule(self, points: str) -> str:
        return f"Whoever is left over climbs no rung this round and scores half a bye ({points})."


FORMAT = Ladder()
