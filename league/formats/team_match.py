"""A team match between two clubs: N boards, each board a match, one result by boards won.

The two teams (``Tournament.teams``) in seed order are A and B; each lines up its players by seed. Board i
seats A's i-th player against B's i-th, A's player first on odd boards and B's on even ones (table i is
board i). There are ``format_options["boards"]`` boards (by default as many as the smaller team has
players). One round: the match score is the boards each team won, a drawn board half to each.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from league.formats.base import CannotPair, Field, Seating, Setup, TournamentFormat, numbered
from league.rules.pairing import PairingRules


def boards_of(setup: Setup, a: int, b: int) -> int:
    """How many boards: as set, else as many as the smaller team has players."""
    return int(setup.options.get("boards") or min(a, b))


def board_tables(a: list[int], b: list[int], boards: int) -> list[tuple[int, int]]:
    """Board i (from 1): A's i-th against B's i-th, A's player first on odd boards, B's on even."""
    return [(a[i], b[i]) if i % 2 == 0 else (b[i], a[i]) for i in range(boards)]


class TeamMatch(TournamentFormat):
    name = "team_match"
    label = _("Club team match")
    description = _("Two club teams over a set number of boards: each board is a match between the teams' "
                    "players of the same rank; the team that wins more boards wins the match.")

    def planned_rounds(self, setup: Setup, field: int) -> int:
        return 1

    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        if number > 1:
            return None
        if setup.seats != 2:
            raise CannotPair(str(_("A team match seats two players a board.")))
        teams = field.teams()
        if len(teams) != 2:
            raise CannotPair(str(_("A team match needs exactly two teams; this tournament has %(n)s.")
                                 % {"n": len(teams)}))
        a, b = teams
        boards = boards_of(setup, len(a), len(b))
        if boards < 1 or len(a) < boards or len(b) < boards:
            raise CannotPair(str(_("Each team needs as many players as there are boards (%(boards)s).")
                                 % {"boards": boards}))
        return numbered(board_tables(a, b, boards))

    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        boards = setup.options.get("boards")
        return {"ordered": False, "rules": [
            str(_("The team seeded first is team A, the other team B; each lines up its players by seed."))
            + (" " + str(_("Boards: %(n)s.") % {"n": boards}) if boards else
               " " + str(_("As many boards as the smaller team has players."))),
            str(_("Board 1 seats A's first player against B's first, board 2 the second players, and so on "
                  "(the tables are the boards); A's player sits first on odd boards, B's on even ones.")),
            str(_("The match score is the boards each team won, a drawn board counting half to each; the team "
                  "with more wins the match, equal scores draw it. Each player's own result counts in the "
                  "standings as in any match.")),
        ]}


FORMAT = TeamMatch()
