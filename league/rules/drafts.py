"""The flags of a drafted round: what the organiser should look at before releasing it (as Tabbycat
shows them). Pure: players are ids, their history plain values; each rule is one small function named
after it, whose docstring is the sentence the draft page and the docs show (``FLAG_RULES``).

- ``repeat``: two players at a table have met before (how many times);
- ``seat``: a player gets the same position as in each of their last two games, or a position they would
  then hold at least three times more than another position of the table;
- ``first_turn``: a player moves first (position 0) again though they already moved first in more than
  half of their games (two games or more);
- ``second_bye``: a bye to a player who has had one;
- ``score_gap``: the players at a table are further apart in points than one win (the league's points for
  a win: ``gap``);
- ``forbidden``: a forbidden pair (family members, say) at one table, when the draw could not avoid it;
- ``team``: two team-mates at one table, not as partners;
- ``club``: two clubmates at one table in the first rounds the tournament keeps clubmates apart.
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from league.rules.pairing import Forbidden


@dataclass(frozen=True)
class History:
    """A player as the draft reads them: ``score`` in hundredths of a point before the round, ``opponents``
    (an id once per table shared), ``seats`` (the position held at each game played, in order; 0 moves
    first), ``byes`` received, ``team`` (the entrant's team, if any) and ``clubs``."""
    id: int
    score: int = 0
    opponents: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    byes: int = 0
    team: int | None = None
    clubs: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Flag:
    """One thing to look at: its ``code`` (stable), the ``players`` it concerns and a number (``count``:
    the earlier meetings, the position held, the byes before, the gap in hundredths of a point)."""
    code: str
    players: tuple[int, ...]
    count: int = 0


FLAG_RULES = {
    "repeat": _("Repeat meeting: two players at the table have met before (the flag says how many times)."),
    "seat": _("Seat imbalance: a player sits in the same position as in each of their last two games, or in a "
              "position they would then hold at least three times more than another position of the table."),
    "first_turn": _("First turn: a player moves first (the first position) again though they already moved first "
                    "in more than half of their games (two games or more)."),
    "second_bye": _("Second bye: a bye to a player who has already had one."),
    "score_gap": _("Score gap: players at the table are further apart in points than the points for one win "
                   "(%(gap)s)."),
    "forbidden": _("Forbidden pair: two players who are not to be seated together could not be kept apart."),
    "team": _("Team-mates: two players of one team at the table who do not play as partners."),
    "club": ngettext_lazy("Clubmates: two players of one club at the table in the first %(rounds)s round, in "
                          "which the tournament keeps clubmates apart where it can.",
                          "Clubmates: two players of one club at the table in the first %(rounds)s rounds, in "
                          "which the tournament keeps clubmates apart where it can.", "rounds"),
}


def _pairs(table: Sequence[int]) -> list[tuple[int, int]]:
    return list(itertools.combinations(table, 2))


def repeat_flags(table: Sequence[int], history: dict[int, History]) -> list[Flag]:
    """Repeat meeting: two players at the table have met before (how many times)."""
    out = []
    for a, b in _pairs(table):
        times = Counter(history[a].opponents)[b] if a in history else 0
        if times:
            out.append(Flag("repeat", (a, b), times))
    return out


def seat_flags(table: Sequence[int], history: dict[int, History]) -> list[Flag]:
    """Seat imbalance: the same position as in each of the last two games, or a position then held at least
    three times more than another position of the table."""
    out = []
    size = len(table)
    for position, player in enumerate(table):
        seats = history[player].seats if player in history else ()
        held = Counter(s for s in seats if s < size)
        three_in_a_row = len(seats) >= 2 and seats[-1] == seats[-2] == position
        after = held[position] + 1
        if three_in_a_row or after - min(held[p] for p in range(size)) >= 3:
            out.append(Flag("seat", (player,), position))
    return out


def first_turn_flags(table: Sequence[int], history: dict[int, History]) -> list[Flag]:
    """First turn: position 0 (who moves first) to a player who already moved first in more than half of
    their games, two games or more."""
    if len(table) < 2 or table[0] not in history:
        return []
    seats = history[table[0]].seats
    firsts = seats.count(0)
    if len(seats) >= 2 and firsts * 2 > len(seats):
        return [Flag("first_turn", (table[0],), firsts)]
    return []


def second_bye_flags(table: Sequence[int], history: dict[int, History]) -> list[Flag]:
    """Second bye: a bye (a table of one) to a player who has had one."""
    if len(table) != 1 or table[0] not in history or not history[table[0]].byes:
        return []
    return [Flag("second_bye", (table[0],), history[table[0]].byes)]


def score_gap_flags(table: Sequence[int], history: dict[int, History], gap: int) -> list[Flag]:
    """Score gap: the highest and the lowest score at the table are more than ``gap`` apart (hundredths of
    a point: the points for one win)."""
    scores = {p: history[p].score for p in table if p in history}
    if len(scores) < 2:
        return []
    top, bottom = max(scores, key=scores.__getitem__), min(scores, key=scores.__getitem__)
    spread = scores[top] - scores[bottom]
    return [Flag("score_gap", (top, bottom), spread)] if spread > gap else []


def forbidden_flags(table: Sequence[int], forbidden: Forbidden) -> list[Flag]:
    """Forbidden pair: two players not to be seated together are."""
    return [Flag("forbidden", (a, b)) for a, b in _pairs(table) if frozenset((a, b)) in forbidden]


def team_flags(table: Sequence[int], history: dict[int, History], of_seat: Sequence[int] | None = None) -> list[Flag]:
    """Team-mates: two players of one team at the table, not as partners (``of_seat``: the side of each seat
    when partners play at this table)."""
    out = []
    for (i, a), (j, b) in itertools.combinations(enumerate(table), 2):
        team_a = history[a].team if a in history else None
        team_b = history[b].team if b in history else None
        partners = of_seat is not None and len(of_seat) == len(table) and of_seat[i] == of_seat[j]
        if team_a is not None and team_a == team_b and not partners:
            out.append(Flag("team", (a, b)))
    return out


def club_flags(table: Sequence[int], history: dict[int, History], number: int, same_club_rounds: int) -> list[Flag]:
    """Clubmates: two players of one club at the table in round ``number``, one of the first
    ``same_club_rounds``."""
    if number > same_club_rounds:
        return []
    out = []
    for a, b in _pairs(table):
        if a in history and b in history and history[a].clubs & history[b].clubs:
            out.append(Flag("club", (a, b)))
    return out


def table_flags(table: Sequence[int], history: dict[int, History], *, bye: bool = False, gap: int,
                forbidden: Forbidden = frozenset(), number: int = 1, same_club_rounds: int = 0,
                of_seat: Sequence[int] | None = None) -> list[Flag]:
    """Every flag of one drafted table (a bye: only ``second_bye``)."""
    if bye:
        return second_bye_flags(table, history)
    return (repeat_flags(table, history) + seat_flags(table, history) + first_turn_flags(table, history)
            + score_gap_flags(table, history, gap) + forbidden_flags(table, forbidden)
            + team_flags(table, history, of_seat) + club_flags(table, history, number, same_club_rounds))
