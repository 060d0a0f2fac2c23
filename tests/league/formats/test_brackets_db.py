"""Groups then play-offs and double elimination with the database: run from the admin, and through the
services with a bracket reset."""
from __future__ import annotations

from league import services
from league.models import Round, Table, Tournament
from league.selectors import rounds as rounds_selectors
from league.selectors import standings
from league.selectors.groups import group_standings, tournament_brackets
from tests.league.conftest import make_tournament


def test_a_double_elimination_of_six_bots_runs_to_its_final(league):
    tournament = make_tournament(league, format="double_elimination", players=6)
    tournament = services.tournament_run(tournament_id=tournament.pk)
    assert tournament.status == Tournament.Status.FINISHED
    stages = list(Round.objects.filter(tournament=tournament).order_by("number").values_list("stage", flat=True))
    assert stages[0] == "winners" and stages[-1] == "final"
    assert set(Table.objects.filter(round__tournament=tournament).values_list("stage", flat=True)) == {"W", "L", "GF"}
    table = standings.standings(tournament)
    assert table["rows"][0]["stage"] == "Winner"
    brackets = tournament_brackets(tournament)
    assert [b["key"] for b in brackets] == ["W", "L", "GF"]
