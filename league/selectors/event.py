"""The whole event as one document: its terms, entrants with their seeds and teams, stages, rounds with their
tables (seats, results, bracket position, stage or group) and standings. ``GET /api/tournaments/{id}`` serves it
and ``manage.py tournament_show --json`` prints it; both read it here, once.

Results only: places, points, game points, forfeits and the match's id and status. Nothing of a match's cards
(hands, decks, the secret) is in it; a match's own page and replay say what may be seen of it.
"""
from __future__ import annotations

from typing import Any

from django.urls import reverse

from league.models import Round, Table, Tournament
from league.rules.tiebreaks import exact_text
from league.selectors.live import match_score, team_standings
from league.selectors.rounds import tournament_bracket, tournament_rounds, withdrawals
from league.selectors.standings import standings
from league.selectors.tournaments import tournament_summary


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def event_terms(tournament: Tournament) -> dict[str, Any]:
    """What the event plays and how it scores: the game, the format and its settings, the seats, the rounds,
    the clock, the seeding, the schedule and the league's scoring (exact numbers as text)."""
    league = tournament.league
    return {
        "game": tournament.game, "format": tournament.format, "format_label": str(tournament.get_format_display()),
        "format_options": dict(tournament.format_options or {}), "options": dict(tournament.options or {}),
        "seats_per_table": tournament.seats_per_table, "rounds": tournament.rounds,
        "clock": tournament.clock or None, "timeout_rule": tournament.timeout_rule if tournament.clock else None,
        "seeding": tournament.seeding, "seeded_from": tournament.seeded_from_id,
        "starts_on": _iso(tournament.starts_on), "starts_at": _iso(tournament.starts_at),
        "days_between_rounds": tournament.days_between_rounds, "time_zone": league.club.time_zone,
        "scoring": {
            "win": exact_text(league.win_points), "draw": exact_text(league.draw_points),
            "loss": exact_text(league.loss_points),
            "place_points": [exact_text(p) for p in (league.place_points or [])],
            "bye_points": exact_text(tournament.format_rules.bye_points(league.bye_points)),
            "tie_breaks": list(league.tie_breaks), "forfeit_rule": league.forfeit_rule,
            "unplayed_rounds": league.unplayed_rounds,
        },
    }


def event_entrants(tournament: Tournament) -> list[dict[str, Any]]:
    """Every entrant in seed order: the seed, the team, whether and when they withdrew (0: before the start)."""
    withdrawn = withdrawals(tournament)
    entrants = tournament.entrants.select_related("player", "team").order_by("seed", "pk")
    return [{"id": e.pk, "player_id": e.player_id, "name": e.player.name, "is_bot": e.player.shows_as_bot,
             "seed": e.seed, "team": {"id": e.team_id, "name": e.team.name} if e.team else None,
             "checked_in": e.checked_in_at is not None, "withdrawn_in": withdrawn.get(e.pk)} for e in entrants]


def _bracket_slots(tournament: Tournament, rounds: list[dict]) -> dict[int, dict[str, Any]]:
    """Table id → its place in the bracket (column, slot, the slot it feeds, who went through)."""
    out: dict[int, dict[str, Any]] = {}
    for column in tournament_bracket(tournament, rounds):
        for slot in (s for group in column.get("groups", []) for s in group):
            if slot.get("table"):
                out[slot["table"]["id"]] = {"column": column.get("number"), "label": str(column.get("label", "")),
                                            "slot": slot.get("number"), "next": slot.get("next"),
                                            "winner": slot.get("winner")}
    return out


def event_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """Round by round, table by table: the seats in order with their results, the table's stage or group
    and, in a format with a bracket, its place in it."""
    rounds = tournament_rounds(tournament)
    slots = _bracket_slots(tournament, rounds)
    stored = {r.pk: r for r in Round.objects.filter(tournament=tournament)}
    table_stage = dict(Table.objects.filter(round__tournament=tournament).values_list("pk", "stage"))
    out = []
    for rnd in rounds:
        row = stored[rnd["id"]]
        tables = []
        for t in rnd["tables"]:
            tables.append({
                "number": t["number"], "kind": t["kind"], "decided": t["decided"],
                "stage": table_stage.get(t["id"]) or row.stage or "",
                "bracket": slots.get(t["id"]), "match_id": t["match_id"], "match_status": t["match_status"],
                "seats": [{"position": i, "entrant_id": s["entrant_id"], "player_id": s["player_id"],
                           "name": s["name"], "seed": s["seed"], "match_seat": s["match_seat"], "place": s["place"],
                           "points": s["points_exact"] or s["points"], "game_points": s["game_points"],
                           "forfeited": s["forfeited"]} for i, s in enumerate(t["seats"])],
            })
        out.append({"number": rnd["number"], "status": rnd["status"], "stage": row.stage or "",
                    "scheduled_on": _iso(rnd["scheduled_on"]), "starts_at": _iso(row.starts_at),
                    "started_at": _iso(rnd["started_at"]), "closed_at": _iso(rnd["closed_at"]),
                    "finished": rnd["finished"], "total": rnd["total"], "tables": tables})
    return out


def event_stages(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The event's stages (a group, the play-offs...) in the order they first appear, with their rounds;
    empty for a one-stage event."""
    seen: dict[str, list[int]] = {}
    for rnd in rounds:
        for name in [rnd["stage"], *(t["stage"] for t in rnd["tables"])]:
            if name and rnd["number"] not in seen.setdefault(name, []):
                seen[name].append(rnd["number"])
    return [{"name": name, "rounds": numbers} for name, numbers in seen.items()]


def event_standings(tournament: Tournament) -> dict[str, Any]:
    """The standings with exact tie-break values (the page shows them rounded to two decimals)."""
    table = standings(tournament)
    return {"order": table["order"],
            "columns": [{"key": c["key"], "label": c["label"], "help": c["help"]} for c in table["columns"]],
            "rows": [{"position": r["position"], "entrant_id": r["entrant_id"], "player_id": r["player_id"],
                      "name": r["name"], "is_bot": r["is_bot"], "seed": r["seed"],
                      "tie_breaks": dict(zip(table["order"], r["exact"])), "played": r["played"], "wins": r["wins"],
                      "draws": r["draws"], "losses": r["losses"], "byes": r["byes"], "forfeits": r["forfeits"],
                      "note": r["note"], "stage": r["stage"]} for r in table["rows"]]}


def event_document(tournament: Tournament) -> dict[str, Any]:
    """The whole event, JSON-ready: the summary (``tournament_summary``), ``terms``, ``entrant_list``,
    ``stages``, ``rounds_played`` and ``standings``."""
    rounds = event_rounds(tournament)
    summary = tournament_summary(tournament)
    return {**summary, "url": reverse("league_tournament", args=[tournament.pk]), "terms": event_terms(tournament),
            "entrant_list": event_entrants(tournament), "stages": event_stages(rounds), "rounds_played": rounds,
            "standings": event_standings(tournament), **event_teams(tournament)}


def event_teams(tournament: Tournament) -> dict[str, Any]:
    """The team table (exact points and tables won, as text) and, between two teams, the match score."""
    teams = team_standings(tournament)
    rows = [{"position": t["position"], "team_id": t["team_id"], "name": t["name"], "members": t["members"],
             "points": t["points_exact"], "tables_won": t["won"], "played": t["played"], "wins": t["wins"],
             "draws": t["draws"], "losses": t["losses"]} for t in teams]
    score = match_score(teams)
    return {"team_standings": rows,
            "match_score": None if score is None else {"a": score["a"], "b": score["b"], "a_won": score["a_won"],
                                                       "b_won": score["b_won"], "winner": score["winner"]}}
