"""Round robin: everybody meets everybody once, on a schedule fixed at the start
(``league.rules.pairing.round_robin``: Berger tables at two seats, ``league.rules.schedules`` at more)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from league.formats.base import Field, Seating, Setup, TournamentFormat, numbered
from league.rules import pairing
from league.rules.pairing import Pairing, PairingRules


class RoundRobin(TournamentFormat):
    name = "round_robin"
    label = _("Round robin")
    description = _("Everybody plays everybody once, on a schedule fixed at the start; the standings decide.")
    #: The schedule is played twice (the second time with the seats reversed).
    double = False

    def fixtures(self, setup: Setup, field: int) -> list[Pairing]:
        return pairing.round_robin(field, setup.seats, setup.min_seats, double=self.double, sides=setup.sides)

    def planned_rounds(self, setup: Setup, field: int) -> int:
        return len(self.fixtures(setup, field))

    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        # the schedule of the players who did not withdraw before the start: a player who withdraws later
        # keeps their seats, which are forfeited
        seeds = field.starters()
        this = self.fixtures(setup, len(seeds))[number - 1]
        return numbered([[seeds[i] for i in t] for t in this.tables], [seeds[i] for i in this.byes])

    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        return pairing.round_robin_rules(setup.seats, setup.sides, field=field, double=self.double)


FORMAT = RoundRobin()
