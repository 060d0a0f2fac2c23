"""League pages: clubs, leagues, tournaments, players, ratings. Thin: fetch, call a selector, render."""
from __future__ import annotations

import csv

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from engine import registry
from games.models import GAME_LABELS
from league import selectors
from league.models import Club, League, PlayerProfile, Tournament


@require_GET
def index(request):
    return render(request, "league/index.html", {
        "clubs": selectors.clubs_index(),
        "running": [selectors.tournament_summary(t) for t in selectors.tournaments(status=Tournament.Status.RUNNING)],
        "recent": [selectors.tournament_summary(t)
                   for t in selectors.tournaments(status=Tournament.Status.FINISHED)[:10]],
        "games": [(g, GAME_LABELS.get(g, g)) for g in registry.names()],
    })


@require_GET
def club(request, slug: str):
    return render(request, "league/club.html", selectors.club_page(get_object_or_404(Club, slug=slug)))


@require_GET
def league(request, league_id: int):
    return render(request, "league/league.html", selectors.league_page(get_object_or_404(League, pk=league_id)))


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("league__club", "season"), pk=tournament_id)


@require_GET
def tournament(request, tournament_id: int):
    return render(request, "league/tournament.html", selectors.tournament_page(_tournament(tournament_id)))


@require_GET
def tournament_live(request, tournament_id: int):
    """The part of the tournament page that changes while it runs (polled by htmx)."""
    return render(request, "league/_tournament_live.html", selectors.tournament_page(_tournament(tournament_id)))


def csv_response(tournament: Tournament, rows, suffix: str) -> HttpResponse:
    """A CSV download named after the tournament (pages and admin exports)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(tournament.name) or "tournament"
    response["Content-Disposition"] = f'attachment; filename="{name}-{suffix}.csv"'
    csv.writer(response).writerows(rows)
    return response


@require_GET
def standings_csv(request, tournament_id: int):
    t = _tournament(tournament_id)
    return csv_response(t, selectors.standings_csv_rows(t), "standings")


@require_GET
def results_csv(request, tournament_id: int):
    t = _tournament(tournament_id)
    return csv_response(t, selectors.results_csv_rows(t), "results")


@require_GET
def player(request, player_id: int):
    return render(request, "league/player.html", selectors.player_page(get_object_or_404(PlayerProfile, pk=player_id)))


@require_GET
def ratings(request, game: str):
    if game not in registry.names():
        raise Http404()
    return render(request, "league/ratings.html", {"game": game, "game_label": GAME_LABELS.get(game, game),
                                                   "ratings": selectors.ratings_for_game(game)})
