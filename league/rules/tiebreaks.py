"""Tie-breaks and the order of a standings table, as pure functions over exact fractions (no queries).

The selectors (``league.selectors``) read the tables from the database and call these.

Every tie-break is read round by round from the tables a player sat at (``Sitting``). Partners
(one side: Karuselis with four seats) are never each other's opponents. A round in which a player
met no opponent — a bye, a rest, a forfeit won or lost, a void table — is an *unplayed round*.

Tie-breaks (each higher is better, except game points in games where fewer win):
- match points: the standings' points;
- game points: the game's own score summed over played matches (Cardavia: lives left);
- head-to-head (FIDE's direct encounter): only when every two of the players still tied met at a
  played table; then the points each took from the others, pair by pair and meeting by meeting:
  the win points for finishing above the other, the draw points for the same place, the loss
  points for below (at a table of any size). When two of them never met, it decides nothing;
- Buchholz: per round, the opponent's match points (at a bigger table, the mean of the
  opponents'), added up; median Buchholz: the same without the highest and the lowest round (with
  three rounds or more);
- Sonneborn–Berger: per round, the opponent's match points times the result against them (1
  finished above, ½ the same place, 0 below; at a bigger table the mean over the opponents), added up;
- wins: tables won outright (a side's win counts for both partners).
An unplayed round counts by the league's ``unplayed_rounds``: ``virtual`` (the default; FIDE's
tie-break regulations of 2023, the "dummy opponent") a game against a virtual opponent holding the
player's own match points, with the round's result (1 for a forfeit won or a bye worth a win, ½ for a
shared first place or a smaller bye, 0 otherwise); ``none``: the round adds nothing.
Players equal on every criterion share a position.
"""
from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

HALF = Fraction(1, 2)

#: A number of points as the league stores or types it.
Number = Fraction | Decimal | int | float | str


def exact(value: Number) -> Fraction:
    """A number of points as an exact fraction (from an int, a Decimal, a string such as "10/3" or
    "2.50", or a float as it is written)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        return Fraction(str(value))
    return Fraction(value)


# Exact numbers as text (a page shows them rounded, with the exact value in the title)

CENT = Decimal("0.01")


def _terminates(value: Fraction) -> bool:
    """Whether a fraction is a finite decimal (its denominator has no prime factor but 2 and 5)."""
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def _plain(value: Number | None) -> str | Fraction:
    """What ``exact_text`` and ``num`` write alike: nothing for None, two decimals for a float, a whole
    number's digits; any other value as the exact fraction they each write their own way."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    value = exact(value)
    return str(value.numerator) if value.denominator == 1 else value


def exact_text(value: Number | None) -> str:
    """A number exactly: 3, 1.5, 2.25, 0.125 — or, when no decimal ends, a fraction: 10/3."""
    value = _plain(value)
    if isinstance(value, str):
        return value
    if _terminates(value):
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return f"{value.numerator}/{value.denominator}"


def num(value: Number | None) -> str:
    """A number as people write it: 3, 1.5, 2.25; rounded to two decimals when it has more
    (10/3 shows 3.33: ``exact_text`` gives the exact value)."""
    value = _plain(value)
    if isinstance(value, str):
        return value
    rounded = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENT, ROUND_HALF_UP)
    text = format(rounded, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def number_cell(value: Number | None) -> dict[str, str]:
    """A value as a cell shows it: ``text`` (rounded) and ``exact`` (the title, when rounding changed it)."""
    text, full = num(value), exact_text(value)
    return {"text": text, "exact": full if full != text else ""}


@dataclass(frozen=True)
class Entry:
    id: int
    seed: int
    points: Fraction = Fraction(0)
    game_points: int = 0
    wins: int = 0
    stage: int = 0          # knockout: how far the player got (higher first)


@dataclass(frozen=True)
class Ranked:
    id: int
    position: int
    values: dict[str, Fraction | None]


@dataclass(frozen=True)
class Sitting:
    """One entrant's seat at one decided table, as the tie-breaks read it.

    ``played``: a seat of a finished match (False: a bye, a rest, a forfeit, a void table).
    ``side``: partners at a match share one (None: a side alone). ``result``: an unplayed round's
    result for Sonneborn–Berger's virtual opponent (1, ½ or 0)."""
    entrant: int
    place: int | None
    side: int | None = None
    played: bool = True
    result: Fraction = Fraction(0)


#: A seat as the tie-breaks take it: a ``Sitting``, or (entrant id, place) for a seat alone on its side.
SittingLike = Sitting | tuple[int, int | None]


def _sitting(seat: SittingLike) -> Sitting:
    """A ``Sitting``, or an (entrant, place) pair: a seat of a played table, alone on its side."""
    if isinstance(seat, Sitting):
        return seat
    entrant, place = seat
    return Sitting(entrant, place, played=place is not None)


def _place(seat: Sitting) -> int:
    """A seat's place for comparing two seats of a played match (a seat without one comes last)."""
    return seat.place if seat.place is not None else 10 ** 6


def _result(pa: int, pb: int) -> Fraction:
    return Fraction(1) if pa < pb else (HALF if pa == pb else Fraction(0))


def _opponents(me: Sitting, table: Sequence[Sitting]) -> list[Sitting]:
    """Whom ``me`` played at a table: the other sides' seats of a played match (never a partner)."""
    if not me.played:
        return []
    return [o for o in table if o is not me and o.played and o.entrant != me.entrant
            and not (me.side is not None and o.side == me.side)]


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


def tie_break_values(entries: dict[int, Entry], tables: Iterable[Sequence[SittingLike]], *,
                     unplayed: str = "virtual") -> dict[int, dict[str, Fraction]]:
    """Every tie-break but head-to-head, per entrant, exactly. ``tables``: one list of ``Sitting``
    (or (entrant id, place) pairs) per decided table; each table is one round of its players.

    Per round: Buchholz adds the opponent's match points (the mean of the opponents' at a bigger
    table), Sonneborn–Berger the opponent's points times the result against them (the mean over the
    opponents). An unplayed round (no opponent at the table) with ``unplayed="virtual"`` adds the
    player's own points to Buchholz and own points × the round's result to Sonneborn–Berger;
    with ``"none"`` it adds nothing."""
    points = {e.id: exact(e.points) for e in entries.values()}
    rounds: dict[int, list[Fraction]] = defaultdict(list)     # Buchholz, one value per round
    sb: dict[int, Fraction] = defaultdict(Fraction)
    for raw in tables:
        table = [_sitting(s) for s in raw]
        for me in table:
            if me.entrant not in entries:
                continue
            met_here = _opponents(me, table)
            opponents = [o for o in met_here if o.entrant in entries]
            if opponents:
                rounds[me.entrant].append(_mean([points[o.entrant] for o in opponents]))
                sb[me.entrant] += _mean([points[o.entrant] * _result(_place(me), _place(o)) for o in opponents])
            elif not met_here and unplayed == "virtual":
                own = points[me.entrant]
                rounds[me.entrant].append(own)
                sb[me.entrant] += own * me.result
    out: dict[int, dict[str, Fraction]] = {}
    for e in entries.values():
        scores = sorted(rounds[e.id])
        buchholz = sum(scores, Fraction(0))
        median = sum(scores[1:-1], Fraction(0)) if len(scores) >= 3 else buchholz
        out[e.id] = {"match_points": points[e.id], "game_points": Fraction(e.game_points), "buchholz": buchholz,
                     "median_buchholz": median, "sonneborn_berger": sb[e.id], "wins": Fraction(e.wins)}
    return out


def met(a: int, b: int, tables: Iterable[Sequence[SittingLike]]) -> bool:
    """Whether two entrants played each other (as opponents, not partners) at a finished match."""
    for raw in tables:
        table = [_sitting(s) for s in raw]
        me = next((s for s in table if s.entrant == a), None)
        if me is not None and any(o.entrant == b for o in _opponents(me, table)):
            return True
    return False


def head_to_head(group: set[int], tables: Iterable[Sequence[SittingLike]], win: Number, draw: Number,
                 loss: Number) -> dict[int, Fraction] | None:
    """FIDE's direct encounter among ``group``: None (it decides nothing) unless every two of them
    met; then the points each took from the others, pair by pair and meeting by meeting (``win``
    for finishing above, ``draw`` for the same place, ``loss`` for below, at a table of any size)."""
    seated = [[_sitting(s) for s in raw] for raw in tables]
    if any(not met(a, b, seated) for a, b in itertools.combinations(sorted(group), 2)):
        return None
    points = {"win": exact(win), "draw": exact(draw), "loss": exact(loss)}
    out = {e: Fraction(0) for e in group}
    for table in seated:
        for me in table:
            if me.entrant not in group:
                continue
            for o in _opponents(me, table):
                if o.entrant in group:
                    mine, theirs = _place(me), _place(o)
                    out[me.entrant] += points["win" if mine < theirs else ("draw" if mine == theirs else "loss")]
    return out


def rank_entries(entries: Sequence[Entry], tables: Sequence[Sequence[SittingLike]], order: Sequence[str], *,
                 win: Number = 3, draw: Number = 1, loss: Number = 0, higher_game_points: bool = True,
                 unplayed: str = "virtual") -> list[Ranked]:
    """Order entrants by (knockout stage, then) the tie-breaks in ``order``.

    Each criterion splits the groups still tied; head-to-head is computed inside each such group
    (and splits nothing where two of its players never met). Players equal on all criteria share a
    position and are listed by seed.
    """
    seated = [[_sitting(s) for s in raw] for raw in tables]
    by_id = {e.id: e for e in entries}
    values = tie_break_values(by_id, seated, unplayed=unplayed)
    shown_h2h: dict[int, Fraction] = {}
    groups = [[e.id for e in sorted(g, key=lambda e: e.seed)]
              for _, g in itertools.groupby(sorted(entries, key=lambda e: -e.stage), key=lambda e: e.stage)]
    for key in order:
        split: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            if key == "head_to_head":
                direct = head_to_head(set(group), seated, win, draw, loss)
                if direct is None:       # not all of them met: it decides nothing here
                    split.append(group)
                    continue
                shown_h2h.update(direct)
                vals = direct
            else:
                sign = -1 if (key == "game_points" and not higher_game_points) else 1
                vals = {e: sign * values[e][key] for e in group}
            ordered = sorted(group, key=lambda e: -vals[e])
            for _value, run in itertools.groupby(ordered, key=lambda e: vals[e]):
                split.append(list(run))
        groups = split
    out, position = [], 1
    for group in groups:
        for e in sorted(group, key=lambda e: by_id[e].seed):
            shown: dict[str, Fraction | None] = dict(values[e])
            shown["head_to_head"] = shown_h2h.get(e)
            out.append(Ranked(e, position, shown))
        position += len(group)
    return out



def best_seat(seats: Iterable[tuple[int, int | None, int | None, int]], higher_game_points: bool) -> int | None:
    """Among (entrant id, place, game points, seed) of the seats still playing, who goes through:
    the best place, then game points, then the better seed (``table_winner``'s rule, without queries)."""
    sign = 1 if higher_game_points else -1
    best = min(seats, key=lambda s: (s[1] if s[1] is not None else 10 ** 6, -sign * (s[2] or 0), s[3]),
               default=None)
    return best[0] if best is not None else None
