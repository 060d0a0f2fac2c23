"""Shared bits of the league's management commands (thin twins of the admin actions)."""
from __future__ import annotations

import csv

from django.core.management.base import CommandError
from django.utils import timezone

from league import services
from league.models import Tournament
from league.selectors import exports, live, rounds, standings


def tournament_of(value) -> Tournament:
    try:
        return Tournament.objects.select_related("league__club").get(pk=int(value))
    except (Tournament.DoesNotExist, ValueError):
        raise CommandError(f"no tournament with id {value!r}") from None


def standings_text(tournament: Tournament) -> str:
    table = standings.standings(tournament)
    rows = [["#", "player", *[c["short"] for c in table["columns"]], "P", "W", "D", "L", "bye", "ff", "note"]
            + (["stage"] if table["stages"] else [])]
    for r in table["rows"]:
        rows.append([r["position"], r["name"], *[v or "-" for v in r["values"]], r["played"], r["wins"], r["draws"],
                     r["losses"], r["byes"], r["forfeits"], r["note"]] + ([r["stage"]] if table["stages"] else []))
    return exports.text_table(rows)


def team_standings_text(tournament: Tournament) -> str:
    """The team table (a tournament with teams; empty otherwise) and, between two teams, the match score."""
    teams = live.team_standings(tournament)
    if not teams:
        return ""
    rows = [["#", "team", "players", "P", "W", "D", "L", "tables won", "points"]]
    rows += [[t["position"], t["name"], ", ".join(t["members"]), t["played"], t["wins"], t["draws"], t["losses"],
              t["won"], t["points_exact"]] for t in teams]
    score = live.match_score(teams)
    line = f"\n{score['a']} {score['a_won']} - {score['b_won']} {score['b']}" if score else ""
    return exports.text_table(rows) + line


def progress_text(tournament: Tournament) -> str:
    p = rounds.tournament_progress(tournament)
    if not p["round"]:
        return f"{tournament.name}: {p['status_label']}, {tournament.entrants.count()} entrants"
    return (f"{tournament.name}: round {p['round']} of {p['rounds']} ({p['round_status']}), "
            f"{p['finished']} of {p['total']} matches finished; {p['all_finished']} of {p['all_total']} overall; "
            f"{p['status_label']}")


def terms_text(tournament: Tournament) -> str:
    terms = rounds.tournament_terms(tournament)
    rule = f"; when a deadline passes: {terms['rule']}" if terms["rule"] else ""
    return f"plays: {terms['options']}; clock: {terms['clock']}{rule}"


def waiting_text(tournament: Tournament) -> str:
    """Who the current round waits for, one line each (empty: nobody)."""
    lines = []
    for w in rounds.round_waiting(tournament):
        what = "to take the seat" if w["kind"] == "take_seat" else "to move"
        line = (f"waiting for {w['name']} (match {w['match_id']}, seat {w['seat']}, table {w['table']}) {what} "
                f"since {timezone.localtime(w['since']):%Y-%m-%d %H:%M}")
        if w["deadline"]:
            line += f", deadline {timezone.localtime(w['deadline']):%Y-%m-%d %H:%M}"
        lines.append(line)
    return "\n".join(lines)


def write_csv(rows, output: str | None, stdout) -> None:
    if output:
        with open(output, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(rows)
    else:
        csv.writer(stdout).writerows(rows)


class domain_errors:
    """Turn a LeagueError into a CommandError (a message and exit status 1)."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, services.LeagueError):
            raise CommandError(f"{exc.code}: {exc.message}") from None
        return False
