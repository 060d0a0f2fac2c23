"""Read side of the league: standings with tie-breaks, rounds, brackets, progress, ratings.

Pages, the admin, the API, CSV exports and the management commands all read
through these functions, so they show the same numbers.

Points and tie-breaks are exact fractions: a page shows them rounded to two decimals with the
exact value in the cell's title (``league.rules.tiebreaks.num``, ``exact_text``); the CSV files give them exactly.

The tie-break rules themselves are pure functions in ``league.rules.tiebreaks``; the rating chart's maths is
``league.rules.charts``. This module reads the database and calls them.
"""
from __future__ import annotations

import time
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Sequence

from django.db.models import Count, Max, Prefetch, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _, ngettext

from engine import registry
from games import store
from games.kits import GAME_LABELS
from games.models import Match, Seat
from games.words.terms import clock_words, options_text
from league.rules.charts import rating_chart
from league.models import (TIE_BREAK_SHORT, TIE_BREAKS, Club, Entrant, Folded, League, PlayerProfile, Rating,
                           RatingHistory, Reminder, Round, Standing, Table, TableSeat, Tournament, Withdrawal,
                           exact)
from league.rules.tiebreaks import HALF, Entry, Sitting, best_seat, exact_text, num, number_cell, rank_entries

def higher_game_points_win(tournament: Tournament) -> bool:
    """Whether more game points are better in the tournament's matches: the engine's ``score_order`` of
    the game with the options its matches are played with (the tournament's, which start as the league's
    and may differ; most games: more is better; LIVOL's own-hand variant and IOTA's kids' variant: fewer)."""
    return registry.get(tournament.game).score_order(tournament.options) == "higher"


# ---------------------------------------------------------------------------
# Standings
# ---------------------------------------------------------------------------

def _sittings(tournament: Tournament) -> list[list[Sitting]]:
    """Every decided table of a tournament as the tie-breaks read it (``Sitting``), table by table."""
    from league.rules.scoring import sides_of

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
    from league.rules.scoring import Rules, has_partners, sides_of

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
    if fmt.bye_scores:
        bye = _("A bye (when the players do not fill the tables) scores %(bye)s, in a round without an "
                "opponent.") % values
    elif fmt.bracket:
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
    knockout = tournament.format_rules.bracket
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
    if not tournament.format_rules.bracket:
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
    from league.rules.scoring import sides_of

    # the game's partnerships, as the round's pairing reads them (``rounds._sides``)
    sides = tuple((k, of_seat) for k in range(2, tournament.seats_per_table + 1)
                  if len(set(of_seat := sides_of(tournament.game, k))) < k)
    schedule = tournament.format_rules.schedule(len(field), tournament.seats_per_table, min_seats, sides)
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


#: How long one process keeps where a match belongs (``match_context``), seconds.
MATCH_CONTEXT_SECONDS = 60.0
_match_contexts: dict[tuple, tuple[float, dict | None]] = {}


def match_context(match) -> dict | None:
    """Where a match belongs (the play page names it): its tournament, round and table, with links.

    Every board a seat fetches asks for it, and it does not change once the match exists (a round's
    table gets its match in the transaction that creates it), so each process keeps it for
    ``MATCH_CONTEXT_SECONDS``: a tournament renamed in the admin shows its new name within that time.
    Kept by the match's id and creation time (a test database hands the same ids out again)."""
    key, now = (match.pk, match.created_at), time.monotonic()
    kept = _match_contexts.get(key)
    if kept is not None and now - kept[0] < MATCH_CONTEXT_SECONDS:
        return kept[1]
    table = Table.objects.select_related("round__tournament").filter(match=match).first()
    context = None
    if table is not None:
        tournament = table.round.tournament
        context = {"tournament": tournament.name, "round": table.round.number, "table": table.number,
                   "tournament_url": reverse("league_tournament", args=[tournament.pk])}
    if len(_match_contexts) >= 10_000:  # a bound on memory: start again rather than grow
        _match_contexts.clear()
    _match_contexts[key] = (now, context)
    return context


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
