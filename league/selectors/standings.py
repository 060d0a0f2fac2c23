"""Standings: positions and tie-break columns, W/D/L, byes, forfeits and withdrawals, the stage each player
reached (in a format with stages), and the rules of the legend under the table.

Points and tie-breaks are exact fractions: a page shows them rounded to two decimals with the exact value in
the cell's title (``league.rules.tiebreaks.num``, ``exact_text``); the CSV files give them exactly. The
tie-break rules themselves are pure functions in ``league.rules.tiebreaks``; this module reads the database
and calls them.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import Match
from league.models import TIE_BREAK_SHORT, TIE_BREAKS, Folded, League, Standing, Table, TableSeat, Tournament, exact
from league.rules.scoring import Rules, has_partners, sides_of
from league.rules.tiebreaks import HALF, Entry, Sitting, exact_text, num, number_cell, rank_entries
from league.selectors.rounds import Played, format_setup, higher_game_points_win, withdrawals
from league.selectors.table_rules import table_clarifications


def _sittings(tournament: Tournament, stage: str | None = None) -> list[list[Sitting]]:
    """Every decided table of a tournament as the tie-breaks read it (``Sitting``), table by table (``stage``:
    only the tables of that stage, ``Table.stage``)."""
    league = tournament.league
    win, loss = exact(league.win_points), exact(league.loss_points)
    rows = (TableSeat.objects.filter(table__round__tournament=tournament,
                                     table__folds__projection=Folded.Projection.STANDINGS)
            .filter(**({"table__stage": stage} if stage is not None else {}))
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
    league = tournament.league
    rules = Rules.of(tournament)
    seats = tournament.seats_per_table
    fmt = tournament.format_rules
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
    extra = fmt.points_rule(format_setup(tournament))     # a format's own points (an arena's streaks)
    out.append({"key": "points", "title": _("Points"), "text": str(text) + " " + str(_(
        "Alone in first place is a win, a shared first place a draw, any other place a loss (the W, D and L "
        "columns).")) + (" " + extra if extra else "")})
    if has_partners(tournament.game, seats):
        sides = sides_of(tournament.game, seats)
        a, b, c, d = (i + 1 for i in sorted(range(seats), key=lambda i: (sides[i], i)))
        out.append({"key": "partners", "title": _("Partners"), "text": str(_(
            "At a full table of %(n)s, seats %(a)s and %(b)s play against seats %(c)s and %(d)s as two partnerships. "
            "Partners are one side and hold one place (a full table is a table of two places): both take the "
            "side's place, points and result (a side's win is a win for both), and a partner is never an opponent — "
            "not in Buchholz, Sonneborn–Berger or head-to-head. A smaller table plays without partnerships.") % {"n": seats, "a": a, "b": b, "c": c, "d": d})})
    bye = fmt.bye_rule(values["bye"])
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
    out += table_clarifications(tournament)
    return out


def standings(tournament: Tournament) -> dict:
    """The standings table: positions, tie-break columns with values, W/D/L, byes, forfeits, withdrawals,
    and the rules they follow (``scoring_rules``)."""
    league = tournament.league
    order = [k for k in league.tie_breaks if k in TIE_BREAKS] or ["match_points"]
    rows = list(Standing.objects.filter(tournament=tournament).select_related("entrant__player"))
    fmt, setup = tournament.format_rules, format_setup(tournament)
    staged = fmt.stages(setup, Played(tournament), tournament.status == Tournament.Status.FINISHED)
    stages = staged or {}
    entries = [Entry(s.entrant_id, s.entrant.seed, exact(s.points or 0), s.game_points, s.wins,
                     stages.get(s.entrant_id, 0)) for s in rows]
    higher_game_points = higher_game_points_win(tournament)
    ranked = rank_entries(entries, _sittings(tournament), order, win=league.win_points,
                          draw=league.draw_points, loss=league.loss_points,
                          higher_game_points=higher_game_points, unplayed=league.unplayed_rounds)
    by_entrant = {s.entrant_id: s for s in rows}
    withdrawn = withdrawals(tournament)
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
            "stage": fmt.stage_label(stages.get(r.id, 0), setup) if staged is not None else "",
        })
    return {"tournament": tournament, "order": order, "stages": staged is not None,
            "columns": [{"key": k, "label": str(TIE_BREAKS[k]), "short": str(TIE_BREAK_SHORT[k]),
                         "help": tie_break_help(k, league, tournament.seats_per_table, higher_game_points)}
                        for k in order],
            "rows": out, "forfeit_rule": league.get_forfeit_rule_display(), "rules": scoring_rules(tournament)}


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
