"""The tournament page's parts for teams and arenas: the team standings (and a two-team match's score), and
an arena's window with the reader's own pause button."""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from django.utils import timezone

from league.models import Entrant, Folded, Round, Table, TableSeat, Tournament
from league.rules.scoring import sides_of
from league.rules.tiebreaks import HALF, exact, exact_text, num
from league.selectors.rounds import format_setup


def team_standings(tournament: Tournament) -> list[dict]:
    """One row per team, best first: at each recorded table, the points its players took on one side count
    once (partners share one result), as does that side's result (alone in first place a win, first place
    shared with another side a draw, else a loss); ``won`` is the tables won, a draw counting half (a team
    match's boards won). Ranked by points, then tables won, then seed; equal on both, a shared position."""
    teams = list(tournament.teams.order_by("seed", "pk"))
    if not teams:
        return []
    members: dict[int, list[str]] = defaultdict(list)
    for team_id, name in (Entrant.objects.filter(tournament=tournament, team__isnull=False)
                          .order_by("seed", "pk").values_list("team_id", "player__name")):
        members[team_id].append(name)
    rows = list(TableSeat.objects.filter(table__round__tournament=tournament,
                                         table__folds__projection=Folded.Projection.STANDINGS)
                .values_list("table_id", "table__kind", "entrant_id", "entrant__team_id", "match_seat", "place",
                             "points"))
    by_table: dict[int, list] = defaultdict(list)
    for row in rows:
        by_table[row[0]].append(row)
    totals = {t.pk: {"points": Fraction(0), "won": Fraction(0), "played": 0, "wins": 0, "draws": 0, "losses": 0}
              for t in teams}
    for seats in by_table.values():
        in_match = sum(1 for s in seats if s[4] is not None)
        sides = sides_of(tournament.game, in_match) if in_match else ()

        def side(s, sides=sides):
            return sides[s[4]] if s[4] is not None and s[4] < len(sides) else ("alone", s[2])

        firsts = {side(s) for s in seats if s[5] == 1}
        counted = set()
        for s in seats:
            team = s[3]
            if team not in totals or (team, side(s)) in counted:
                continue
            counted.add((team, side(s)))
            total = totals[team]
            total["points"] += exact(s[6] or 0)
            if s[1] != Table.Kind.MATCH or s[5] is None:
                continue
            total["played"] += 1
            if s[5] == 1 and len(firsts) == 1:
                total["wins"], total["won"] = total["wins"] + 1, total["won"] + 1
            elif s[5] == 1:
                total["draws"], total["won"] = total["draws"] + 1, total["won"] + HALF
            else:
                total["losses"] += 1
    ranked = sorted(teams, key=lambda t: (-totals[t.pk]["points"], -totals[t.pk]["won"], t.seed, t.pk))
    out, previous, position = [], None, 0
    for i, team in enumerate(ranked, start=1):
        total = totals[team.pk]
        key = (total["points"], total["won"])
        if key != previous:
            position, previous = i, key
        out.append({"position": position, "team_id": team.pk, "seed": (team.seed, team.pk), "name": team.name, "members": members[team.pk],
                    "points": num(total["points"]), "points_exact": exact_text(total["points"]),
                    "won": exact_text(total["won"]), "won_value": total["won"], "played": total["played"],
                    "wins": total["wins"], "draws": total["draws"], "losses": total["losses"]})
    return out


def match_score(teams: list[dict]) -> dict | None:
    """Two teams' match score by tables won (a team match: boards won, a drawn board half each), in seed
    order; None unless the tournament has exactly two teams."""
    if len(teams) != 2:
        return None
    a, b = sorted(teams, key=lambda t: t["seed"])
    return {"a": a["name"], "b": b["name"], "a_won": a["won"], "b_won": b["won"],
            "winner": a["name"] if a["won_value"] > b["won_value"] else b["name"] if b["won_value"] > a["won_value"]
            else None}


def arena_panel(tournament: Tournament, user=None) -> dict | None:
    """A continuous format's window (opened, closes, still open) and the reader's own entry (paused or
    not); None for other formats."""
    fmt = tournament.format_rules
    if not fmt.continuous:
        return None
    opened = tournament.starts_at or tournament.started_at
    closes = fmt.closes_at(format_setup(tournament), opened) if opened else None
    running = tournament.round_set.filter(status=Round.Status.RUNNING).exists()
    mine = None
    if user is not None and user.is_authenticated:
        mine = Entrant.objects.filter(tournament=tournament, player__user=user).first()
    return {"opened": opened, "closes": closes, "open": tournament.status != Tournament.Status.FINISHED and (
        closes is None or timezone.now() < closes), "running": running, "mine": mine,
        "paused": list(Entrant.objects.filter(tournament=tournament, paused=True)
                       .order_by("seed").values_list("player__name", flat=True))}


def live_sections(tournament: Tournament, user=None) -> dict:
    """What the tournament page adds for teams and arenas."""
    teams = team_standings(tournament)
    return {"team_standings": teams, "match_score": match_score(teams), "arena": arena_panel(tournament, user)}
