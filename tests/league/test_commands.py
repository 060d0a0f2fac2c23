"""Management commands: ``bot_tournament --sync`` end to end, the twins of the admin actions, and
``bot_ladder`` (engine only: no database)."""
import csv
import io
import re

import pytest
from django.core.management import CommandError, call_command

from league.models import Rating, Round, Tournament


def run(*args, **kwargs) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, **kwargs)
    return out.getvalue()


@pytest.mark.parametrize("fmt, players, extra, rounds", [
    ("swiss", 4, ["--rounds", "2"], 2),
    ("knockout", 5, [], 3),
    ("round_robin", 4, ["--seats", "3"], None),
])
def test_bot_tournament_sync_runs_to_the_end_and_prints_the_final_standings(db, fmt, players, extra, rounds):
    # when
    out = run("bot_tournament", "--game", "livol", "--format", fmt, "--players", str(players), "--sync",
              "--policy", "greedy", "--option", "target=30", *extra)
    # then the tournament finished and its standings table was printed, one line per bot
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED
    if rounds:
        assert tournament.rounds == rounds
    assert tournament.options == {"target": 30}
    table = out.split("Final standings")[1].splitlines()[1:]
    assert table[0].split()[:2] == ["#", "player"]
    assert len([line for line in table[1:] if line.strip()]) == players
    assert sum(r.matches for r in Rating.objects.all()) > 0


def _id(out: str, noun: str) -> str:
    return re.search(rf"{noun} (\d+)", out).group(1)


def test_the_admin_actions_have_command_twins(db, django_user_model, django_capture_on_commit_callbacks, tmp_path):
    django_user_model.objects.create_user(username="organiser")
    assert "riga" in run("club_create", "--name", "Riga", "--slug", "riga", "--organiser", "organiser")
    league = _id(run("league_create", "--club", "riga", "--name", "LIVOL", "--game", "livol",
                     "--options", '{"target": 30}', "--tie-breaks", "match_points,buchholz,wins"), "league")
    season = _id(run("season_create", "--league", league, "--name", "Autumn", "--starts", "2025-09-02"), "season")
    t = _id(run("tournament_create", "--league", league, "--name", "Cup", "--format", "swiss", "--rounds", "2",
                "--season", season, "--manual", "--seeding", "entry"), "tournament")
    assert "4 entrants" in run("entrant_add", "--tournament", t, "--bots", "4", "--policy", "greedy")
    assert "round 1 paired" in run("round_pair", "--tournament", t)
    with django_capture_on_commit_callbacks(execute=True):
        run("round_start", "--tournament", t)
    assert "round 2 of 2 (paired)" in run("tournament_show", "--tournament", t)
    assert "Greedy bot 01 withdrawn" in run("entrant_withdraw", "--tournament", t, "--player", "Greedy bot 01")
    with django_capture_on_commit_callbacks(execute=True):
        run("round_start", "--tournament", t)
    show = run("tournament_show", "--tournament", t)
    assert "finished" in show and "withdrew in round 2" in show
    run("standings_export", "--tournament", t, "--output", str(tmp_path / "s.csv"))
    rows = list(csv.reader(open(tmp_path / "s.csv")))
    assert rows[0][:5] == ["position", "player", "match_points", "buchholz", "wins"] and len(rows) == 5
    results = list(csv.reader(io.StringIO(run("results_export", "--tournament", t))))
    assert len(results) == 1 + 8
    assert "0 tables recorded" in run("tournament_sweep", "--tournament", t)
    assert "standings: 4 tables folded" in run("projections_rebuild")
    with pytest.raises(CommandError, match="tournament_finished"):
        run("round_pair", "--tournament", t)
    assert Round.objects.filter(status=Round.Status.CLOSED).count() == 2


def test_tournament_run_sync_finishes_a_tournament_created_by_the_twins(db):
    run("club_create", "--name", "C", "--slug", "c")
    league = _id(run("league_create", "--club", "c", "--name", "L", "--game", "livol", "--options",
                     '{"target": 30}'), "league")
    t = _id(run("tournament_create", "--league", league, "--name", "RR", "--format", "round_robin", "--seats", "3"),
            "tournament")
    run("entrant_add", "--tournament", t, "--bots", "3", "--policy", "greedy")
    out = run("tournament_run", "--tournament", t, "--sync")
    assert Tournament.objects.get().status == Tournament.Status.FINISHED
    assert "round 3 closed" in out


def test_bot_ladder_prints_each_level_against_the_one_below():
    # when (no database: the ladder is the engine's alone)
    out = run("bot_ladder", "--game", "livol", "--matches", "2", "--levels", "random,greedy", "--seed", "cmd",
              "--seats", "3", "--option", "target=100")
    # then the table has its header and one row: greedy against random, 2 matches, one first place each
    header, rule, row, *rest = out.splitlines()
    assert header.split() == ["game", "level", "opponent", "matches", "first", "share", "95%", "CI", "ms/move",
                              "opp", "ms/move", "max", "ms"]
    assert set(rule) == {"-"}
    assert row.split()[:4] == ["livol", "greedy", "random", "2"]
    assert 0 <= float(row.split()[4]) <= 2
    assert not [line for line in rest if line.strip()]


@pytest.mark.parametrize("args, message", [
    (["--game", "chess"], "invalid choice: 'chess'"),
    (["--game", "livol", "--levels", "random,genius"], "unknown level"),
    (["--game", "livol", "--levels", "greedy"], "at least two levels"),
    (["--game", "livol", "--seats", "9"], "livol seats 2 to 6"),
    (["--game", "livol", "--option", "speed=3"], "unknown option"),
])
def test_bot_ladder_refuses_an_unknown_game_level_seat_count_or_option(args, message):
    with pytest.raises(CommandError, match=message):
        run("bot_ladder", "--matches", "1", *args)
