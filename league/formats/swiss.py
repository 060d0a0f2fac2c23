"""Swiss: a set number of rounds, each drawn from the standings after the last
(``league.rules.pairing.swiss_pairs`` at two seats, ``swiss_tables`` at more)."""
from __future__ import annotations

import math
from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from league.formats.base import Field, Seating, Setup, TournamentFormat, numbered
from league.rules import pairing
from league.rules.pairing import PairingRules

BYE_RULE = _("A bye (when the players do not fill the tables) scores %(bye)s, in a round without an opponent.")


class Swiss(TournamentFormat):
    name = "swiss"
    label = _("Swiss")
    description = _("A set number of rounds; each round seats players on equal or close points who have not "
                    "met yet; the standings decide.")

    def planned_rounds(self, setup: Setup, field: int) -> int:
        """The rounds as set, by default enough to single out a winner: log2 of the field."""
        return setup.rounds or max(1, math.ceil(math.log2(max(field, 2))))

    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        contenders = field.contenders()
        if len(contenders) < setup.min_seats:
            return None
        if setup.seats == 2:
            drawn = pairing.swiss_pairs(contenders, setup.forbidden)
        else:
            drawn = pairing.swiss_tables(contenders, setup.seats, setup.min_seats, sides=setup.sides,
                                          forbidden=setup.forbidden)
        return numbered(drawn.tables, drawn.byes)

    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        return pairing.swiss_rules(setup.seats, setup.min_seats, setup.sides)

    def bye_points(self, league_bye: Fraction) -> Fraction:
        """The league's bye points: a bye is a round the player could not be given a table."""
        return league_bye

    def bye_rule(self, points: str) -> str:
        return str(BYE_RULE % {"bye": points})


FORMAT = Swiss()
