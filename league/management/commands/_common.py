"""Shared bits of the league's management commands (thin twins of the admin actions)."""
from __future__ import annotations

import csv

from django.core.management.base import CommandError

from league import selectors, services
from league.models import Tournament


def tournament_of(value) -> Tournament:
    try:
        return Tournament.objects.select_related("league__club").get(pk=int(value))
    except (Tournament.DoesNotExist, ValueError):
        raise CommandError(f"no tournament with id {value!r}") from None


def standings_text(tournament: Tournament) -> str:
    table = selectors.standings(tournament)
    rows = [["#", "player", *[c["short"] for c in table["columns"]], "P", "W", "D", "L", "bye", "ff", "note"]
            + (["stage"] if table["knockout"] else [])]
    for r in table["rows"]:
        rows.append([r["position"], r["name"], *[v or "-" for v in r["values"]], r["played"], r["wins"], r["draws"],
                     r["losses"], r["byes"], r["forfeits"], r["note"]] + ([r["stage"]] if table["knockout"] else []))
    return selectors.text_table(rows)


def progress_text(tournament: Tournament) -> str:
    p = selectors.tournament_progress(tournament)
    if not p["round"]:
        return f"{tournament.name}: {p['status_label']}, {tournament.entrants.count()} entrants"
    return (f"{tournament.name}: round {p['round']} of {p['rounds']} ({p['round_status']}), "
            f"{p['finished']} of {p['total']} matches finished; {p['all_finished']} of {p['all_total']} overall; "
            f"{p['status_label']}")


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
