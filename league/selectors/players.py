"""Ratings and players: a game's ratings list, a player's ratings with their history and chart, and a
player's latest tables."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from games.kits import GAME_LABELS
from games.models import Match
from league.models import PlayerProfile, Rating, RatingHistory, Table, TableSeat
from league.rules.charts import rating_chart
from league.rules.tiebreaks import num, number_cell
from league.selectors.rounds import match_link


def shown_rating(ordinal: float) -> Decimal:
    """A rating as the lists show it: to one decimal, halves up (4.15 reads 4.2)."""
    return Decimal(repr(ordinal)).quantize(Decimal("0.1"), ROUND_HALF_UP)


def ranked_ratings(rows: list[Rating], limit: int | None = None) -> list[dict]:
    """Ratings best first, with positions. A position is shared only by ratings that read the same as the
    list shows them (to one decimal: 4.12 and 4.05 both read 4.1 and share; 4.15 reads 4.2 and does not):
    what the reader sees as equal. ``rating``, ``mu`` and ``sigma`` are exact; ``shown`` is the value read."""
    ranked = sorted(rows, key=lambda r: (-shown_rating(r.ordinal), -r.ordinal, r.player.name))[:limit]
    out, position, last = [], 0, None
    for i, r in enumerate(ranked, start=1):
        shown = shown_rating(r.ordinal)
        if shown != last:
            position, last = i, shown
        out.append({"position": position, "player_id": r.player_id, "name": r.player.name,
                    "is_bot": r.player.shows_as_bot, "rating": r.ordinal, "shown": format(shown, "f"), "mu": r.mu,
                    "sigma": r.sigma, "matches": r.matches})
    return out


def ratings_for_game(game: str, limit: int = 100) -> list[dict]:
    """The ratings list, best first (``ranked_ratings``: positions shared by ratings that read the same)."""
    return ranked_ratings(list(Rating.objects.filter(game=game).select_related("player")), limit)


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
                    "rating": round(rating.ordinal, 2), "shown": format(shown_rating(rating.ordinal), "f"),
                    "mu": round(rating.mu, 2), "sigma": round(rating.sigma, 2), "matches": rating.matches,
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
