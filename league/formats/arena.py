"""Arena (as on Lichess): a time window in which every free player is seated at once.

The window opens when the tournament starts (at ``Tournament.starts_at`` if set, else when it is started)
and lasts ``format_options["minutes"]`` (60 by default). The arena is one round: at the start, and again
each time a table is recorded, the players who are free (not at a table in play, not paused, not withdrawn)
are drawn in standings order, each with the nearest one below who was not their last opponent; whoever is
left waits for the next table to finish. When the window closes nobody is seated again; the tables in play
finish and count, then the tournament finishes.

Points: the league's points for the result, doubled while on a streak: a result scores double when the
player's ``format_options["streak"]`` results just before it (2 by default; 0: no bonus) were all wins.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from fractions import Fraction

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from league.formats.base import CannotPair, Field, Seating, Setup, TournamentFormat, numbered
from league.rules.pairing import Contender, PairingRules

#: The window's length in minutes, unless the tournament sets ``format_options["minutes"]``.
MINUTES = 60
#: Wins in a row after which results score double, unless set (``format_options["streak"]``; 0: never).
STREAK = 2


def minutes(setup: Setup) -> int:
    return int(setup.options.get("minutes") or MINUTES)


def streak(setup: Setup) -> int:
    value = setup.options.get("streak")
    return STREAK if value is None else int(value)


def arena_pairs(free: Sequence[Contender]) -> list[tuple[int, int]]:
    """The free players (best placed first) in pairs: each, from the top, with the nearest one below who was
    not their last opponent; a player nobody can take waits."""
    waiting = list(free)
    pairs = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        last = first.opponents[-1:]
        partner = next((c for c in waiting if c.id not in last and first.id not in c.opponents[-1:]), None)
        if partner is None:
            continue    # every free player just met them: they wait for the next table to finish
        waiting.remove(partner)
        pairs.append((first.id, partner.id))
    return pairs


class Arena(TournamentFormat):
    name = "arena"
    label = _("Arena")
    description = _("A time window in which every free player is paired at once with a free player of close "
                    "score, never the same opponent twice in a row; wins in a row score double.")
    continuous = True
    streaks = True

    def planned_rounds(self, setup: Setup, field: int) -> int:
        """One round: the window, tables added to it as players free up."""
        return 1

    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        """The free players' tables (``field.contenders()``: those free now, best placed first)."""
        if setup.seats != 2:
            raise CannotPair(str(_("An arena seats two players a table.")))
        if number > 1:
            return None
        return numbered(arena_pairs(field.contenders()))

    def closes_at(self, setup: Setup, opened: datetime) -> datetime:
        return opened + timedelta(minutes=minutes(setup))

    def streak_points(self, setup: Setup, wins_in_a_row: int, points: Fraction) -> Fraction:
        """Double when the player's last ``streak`` results were all wins."""
        bonus = streak(setup)
        return points * 2 if bonus and wins_in_a_row >= bonus else points

    def points_rule(self, setup: Setup) -> str:
        bonus = streak(setup)
        if not bonus:
            return str(_("No streak bonus: every result scores the league's points for it."))
        return ngettext("Streaks: a result scores double the league's points for it when the player's result just "
                        "before it was a win; the first result that is not a win ends the streak (it still scores "
                        "double).",
                        "Streaks: a result scores double the league's points for it when the player's %(n)s results "
                        "just before it were all wins; the first result that is not a win ends the streak (it still "
                        "scores double).", bonus) % {"n": bonus}

    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        rules = [
            ngettext("The arena is open for %(minutes)s minute from its start. A player is free when not at a "
                     "table in play and not paused; the free players are paired at once, at the start and each "
                     "time a table finishes.",
                     "The arena is open for %(minutes)s minutes from its start. A player is free when not at a "
                     "table in play and not paused; the free players are paired at once, at the start and each "
                     "time a table finishes.", minutes(setup)) % {"minutes": minutes(setup)},
            str(_("The free players are taken in standings order: each meets the nearest one below who was not "
                  "their last opponent; a player left over waits for the next table to finish.")),
            str(_("When the window closes nobody is paired again; the matches in play finish and count, then "
                  "the arena ends.")),
        ]
        rules.append(self.points_rule(setup))
        rules.append(str(_("Players may pause (they are not paired until they come back) and join while the "
                           "window is open.")))
        return {"ordered": False, "rules": rules}

    def bye_rule(self, points: str) -> str:
        return str(_("No byes: a player left over waits for the next free opponent and scores nothing for it."))


FORMAT = Arena()
