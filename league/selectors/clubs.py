"""Clubs and leagues: the clubs' index, a club's page (members, coming events, leaderboards per game, the
members' statistics), a club member's page (statistics and head-to-head against clubmates) and a league's
page."""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from django.db.models import Q

from games.kits import GAME_LABELS
from games.words.terms import clock_words, options_text
from league.models import Club, League, PlayerProfile, Rating, Table, TableSeat, Tournament
from league.rules.scoring import sides_of
from league.rules.tiebreaks import exact, number_cell
from league.selectors.players import ranked_ratings, ratings_for_game
from league.selectors.rounds import tournament_progress
from league.selectors.standings import standings
from league.selectors.tournaments import tournaments


def clubs_index() -> list[dict]:
    clubs = Club.objects.prefetch_related("leagues").order_by("name")
    return [{"club": c, "leagues": list(c.leagues.all())} for c in clubs]


def club_players(club: Club) -> list[PlayerProfile]:
    """The club's people (its members' player profiles and the players it lists as its own), by name."""
    return list(PlayerProfile.objects.filter(Q(user__clubs=club) | Q(club=club)).distinct().order_by("name"))


def club_events(club: Club) -> list[dict]:
    """The club's coming events: its tournaments taking entries or running, soonest first (a tournament
    without a start time last), each with its entries and whether it takes sign-ups."""
    found = (Tournament.objects.filter(league__club=club, status__in=[Tournament.Status.DRAFT,
                                                                     Tournament.Status.RUNNING])
             .select_related("league").order_by("starts_at", "starts_on", "pk"))
    out = []
    for t in found:
        out.append({"tournament": t, "status": t.status, "starts_at": t.starts_at, "starts_on": t.starts_on,
                    "entrants": t.entrants.count(), "capacity": t.capacity, "entries_open": t.entries_open,
                    "entries_close_at": t.entries_close_at, "running": t.status == Tournament.Status.RUNNING})
    return sorted(out, key=lambda e: (e["starts_at"] is None and e["starts_on"] is None, e["running"] is False))


def club_leaderboards(club: Club, people: list[PlayerProfile]) -> list[dict]:
    """Per game the club plays (its leagues' games), its people's ratings: the rating (mu - 3 sigma) with
    its uncertainty (sigma) and the rated matches, positions shared as on the ratings list."""
    games = sorted({g for g in club.leagues.values_list("game", flat=True)})
    out = []
    for game in games:
        rows = list(Rating.objects.filter(game=game, player__in=people).select_related("player"))
        out.append({"game": game, "game_label": GAME_LABELS.get(game, game), "ratings": ranked_ratings(rows)})
    return out


def _club_seats(club: Club, people: list[PlayerProfile]):
    return (TableSeat.objects.filter(entrant__player__in=people, table__round__tournament__league__club=club)
            .select_related("table", "entrant"))


def club_statistics(club: Club, people: list[PlayerProfile]) -> list[dict]:
    """Each of the club's people in the club's tournaments: matches played (a table with a match, a place
    and no forfeit), first places (alone or shared), and the average points of a round (over every round
    they were seated in, byes and forfeits included, exact), most matches first."""
    matches: dict[int, int] = defaultdict(int)
    firsts: dict[int, int] = defaultdict(int)
    points: dict[int, list[Fraction]] = defaultdict(list)
    for s in _club_seats(club, people):
        player = s.entrant.player_id
        points[player].append(exact(s.points or 0))
        if s.table.kind == Table.Kind.MATCH and s.place is not None and not s.forfeited:
            matches[player] += 1
            firsts[player] += s.place == 1
    out = []
    for p in people:
        rounds = points.get(p.pk, [])
        average = sum(rounds, Fraction(0)) / len(rounds) if rounds else None
        out.append({"player": p, "player_id": p.pk, "name": p.name, "matches": matches[p.pk],
                    "first_places": firsts[p.pk], "rounds": len(rounds),
                    "average": number_cell(average) if average is not None else None})
    return sorted(out, key=lambda r: (-r["matches"], r["name"]))


def head_to_head(club: Club, player: PlayerProfile, people: list[PlayerProfile]) -> list[dict]:
    """``player`` against each clubmate they met at a table of the club's tournaments: meetings, and how
    many times they finished above (won), level with (drew) or below (lost) that clubmate; a forfeited
    seat counts below everyone who played. Partners at one table are one side and no opponents."""
    mates = {p.pk: p for p in people if p.pk != player.pk}
    mine = {s.table_id: s for s in _club_seats(club, [player]).filter(table__kind=Table.Kind.MATCH)}
    record: dict[int, dict[str, int]] = defaultdict(lambda: {"met": 0, "won": 0, "drew": 0, "lost": 0})
    others = TableSeat.objects.filter(table_id__in=list(mine), entrant__player_id__in=list(mates)).select_related(
        "entrant", "table__round__tournament")
    for other in others:
        me = mine[other.table_id]
        if me.place is None and not me.forfeited and other.place is None and not other.forfeited:
            continue    # not decided yet
        if _partners(me, other):
            continue
        r = record[other.entrant.player_id]
        r["met"] += 1
        mine_place = None if me.forfeited else me.place
        their_place = None if other.forfeited else other.place
        if mine_place == their_place:
            r["drew"] += 1
        elif their_place is None or (mine_place is not None and mine_place < their_place):
            r["won"] += 1
        else:
            r["lost"] += 1
    return sorted(({"player_id": pk, "name": mates[pk].name, **r} for pk, r in record.items()),
                  key=lambda r: (-r["met"], r["name"]))


def _partners(a: TableSeat, b: TableSeat) -> bool:
    """Whether two seats at one table are partners (one side: the game's partnerships at that table)."""
    table = a.table
    seats = table.seats.count()
    sides = sides_of(table.round.tournament.game, seats)
    if len(set(sides)) == seats or a.match_seat is None or b.match_seat is None:
        return False
    return sides[a.match_seat] == sides[b.match_seat]


def club_page(club: Club) -> dict:
    """The club's page: its leagues, organisers, members, coming events, a leaderboard per game and each
    member's statistics."""
    people = club_players(club)
    return {"club": club, "leagues": list(club.leagues.all()),
            "organisers": list(club.organisers.all()), "members": club.members.count(), "people": people,
            "events": club_events(club), "leaderboards": club_leaderboards(club, people),
            "statistics": club_statistics(club, people)}


def club_member_page(club: Club, player: PlayerProfile) -> dict:
    """A club member's page at the club: their statistics in its tournaments, their ratings in its games
    and their head-to-head against each clubmate."""
    people = club_players(club)
    stats = next((r for r in club_statistics(club, [player])), None)
    return {"club": club, "player": player, "statistics": stats, "head_to_head": head_to_head(club, player, people),
            "member": any(p.pk == player.pk for p in people)}


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
