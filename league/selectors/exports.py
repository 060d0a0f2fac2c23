"""CSV rows and text tables of what the selectors read: pure, no database. ``standings_csv_rows`` takes
``league.selectors.standings.standings``' table, ``results_csv_rows`` the rounds of
``league.selectors.rounds.tournament_rounds``; each gives rows, header first."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

STANDINGS_COUNTERS = ("played", "wins", "draws", "losses", "byes", "forfeits")

Rows = list[list[Any]]


def standings_csv_rows(table: Mapping[str, Any]) -> Rows:
    """The standings as CSV rows; a counter that is also a tie-break (``wins``) is one column, in the
    tie-break order. Values are exact (``exact_text``: 2.25, or 10/3). A format with stages adds the stage
    each player reached."""
    counters = [c for c in STANDINGS_COUNTERS if c not in table["order"]]
    header = ["position", "player", *table["order"], *counters, "note"]
    if table["stages"]:
        header.append("stage")
    rows: Rows = [header]
    for r in table["rows"]:
        row = [r["position"], r["name"], *r["exact"], *(r[c] for c in counters), r["note"]]
        if table["stages"]:
            row.append(r["stage"])
        rows.append(row)
    return rows


def results_csv_rows(rounds: Sequence[Mapping[str, Any]]) -> Rows:
    """Every seat of every table, round by round."""
    rows: Rows = [["round", "table", "kind", "position", "player", "match_seat", "place", "points", "game_points",
                   "forfeited", "match_id", "match_status"]]
    for rnd in rounds:
        for t in rnd["tables"]:
            for i, s in enumerate(t["seats"]):
                rows.append([rnd["number"], t["number"], t["kind"], i, s["name"],
                             "" if s["match_seat"] is None else s["match_seat"],
                             "" if s["place"] is None else s["place"], s["points_exact"] or s["points"],
                             "" if s["game_points"] is None else s["game_points"], int(s["forfeited"]),
                             t["match_id"] or "", t["match_status"] or ""])
    return rows


def merged_csv_rows(tables: Sequence[tuple[str, Rows]]) -> Rows:
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
    return [list(header)] + [[record.get(column, "") for column in header] for record in records]


def text_table(rows: Sequence[Sequence[Any]]) -> str:
    """Rows as a fixed-width text table (for management commands)."""
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
