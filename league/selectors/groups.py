"""A format's groups and brackets as the page reads them: one standings table per group (the tournament's
standings and tie-breaks counting only the group's tables), and a format's several brackets (its
``brackets``). Read only through what the format returns (``groups``, ``group_rule``, ``brackets``)."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from league.models import TIE_BREAK_SHORT, TIE_BREAKS, Folded, TableSeat, Tournament, exact
from league.rules.tiebreaks import Entry, number_cell, rank_entries
from league.selectors.rounds import format_setup, higher_game_points_win, tournament_rounds, withdrawals
from league.selectors.standings import _sittings


def _ranked(tournament: Tournament, entrants: Sequence[int], stage: str):
    """``entrants`` ranked on the tables of ``stage`` alone, with their results there."""
    league = tournament.league
    order = [k for k in league.tie_breaks if k in TIE_BREAKS] or ["match_points"]
    rows = (TableSeat.objects.filter(table__round__tournament=tournament, table__stage=stage,
                                     table__folds__projection=Folded.Projection.STANDINGS)
            .values_list("entrant_id", "points", "game_points"))
    totals: dict[int, dict] = defaultdict(lambda: {"points": Fraction(0), "game_points": 0, "played": 0,
                                                   "wins": 0, "draws": 0, "losses": 0})
    sittings = _sittings(tournament, stage)
    for table in sittings:
        alone = sum(1 for s in table if s.place == 1) == 1
        for s in table:
            t = totals[s.entrant]
            if s.played:
                t["played"] += 1
                key = "wins" if s.place == 1 and alone else "draws" if s.place == 1 else "losses"
                t[key] += 1
    for entrant, points, game_points in rows:
        totals[entrant]["points"] += exact(points or 0)
        totals[entrant]["game_points"] += game_points or 0
    seeds = dict(tournament.entrants.filter(pk__in=list(entrants)).values_list("pk", "seed"))
    entries = [Entry(e, seeds.get(e, 0), totals[e]["points"], totals[e]["game_points"], totals[e]["wins"])
               for e in entrants]
    ranked = rank_entries(entries, sittings, order, win=league.win_points, draw=league.draw_points,
                          loss=league.loss_points, higher_game_points=higher_game_points_win(tournament),
                          unplayed=league.unplayed_rounds)
    return order, ranked, totals


def group_ranking(tournament: Tournament, entrants: Sequence[int], stage: str) -> list[int]:
    """``entrants`` best first, by the tournament's standings and tie-breaks on the tables of ``stage``."""
    _order, ranked, _totals = _ranked(tournament, entrants, stage)
    return [r.id for r in ranked]


def group_standings(tournament: Tournament) -> dict | None:
    """One standings table per group of the tournament's format (None: its format has no groups), with the
    sentence saying how a group is ranked and who goes through."""
    fmt, setup = tournament.format_rules, format_setup(tournament)
    withdrawn = withdrawals(tournament)
    entrants = list(tournament.entrants.select_related("player").order_by("seed", "pk"))
    starters = [e.pk for e in entrants if withdrawn.get(e.pk, 1) != 0]
    groups = fmt.groups(setup, starters) if tournament.status != Tournament.Status.DRAFT else []
    if not groups:
        return None
    by_id = {e.pk: e for e in entrants}
    out = []
    for name, members in groups:
        order, ranked, totals = _ranked(tournament, members, name)
        rows = []
        for r in ranked:
            e, t = by_id[r.id], totals[r.id]
            rows.append({"position": r.position, "entrant_id": r.id, "name": e.player.name,
                         "is_bot": e.player.shows_as_bot, "seed": e.seed, "played": t["played"],
                         "wins": t["wins"], "draws": t["draws"], "losses": t["losses"],
                         "cells": [number_cell(r.values.get(k)) for k in order], "withdrawn": r.id in withdrawn})
        out.append({"name": name, "rows": rows})
    order = [k for k in tournament.league.tie_breaks if k in TIE_BREAKS] or ["match_points"]
    return {"groups": out, "rule": fmt.group_rule(setup),
            "columns": [{"key": k, "label": str(TIE_BREAKS[k]), "short": str(TIE_BREAK_SHORT[k])} for k in order]}


def tournament_brackets(tournament: Tournament, rounds: list[dict] | None = None) -> list[dict]:
    """The format's brackets when it draws more than one (a double elimination's), else empty."""
    rounds = rounds if rounds is not None else tournament_rounds(tournament)
    return tournament.format_rules.brackets(format_setup(tournament), rounds,
                                            higher_game_points_win(tournament)) or []
