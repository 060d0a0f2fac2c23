"""A tournament format is added in its own module: a ladder that lives only in ``tests/toy_format``, named in
``settings.TOURNAMENT_FORMATS``, runs a tournament of bots to the end through the services, the command line,
the admin's form and the pages, with nothing else in the tree naming it."""
from __future__ import annotations

from fractions import Fraction

from django.core.management import call_command
from django.test import override_settings

from league import services
from league.models import Round, Table, Tournament
from league.selectors import standings
from tests.league.conftest import make_tournament

LADDER = override_settings(TOURNAMENT_FORMATS=["tests.toy_format.ladder"])


@LADDER
def test_a_ladder_in_its_own_module_is_played_to_the_end(league, client):
    # given a ladder of five bots over three rounds
    tournament = make_tournament(league, format="ladder", players=5, rounds=3)
    assert ("ladder", "Ladder") in Tournament._meta.get_field("format").choices
    # when it is run to the end, in this process
    tournament = services.tournament_run(tournament_id=tournament.pk)
    # then it plays the format's rounds, each seating neighbours in the standings after the last
    assert tournament.status == Tournament.Status.FINISHED and tournament.rounds == 3
    assert Round.objects.filter(tournament=tournament).count() == 3
    for rnd in Round.objects.filter(tournament=tournament).order_by("number"):
        tables = list(rnd.tables.order_by("number"))
        assert [t.kind for t in tables] == [Table.Kind.MATCH, Table.Kind.MATCH, Table.Kind.BYE]
    # and the one left over scores the format's half bye
    byes = [seat.points for seat in
            Table.objects.get(round__tournament=tournament, round__number=1, kind=Table.Kind.BYE).seats.all()]
    assert byes == [Fraction(league.bye_points) / 2]
    table = standings.standings(tournament)
    assert len(table["rows"]) == 5 and not table["stages"]
    assert any("half a bye" in rule["text"] for rule in table["rules"])
    # and its page states its rules
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Every round, neighbours in the standings meet" in page and "1st against 2nd" in page


@LADDER
def test_a_ladder_is_offered_by_the_command_line_and_the_admin(league, admin_client, capsys):
    call_command("bot_tournament", "--game", "livol", "--format", "ladder", "--players", "3", "--rounds", "2",
                 "--sync", "--policy", "greedy")
    assert "Final standings" in capsys.readouterr().out
    assert Tournament.objects.get(format="ladder").status == Tournament.Status.FINISHED
    form = admin_client.get("/admin/league/tournament/add/").content.decode()
    assert '<option value="ladder">Ladder</option>' in form
