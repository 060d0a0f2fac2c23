"""Groups then play-offs: round-robin groups, then a knockout of the best of each group, in one event.

The entrants, in seed order, are dealt into groups snaking (A1 B1 C1 C2 B2 A2 A3 ...), so groups differ in
size by one at most and each holds a fair share of the seeds. Each group plays the round robin's schedule
(``league.rules.pairing.round_robin``: Berger tables at two seats, the multi-seat schedules at more), all
groups in the same rounds (``Round.stage`` "groups", ``Table.stage`` the group's letter). A group is ranked
by the tournament's own standings and tie-breaks counting only its own tables (``Field.ranking``); the best
``advance`` of each group (withdrawn players left out) go on to a knockout (``Round.stage`` "playoffs")
seeded by place, then by group letter: with two groups and two each, A1–B2 and B1–A2.

Settings (``Tournament.format_options``): ``group_size`` (default 4) and ``advance`` (default 2).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from league.formats.base import CannotPair, Field, Results, Seating, Setup, TournamentFormat, unknown_settings
from league.formats.knockout import FORMAT as KNOCKOUT
from league.rules import pairing
from league.rules.pairing import Pairing, PairingRules

GROUPS, PLAYOFFS = "groups", "playoffs"
DEFAULT_GROUP_SIZE, DEFAULT_ADVANCE = 4, 2
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: Stages in the standings: the group stage, then the play-off rounds counted back from the final.
GROUP_STAGE, FINAL_STAGE = 1, 100

GROUP_RULES = (
    _("Groups: the players, in seed order, are dealt into %(groups)s groups of %(size)s or so, snaking: seed 1 to "
      "group A, seed 2 to B and so on to the last group, then back from the last group to A, and again; so the "
      "groups differ in size by one at most."),
    _("Each group plays a round robin (the rules below), all groups in the same rounds; a group short of a player "
      "rests in the rounds the others still play."),
    _("A group is ranked by the tournament's standings and tie-breaks counting only that group's tables; the best "
      "%(advance)s of each group go through to the play-offs (a withdrawn player does not: the next one does)."),
    _("Play-offs: a knockout of those players, seeded by place in their group, then by group letter (all group "
      "winners A, B, C..., then all runners-up A, B, C...); in its first round seed 1 meets the last seed, seed 2 "
      "the one before, and so on, with byes to the top seeds when the number is not a power of two: with two "
      "groups, A1 meets B2 and B1 meets A2; with four, A1–D2, B1–C2, C1–B2, D1–A2. A table that would still seat "
      "two players of one group changes its lower seed with that of the nearest table below it (else above it) "
      "where both tables then seat players of two groups: with three groups, A1 and B1 have byes and the "
      "tables are C1–B2 and A2–C2."),
)


def options_of(setup_options: Mapping[str, Any]) -> tuple[int, int]:
    """The group size and how many of each group advance (the defaults for what is not set)."""
    return (int(setup_options.get("group_size", DEFAULT_GROUP_SIZE)),
            int(setup_options.get("advance", DEFAULT_ADVANCE)))


def snake(players: Sequence[int], count: int) -> list[list[int]]:
    """``players`` (seed order) dealt into ``count`` groups, snaking: A B C C B A A B C ..."""
    groups: list[list[int]] = [[] for _ in range(count)]
    for i, p in enumerate(players):
        row, col = divmod(i, count)
        groups[col if row % 2 == 0 else count - 1 - col].append(p)
    return groups


def uncrossed(tables: list[list[int]], group_of: Mapping[int, str]) -> list[list[int]]:
    """Two-seat first-round tables (in bracket order) with no two players of one group at a table where it
    can be helped: a table that would seat two of one group changes its lower seed (its second player) with
    that of the nearest full table below it, else above it, where both tables then seat two groups."""
    tables = [list(t) for t in tables]

    def clash(t: list[int]) -> bool:
        return len(t) == 2 and group_of.get(t[0]) == group_of.get(t[1])

    for i, table in enumerate(tables):
        if not clash(table):
            continue
        others = [j for j in range(i + 1, len(tables))] + [j for j in range(i - 1, -1, -1)]
        for j in others:
            other = tables[j]
            if len(other) != 2:
                continue
            a, b = [table[0], other[1]], [other[0], table[1]]
            if not clash(a) and not clash(b):
                tables[i], tables[j] = a, b
                break
    return tables


class GroupsKnockout(TournamentFormat):
    name = "groups_knockout"
    label = _("Groups then play-offs")
    description = _("Round-robin groups, seeds snaked across them; then the best of each group play a knockout, "
                    "crossing groups (A1–B2, B1–A2).")

    # -- settings ----------------------------------------------------------------------------
    def options_problem(self, options: Mapping[str, Any], seats: int) -> str | None:
        unknown = unknown_settings(self.label, options, ("group_size", "advance"))
        if unknown:
            return unknown
        try:
            size, advance = options_of(options)
        except (TypeError, ValueError):
            return str(_("Groups then play-offs: the group size and the players who advance are whole numbers."))
        if not 2 <= size <= 32:
            return str(_("Groups then play-offs: a group has 2 to 32 players."))
        if not 1 <= advance <= size:
            return str(_("Groups then play-offs: those who advance from each group are at least one and at most "
                         "the group size (here %(size)s).") % {"size": size})
        return None

    # -- the groups ---------------------------------------------------------------------------
    def groups(self, setup: Setup, starters: Sequence[int]) -> list[tuple[str, list[int]]]:
        size, _advance = options_of(setup.options)
        count = max(1, math.ceil(len(starters) / size))
        if count > len(LETTERS):
            raise CannotPair(_("Groups then play-offs: at most %(n)s groups; make the groups larger.")
                             % {"n": len(LETTERS)})
        return list(zip(LETTERS, snake(starters, count), strict=False))

    def _schedules(self, setup: Setup, groups: list[tuple[str, list[int]]]) -> list[list[Pairing]]:
        return [pairing.round_robin(len(members), setup.seats, setup.min_seats, sides=setup.sides)
                if len(members) > 1 else [] for _name, members in groups]

    def _plan(self, setup: Setup, field: int) -> tuple[int, int, int]:
        """(group rounds, qualifiers, play-off rounds) for ``field`` players."""
        groups = self.groups(setup, list(range(field)))
        group_rounds = max((len(s) for s in self._schedules(setup, groups)), default=0)
        _size, advance = options_of(setup.options)
        qualifiers = sum(min(advance, len(members)) for _name, members in groups)
        return group_rounds, qualifiers, pairing.knockout_rounds(qualifiers, setup.seats)

    def planned_rounds(self, setup: Setup, field: int) -> int:
        group_rounds, _qualifiers, playoff_rounds = self._plan(setup, field)
        return group_rounds + playoff_rounds

    # -- drawing a round ------------------------------------------------------------------------
    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        starters = field.starters()
        groups = self.groups(setup, starters)
        schedules = self._schedules(setup, groups)
        group_rounds = max((len(s) for s in schedules), default=0)
        if number <= group_rounds:
            out: list[Seating] = []
            for (name, members), schedule in zip(groups, schedules, strict=True):
                if number > len(schedule):
                    continue    # a smaller group has finished its round robin
                this = schedule[number - 1]
                drawn = [(tuple(members[i] for i in t), False) for t in this.tables] + \
                    [((members[i],), True) for i in this.byes]
                out += [Seating(len(out) + k, seated, bye=bye, stage=name) for k, (seated, bye) in enumerate(drawn, 1)]
            return out
        if number == group_rounds + 1:
            return self._first_playoff(setup, field, groups)
        groups_of = [[w for w in slot if w is not None]
                     for slot in pairing.knockout_next(field.winners(number - 1), setup.seats)]
        return [Seating(i, tuple(g), bye=len(g) == 1) for i, g in enumerate(groups_of, start=1) if g]

    def qualifiers(self, setup: Setup, field: Field, groups: list[tuple[str, list[int]]]) -> list[int]:
        """The play-offs' seeds: each group's best ``advance`` still in, by place, then by group letter."""
        _size, advance = options_of(setup.options)
        active = {c.id for c in field.contenders()}
        ranked = [[e for e in field.ranking(members, name) if e in active][:advance] for name, members in groups]
        return [group[place] for place in range(advance) for group in ranked if place < len(group)]

    def _first_playoff(self, setup: Setup, field: Field, groups: list[tuple[str, list[int]]]) -> list[Seating] | None:
        seeds = self.qualifiers(setup, field, groups)
        if len(seeds) < 2:
            return None
        slots = pairing.knockout_slots(len(seeds), setup.seats, setup.min_seats)
        tables = [[seeds[s - 1] for s in slot if s is not None] for slot in slots]
        group_of = {e: name for name, members in groups for e in members}
        if setup.seats == 2:
            tables = uncrossed(tables, group_of)
        if any(1 < len(t) < setup.min_seats for t in tables):
            raise CannotPair(ngettext(
                "Play-offs of %(n)s players: some tables would have fewer than %(min)s seat; change how many advance.",
                "Play-offs of %(n)s players: some tables would have fewer than %(min)s seats; change how many "
                "advance.", setup.min_seats) % {"n": len(seeds), "min": setup.min_seats})
        return [Seating(i, tuple(t), bye=len(t) == 1) for i, t in enumerate(tables, start=1) if t]

    def round_stage(self, number: int, seatings: Sequence[Seating]) -> str:
        return GROUPS if any(s.stage for s in seatings) else PLAYOFFS

    # -- in words ---------------------------------------------------------------------------------
    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        size, advance = options_of(setup.options)
        count = max(1, math.ceil((field or size) / size))
        rules = [str(r % {"groups": count, "size": size, "advance": advance}) for r in GROUP_RULES[:3]]
        largest = math.ceil(field / count) if field else size
        rules += pairing.round_robin_rules(setup.seats, setup.sides, field=largest)["rules"]
        rules.append(str(GROUP_RULES[3]))
        rules += pairing.knockout_rules()["rules"][3:]
        return {"ordered": False, "rules": rules}

    def group_rule(self, setup: Setup) -> str:
        _size, advance = options_of(setup.options)
        return str(GROUP_RULES[2] % {"advance": advance})

    def bye_rule(self, points: str) -> str:
        return str(_("A rest (a group short of a player, or one whose round robin has ended): no points. A bye in "
                     "the play-offs: through to the next round without a match, and no points."))

    # -- standings and the bracket ----------------------------------------------------------------
    def _group_rounds(self, results: Results) -> int:
        return sum(1 for stage in results.round_stages().values() if stage == GROUPS)

    def stages(self, setup: Setup, results: Results, finished: bool) -> dict[int, int] | None:
        """The group stage (1) for all; a play-off player: 100 less the play-off rounds still to come after
        the last they reached (100: the final); the champion 101."""
        played = results.round_stages()
        group_rounds = self._group_rounds(results)
        playoff_rounds = (setup.rounds or 0) - group_rounds
        out = {}
        for entrant, last in results.last_rounds().items():
            out[entrant] = (FINAL_STAGE - (playoff_rounds - (last - group_rounds))
                            if played.get(last) == PLAYOFFS else GROUP_STAGE)
        if finished and setup.rounds and played.get(setup.rounds) == PLAYOFFS:
            champion = next(iter(results.winners(setup.rounds)), None)
            if champion is not None:
                out[champion] = FINAL_STAGE + 1
        return out

    def stage_label(self, stage: int, setup: Setup) -> str:
        if stage == GROUP_STAGE:
            return str(_("Group stage"))
        if stage > FINAL_STAGE:
            return str(_("Winner"))
        to_go = FINAL_STAGE - stage
        if to_go == 0:
            return str(_("Final"))
        if setup.seats == 2 and to_go == 1:
            return str(_("Semi-final"))
        if setup.seats == 2 and to_go == 2:
            return str(_("Quarter-final"))
        return str(_("Play-offs: last %(n)s") % {"n": setup.seats ** (to_go + 1)}) if stage else ""

    def bracket(self, setup: Setup, rounds: Sequence[Mapping[str, Any]], higher_game_points: bool,
                round_date: Callable[[int], date | None]) -> list[dict[str, Any]] | None:
        """The play-offs' bracket (the knockout's), once they have begun: play-off round 1 is the round after
        the last group round."""
        group_rounds = sum(1 for r in rounds if r.get("stage") == GROUPS)
        playoffs = [{**r, "number": r["number"] - group_rounds} for r in rounds if r.get("stage") == PLAYOFFS]
        if not playoffs or not setup.rounds:
            return None
        knockout = Setup(seats=setup.seats, min_seats=setup.min_seats, sides=setup.sides,
                         rounds=setup.rounds - group_rounds)
        return KNOCKOUT.bracket(knockout, playoffs, higher_game_points, lambda n: round_date(n + group_rounds))


FORMAT = GroupsKnockout()
