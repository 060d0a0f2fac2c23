"""Read side of the league: standings with tie-breaks, rounds, brackets, progress, ratings.

Pages, the admin, the API, CSV exports and the management commands all read
through these functions, so they show the same numbers.

Tie-breaks (each higher is better, except game points in games where fewer win):
- match points: the standings' points;
- game points: the game's own score summed over played matches (Cardavia: lives left);
- head-to-head: among the players still tied on the criteria before it, the
  points each took from the others, pair by pair (win/draw/loss points by who
  placed higher at a shared table);
- Buchholz: the sum of the match points of every opponent met (once per table
  shared); median Buchholz: the same without the highest and the lowest
  (with three or more opponents);
- Sonneborn–Berger: for each opponent, their match points times the result
  against them (1 placed higher, ½ tied, 0 lower);
- wins: tables won outright.
Byes and void tables give no opponents. Players equal on every criterion share a position.
"""
from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Sequence

from django.db.models import Count, Max, Prefetch, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from engine import registry
from games.models import GAME_LABELS, Match
from league import pairing
from league.models import (TIE_BREAK_SHORT, TIE_BREAKS, Club, Folded, League, PlayerProfile, Rating,
                           RatingHistory, Round, Standing, Table, TableSeat, Tournament, Withdrawal)

HALF = Decimal("0.5")


def num(value) -> str:
    """A number as people write it: 3, 1.5, 2.25."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    value = Decimal(value)
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def higher_game_points_win(tournament: Tournament) -> bool:
    """Whether more game points are better, read from the tournament's own results: in most
    games the winner holds the most points (Cardavia: lives left), in some the fewest (LIVOL's
    own-hand variant). Without results yet, more is better."""
    more = fewer = 0
    results = (Match.objects.filter(league_table__round__tournament=tournament, status=Match.Status.FINISHED)
               .values_list("result", flat=True)[:50])
    for result in results:
        ranking, scores = (result or {}).get("ranking"), (result or {}).get("scores")
        if not ranking or not scores or len(ranking[0]) != 1 or len(ranking) < 2:
            continue
        best, others = scores[ranking[0][0]], [scores[s] for group in ranking[1:] for s in group]
        if best > max(others):
            more += 1
        elif best < min(others):
            fewer += 1
    return fewer <= more


# ---------------------------------------------------------------------------
# Ranking with tie-breaks (pure)
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    id: int
    seed: int
    points: Decimal = Decimal(0)
    game_points: int = 0
    wins: int = 0
    stage: int = 0          # knockout: how far the player got (higher first)


@dataclass(frozen=True)
class Ranked:
    id: int
    position: int
    values: dict


def _result(pa: int, pb: int) -> Decimal:
    return Decimal(1) if pa < pb else (HALF if pa == pb else Decimal(0))


def tie_break_values(entries: dict[int, Entry], tables: Iterable[Sequence[tuple[int, int]]]) -> dict[int, dict]:
    """Every tie-break but head-to-head, per entrant. ``tables``: (entrant id, place) per seat."""
    opponents: dict[int, list[Decimal]] = defaultdict(list)
    sb: dict[int, Decimal] = defaultdict(Decimal)
    for seats in tables:
        for (a, pa), (b, pb) in itertools.permutations(seats, 2):
            if a not in entries or b not in entries:
                continue
            opponents[a].append(entries[b].points)
            sb[a] += entries[b].points * _result(pa, pb)
    out = {}
    for e in entries.values():
        scores = sorted(opponents[e.id])
        buchholz = sum(scores, Decimal(0))
        median = sum(scores[1:-1], Decimal(0)) if len(scores) >= 3 else buchholz
        out[e.id] = {"match_points": e.points, "game_points": Decimal(e.game_points), "buchholz": buchholz,
                     "median_buchholz": median, "sonneborn_berger": sb[e.id], "wins": Decimal(e.wins)}
    return out


def head_to_head(group: set[int], tables: Iterable[Sequence[tuple[int, int]]], win: Decimal, draw: Decimal,
                 loss: Decimal) -> dict[int, Decimal]:
    """Points each member of ``group`` took from the others, pair by pair, at shared tables."""
    out = {e: Decimal(0) for e in group}
    for seats in tables:
        for (a, pa), (b, pb) in itertools.permutations(seats, 2):
            if a in group and b in group:
                out[a] += win if pa < pb else (draw if pa == pb else loss)
    return out


def rank_entries(entries: Sequence[Entry], tables: Sequence[Sequence[tuple[int, int]]], order: Sequence[str], *,
                 win=Decimal(3), draw=Decimal(1), loss=Decimal(0), higher_game_points=True) -> list[Ranked]:
    """Order entrants by (knockout stage, then) the tie-breaks in ``order``.

    Each criterion splits the groups still tied; head-to-head is computed
    inside each such group. Players equal on all criteria share a position
    and are listed by seed.
    """
    by_id = {e.id: e for e in entries}
    values = tie_break_values(by_id, tables)
    shown_h2h: dict[int, Decimal] = {}
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

def _placed_tables(tournament: Tournament) -> list[list[tuple[int, int]]]:
    rows = (TableSeat.objects.filter(table__round__tournament=tournament, table__kind=Table.Kind.MATCH,
                                     place__isnull=False)
            .values_list("table_id", "entrant_id", "place"))
    tables: dict[int, list] = defaultdict(list)
    for table_id, entrant_id, place in rows:
        tables[table_id].append((entrant_id, place))
    return [tables[k] for k in sorted(tables)]


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


def standings(tournament: Tournament) -> dict:
    """The standings table: positions, tie-break columns with values, W/D/L, byes, forfeits, withdrawals."""
    league = tournament.league
    order = [k for k in league.tie_breaks if k in TIE_BREAKS] or ["match_points"]
    rows = list(Standing.objects.filter(tournament=tournament).select_related("entrant__player"))
    knockout = tournament.format == Tournament.Format.KNOCKOUT
    stages = knockout_stages(tournament) if knockout else {}
    entries = [Entry(s.entrant_id, s.entrant.seed, s.points, s.game_points, s.wins, stages.get(s.entrant_id, 0))
               for s in rows]
    ranked = rank_entries(entries, _placed_tables(tournament), order, win=league.win_points,
                          draw=league.draw_points, loss=league.loss_points,
                          higher_game_points=higher_game_points_win(tournament))
    by_entrant = {s.entrant_id: s for s in rows}
    withdrawn = _withdrawals(tournament)
    out = []
    for r in ranked:
        s = by_entrant[r.id]
        player = s.entrant.player
        out.append({
            "position": r.position, "entrant_id": r.id, "player_id": player.pk, "name": player.name,
            "is_bot": player.is_bot, "seed": s.entrant.seed,
            "values": [num(r.values.get(k)) for k in order], "raw": {k: r.values.get(k) for k in order},
            "played": s.played, "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes,
            "forfeits": s.forfeits, "withdrawn": withdrawn.get(r.id),
            "note": withdrawal_note(withdrawn.get(r.id)),
            "stage": stage_label(stages.get(r.id, 0), tournament.rounds or 0, tournament.seats_per_table)
            if knockout else "",
        })
    return {"tournament": tournament, "order": order, "knockout": knockout,
            "columns": [{"key": k, "label": str(TIE_BREAKS[k]), "short": str(TIE_BREAK_SHORT[k])} for k in order],
            "rows": out, "forfeit_rule": league.get_forfeit_rule_display()}


def _withdrawals(tournament: Tournament) -> dict[int, int]:
    return dict(Withdrawal.objects.filter(entrant__tournament=tournament).values_list("entrant_id", "round_number"))


def withdrawal_note(round_number: int | None) -> str:
    if round_number is None:
        return ""
    if round_number == 0:
        return str(_("withdrew before the start"))
    return str(_("withdrew in round %(n)s") % {"n": round_number})


def ranked_entrant_ids(tournament: Tournament) -> list[int]:
    return [row["entrant_id"] for row in standings(tournament)["rows"]]


def table_winner(table: Table) -> int | None:
    """Who goes through a knockout table: the best place, then game points, then the better seed;
    a forfeited player never does."""
    seats = list(table.seats.select_related("entrant").filter(forfeited=False))
    if not seats:
        return None
    tournament = table.round.tournament
    sign = 1 if higher_game_points_win(tournament) else -1
    return min(seats, key=lambda s: (s.place if s.place is not None else 10 ** 6,
                                     -sign * (s.game_points or 0), s.entrant.seed)).entrant_id


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
        out.append({"name": player.name, "player_id": player.pk, "entrant_id": s.entrant_id, "is_bot": player.is_bot,
                    "place": s.place, "points": num(s.points), "game_points": s.game_points,
                    "forfeited": s.forfeited, "match_seat": s.match_seat})
    return out


def tournament_rounds(tournament: Tournament) -> list[dict]:
    """Round by round: each table's players, their places and points, and links to the match."""
    rounds = (tournament.round_set.order_by("number").prefetch_related(
        Prefetch("tables", queryset=Table.objects.order_by("number").select_related("match")
                 .prefetch_related(Prefetch("seats", queryset=TableSeat.objects.order_by("position")
                                            .select_related("entrant__player")), "folds"))))
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
                "replay_url": reverse("match_replay", args=[match.pk]) if match and not match.is_running else None,
            })
        match_tables = [t for t in tables if not t["bye"]]
        out.append({"id": rnd.pk, "number": rnd.number, "status": rnd.status, "status_label": rnd.get_status_display(),
                    "scheduled_on": rnd.scheduled_on, "tables": tables,
                    "finished": sum(1 for t in match_tables if t["decided"]), "total": len(match_tables)})
    return out


def tournament_bracket(tournament: Tournament, rounds: list[dict] | None = None) -> list[dict]:
    """Knockout: the rounds as bracket columns (tables in bracket order, the winner marked)."""
    if tournament.format != Tournament.Format.KNOCKOUT:
        return []
    rounds = rounds if rounds is not None else tournament_rounds(tournament)
    seats = tournament.seats_per_table
    total = tournament.rounds or len(rounds)
    columns = []
    for rnd in rounds:
        tables = []
        for t in rnd["tables"]:
            winner = None
            if t["decided"]:
                winner = table_winner(Table.objects.select_related("round__tournament").get(pk=t["id"]))
            tables.append({**t, "winner": winner})
        columns.append({"number": rnd["number"], "label": stage_label(rnd["number"], total, seats), "tables": tables})
    for number in range(len(rounds) + 1, total + 1):
        columns.append({"number": number, "label": stage_label(number, total, seats), "tables": []})
    return columns


def tournament_fixtures(tournament: Tournament) -> list[dict]:
    """Round robin and league seasons: the rounds still to be paired, with their dates."""
    if not tournament.is_round_robin or tournament.status != Tournament.Status.RUNNING:
        return []
    withdrawn = _withdrawals(tournament)
    entrants = list(tournament.entrants.select_related("player").order_by("seed"))
    field = [e for e in entrants if withdrawn.get(e.pk, 1) != 0]
    min_seats = max(2, registry.get(tournament.game).MIN_SEATS)
    schedule = pairing.round_robin(len(field), tournament.seats_per_table, min_seats,
                                   double=tournament.format != Tournament.Format.ROUND_ROBIN)
    done = tournament.round_set.count()
    out = []
    for number, p in enumerate(schedule, start=1):
        if number <= done:
            continue
        when = None
        if tournament.starts_on:
            from datetime import timedelta

            when = tournament.starts_on + timedelta(days=tournament.days_between_rounds * (number - 1))
        out.append({"number": number, "scheduled_on": when,
                    "tables": [[field[i].player.name for i in t] for t in p.tables],
                    "rests": [field[i].player.name for i in p.byes]})
    return out


def tournament_page(tournament: Tournament) -> dict:
    rounds = tournament_rounds(tournament)
    return {
        "tournament": tournament, "league": tournament.league, "club": tournament.league.club,
        "progress": tournament_progress(tournament), "standings": standings(tournament), "rounds": rounds,
        "bracket": tournament_bracket(tournament, rounds), "fixtures": tournament_fixtures(tournament),
        "entrants": list(tournament.entrants.select_related("player").order_by("seed", "pk")),
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
            "tournaments": [{"tournament": t, "progress": tournament_progress(t)} for t in all_tournaments],
            "featured": featured, "standings": standings(featured) if featured else None,
            "ratings": ratings_for_game(league.game, limit=10)}


# ---------------------------------------------------------------------------
# Ratings and players
# ---------------------------------------------------------------------------

def ratings_for_game(game: str, limit: int = 100) -> list[dict]:
    rows = Rating.objects.filter(game=game).select_related("player")
    ranked = sorted(rows, key=lambda r: (-r.ordinal, r.player.name))[:limit]
    return [{"position": i, "player_id": r.player_id, "name": r.player.name, "is_bot": r.player.is_bot,
             "rating": round(r.ordinal, 2), "mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "matches": r.matches}
            for i, r in enumerate(ranked, start=1)]


def rating_chart(points: Sequence[float], width: int = 560, height: int = 160, pad: int = 24) -> dict:
    """An inline SVG polyline for a rating history (oldest first)."""
    if not points:
        return {"width": width, "height": height, "pad": pad, "polyline": "", "dots": [], "low_label": "",
                "high_label": ""}
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    n = len(points)
    coords = []
    for i, v in enumerate(points):
        x = pad + (width - 2 * pad) * (i / (n - 1) if n > 1 else 0.5)
        y = height - pad - (height - 2 * pad) * ((v - low) / span)
        coords.append((round(x, 1), round(y, 1)))
    # strings, so that no locale's decimal comma reaches the SVG attributes
    return {"width": width, "height": height, "pad": pad,
            "polyline": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
            "dots": [{"x": f"{x:.1f}", "y": f"{y:.1f}", "label": f"{v:.2f}"} for (x, y), v in zip(coords, points)],
            "low_label": f"{low:.2f}", "high_label": f"{high:.2f}"}


def player_ratings(player: PlayerProfile) -> list[dict]:
    out = []
    for rating in Rating.objects.filter(player=player).order_by("game"):
        history = list(RatingHistory.objects.filter(player=player, game=rating.game).order_by("played_at", "pk"))
        start = history[0].mu_before - 3 * history[0].sigma_before if history else None
        series = ([start] if start is not None else []) + [h.ordinal for h in history]
        out.append({"game": rating.game, "game_label": GAME_LABELS.get(rating.game, rating.game),
                    "rating": round(rating.ordinal, 2), "mu": round(rating.mu, 2), "sigma": round(rating.sigma, 2),
                    "matches": rating.matches, "chart": rating_chart(series),
                    "history": [{"match_id": h.match_id, "played_at": h.played_at, "rating": round(h.ordinal, 2),
                                 "mu": round(h.mu, 2), "sigma": round(h.sigma, 2)} for h in history]})
    return out


def player_recent(player: PlayerProfile, limit: int = 20) -> list[dict]:
    seats = (TableSeat.objects.filter(entrant__player=player)
             .select_related("table__round__tournament", "table__match")
             .order_by("-table__round__tournament__created_at", "-table__round__number")[:limit])
    out = []
    for s in seats:
        table = s.table
        others = (TableSeat.objects.filter(table=table).exclude(pk=s.pk).select_related("entrant__player")
                  .order_by("position"))
        match = table.match
        out.append({"tournament": table.round.tournament, "round": table.round.number, "table": table.number,
                    "bye": table.kind == Table.Kind.BYE, "opponents": [o.entrant.player.name for o in others],
                    "place": s.place, "points": num(s.points), "forfeited": s.forfeited,
                    "match_id": match.pk if match else None, "running": bool(match and match.is_running),
                    "finished": bool(match and match.status == Match.Status.FINISHED)})
    return out


def player_page(player: PlayerProfile) -> dict:
    return {"player": player, "ratings": player_ratings(player), "recent": player_recent(player)}


# ---------------------------------------------------------------------------
# CSV exports
# ---------------------------------------------------------------------------

STANDINGS_COUNTERS = ("played", "wins", "draws", "losses", "byes", "forfeits")


def standings_csv_rows(tournament: Tournament) -> list[list]:
    """The standings as CSV rows, header first; a counter that is also a tie-break (``wins``) is
    one column, in the tie-break order."""
    table = standings(tournament)
    counters = [c for c in STANDINGS_COUNTERS if c not in table["order"]]
    header = ["position", "player", *table["order"], *counters, "note"]
    if table["knockout"]:
        header.append("stage")
    rows = [header]
    for r in table["rows"]:
        row = [r["position"], r["name"], *r["values"], *(r[c] for c in counters), r["note"]]
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
                             "" if s["place"] is None else s["place"], s["points"],
                             "" if s["game_points"] is None else s["game_points"], int(s["forfeited"]),
                             t["match_id"] or "", t["match_status"] or ""])
    return rows


def text_table(rows: list[list]) -> str:
    """Rows as a fixed-width text table (for management commands)."""
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
