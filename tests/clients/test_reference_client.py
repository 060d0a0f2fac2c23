"""The reference client (``clients/python/cardleague_client.py``) end to end: two outside bot accounts,
each run by the client in its own process with the project's greedy policy, play a small round-robin
tournament with two server bots on a live server (uvicorn, the streams on Redis) — taking their seats
from the account stream, playing each match from its seat's stream — and exit once they have played
their three matches; every match ends and verifies, on the server and from the records the clients
saved."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache

from engine.verify import verify_record
from games.models import Event, Match, Seat
from games.records import match_verify
from games.services import stalled_bots_wake
from league import services
from league.models import Table, Tournament
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "python" / "cardleague_client.py"
MATCHES_EACH = 3  # a round robin of four: three rounds, one match a round for each entrant
WITHIN = 150.0  # seconds for the whole tournament


def start_client(url: str, key: str, folder: Path) -> subprocess.Popen:
    folder.mkdir()
    with open(folder / "client.log", "w") as log:  # the child keeps its own copy of the file
        # the token goes in the environment, as the client's docstring advises (not in ``ps``)
        return subprocess.Popen([sys.executable, str(CLIENT), "--url", url,
                                 "--policy", "engine:greedy", "--matches", str(MATCHES_EACH),
                                 "--records", str(folder / "records"), "--seed", "test"],
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                env={**os.environ, "CARDLEAGUE_TOKEN": key})


def logs(folders: list[Path]) -> str:
    return "\n".join(f"--- {f.name}\n" + "".join((f / "client.log").read_text().splitlines(True)[-40:])
                     for f in folders)


@pytest.fixture(autouse=True)
def _fresh_rate_counters():
    """The server counts API requests per account in the shared cache: start from zero."""
    cache.clear()


def test_two_reference_clients_play_a_round_robin_tournament_to_the_end(asgi_server, django_user_model, tmp_path):
    owner = django_user_model.objects.create_user(username="bot-owner", password="pw-owner-1234")
    accounts = [services.bot_account_create(owner=owner, name=f"ref-bot-{i}") for i in (1, 2)]
    club = services.club_create(name="Reference Client Club", slug="reference-client", organisers=[owner])
    league = services.league_create(club_id=club.pk, name="Short LIVOL", game="livol", options={"target": 30})
    tournament = services.tournament_create(league_id=league.pk, name="Reference client cup", format="round_robin",
                                            seats_per_table=2, seeding="entry", created_by=owner)
    for user, _key in accounts:
        services.entrant_add(tournament_id=tournament.pk, player_id=user.player_profile.pk)
    services.bots_add(tournament_id=tournament.pk, count=2, policy="greedy")

    folders = [tmp_path / user.username for user, _key in accounts]
    clients = [start_client(asgi_server, key, folder) for (_user, key), folder in zip(accounts, folders)]
    try:
        services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)
        # the tournament advances by itself (the last table of a round pairs and starts the next);
        # the test stands in for the beat: bots waiting out a person's call grace, and tables run
        # eagerly in a process that could not wait, are woken here
        def finished_after_a_sweep() -> bool:
            if Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED:
                return True
            assert all(c.poll() in (None, 0) for c in clients), "a client failed\n" + logs(folders)
            services.tournaments_sweep(stall_seconds=0)
            stalled_bots_wake(stall_seconds=0)
            return False

        wait_until(finished_after_a_sweep, within=WITHIN, every=1,
                   why=lambda: "the tournament did not finish in time\n" + logs(folders))
        codes = [c.wait(30) for c in clients]
    finally:
        for c in clients:
            if c.poll() is None:
                c.kill()
                c.wait()
    assert codes == [0, 0], logs(folders)

    # every table of the three rounds was played to the end, and its record verifies
    matches = list(Match.objects.filter(pk__in=Table.objects.filter(round__tournament=tournament)
                                        .values_list("match_id", flat=True)))
    assert len(matches) == 6
    for match in matches:
        assert match.status == Match.Status.FINISHED
        report = match_verify(match)
        assert report.ok, report.headline

    for (user, _key), folder in zip(accounts, folders):
        seats = list(Seat.objects.filter(user=user).select_related("match"))
        assert len(seats) == MATCHES_EACH and all(s.match.status == Match.Status.FINISHED for s in seats)
        for seat in seats:
            # the client made the seat's moves itself: no clock ran out, no stand-in bot took over
            assert Event.objects.filter(match=seat.match, seat=seat.index, move__isnull=False).exists()
            assert not Event.objects.filter(match=seat.match, type__in=["seat_timed_out", "bot_took_seat",
                                                                       "seat_resigned"]).exists()
            # the seat's randomness is the client's own, not the server's stand-in for it
            contributed = Event.objects.get(match=seat.match, type="entropy_contributed", payload__seat=seat.index)
            assert contributed.payload["by"] == "player"
        # the records it saved verify offline, with nothing but the engine
        records = sorted((folder / "records").glob("match-*.json"))
        assert [int(p.stem.split("-")[1]) for p in records] == sorted(s.match_id for s in seats)
        for path in records:
            assert verify_record(json.loads(path.read_text())).ok, path
        text = (folder / "client.log").read_text()
        assert f"connected as {user.username}" in text
        assert f"{MATCHES_EACH} matches ended of {MATCHES_EACH}" in text
        assert "Traceback" not in text, text
