"""Demo content beyond the people: a finished bot match, and a club with a league, a season,
a finished bot Swiss and a tournament taking entries (people and bots)."""
from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Match
from games.services import SeatSpec, bots_advance, match_create
from league import services
from league.models import Club, Tournament


def demo_extras() -> list[str]:
    notes = []
    if not Match.objects.filter(game="livol", seats__user__isnull=True).exists():
        match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random"),
                                                   SeatSpec(bot="greedy")], options={"target": 150})
        while bots_advance(match_id=match.pk, budget=2000)[1]:
            pass
        notes.append(f"  A finished bot match to replay: /matches/{match.pk}/replay/")
    notes += _demo_club()
    return notes


def _demo_club() -> list[str]:
    """Riga Card Club: organiser runs it; anna, janis and ruta are members."""
    if Club.objects.filter(slug="riga").exists():
        return []
    User = get_user_model()
    people = {u.username: u for u in User.objects.filter(username__in=["organiser", "anna", "janis", "ruta"])}
    club = services.club_create(name="Riga Card Club", slug="riga",
                                description="Tuesday evenings: LIVOL, Karuselis and whatever else is on the table.",
                                organisers=[p for n, p in people.items() if n == "organiser"],
                                members=list(people.values()))
    # a club league as a new organiser sets one up: 100-point matches, a day a move (so that nobody who
    # stays away holds up a round for more than that)
    league = services.league_create(club_id=club.pk, name="LIVOL Tuesday", game="livol", options={"target": 100},
                                    tie_breaks=["match_points", "head_to_head", "buchholz", "sonneborn_berger",
                                                "game_points", "wins"], clock={"move_days": 1})
    season = services.season_create(league_id=league.pk, name="Autumn", starts_on=date.today())
    swiss = services.tournament_create(league_id=league.pk, season_id=season.pk, name="Autumn bot Swiss",
                                       format="swiss", rounds=2, seeding=Tournament.Seeding.ENTRY)
    services.bots_add(tournament_id=swiss.pk, count=4, policy="greedy")
    services.tournament_run(tournament_id=swiss.pk)
    open_night = services.tournament_create(league_id=league.pk, season_id=season.pk,
                                            name="Club night (people and bots)", format="swiss",
                                            rounds=3)
    for name in ("anna", "janis", "ruta"):
        if name in people:
            services.entrant_add(tournament_id=open_night.pk,
                                 player_id=services.player_for_user(user=people[name]).pk)
    services.bots_add(tournament_id=open_night.pk, count=1, policy="greedy")
    # people sign up from its page until the day before, eight places then a waiting list, check-in at the door
    starts = timezone.now().replace(minute=0, second=0, microsecond=0) + timedelta(days=7)
    services.entry_terms_set(tournament_id=open_night.pk, entries_open=True, capacity=8, starts_at=starts,
                             entries_close_at=starts - timedelta(days=1), checkin_minutes=30)
    return [f"  A club with a league, a finished bot Swiss and standings: /leagues/{league.pk}/",
            f"  A tournament taking sign-ups (and check-in a week from now): /tournaments/{open_night.pk}/ ; "
            "pair its first round in the admin: "
            f"/admin/league/tournament/{open_night.pk}/change/"]
