"""Clubs and leagues: the clubs' index, a club's page and a league's page."""
from __future__ import annotations

from games.words.terms import clock_words, options_text
from league.models import Club, League, Tournament
from league.selectors.players import ratings_for_game
from league.selectors.rounds import tournament_progress
from league.selectors.standings import standings
from league.selectors.tournaments import tournaments


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
