"""League fixtures: a LIVOL club league with short matches, and bot tournaments."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from league import services
from league.models import League, Tournament

# Short LIVOL matches keep the suite quick (a greedy two-seat match is ~150 events).
FAST = {"target": 30}


@pytest.fixture
def club(db):
    return services.club_create(name="Riga Card Club", slug="riga")


@pytest.fixture
def league(club):
    return services.league_create(club_id=club.pk, name="LIVOL league", game="livol", options=dict(FAST))


@pytest.fixture
def organiser(django_user_model, client):
    user = django_user_model.objects.create_superuser(username="organiser", password="pw", email="o@example.org")
    client.force_login(user)
    return user


def inline_forms(prefix: str, rows: list[dict]) -> dict:
    """What the admin's inline formset ``prefix`` posts with new ``rows`` (its management form and fields)."""
    data = {f"{prefix}-TOTAL_FORMS": str(len(rows)), f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"}
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-{k}": v for k, v in row.items()})
    return data


def make_tournament(league: League, *, format: str = "swiss", players: int = 4, seats: int = 2,
                    rounds: int | None = None, policy: str = "greedy", **kwargs) -> Tournament:
    tournament = services.tournament_create(league_id=league.pk, name=f"{format} {players}", format=format,
                                            seats_per_table=seats, rounds=rounds,
                                            seeding=Tournament.Seeding.ENTRY, **kwargs)
    services.bots_add(tournament_id=tournament.pk, count=players, policy=policy)
    return tournament


def expected_points(table_seats, result, league: League, seats_per_table: int) -> dict:
    """Points per entrant from a match result, computed independently of the services."""
    by_seat = {s.match_seat: s.entrant_id for s in table_seats}
    n = len(by_seat)
    if n == 2 and (seats_per_table == 2 or not league.place_points):
        if len(result["ranking"]) == 1:
            return {e: league.draw_points for e in by_seat.values()}
        (winner,), (loser,) = result["ranking"]
        return {by_seat[winner]: league.win_points, by_seat[loser]: league.loss_points}
    # n places: first the win points, last the loss points, evenly between; ties share exactly
    win, loss = Fraction(league.win_points), Fraction(league.loss_points)
    out, place = {}, 0
    for group in result["ranking"]:
        share = sum(loss + (win - loss) * Fraction(n - 1 - p, n - 1)
                    for p in range(place, place + len(group))) / len(group)
        exact_decimal = Decimal(share.numerator) / Decimal(share.denominator)
        assert Fraction(exact_decimal) == share   # the default places' shares are finite decimals
        for seat in group:
            out[by_seat[seat]] = exact_decimal
        place += len(group)
    return out
