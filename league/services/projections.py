"""Projections folded from decided tables: standings and openskill ratings, each once (``Folded``).

Partners (``scoring.sides_of``: Karuselis with four seats) are one side: they share their side's
place and points in the standings, and openskill rates them as one team."""
from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from engine import registry
from games.models import Match
from league.models import Folded, Rating, RatingHistory, Round, Standing, Table, TableSeat, Tournament
from league.rules.scoring import Rules, SeatIn, sides_of, table_scores
from league.selectors.rounds import format_setup


def _min_seats(tournament: Tournament) -> int:
    return max(2, registry.get(tournament.game).MIN_SEATS)


def _needs_match(table: Table, seats: Sequence[TableSeat] | None = None) -> bool:
    if table.kind != Table.Kind.MATCH:
        return False
    seats = seats if seats is not None else list(table.seats.all())
    players = sum(1 for s in seats if not s.forfeited)
    return players >= _min_seats(table.round.tournament)


def _decided(table: Table, seats: Sequence[TableSeat]) -> bool:
    if table.kind == Table.Kind.BYE:
        return True
    if table.match_id:
        return table.match.has_ended
    return not _needs_match(table, seats)


@transaction.atomic
def standings_apply(*, table_id: int) -> bool:
    """Fold one decided table into the standings, once (remembered in ``Folded``)."""
    table = (Table.objects.select_for_update(of=("self",)).select_related("round__tournament__league", "match")
             .get(pk=table_id))
    if Folded.objects.filter(projection=Folded.Projection.STANDINGS, table=table).exists():
        return False
    seats = list(table.seats.order_by("position"))
    if not _decided(table, seats):
        return False
    tournament = table.round.tournament
    result = table.match.result if table.match_id and table.match.status == Match.Status.FINISHED else None
    in_match = sum(1 for s in seats if s.match_seat is not None)
    sides = sides_of(tournament.game, in_match) if in_match else ()
    scores = table_scores(kind=table.kind, rules=Rules.of(tournament), result=result, seats=[
        SeatIn(s.entrant_id, s.match_seat, s.forfeited,
               sides[s.match_seat] if s.match_seat is not None and s.match_seat < len(sides) else None)
        for s in seats])
    fmt = tournament.format_rules
    # a format that scores streaks (an arena): each result by the player's wins in a row before it
    setup = format_setup(tournament) if fmt.streaks else None
    for seat, score in zip(seats, scores):
        points = score.points
        if setup is not None:
            points = fmt.streak_points(setup, _wins_in_a_row(seat), points)
        seat.place, seat.points, seat.game_points = score.place, points, score.game_points
        seat.save(update_fields=["place", "points", "game_points"])
        standing, _created = (Standing.objects.select_for_update(of=("self",))
                              .get_or_create(tournament=tournament, entrant_id=score.entrant_id))
        # points are exact fractions (text in the database): added here, under the row's lock
        standing.points = standing.points + points
        standing.save(update_fields=["points"])
        Standing.objects.filter(pk=standing.pk).update(
            game_points=F("game_points") + (score.game_points or 0),
            played=F("played") + (1 if score.result else 0),
            wins=F("wins") + (1 if score.result == "win" else 0),
            draws=F("draws") + (1 if score.result == "draw" else 0),
            losses=F("losses") + (1 if score.result == "loss" else 0),
            byes=F("byes") + (1 if score.bye else 0),
            forfeits=F("forfeits") + (1 if score.forfeited else 0))
    Folded.objects.create(projection=Folded.Projection.STANDINGS, table=table)
    return True


def _won(table_id: int, game: str) -> bool | None:
    """How a recorded table went for its winner's side: the seats alone (or partners together) in first place
    won; None when nobody is first."""
    seats = list(TableSeat.objects.filter(table_id=table_id, place=1).values_list("match_seat", flat=True))
    if not seats:
        return None
    in_match = TableSeat.objects.filter(table_id=table_id, match_seat__isnull=False).count()
    sides = sides_of(game, in_match) if in_match else ()
    return len({sides[s] if s is not None and s < len(sides) else ("alone", s) for s in seats}) == 1


def _wins_in_a_row(seat: TableSeat) -> int:
    """The wins in a row the seat's player had just before this table: their recorded tables of the
    tournament, latest first (a player sits at one table at a time, so table numbers give the order)."""
    tournament = seat.table.round.tournament
    earlier = (TableSeat.objects.filter(entrant_id=seat.entrant_id, table__folds__projection=Folded.Projection.STANDINGS)
               .exclude(table_id=seat.table_id).order_by("-table__round__number", "-table__number")
               .values_list("table_id", "place"))
    count = 0
    for table_id, place in earlier:
        if place != 1 or not _won(table_id, tournament.game):
            break
        count += 1
    return count


def _openskill():
    from openskill.models import PlackettLuce

    return PlackettLuce()


@transaction.atomic
def rating_apply(*, table_id: int) -> bool:
    """Fold a finished rated match into the players' openskill ratings for its game, once."""
    table = (Table.objects.select_for_update(of=("self",)).select_related("round__tournament__league", "match")
             .get(pk=table_id))
    match = table.match
    if match is None or match.status != Match.Status.FINISHED or not table.round.tournament.league.rated:
        return False
    if Folded.objects.filter(projection=Folded.Projection.RATINGS, table=table).exists():
        return False
    seat_player = dict(table.seats.filter(match_seat__isnull=False)
                       .values_list("match_seat", "entrant__player_id"))
    rank_of = {seat: i + 1 for i, group in enumerate(match.result["ranking"]) for seat in group}
    order = sorted(seat_player)
    # partners are one team (openskill's teams), every other seat a team of one
    side = sides_of(match.game, len(rank_of))
    teams: dict[int, list[int]] = {}
    for seat in order:
        teams.setdefault(side[seat] if seat < len(side) else -1 - seat, []).append(seat)
    model = _openskill()
    current = {r.player_id: r for r in Rating.objects.select_for_update(of=("self",))
               .filter(game=match.game, player_id__in=seat_player.values())}
    before = {}
    for seat in order:
        r = current.get(seat_player[seat])
        before[seat] = model.rating(mu=r.mu, sigma=r.sigma) if r else model.rating()
    team_seats = list(teams.values())
    after = model.rate([[before[s] for s in team] for team in team_seats],
                       ranks=[rank_of[team[0]] for team in team_seats])
    for team, new_team in zip(team_seats, after):
        for seat, new in zip(team, new_team):
            old = before[seat]
            player_id = seat_player[seat]
            rating = current.get(player_id) or Rating(player_id=player_id, game=match.game)
            rating.mu, rating.sigma, rating.matches = new.mu, new.sigma, (rating.matches or 0) + 1
            rating.save()
            RatingHistory.objects.create(player_id=player_id, game=match.game, table=table, match=match,
                                         mu=new.mu, sigma=new.sigma, mu_before=old.mu, sigma_before=old.sigma,
                                         played_at=match.finished_at or timezone.now())
    Folded.objects.create(projection=Folded.Projection.RATINGS, table=table)
    return True


@transaction.atomic
def projections_rebuild() -> dict:
    """Forget the standings and ratings and fold every decided table again from the
    match results: standings per tournament, ratings in the order matches finished."""
    Folded.objects.all().delete()
    RatingHistory.objects.all().delete()
    Rating.objects.all().delete()
    Standing.objects.all().update(points=0, game_points=0, played=0, wins=0, draws=0, losses=0, byes=0, forfeits=0)
    TableSeat.objects.all().update(place=None, points=None, game_points=None)
    tables = list(Table.objects.filter(round__status__in=[Round.Status.RUNNING, Round.Status.CLOSED])
                  .order_by("round__tournament_id", "round__number", "number").values_list("pk", flat=True))
    standings = sum(1 for pk in tables if standings_apply(table_id=pk))
    rated = (Table.objects.filter(pk__in=tables, match__status=Match.Status.FINISHED)
             .order_by("match__finished_at", "match_id").values_list("pk", flat=True))
    ratings = sum(1 for pk in rated if rating_apply(table_id=pk))
    return {"standings": standings, "ratings": ratings}
