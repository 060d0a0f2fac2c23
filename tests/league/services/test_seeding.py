"""Tournaments that can be replayed from a seed: ``bot_tournament --seed``.

"Identical" means what a replay can promise: the same pairings, results and standings, and for every
table the same match events — type, seat, move and payload at every position, the commitment and
the secret. The ids (part of every event's hash), the times and so the hashes differ between runs.
"""
from __future__ import annotations

import hashlib
import hmac
import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from engine import registry
from engine.bots import bot_key, bot_move
from engine.verify import bots_key as record_bots_key
from engine.verify import verify_record
from games import store
from games.models import Event, Match, Seat
from games.records import match_verify
from games.services import SeatSpec, bots_advance, clocks_run, match_create
from league import services
from league.management.commands._common import standings_text
from league.management.commands.bot_tournament import run_to_end
from league.models import Table, Tournament
from league.services.errors import SeededWithPeople
from league.services.seeding import table_secret, tournament_seeded
from tests.league.conftest import FAST, make_tournament

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"
SWISS = ("bot_tournament", "--game", "livol", "--format", "swiss", "--players", "6", "--rounds", "3",
         "--option", "target=30")


def run(*args) -> Tournament:
    call_command(*args, stdout=io.StringIO())
    return Tournament.objects.order_by("-pk").first()


def played(tournament: Tournament) -> dict:
    """Every table by (round, table): who sat where, its match's commitment, result and events (by
    position: type, seat, move, payload — what a replay derives; not the ids, times or hashes)."""
    out = {}
    for table in (Table.objects.filter(round__tournament=tournament).select_related("round", "match")
                  .prefetch_related("seats__entrant__player").order_by("round__number", "number")):
        seats = [(s.position, s.entrant.player.name, s.match_seat, s.forfeited)
                 for s in sorted(table.seats.all(), key=lambda s: s.position)]
        match = table.match
        events = ([] if match is None else
                  list(Event.objects.filter(match=match).order_by("seq")
                       .values_list("seq", "type", "seat", "move", "payload")))
        out[(table.round.number, table.number)] = {
            "kind": table.kind, "seats": seats, "result": match.result if match else None,
            "commitment": match.seed_commitment if match else None, "events": events}
    return out


def commitments(tournament: Tournament) -> set[str]:
    return set(Match.objects.filter(league_table__round__tournament=tournament).values_list("seed_commitment",
                                                                                            flat=True))


def test_a_seeded_bot_tournament_run_twice_gives_identical_standings_results_and_records(db):
    # when the same seeded Swiss of six mixed bots (greedy and random) runs twice in one database
    first = run(*SWISS, "--seed", "demo-1", "--sync")
    second = run(*SWISS, "--seed", "demo-1", "--sync")
    # then both finished with the same standings, and every table has the same seats, result and events
    assert first.status == second.status == Tournament.Status.FINISHED
    assert standings_text(first) == standings_text(second)
    a, b = played(first), played(second)
    assert a.keys() == b.keys() and len(a) == 9
    for key in a:
        assert a[key] == b[key], key
    # and each match's secret is the seed's for its round and table, revealed at the end and verifiable
    for table in Table.objects.filter(round__tournament=second).select_related("round", "match"):
        assert table.match.seed == table_secret("demo-1", table.round.number, table.number)
        assert Event.objects.filter(match=table.match, type="seed_revealed").get().payload["seed"] == table.match.seed
        assert match_verify(table.match).ok


def test_a_different_seed_gives_a_different_tournament_and_no_seed_fresh_secrets(db):
    # when the same tournament runs with two seeds, and twice without one
    one, other = run(*SWISS, "--seed", "demo-1", "--sync"), run(*SWISS, "--seed", "demo-2", "--sync")
    fresh, again = run(*SWISS, "--sync"), run(*SWISS, "--sync")
    # then another seed gives other secrets and another tournament
    assert commitments(one).isdisjoint(commitments(other))
    a, b = played(one), played(other)
    assert any(a[k]["events"] != b[k]["events"] for k in a)
    assert standings_text(one) != standings_text(other) or any(a[k]["result"] != b[k]["result"] for k in a)
    # and without a seed every match draws a fresh secret, as before (no two runs share one)
    assert len(commitments(fresh) | commitments(again)) == len(commitments(fresh)) + len(commitments(again)) == 18
    seeded = {table_secret(seed, r, t) for seed in ("demo-1", "demo-2") for r in (1, 2, 3) for t in (1, 2, 3)}
    assert not {m.seed for m in Match.objects.filter(league_table__round__tournament__in=[fresh, again])} & seeded
    assert fresh.auto_advance and again.auto_advance


def test_a_seed_is_refused_for_a_tournament_a_person_entered(db, django_user_model, league):
    # given a tournament of bots that a person entered too
    tournament = make_tournament(league, players=3)
    person = services.player_for_user(user=django_user_model.objects.create_user(username="anna"))
    services.entrant_add(tournament_id=tournament.pk, player_id=person.pk)
    # when it is to run from a seed, then it is refused before anything is paired
    with pytest.raises(SeededWithPeople):
        run_to_end(tournament, sync=True, timeout=10, out=io.StringIO(), seed="demo-1")
    assert not tournament.round_set.exists()
    # and a person entered while a seeded run had begun is refused when their match would be created
    bots_only = make_tournament(league, players=4)
    with pytest.raises(SeededWithPeople), tournament_seeded(tournament_id=bots_only.pk, seed="demo-1"):
        services.entrant_add(tournament_id=bots_only.pk, player_id=person.pk)
        services.tournament_run(tournament_id=bots_only.pk)
    assert not Seat.objects.filter(match__league_table__round__tournament=bots_only, user__isnull=False).exists()


def test_the_secrets_and_the_bots_key_are_the_documented_hmacs():
    """What the README tells an auditor, computed here with nothing but hmac: a seeded table's secret
    is HMAC-SHA256(seed, "cardleague-tournament-v1\\nround:<r>\\ntable:<t>"), and a match's bots are
    keyed by HMAC-SHA256(secret, "cardleague-bots-v1")."""
    secret = hmac.new(b"demo-1", b"cardleague-tournament-v1\nround:2\ntable:3", hashlib.sha256).hexdigest()
    assert table_secret("demo-1", 2, 3) == secret and len(secret) == 64
    assert table_secret("demo-1", 3, 2) != secret and table_secret("demo-2", 2, 3) != secret
    assert bot_key(secret) == hmac.new(secret.encode(), b"cardleague-bots-v1", hashlib.sha256).hexdigest()


def test_the_command_refuses_an_empty_seed(db):
    with pytest.raises(CommandError):
        run(*SWISS, "--seed", "", "--sync")


# -- the bots' randomness: keyed by the secret, so that a replay plays alike -----------------------------

def _bots_play(seed: str) -> list:
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random"),
                                              SeatSpec(bot="random")], options=dict(FAST), seed=seed,
                         wake_bots=False)
    bots_advance(match_id=match.pk, budget=5000)
    return list(Event.objects.filter(match=match).order_by("seq").values_list("type", "seat", "move", "payload"))


def test_bots_with_the_same_secret_play_alike_in_two_matches(db):
    # when two matches of random bots have the same secret (their ids differ)
    first, second = _bots_play("same secret"), _bots_play("same secret")
    # then the bots make the same moves: their randomness is keyed by the secret, not the match's id
    assert first == second and first[-1][0] == "seed_revealed"
    assert first[0][3]["bots_keyed_by"] == "secret"
    # and another secret, other moves
    assert _bots_play("another secret") != first


def test_a_timed_out_seats_stand_in_move_is_keyed_by_the_secret_and_verifies(db, django_user_model, settings):
    # given two people at a match with a clock, a random bot standing in; the seat to act lets its deadline pass
    settings.CARDLEAGUE_STAND_IN_POLICY = "random"
    anna, janis = (django_user_model.objects.create_user(username=n) for n in ("anna", "janis"))
    match = match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(user=janis)], seed="late",
                         clock={"move_seconds": 60})
    state = store.load_state(match)
    turn = registry.get("livol").view(state, None)["turn"]
    position = match.last_seq
    Seat.objects.filter(match=match, index=turn).update(deadline=match.moved_at.replace(year=2000))
    # when the clocks run
    assert clocks_run() == 1
    # then the stand-in's move is the bot's with the key derived from the secret, and the record verifies
    timeout = Event.objects.get(match=match, type="seat_timed_out")
    after = Event.objects.get(match=match, seq=timeout.seq + 1)
    policy = timeout.payload["policy"]
    assert after.move == bot_move("livol", bot_key("late"), position, state, turn, policy)
    assert match_verify(match).ok


def test_an_old_record_keyed_by_its_match_id_still_verifies():
    # given a golden record made before the key changed: its opening has no "bots_keyed_by" and a
    # timed-out seat's stand-in move was derived with the match's id
    record = json.loads((RECORDS / "livol-people-timeout-resign.json").read_text(encoding="utf-8"))
    assert "bots_keyed_by" not in record["events"][0]["payload"]
    assert any(e["payload"].get("then") == "bot_move" for e in record["events"] if e["type"] == "seat_timed_out")
    # then the verifier keys its bots by the id, and the record verifies
    assert record_bots_key(record["events"], record["secret"], record["match"]) == record["match"]
    assert verify_record(record).ok


# -- through Celery ------------------------------------------------------------------------------------

@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_seeded_tournament_through_the_workers_is_the_one_run_in_this_process(real_celery):
    # when the same seeded tournament runs through Celery and in this process
    background = run(*SWISS, "--seed", "demo-1", "--timeout", "240")
    here = run(*SWISS, "--seed", "demo-1", "--sync")
    # then the workers played the very same tournament (this command started its rounds and made the matches)
    assert background.status == Tournament.Status.FINISHED and not background.auto_advance
    assert standings_text(background) == standings_text(here)
    assert played(background) == played(here)
