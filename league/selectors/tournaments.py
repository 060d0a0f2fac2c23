"""Tournaments: the lists of them, one's summary (the index, the API) and the public tournament page."""
from __future__ import annotations

from league.models import League, Tournament
from league.selectors.groups import group_standings, tournament_brackets
from league.selectors.live import live_sections
from league.selectors.rounds import (
    bracket_champion,
    pairing_rules,
    round_waiting,
    tournament_bracket,
    tournament_fixtures,
    tournament_progress,
    tournament_rounds,
    tournament_terms,
)
from league.selectors.standings import standings


def tournament_page(tournament: Tournament, user=None) -> dict:
    """The public tournament page, as ``user`` reads it (the links to the matches are theirs)."""
    rounds = tournament_rounds(tournament, user)
    bracket = tournament_bracket(tournament, rounds)
    return {
        "tournament": tournament, "league": tournament.league, "club": tournament.league.club,
        "progress": tournament_progress(tournament), "standings": standings(tournament), "rounds": rounds,
        "bracket": bracket, "champion": bracket_champion(bracket), "fixtures": tournament_fixtures(tournament),
        "groups": group_standings(tournament), "brackets": tournament_brackets(tournament, rounds),
        "entrants": list(tournament.entrants.select_related("player").order_by("seed", "pk")),
        "terms": tournament_terms(tournament), "waiting": round_waiting(tournament),
        "format_description": tournament.format_rules.description, "pairing_rules": pairing_rules(tournament),
        **live_sections(tournament, user),
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
