"""Read side of the league: standings with tie-breaks, rounds, brackets, progress, ratings.

Pages, the admin, the API, CSV exports and the management commands all read
through these functions, so they show the same numbers.

Points and tie-breaks are exact fractions: a page shows them rounded to two decimals with the
exact value in the cell's title (``num``, ``exact_text``); the CSV files give them exactly.

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
import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Iterable, Sequence

from django.db.models import Count, Max, Prefetch, Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _, ngettext

from engine import registry
from games import store
from games.models import GAME_LABELS, Match, Seat
from games.words.terms import clock_words, options_text
from league import pairing
from league.models import (TIE_BREAK_SHORT, TIE_BREAKS, Club, Entrant, Folded, League, PlayerProfile, Rating,
                           RatingHistory, Reminder, Round, Standing, Table, TableSeat, Tournament, Withdrawal,
                           exact)

HALF = Fraction(1, 2)
CENT = Decimal("0.01")


def _terminates(value: Fraction) -> bool:
    """Whether a fraction is a finite decimal (its denominator has no prime factor but 2 and 5)."""
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def exact_text(value) -> str:
    """A number exactly: 3, 1.5, 2.25, 0.125 — or, when no decimal ends, a fraction: 10/3."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    value = exact(value)
    if value.denominator == 1:
        return str(value.numerator)
    if _terminates(value):
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return f"{value.numerator}/{value.denominator}"


def num(value) -> str:
    """A number as people write it: 3, 1.5, 2.25; rounded to two decimals when it has more
    (10/3 shows 3.33: ``exact_text`` gives the exact value)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    value = exact(value)
    if value.denominator == 1:
        return str(value.numerator)
    rounded = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENT, ROUND_HALF_UP)
    text = format(rounded, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def number_cell(value) -> dict:
    """A value as a cell shows it: ``text`` (rounded) and ``exact`` (the title, when rounding changed it)."""
    text, full = num(value), exact_text(value)
    return {"text": text, "exact": full if full != text else ""}


def higher_game_points_win(tournament: Tournament) -> bool:
    """Whether more game points are better in the tournament's matches: the engine's ``score_order`` of
    the game with the league's options (most games: more is better; LIVOL's own-hand variant and IOTA's
    kids' variant: fewer)."""
    return registry.get(tournament.league.game).score_order(tournament.league.options) == "higher"


# ---------------------------------------------------------------------------
# Ranking with tie-breaks (pure)
# ---------------------------------------------------------------------------

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
    values: dict


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


def _sitting(seat) -> Sitting:
    """A ``Sitting``, or an (entrant, place) pair: a seat of a played table, alone on its side."""
    if isinstance(seat, Sitting):
        return seat
    entrant, place = seat
    return Sitting(entrant, place, played=place is not None)


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


def tie_break_values(entries: dict[int, Entry], tables: Iterable[Sequence], *,
                     unplayed: str = "virtual") -> dict[int, dict]:
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
                sb[me.entrant] += _mean([points[o.entrant] * _result(me.place, o.place) for o in opponents])
            elif not met_here and unplayed == "virtual":
                own = points[me.entrant]
                rounds[me.entrant].append(own)
                sb[me.entrant] += own * me.result
    out = {}
    for e in entries.values():
        scores = sorted(rounds[e.id])
        buchholz = sum(scores, Fraction(0))
        median = sum(scores[1:-1], Fraction(0)) if len(scores) >= 3 else buchholz
        out[e.id] = {"match_points": points[e.id], "game_points": Fraction(e.game_points), "buchholz": buchholz,
                     "median_buchholz": median, "sonneborn_berger": sb[e.id], "wins": Fraction(e.wins)}
    return out


def met(a: int, b: int, tables: Iterable[Sequence]) -> bool:
    """Whether two entrants played each other (as opponents, not partners) at a finished match."""
    for raw in tables:
        table = [_sitting(s) for s in raw]
        me = next((s for s in table if s.entrant == a), None)
        if me is not None and any(o.entrant == b for o in _opponents(me, table)):
            return True
    return False


def head_to_head(group: set[int], tables: Iterable[Sequence], win, draw, loss) -> dict[int, Fraction] | None:
    """FIDE's direct encounter among ``group``: None (it decides nothing) unless every two of them
    met; then the points each took from the others, pair by pair and meeting by meeting (``win``
    for finishing above, ``draw`` for the same place, ``loss`` for below, at a table of any size)."""
    tables = [[_sitting(s) for s in raw] for raw in tables]
    if any(not met(a, b, tables) for a, b in itertools.combinations(sorted(group), 2)):
        return None
    win, draw, loss = exact(win), exact(draw), exact(loss)
    out = {e: Fraction(0) for e in group}
    for table in tables:
        for me in table:
            if me.entrant not in group:
                continue
            for o in _opponents(me, table):
                if o.entrant in group:
                    out[me.entrant] += win if me.place < o.place else (draw if me.place == o.place else loss)
    return out


def rank_entries(entries: Sequence[Entry], tables: Sequence[Sequence], order: Sequence[str], *,
                 win=3, draw=1, loss=0, higher_game_points=True, unplayed: str = "virtual") -> list[Ranked]:
    """Order entrants by (knockout stage, then) the tie-breaks in ``order``.

    Each criterion splits the groups still tied; head-to-head is computed inside each such group
    (and splits nothing where two of its players never met). Players equal on all criteria share a
    position and are listed by seed.
    """
    tables = [[_sitting(s) for s in raw] for raw in tables]
    by_id = {e.id: e for e in entries}
    values = tie_break_values(by_id, tables, unplayed=unplayed)
    shown_h2h: dict[int, Fraction] = {}
    groups = [sorted(g, key=lambda e: e.seed)
              for _, g in itertools.groupby(sorted(entries, key=lambda e: -e.stage), key=lambda e: e.stage)]
    groups = [[e.id for e in g] for g in groups]
    for key in order:
        split = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            if key == "head_to_head":
                vals = head_to_head(set(group), tables, win, draw, loss)
                if vals is None:       # not all of them met: it decides nothing here
                    split.append(group)
                    continue
                shown_h2h.update(vals)
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
            vals = dict(values[e])
            vals["head_to_head"] = shown_h2h.get(e)
            out.append(Ranked(e, position, vals))
        position += len(group)
    return out


# ---------------------------------------------------------------------------
# Standings
# ---------------------------------------------------------------------------

def _sittings(tournament: Tournament) -> list[list[Sitting]]:
    """Every decided table of a tournament as the tie-breaks read it (``Sitting``), table by table."""
    from league.services.scoring import sides_of

    league = tournament.league
    win, loss = exact(league.win_points), exact(league.loss_points)
    rows = (TableSeat.objects.filter(table__round__tournament=tournament,
                                     table__folds__projection=Folded.Projection.STANDINGS)
            .order_by("table__round__number", "table__number", "position")
            .values_list("table_id", "table__kind", "table__match__status", "entrant_id", "match_seat", "place",
                         "points"))
    tables: dict[int, list] = {}
    for table_id, *row in rows:
        tables.setdefault(table_id, []).append(row)
    out = []
    for seats in tables.values():
        in_match = sum(1 for s in seats if s[3] is not None)
        sides = sides_of(tournament.game, in_match) if in_match else ()
        finished = seats[0][0] == Table.Kind.MATCH and seats[0][1] == Match.Status.FINISHED
        firsts = {(sides[s[3]] if finished and s[3] is not None and s[3] < len(sides) else ("alone", s[2]))
                  for s in seats if s[4] == 1}
        table = []
        for _kind, _status, entrant, match_seat, place, points in seats:
            played = finished and match_seat is not None and place is not None
            if place is not None:
                result = Fraction(1) if place == 1 and len(firsts) == 1 else (HALF if place == 1 else Fraction(0))
            else:   # a bye or a rest: by what it scored
                points = exact(points or 0)
                result = Fraction(1) if points >= win else (HALF if points > loss else Fraction(0))
            table.append(Sitting(entrant, place, sides[match_seat] if played and match_seat < len(sides) else None,
                                 played, result))
        out.append(table)
    return out


def knockout_stages(tournament: Tournament) -> dict[int, int]:
    """Knockout: entrant → last round reached (the champion: rounds + 1)."""
    reached = dict(TableSeat.objects.filter(table__round__tournament=tournament).values("entrant_id")
                   .annotate(last=Max("table__round__number")).values_list("entrant_id", "last"))
    if tournament.status == Tournament.Status.FINISHED and tournament.rounds:
        final = Table.objects.filter(round__tournament=tournament, round__number=tournament.rounds).first()
        if final is not None:
            champion = table_winner(final)
            if champion is not None:
                reached[champion] = tournament.rounds + 1
    return reached


def stage_label(stage: int, rounds: int, seats: int) -> str:
    if not stage:
        return ""
    if stage > rounds:
        return str(_("Winner"))
    if stage == rounds:
        return str(_("Final"))
    if seats == 2 and stage == rounds - 1:
        return str(_("Semi-final"))
    if seats == 2 and stage == rounds - 2:
        return str(_("Quarter-final"))
    return str(_("Round %(n)s") % {"n": stage})


TIE_BREAK_HELP = {
    "buchholz": _("for each round, the opponent's match points (at a bigger table, the average of the "
                  "opponents'), added up: a harder draw counts more"),
    "median_buchholz": _("Buchholz without its highest and its lowest round (with three rounds or more)"),
    "sonneborn_berger": _("for each round, the opponent's match points: in full if you finished above them, half "
                          "for the same place, nothing below (at a bigger table, the average over the opponents), "
                          "added up"),
    "wins": _("tables won outright, alone in first place (a side's win counts for both partners)"),
}


def tie_break_help(key: str, league: League, seats: int, higher_game_points: bool = True) -> str:
    """One line saying what a standings column counts (the legend under the table, the header's title)."""
    points = {"win": num(league.win_points), "draw": num(league.draw_points), "loss": num(league.loss_points)}
    if key == "match_points":
        if seats == 2:
            return str(_("points for results: %(win)s for a win, %(draw)s for a draw, %(loss)s for a loss") % points)
        return str(_("points by place at each table, as the points above say; tied places share them"))
    if key == "game_points":
        if higher_game_points:
            return str(_("the game's own score, summed over all matches; more is better"))
        return str(_("the game's own score, summed over all matches; fewer is better in this game"))
    if key == "head_to_head":
        return str(_("only when every two of the players still tied have met: the points each took from the "
                     "others, meeting by meeting — %(win)s for finishing above the other, %(draw)s for the same "
                     "place, %(loss)s for below, at a table of any size; when two of them never met, it decides "
                     "nothing") % points)
    return str(TIE_BREAK_HELP[key])


def _places_text(points: Sequence[Fraction]) -> str:
    return ", ".join(exact_text(p) for p in points)


def scoring_rules(tournament: Tournament) -> list[dict]:
    """The tournament's rules as its standings' legend states them, one paragraph each (``key``,
    ``title``, ``text``), in words an organiser can check with a pencil: points by table size, partners,
    byes, rounds without an opponent, withdrawals and forfeits, shared positions and rounding."""
    from league.services.scoring import Rules, has_partners, sides_of

    league = tournament.league
    rules = Rules.of(tournament)
    seats = tournament.seats_per_table
    fmt = tournament.format
    values = {"win": exact_text(rules.win), "draw": exact_text(rules.draw), "loss": exact_text(rules.loss),
              "bye": exact_text(rules.bye_points)}
    out = []
    if seats == 2:
        text = _("A match: a win scores %(win)s, a draw %(draw)s, a loss %(loss)s.") % values
    else:
        places = range(seats, 1, -1)    # a table of fewer players, or partnerships, or with forfeits
        scales = "; ".join(ngettext("%(n)s place: %(points)s", "%(n)s places: %(points)s", k) % {
            "n": k, "points": _places_text(rules.by_place(k))} for k in places)
        if rules.uses_list:
            text = _("Points by place at a full table: %(list)s. A table with fewer places takes the list's points "
                     "at the same fraction of the way from first to last place, on the straight line between the "
                     "two nearest places of the list — %(scales)s. Players who tie share the average of the points "
                     "of the places they cover.") % {"list": _places_text(rules.place_points), "scales": scales}
        else:
            text = _("Points by place, whatever the table's size: first %(win)s, last %(loss)s, the places between "
                     "evenly spaced — %(scales)s. Players who tie share the average of the points of the places "
                     "they cover; at a table of two places a tie scores %(draw)s each (a draw).") % {
                **values, "scales": scales}
    out.append({"key": "points", "title": _("Points"), "text": str(text) + " " + str(_(
        "Alone in first place is a win, a shared first place a draw, any other place a loss (the W, D and L "
        "columns)."))})
    if has_partners(tournament.game, seats):
        sides = sides_of(tournament.game, seats)
        a, b, c, d = (i + 1 for i in sorted(range(seats), key=lambda i: (sides[i], i)))
        out.append({"key": "partners", "title": _("Partners"), "text": str(_(
            "At a full table of %(n)s, seats %(a)s and %(b)s play against seats %(c)s and %(d)s as two partnerships. "
            "Partners are one side and hold one place (a full table is a table of two places): both take the "
            "side's place, points and result (a side's win is a win for both), and a partner is never an opponent — "
            "not in Buchholz, Sonneborn–Berger or head-to-head. A smaller table plays without partnerships.") % {"n": seats, "a": a, "b": b, "c": c, "d": d})})
    if fmt == Tournament.Format.SWISS:
        bye = _("A bye (when the players do not fill the tables) scores %(bye)s, in a round without an "
                "opponent.") % values
    elif fmt == Tournament.Format.KNOCKOUT:
        bye = _("A bye: through to the next round without a match, and no points.")
    else:
        bye = _("A rest (when the players do not fill the tables): no points, in a round without an opponent.")
    out.append({"key": "byes", "title": _("Byes"), "text": str(bye)})
    if league.unplayed_rounds == League.UnplayedRounds.VIRTUAL:
        unplayed = _("A round without an opponent — a bye, a rest, a forfeit won or lost, a void table — counts in "
                     "Buchholz and Sonneborn–Berger as a game against a virtual opponent who has the player's own "
                     "match points, with the round's result: a forfeit won or a bye scoring at least a win's %(win)s "
                     "is a win (1), a shared first place or a smaller bye a draw (½), anything else a loss (0). "
                     "(FIDE's tie-break regulations, 2023.)") % values
    else:
        unplayed = _("A round without an opponent — a bye, a rest, a forfeit won or lost, a void table — adds "
                     "nothing to Buchholz or Sonneborn–Berger.")
    out.append({"key": "unplayed", "title": _("Rounds without an opponent"), "text": str(unplayed)})
    out.append({"key": "withdrawals", "title": _("Withdrawals and forfeits"), "text": str(_(
        "%(rule)s. A withdrawn player is not paired again. A match already paired for them is a forfeit, one for "
        "each match they missed (the Ff column); a bye or rest already paired for them scores nothing and is no "
        "forfeit, as everyone else in that round has a table already. “Withdrew in round N”: the first round they "
        "missed; “after round N”: the last round they played to the end.") % {
            "rule": league.get_forfeit_rule_display()})})
    out.append({"key": "positions", "title": _("Positions"), "text": str(_(
        "Players equal on every column share a position. Points are exact: a number with more than two decimals "
        "is shown rounded, with its exact value (such as 10/3) when you point at it, and in the CSV file."))})
    return out


def standings(tournament: Tournament) -> dict:
    """The standings table: positions, tie-break columns with values, W/D/L, byes, forfeits, withdrawals,
    and the rules they follow (``scoring_rules``)."""
    league = tournament.league
    order = [k for k in league.tie_breaks if k in TIE_BREAKS] or ["match_points"]
    rows = list(Standing.objects.filter(tournament=tournament).select_related("entrant__player"))
    knockout = tournament.format == Tournament.Format.KNOCKOUT
    stages = knockout_stages(tournament) if knockout else {}
    entries = [Entry(s.entrant_id, s.entrant.seed, exact(s.points or 0), s.game_points, s.wins,
                     stages.get(s.entrant_id, 0)) for s in rows]
    higher_game_points = higher_game_points_win(tournament)
    ranked = rank_entries(entries, _sittings(tournament), order, win=league.win_points,
                          draw=league.draw_points, loss=league.loss_points,
                          higher_game_points=higher_game_points, unplayed=league.unplayed_rounds)
    by_entrant = {s.entrant_id: s for s in rows}
    withdrawn = _withdrawals(tournament)
    played_through = _withdrawn_after(tournament, withdrawn)
    out = []
    for r in ranked:
        s = by_entrant[r.id]
        player = s.entrant.player
        cells = [number_cell(r.values.get(k)) for k in order]
        out.append({
            "position": r.position, "entrant_id": r.id, "player_id": player.pk, "name": player.name,
            "is_bot": player.shows_as_bot, "seed": s.entrant.seed,
            "values": [c["text"] for c in cells], "cells": cells,
            "exact": [exact_text(r.values.get(k)) for k in order], "raw": {k: r.values.get(k) for k in order},
            "played": s.played, "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes,
            "forfeits": s.forfeits, "withdrawn": withdrawn.get(r.id),
            "note": withdrawal_note(withdrawn.get(r.id), after=r.id in played_through),
            "stage": stage_label(stages.get(r.id, 0), tournament.rounds or 0, tournament.seats_per_table)
            if knockout else "",
        })
    return {"tournament": tournament, "order": order, "knockout": knockout,
            "columns": [{"key": k, "label": str(TIE_BREAKS[k]), "short": str(TIE_BREAK_SHORT[k]),
                         "help": tie_break_help(k, league, tournament.seats_per_table, higher_game_points)}
                        for k in order],
            "rows": out, "forfeit_rule": league.get_forfeit_rule_display(), "rules": scoring_rules(tournament)}


def _withdrawals(tournament: Tournament) -> dict[int, int]:
    return dict(Withdrawal.objects.filter(entrant__tournament=tournament).values_list("entrant_id", "round_number"))


def _withdrawn_after(tournament: Tournament, withdrawn: dict[int, int]) -> set[int]:
    """The withdrawn entrants who played their withdrawal's round to the end (they left after it)."""
    if not withdrawn:
        return set()
    seats = (TableSeat.objects.filter(entrant_id__in=list(withdrawn), table__round__tournament=tournament)
             .values_list("entrant_id", "table__round__number", "forfeited"))
    return {e for e, number, forfeited in seats if number == withdrawn[e] and not forfeited}


def withdrawal_note(round_number: int | None, after: bool = False) -> str:
    """"withdrew before the start", "withdrew in round N" (the first round missed) or "withdrew after
    round N" (the last round played to the end)."""
    if round_number is None:
        return ""
    if round_number == 0:
        return str(_("withdrew before the start"))
    if after:
        return str(_("withdrew after round %(n)s") % {"n": round_number})
    return str(_("withdrew in round %(n)s") % {"n": round_number})


def ranked_entrant_ids(tournament: Tournament) -> list[int]:
    return [row["entrant_id"] for row in standings(tournament)["rows"]]


def table_winner(table: Table) -> int | None:
    """Who goes through a knockout table: the best place, then game points, then the better seed;
    a forfeited player never does."""
    seats = list(table.seats.select_related("entrant").filter(forfeited=False))
    if not seats:
        return None
    return best_seat([(s.entrant_id, s.place, s.game_points, s.entrant.seed) for s in seats],
                     higher_game_points_win(table.round.tournament))


def best_seat(seats: Iterable[tuple[int, int | None, int | None, int]], higher_game_points: bool) -> int | None:
    """Among (entrant id, place, game points, seed) of the seats still playing, who goes through:
    the best place, then game points, then the better seed (``table_winner``'s rule, without queries)."""
    sign = 1 if higher_game_points else -1
    best = min(seats, key=lambda s: (s[1] if s[1] is not None else 10 ** 6, -sign * (s[2] or 0), s[3]),
               default=None)
    return best[0] if best is not None else None


# ---------------------------------------------------------------------------
# Rounds, progress, bracket, fixtures
# ---------------------------------------------------------------------------

def tournament_progress(tournament: Tournament) -> dict:
    """Where a tournament stands: round r of R, x of y matches finished (this round and overall)."""
    tables = Table.objects.filter(round__tournament=tournament, kind=Table.Kind.MATCH)
    folded = Q(folds__projection=Folded.Projection.STANDINGS)
    overall = tables.aggregate(total=Count("pk", distinct=True), done=Count("pk", filter=folded, distinct=True))
    current = tournament.round_set.order_by("-number").first()
    this = {"total": 0, "done": 0}
    if current is not None:
        this = tables.filter(round=current).aggregate(total=Count("pk", distinct=True),
                                                      done=Count("pk", filter=folded, distinct=True))
    rounds = tournament.rounds or 0
    closed = tournament.round_set.filter(status=Round.Status.CLOSED).count()
    fraction = 1.0 if tournament.status == Tournament.Status.FINISHED else (
        (closed + (this["done"] / this["total"] if this["total"] and current.status != Round.Status.CLOSED else 0))
        / rounds if rounds else 0.0)
    return {
        "status": tournament.status, "status_label": tournament.get_status_display(),
        "round": current.number if current else 0, "round_status": current.get_status_display() if current else "",
        "rounds": rounds, "finished": this["done"], "total": this["total"],
        "all_finished": overall["done"], "all_total": overall["total"], "percent": round(100 * min(fraction, 1.0)),
        "running": tournament.status == Tournament.Status.RUNNING,
    }


def _seat_rows(table: Table) -> list[dict]:
    out = []
    for s in table.seats.all():
        player = s.entrant.player
        out.append({"name": player.name, "player_id": player.pk, "entrant_id": s.entrant_id,
                    "is_bot": player.shows_as_bot,
                    "seed": s.entrant.seed, "place": s.place, "points": num(s.points),
                    "points_exact": number_cell(s.points)["exact"] if s.points is not None else "",
                    "game_points": s.game_points, "forfeited": s.forfeited, "match_seat": s.match_seat})
    return out


def round_dates(rnd: Round) -> dict:
    """When a round was played: started and closed (as they happened), and the date it was scheduled
    for (``scheduled_on``). ``show_scheduled``: a round not started yet says when it is scheduled; a
    started round says so only when it started later than planned (a round started early, such as one
    started automatically when the one before ended, says nothing about a schedule still ahead).

    ``same_day``: it closed on the day it started (local time), so the close needs only a time."""
    started, closed, scheduled = rnd.started_at, rnd.closed_at, rnd.scheduled_on
    same_day = bool(started and closed
                    and timezone.localtime(started).date() == timezone.localtime(closed).date())
    show_scheduled = bool(scheduled and (not started or scheduled < timezone.localtime(started).date()))
    return {"scheduled_on": scheduled, "show_scheduled": show_scheduled, "started_at": started, "closed_at": closed,
            "same_day": same_day}


def match_link(match: Match | None, user=None) -> dict | None:
    """A tournament table's link for the person reading the page: an ended match is replayed
    ("replay"); a match still to play is "play" for a person who plays a seat in it ("take your seat"
    while the tournament's seat waits for them) and "watch" for everyone else. None: no match yet."""
    if match is None:
        return None
    if match.has_ended:
        return {"kind": "replay", "label": _("replay"), "url": reverse("match_replay", args=[match.pk])}
    mine = None
    if user is not None and getattr(user, "is_authenticated", False):
        mine = next((s for s in match.seats.all() if s.user_id == user.pk), None)
    url = reverse("match_play", args=[match.pk])
    if mine is None or mine.stand_in or mine.status in (Seat.Status.DECLINED, Seat.Status.INVITED):
        return {"kind": "watch", "label": _("watch"), "url": url}
    if mine.status == Seat.Status.SEATED:
        return {"kind": "take_seat", "label": _("take your seat"), "url": url}
    return {"kind": "play", "label": _("play"), "url": url}


def tournament_rounds(tournament: Tournament, user=None) -> list[dict]:
    """Round by round: when it was played, each table's players, their places and points, and the link to
    its match for ``user`` (``match_link``: replay, play, take your seat or watch)."""
    rounds = (tournament.round_set.order_by("number").prefetch_related(
        Prefetch("tables", queryset=Table.objects.order_by("number").select_related("match")
                 .prefetch_related(Prefetch("seats", queryset=TableSeat.objects.order_by("position")
                                            .select_related("entrant__player")), "folds", "match__seats"))))
    out = []
    for rnd in rounds:
        tables = []
        for table in rnd.tables.all():
            decided = any(f.projection == Folded.Projection.STANDINGS for f in table.folds.all())
            match = table.match
            tables.append({
                "id": table.pk, "number": table.number, "kind": table.kind, "bye": table.kind == Table.Kind.BYE,
                "decided": decided, "seats": _seat_rows(table),
                "match_id": match.pk if match else None,
                "match_status": match.status if match else None,
                "match_status_label": match.get_status_display() if match else "",
                "play_url": reverse("match_play", args=[match.pk]) if match else None,
                "replay_url": reverse("match_replay", args=[match.pk]) if match and match.has_ended else None,
                "link": match_link(match, user),
            })
        match_tables = [t for t in tables if not t["bye"]]
        out.append({"id": rnd.pk, "number": rnd.number, "status": rnd.status, "status_label": rnd.get_status_display(),
                    **round_dates(rnd), "tables": tables,
                    "finished": sum(1 for t in match_tables if t["decided"]), "total": len(match_tables)})
    return out


def tournament_bracket(tournament: Tournament, rounds: list[dict] | None = None) -> list[dict]:
    """Knockout: one column per round, each a list of slots in bracket order.

    Table k of a round feeds table ceil(k / seats) of the next (``pairing.knockout_next``), so the
    slots of a column come in groups of ``seats`` that feed one slot of the next column (``next``);
    drawn with every slot of a column the same height, the connector lines meet in the middle.
    A slot holds its table (the seats, who goes through marked ``winner``) or, in a round not paired
    yet, the players already known to reach it (``waiting``; ``None`` for a table still to finish).
    ``tables`` lists the column's tables, each with its ``winner`` (an entrant id).
    """
    if tournament.format != Tournament.Format.KNOCKOUT:
        return []
    rounds = rounds if rounds is not None else tournament_rounds(tournament)
    seats = tournament.seats_per_table
    total = tournament.rounds or len(rounds)
    higher = higher_game_points_win(tournament)
    by_number = {r["number"]: r for r in rounds}
    columns: list[dict] = []
    previous: list[dict] = []  # the previous column's slots
    for number in range(1, total + 1):
        rnd = by_number.get(number)
        tables = {t["number"]: t for t in rnd["tables"]} if rnd else {}
        size = max(seats ** (total - number), max(tables, default=0))
        slots, tables_out = [], []
        for n in range(1, size + 1):
            feeders = [f for f in previous[(n - 1) * seats:n * seats] if f["live"]]
            slot = {"round": number, "number": n, "next": (n - 1) // seats + 1 if number < total else None,
                    "table": None, "seats": [], "winner": None, "decided": False, "waiting": [], "live": False}
            table = tables.get(n)
            if table is not None:
                winner = None
                if table["bye"] or table["decided"]:
                    winner = best_seat([(s["entrant_id"], s["place"], s["game_points"], s["seed"])
                                        for s in table["seats"] if not s["forfeited"]], higher)
                seat_rows = [{**s, "winner": s["entrant_id"] == winner} for s in table["seats"]]
                slot.update(table=table, seats=seat_rows, winner=winner, decided=winner is not None, live=True)
                tables_out.append({**table, "seats": seat_rows, "winner": winner})
            elif rnd is None and feeders:
                slot.update(live=True, waiting=[next((s for s in f["seats"] if s["winner"]), None) for f in feeders])
            slots.append(slot)
        previous = slots
        scheduled = tournament.round_date(number)
        dates = round_dates_of(rnd) if rnd else {"scheduled_on": scheduled, "show_scheduled": bool(scheduled),
                                                 "started_at": None, "closed_at": None, "same_day": False}
        columns.append({
            "number": number, "label": stage_label(number, total, seats), "paired": rnd is not None,
            "status_label": rnd["status_label"] if rnd else "", **dates, "tables": tables_out,
            "groups": [slots[i:i + seats] for i in range(0, len(slots), seats)] if number < total else [slots],
        })
    return columns


def round_dates_of(rnd: dict) -> dict:
    return {k: rnd[k] for k in ("scheduled_on", "show_scheduled", "started_at", "closed_at", "same_day")}


def bracket_champion(bracket: list[dict]) -> dict | None:
    """The seat row of whoever won the final (None until it is decided)."""
    if not bracket or not bracket[-1]["groups"] or not bracket[-1]["groups"][0]:
        return None
    final = bracket[-1]["groups"][0][0]
    return next((s for s in final["seats"] if s["winner"]), None)


def tournament_fixtures(tournament: Tournament) -> list[dict]:
    """Round robin and league seasons: the rounds still to be paired, with their dates."""
    if not tournament.is_round_robin or tournament.status != Tournament.Status.RUNNING:
        return []
    withdrawn = _withdrawals(tournament)
    entrants = list(tournament.entrants.select_related("player").order_by("seed"))
    field = [e for e in entrants if withdrawn.get(e.pk, 1) != 0]
    min_seats = max(2, registry.get(tournament.game).MIN_SEATS)
    from league.services.scoring import sides_of

    # the game's partnerships, as the round's pairing reads them (``rounds._sides``)
    sides = tuple((k, of_seat) for k in range(2, tournament.seats_per_table + 1)
                  if len(set(of_seat := sides_of(tournament.game, k))) < k)
    schedule = pairing.round_robin(len(field), tournament.seats_per_table, min_seats,
                                   double=tournament.format != Tournament.Format.ROUND_ROBIN,
                                   **({"sides": sides} if sides else {}))
    done = tournament.round_set.count()
    out = []
    for number, p in enumerate(schedule, start=1):
        if number <= done:
            continue
        out.append({"number": number, "scheduled_on": tournament.round_date(number),
                    "tables": [[field[i].player.name for i in t] for t in p.tables],
                    "rests": [field[i].player.name for i in p.byes]})
    return out


def tournament_terms(tournament: Tournament) -> dict:
    """What a tournament's matches play, in words: the options (as the engine plays them, defaults
    filled in), the clock and, with a clock, what happens when a deadline passes."""
    return {"options": options_text(tournament.game, tournament.options), "clock": clock_words(tournament.clock),
            "has_clock": bool(tournament.clock),
            "rule": tournament.get_timeout_rule_display() if tournament.clock else ""}


def round_waiting(tournament: Tournament) -> list[dict]:
    """Who the current round still waits for, table by table: in each undecided match, a person a
    tournament seated who has not taken the seat yet (since the match was created), or the person
    whose turn it is (since their turn started: ``Seat.turn_started_at`` under a clock, else the match's
    last event), with their deadline when the match has a clock and the last reminder sent to them.
    Names and times only: nothing of a match's hidden state."""
    rnd = tournament.round_set.filter(status=Round.Status.RUNNING).order_by("-number").first()
    if rnd is None:
        return []
    tables = (rnd.tables.filter(kind=Table.Kind.MATCH, match__status__in=[Match.Status.WAITING, Match.Status.RUNNING])
              .exclude(folds__projection=Folded.Projection.STANDINGS).select_related("match").order_by("number")
              .prefetch_related(Prefetch("match__seats", queryset=Seat.objects.select_related("user")
                                         .order_by("index"))))
    out = []
    for table in tables:
        match = table.match
        waiting: list[tuple] = []
        if match.is_waiting:
            waiting = [(s, "take_seat", match.created_at) for s in match.seats.all()
                       if s.status in (Seat.Status.SEATED, Seat.Status.INVITED)]
        else:
            turn = registry.get(match.game).view(store.load_state(match), None).get("turn")
            holder = next((s for s in match.seats.all() if s.index == turn), None)
            if holder is not None and holder.user_id is not None and not holder.policy:
                since = holder.turn_started_at if match.clock and holder.turn_started_at else match.moved_at
                waiting = [(holder, "move", since)]
        for seat, kind, since in waiting:
            out.append({"table": table.number, "match_id": match.pk, "match": str(match), "seat": seat.index,
                        "name": seat.display_name, "user_id": seat.user_id, "kind": kind, "since": since,
                        "deadline": seat.deadline if match.clock else None, "has_clock": bool(match.clock),
                        "play_url": reverse("match_play", args=[match.pk])})
    if out:
        sent = (Reminder.objects.filter(match_id__in={w["match_id"] for w in out}).order_by("sent_at")
                .values_list("match_id", "seat", "sent_at"))
        last = {(m, s): at for m, s, at in sent}
        for w in out:
            w["reminded_at"] = last.get((w["match_id"], w["seat"]))
            w["reminded_just_now"] = _just_now(w["reminded_at"])
            w["since_just_now"] = _just_now(w["since"])
    return out


def _just_now(moment) -> bool:
    """Less than a minute ago (said "just now", not "0 minutes ago")."""
    return bool(moment) and timezone.now() - moment < timedelta(minutes=1)


def tournament_page(tournament: Tournament, user=None) -> dict:
    """The public tournament page, as ``user`` reads it (the links to the matches are theirs)."""
    rounds = tournament_rounds(tournament, user)
    bracket = tournament_bracket(tournament, rounds)
    return {
        "tournament": tournament, "league": tournament.league, "club": tournament.league.club,
        "progress": tournament_progress(tournament), "standings": standings(tournament), "rounds": rounds,
        "bracket": bracket, "champion": bracket_champion(bracket), "fixtures": tournament_fixtures(tournament),
        "entrants": list(tournament.entrants.select_related("player").order_by("seed", "pk")),
        "terms": tournament_terms(tournament), "waiting": round_waiting(tournament),
    }


def tournaments(*, league: League | None = None, status: str | None = None) -> list[Tournament]:
    qs = Tournament.objects.select_related("league__club", "season")
    if league is not None:
        qs = qs.filter(league=league)
    if status:
        qs = qs.filter(status=status)
    return list(qs.order_by("-created_at"))


def tournament_summary(tournament: Tournament) -> dict:
    return {"id": tournament.pk, "name": tournament.name, "game": tournament.game, "format": tournament.format,
            "format_label": tournament.get_format_display(), "status": tournament.status,
            "league": tournament.league.name, "league_id": tournament.league_id, "club": tournament.league.club.name,
            "season": tournament.season.name if tournament.season else None,
            "seats_per_table": tournament.seats_per_table, "rounds": tournament.rounds,
            "entrants": tournament.entrants.count(), "progress": tournament_progress(tournament)}


# ---------------------------------------------------------------------------
# Clubs and leagues
# ---------------------------------------------------------------------------

def clubs_index() -> list[dict]:
    clubs = Club.objects.prefetch_related("leagues").order_by("name")
    return [{"club": c, "leagues": list(c.leagues.all())} for c in clubs]


def club_page(club: Club) -> dict:
    return {"club": club, "leagues": list(club.leagues.all()),
            "organisers": list(club.organisers.all()), "members": club.members.count()}


def league_page(league: League) -> dict:
    all_tournaments = tournaments(league=league)
    featured = next((t for t in all_tournaments if t.status == Tournament.Status.RUNNING), None) or next(
        (t for t in all_tournaments if t.status == Tournament.Status.FINISHED), None)
    return {"league": league, "club": league.club, "seasons": list(league.seasons.all()),
            "terms": {"options": options_text(league.game, league.options), "clock": clock_words(league.clock),
                      "rule": league.get_timeout_rule_display() if league.clock else ""},
            "tournaments": [{"tournament": t, "progress": tournament_progress(t)} for t in all_tournaments],
            "featured": featured, "standings": standings(featured) if featured else None,
            "ratings": ratings_for_game(league.game, limit=10)}


# ---------------------------------------------------------------------------
# Ratings and players
# ---------------------------------------------------------------------------

def ratings_for_game(game: str, limit: int = 100) -> list[dict]:
    """The ratings list, best first. Players whose ratings read the same (as the list shows them, to
    one decimal) share a position, as in the standings: 1, 1, 3."""
    def shown(r: Rating) -> Decimal:  # as the list's ``floatformat:1`` shows it
        return Decimal(repr(r.ordinal)).quantize(Decimal("0.1"), ROUND_HALF_UP)

    rows = Rating.objects.filter(game=game).select_related("player")
    ranked = sorted(rows, key=lambda r: (-shown(r), -r.ordinal, r.player.name))[:limit]
    out, position, last = [], 0, None
    for i, r in enumerate(ranked, start=1):
        if shown(r) != last:
            position, last = i, shown(r)
        out.append({"position": position, "player_id": r.player_id, "name": r.player.name,
                    "is_bot": r.player.shows_as_bot, "rating": round(r.ordinal, 2), "mu": round(r.mu, 2),
                    "sigma": round(r.sigma, 2), "matches": r.matches})
    return out


# The rating chart: an SVG drawn on the server (no script), in viewBox units.
CHART_WIDTH, CHART_HEIGHT = 480, 250
CHART_MARGIN = {"top": 14, "right": 22, "bottom": 52, "left": 58}
# Steps between date ticks: seconds within a day, then days, then months.
_SECOND_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200)
_DAY_STEPS = (1, 2, 3, 7, 14)
_MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60)


def _svg(value: float) -> str:
    """A coordinate for an SVG attribute: a dot as the decimal mark whatever the language."""
    return f"{value:.1f}"


def value_ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round values (1, 2, 2.5 or 5 times a power of ten apart) from below ``low`` to above ``high``."""
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / (most - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if raw <= m * magnitude * (1 + 1e-9))
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [round(i * step, 10) for i in range(first, last + 1)]


def _add_months(moment: datetime, months: int) -> datetime:
    index = moment.year * 12 + moment.month - 1 + months
    return moment.replace(year=index // 12, month=index % 12 + 1)


def date_ticks(first: datetime, last: datetime, most: int = 5) -> tuple[list[datetime], str]:
    """Round moments (local time) between ``first`` and ``last``, at the smallest step that gives at
    most ``most`` of them, and the format that labels them (``django.utils.formats``)."""
    first, last = timezone.localtime(first), timezone.localtime(last)
    span = (last - first).total_seconds()
    midnight = first.replace(hour=0, minute=0, second=0, microsecond=0)
    for step in _SECOND_STEPS:
        if span / step < most:
            offset = math.ceil((first - midnight).total_seconds() / step) * step
            ticks, moment = [], midnight + timedelta(seconds=offset)
            while moment <= last:
                ticks.append(moment)
                moment += timedelta(seconds=step)
            return ticks, ("H:i:s" if step < 60 else "TIME_FORMAT")
    day_format = "MONTH_DAY_FORMAT" if first.year == last.year else "SHORT_DATE_FORMAT"
    start_day = midnight if midnight == first else midnight + timedelta(days=1)
    for step in _DAY_STEPS:
        if span / (step * 86400) < most:
            ticks, moment = [], start_day
            if step % 7 == 0:
                moment += timedelta(days=-moment.weekday() % 7)  # weeks start on Monday
            while moment <= last:
                ticks.append(moment)
                moment += timedelta(days=step)  # wall-clock days: midnight stays midnight
            return ticks, day_format
    month = midnight.replace(day=1)
    if month < first:
        month = _add_months(month, 1)
    for step in _MONTH_STEPS:
        if span / (step * 30.4 * 86400) < most:
            break
    ticks = []
    while month <= last:
        ticks.append(month)
        month = _add_months(month, step)
    return ticks, ("YEAR_MONTH_FORMAT" if step < 12 else "Y")


def rating_chart(points: Sequence[tuple[datetime, float]], *, start: float | None = None) -> dict:
    """The rating over time as an inline SVG: a line with a dot per rated match, dates on the x axis,
    the rating on the y axis, round ticks on both and a title on each.

    ``points``: (played at, rating after the match), oldest first; ``start``: the rating before the
    first match (drawn at the first match's time). Coordinates are strings in viewBox units.
    """
    width, height, m = CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN
    left, right, top, bottom = m["left"], width - m["right"], m["top"], height - m["bottom"]
    chart = {"width": width, "height": height, "left": left, "right": right, "top": top, "bottom": bottom,
             "polyline": "", "dots": [], "x_ticks": [], "y_ticks": [],
             "y_title": str(_("Rating")), "x_title": "",
             "y_title_transform": f"translate(14 {_svg((top + bottom) / 2)}) rotate(-90)",
             "x_title_x": _svg((left + right) / 2), "x_title_y": _svg(height - 6)}
    if not points:
        return chart
    series = ([(points[0][0], start, True)] if start is not None else []) + [(t, v, False) for t, v in points]
    first, last = points[0][0], points[-1][0]
    span = (last - first).total_seconds()
    inset = 10  # keep the first and last dots off the axes
    x_of = ((lambda t: left + inset + (right - left - 2 * inset) * (t - first).total_seconds() / span) if span
            else (lambda t: (left + right) / 2))
    values = value_ticks(min(v for _t, v, _s in series), max(v for _t, v, _s in series))
    low, high = values[0], values[-1]

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    decimals = next(d for d in range(4) if all(abs(v * 10 ** d - round(v * 10 ** d)) < 1e-6 for v in values))
    chart["y_ticks"] = [{"y": _svg(y_of(v)), "label": formats.number_format(v, decimals)} for v in values]
    ticks, tick_format = date_ticks(first, last) if span else ([], "TIME_FORMAT")
    if not ticks:  # all within a second or so: the moment they were played
        ticks, tick_format = [timezone.localtime(first)], ("H:i:s" if span else "TIME_FORMAT")
    several_days = timezone.localtime(first).date() != timezone.localtime(last).date()
    labels = [(x_of(t), formats.date_format(t, "MONTH_DAY_FORMAT" if several_days and tick_format in (
        "TIME_FORMAT", "H:i:s") and (t.hour, t.minute, t.second) == (0, 0, 0) else tick_format)) for t in ticks]
    label_width = 8 * max(len(label) for _x, label in labels) + 10  # 14px text, roughly
    while len(labels) > 1 and min(b[0] - a[0] for a, b in zip(labels, labels[1:])) < label_width:
        labels = labels[::2]  # fewer ticks rather than overlapping labels
    for x, label in labels:
        # a label stays inside the picture; the tick marks the moment
        text_x = min(max(x, label_width / 2), width - label_width / 2)
        chart["x_ticks"].append({"x": _svg(x), "text_x": _svg(text_x), "label": label})
    first_local, last_local = timezone.localtime(first), timezone.localtime(last)
    if first_local.date() == last_local.date():
        chart["x_title"] = str(_("Time played on %(date)s") % {"date": formats.date_format(first_local,
                                                                                          "DATE_FORMAT")})
    else:
        chart["x_title"] = str(_("Date played"))
    coords = [(x_of(t), y_of(v), t, v, is_start) for t, v, is_start in series]
    chart["polyline"] = " ".join(f"{_svg(x)},{_svg(y)}" for x, y, *_rest in coords)
    chart["dots"] = [{
        "x": _svg(x), "y": _svg(y), "start": is_start,
        "label": (str(_("Starting rating: %(rating)s")) % {"rating": formats.number_format(v, 1)} if is_start
                  else str(_("%(when)s: %(rating)s")) % {
                      "when": formats.date_format(timezone.localtime(t), "DATETIME_FORMAT"),
                      "rating": formats.number_format(v, 1)}),
    } for x, y, t, v, is_start in coords]
    return chart


def player_ratings(player: PlayerProfile) -> list[dict]:
    out = []
    for rating in Rating.objects.filter(player=player).order_by("game"):
        history = list(RatingHistory.objects.filter(player=player, game=rating.game).order_by("played_at", "pk"))
        start = history[0].mu_before - 3 * history[0].sigma_before if history else None
        changes, before = [], start
        for h in history:
            changes.append({"match_id": h.match_id, "played_at": h.played_at, "rating": round(h.ordinal, 2),
                            "change": round(h.ordinal - before, 2) if before is not None else None,
                            "mu": round(h.mu, 2), "sigma": round(h.sigma, 2)})
            before = h.ordinal
        out.append({"game": rating.game, "game_label": GAME_LABELS.get(rating.game, rating.game),
                    "rating": round(rating.ordinal, 2), "mu": round(rating.mu, 2), "sigma": round(rating.sigma, 2),
                    "matches": rating.matches,
                    "chart": rating_chart([(h.played_at, h.ordinal) for h in history], start=start),
                    "history": changes})
    return out


def player_recent(player: PlayerProfile, limit: int = 20, user=None) -> list[dict]:
    """A player's latest tournament tables, each with its match's link for ``user`` (``match_link``)."""
    seats = (TableSeat.objects.filter(entrant__player=player)
             .select_related("table__round__tournament", "table__match").prefetch_related("table__match__seats")
             .order_by("-table__round__tournament__created_at", "-table__round__number")[:limit])
    out = []
    for s in seats:
        table = s.table
        others = (TableSeat.objects.filter(table=table).exclude(pk=s.pk).select_related("entrant__player")
                  .order_by("position"))
        match = table.match
        out.append({"tournament": table.round.tournament, "round": table.round.number, "table": table.number,
                    "bye": table.kind == Table.Kind.BYE, "opponents": [o.entrant.player.name for o in others],
                    "place": s.place, "points": num(s.points),
                    "points_exact": number_cell(s.points)["exact"] if s.points is not None else "",
                    "forfeited": s.forfeited,
                    "match_id": match.pk if match else None, "running": bool(match and match.is_running),
                    "finished": bool(match and match.status == Match.Status.FINISHED),
                    "link": match_link(match, user)})
    return out


def player_page(player: PlayerProfile, user=None) -> dict:
    """A player's page as ``user`` reads it (the links to the matches are theirs)."""
    return {"player": player, "ratings": player_ratings(player), "recent": player_recent(player, user=user)}


# ---------------------------------------------------------------------------
# CSV exports
# ---------------------------------------------------------------------------

STANDINGS_COUNTERS = ("played", "wins", "draws", "losses", "byes", "forfeits")


def standings_csv_rows(tournament: Tournament) -> list[list]:
    """The standings as CSV rows, header first; a counter that is also a tie-break (``wins``) is
    one column, in the tie-break order. Values are exact (``exact_text``: 2.25, or 10/3)."""
    table = standings(tournament)
    counters = [c for c in STANDINGS_COUNTERS if c not in table["order"]]
    header = ["position", "player", *table["order"], *counters, "note"]
    if table["knockout"]:
        header.append("stage")
    rows = [header]
    for r in table["rows"]:
        row = [r["position"], r["name"], *r["exact"], *(r[c] for c in counters), r["note"]]
        if table["knockout"]:
            row.append(r["stage"])
        rows.append(row)
    return rows


def merged_csv_rows(tables: list[tuple[str, list[list]]]) -> list[list]:
    """Several tournaments' CSV rows (header first) as one table with a leading "tournament" column.

    Columns are matched by name and each name appears once (a tie-break that is also a
    counter, such as wins, is not repeated); a tournament without a column leaves it empty.
    """
    header = ["tournament"]
    records = []
    for name, (head, *body) in tables:
        for column in head:
            if column not in header:
                header.append(column)
        for row in body:
            record = {"tournament": name}
            for column, value in zip(head, row):
                record.setdefault(column, value)
            records.append(record)
    return [header] + [[record.get(column, "") for column in header] for record in records]



def results_csv_rows(tournament: Tournament) -> list[list]:
    rows = [["round", "table", "kind", "position", "player", "match_seat", "place", "points", "game_points",
             "forfeited", "match_id", "match_status"]]
    for rnd in tournament_rounds(tournament):
        for t in rnd["tables"]:
            for i, s in enumerate(t["seats"]):
                rows.append([rnd["number"], t["number"], t["kind"], i, s["name"],
                             "" if s["match_seat"] is None else s["match_seat"],
                             "" if s["place"] is None else s["place"], s["points_exact"] or s["points"],
                             "" if s["game_points"] is None else s["game_points"], int(s["forfeited"]),
                             t["match_id"] or "", t["match_status"] or ""])
    return rows


def text_table(rows: list[list]) -> str:
    """Rows as a fixed-width text table (for management commands)."""
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def bot_accounts(user) -> list[dict]:
    """A person's outside bots, with their tokens' names and last use."""
    from games.models import ApiToken

    out = []
    for profile in PlayerProfile.objects.filter(owner=user, is_bot_account=True).select_related("user"):
        tokens = list(ApiToken.objects.filter(user=profile.user).order_by("-created_at")
                      .values("id", "name", "created_at", "last_used_at"))
        out.append({"name": profile.name, "user_id": profile.user_id, "player_id": profile.pk, "tokens": tokens})
    return out


def personal_tokens(user) -> list[dict]:
    """A person's own API tokens (not their outside bots'), newest first, with their scopes' words."""
    from games.models import TOKEN_SCOPES, ApiToken

    rows = list(ApiToken.objects.filter(user=user).order_by("-created_at")
                .values("id", "name", "scopes", "created_at", "last_used_at"))
    for row in rows:
        row["scope_words"] = [TOKEN_SCOPES[s] for s in row["scopes"] or () if s in TOKEN_SCOPES]
    return rows


def match_context(match) -> dict | None:
    """Where a match belongs (the play page names it): its tournament, round and table, with links."""
    table = Table.objects.select_related("round__tournament").filter(match=match).first()
    if table is None:
        return None
    tournament = table.round.tournament
    return {"tournament": tournament.name, "tournament_url": reverse("league_tournament", args=[tournament.pk]),
            "round": table.round.number, "table": table.number}


def home_sections(user) -> list[dict]:
    """The home page's part from the league: the current round of each running tournament the person
    entered, with their table's opponents and its match."""
    from django.utils.translation import gettext

    lines = []
    for entrant in (Entrant.objects.filter(player__user=user, tournament__status=Tournament.Status.RUNNING)
                    .select_related("tournament")):
        tournament = entrant.tournament
        rnd = tournament.round_set.order_by("-number").first()
        if rnd is None:
            continue
        seat = (TableSeat.objects.filter(entrant=entrant, table__round=rnd)
                .select_related("table__match").first())
        if seat is None:
            continue
        others = [s.entrant.player.name for s in seat.table.seats.select_related("entrant__player")
                  .exclude(pk=seat.pk).order_by("position")]
        table = seat.table
        text = gettext("%(tournament)s, round %(round)s") % {"tournament": tournament.name, "round": rnd.number}
        if table.kind == Table.Kind.BYE:
            note = gettext("a bye this round")
        else:
            note = gettext("table %(table)s against %(names)s") % {"table": table.number, "names": ", ".join(others)}
        url = reverse("match_play", args=[table.match_id]) if table.match_id else reverse(
            "league_tournament", args=[tournament.pk])
        lines.append({"text": text, "note": note, "url": url})
    return [{"title": gettext("Your tournaments"), "lines": lines}] if lines else []
