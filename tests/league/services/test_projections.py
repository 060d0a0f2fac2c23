"""Standings and ratings are projections: rebuilt from scratch they equal what was folded incrementally."""
from django.core.management import call_command

from league import services
from league.models import Entrant, Folded, Rating, RatingHistory, Standing, TableSeat, Tournament
from league.selectors import standings
from tests.league.conftest import make_tournament


def snapshot(tournaments):
    return {
        "standings": sorted(Standing.objects.values_list("entrant_id", "points", "game_points", "played", "wins",
                                                         "draws", "losses", "byes", "forfeits")),
        "seats": sorted(TableSeat.objects.values_list("pk", "place", "points", "game_points")),
        "ratings": sorted(Rating.objects.values_list("player_id", "game", "mu", "sigma", "matches")),
        "history": sorted(RatingHistory.objects.values_list("player_id", "match_id", "mu", "sigma", "mu_before",
                                                            "sigma_before")),
        "folded": sorted(Folded.objects.values_list("projection", "table_id")),
        "tables": [standings.standings(t)["rows"] for t in tournaments],
    }


def test_rebuilding_the_projections_gives_what_the_incremental_folds_gave(league):
    # given a Swiss with a withdrawal, a knockout and a multi-seat round robin, folded as they ran
    swiss = make_tournament(league, format="swiss", players=5, rounds=3, auto_advance=False)
    services.round_pair(tournament_id=swiss.pk)
    services.round_start(round_id=swiss.round_set.get().pk)
    for table in swiss.round_set.get().tables.all():
        services.table_run(table_id=table.pk)
    services.entrant_withdraw(entrant_id=Entrant.objects.get(tournament=swiss, seed=2).pk)
    services.tournament_run(tournament_id=swiss.pk)
    knockout = services.tournament_run(tournament_id=make_tournament(league, format="knockout", players=4).pk)
    table = services.tournament_run(tournament_id=make_tournament(league, format="round_robin", players=4,
                                                                  seats=4).pk)
    tournaments = [Tournament.objects.get(pk=t.pk) for t in (swiss, knockout, table)]
    assert all(t.status == Tournament.Status.FINISHED for t in tournaments)
    incremental = snapshot(tournaments)
    assert incremental["history"] and incremental["standings"]
    # when everything is rebuilt from nothing (the management command)
    call_command("projections_rebuild", stdout=open("/dev/null", "w"))
    # then it is the same, value for value
    assert snapshot(tournaments) == incremental
    # and rebuilding again changes nothing either
    services.projections_rebuild()
    assert snapshot(tournaments) == incremental
