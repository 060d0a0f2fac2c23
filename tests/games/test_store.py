"""The event store: append-only (refused by the database's triggers and grants), hash-chained over each
event's time too, seed committed then revealed, snapshots; and ``verify_match`` naming the first bad event."""
import hashlib
import json

import pytest
from django.db import DatabaseError, connection, transaction

from engine import registry
from games import store
from games.errors import StaleSequence
from games.models import SEED_REVEALED, Event, Match, Snapshot
from games.records import match_verify
from games.services import SeatSpec, bots_advance, match_create, move_submit
from tests.conftest import need
from tests.games.conftest import first_actor


def test_match_create_records_the_deal_and_commits_to_the_seed(livol_match):
    # then the events are numbered from 1 and chained from the genesis hash
    events = list(Event.objects.filter(match=livol_match).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[0].prev_hash == store.GENESIS_HASH
    assert all(b.prev_hash == a.hash for a, b in zip(events, events[1:]))
    assert livol_match.last_seq == events[-1].seq and livol_match.last_hash == events[-1].hash
    assert livol_match.seed_commitment == hashlib.sha256(b"store-test").hexdigest()


def test_a_move_appends_consecutive_events_with_the_move_on_the_first(livol_match):
    seat, legal = first_actor(livol_match)
    before = livol_match.last_seq
    # when
    rows = move_submit(match_id=livol_match.pk, seat=seat, move=legal[0], expected_seq=before)
    # then
    assert [r.seq for r in rows] == list(range(before + 1, before + 1 + len(rows)))
    assert rows[0].move == legal[0] and all(r.move is None for r in rows[1:])
    assert all(r.seat == seat for r in rows)
    livol_match.refresh_from_db()
    assert livol_match.last_seq == rows[-1].seq


def test_a_stale_expected_seq_is_a_conflict_and_writes_nothing(livol_match):
    seat, legal = first_actor(livol_match)
    count = Event.objects.filter(match=livol_match).count()
    with pytest.raises(StaleSequence):
        move_submit(match_id=livol_match.pk, seat=seat, move=legal[0], expected_seq=livol_match.last_seq - 1)
    assert Event.objects.filter(match=livol_match).count() == count


def play_to_the_end(match):
    """Two bots' worth of moves through the service (no Celery)."""
    import random

    from engine.bots import choose

    game = registry.get(match.game)
    rng = random.Random(1)
    for _ in range(20000):
        match.refresh_from_db()
        if not match.is_running:
            return
        state = store.load_state(match)
        seat = game.view(state, None)["turn"]
        if seat is None:
            seat = game.view(state, None)["to_act"][0]
        move = choose(match.game, "greedy", game.view(state, seat), game.legal_moves(state, seat), rng, True)
        move_submit(match_id=match.pk, seat=seat, move=move, expected_seq=match.last_seq)
    raise AssertionError("match did not end")


def test_the_seed_is_revealed_as_the_last_event_when_the_match_ends(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])],
                         seed="reveal-me", options={"target": 50})
    play_to_the_end(match)
    match.refresh_from_db()
    last = Event.objects.filter(match=match).order_by("-seq").first()
    assert match.status == Match.Status.FINISHED
    assert last.type == SEED_REVEALED and last.payload["seed"] == "reveal-me"
    assert match.result["ranking"] and len(match.result["scores"]) == 2
    assert match_verify(match).ok


def test_verify_match_names_a_payload_changed_behind_the_apps_back(people):
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")],
                         seed="tamper", options={"target": 50})
    bots_advance(match_id=match.pk, budget=100000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match_verify(match).ok
    victim = Event.objects.filter(match=match, seq=5).first()
    payload = dict(victim.payload, tampered=True)
    # when someone edits an event in the database directly
    import pgtrigger

    with pgtrigger.ignore("games.Event:event_append_only"), connection.cursor() as cur:
        cur.execute("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), victim.pk])
    # then the audit fails at exactly that event
    report = match_verify(match)
    assert not report.ok and report.first_bad_seq == 5


def test_verify_match_command_reports_ok_and_bad(people, capsys):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="greedy")],
                         seed="cmd", options={"target": 30})
    bots_advance(match_id=match.pk, budget=100000)
    call_command("verify_match", str(match.pk))
    assert f"match {match.pk}: OK" in capsys.readouterr().out
    with pytest.raises(CommandError):
        call_command("verify_match", "999999")


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_database_refuses_update_and_delete_of_events(livol_match):
    need(connection.vendor == "postgresql", "the append-only trigger is a PostgreSQL trigger")
    from django.db import DatabaseError, transaction

    event = Event.objects.filter(match=livol_match).first()
    with pytest.raises(DatabaseError, match="Cannot update or delete"), transaction.atomic():
        Event.objects.filter(pk=event.pk).update(type="edited")
    with pytest.raises(DatabaseError, match="Cannot update or delete"), transaction.atomic():
        Event.objects.filter(pk=event.pk).delete()
    assert Event.objects.get(pk=event.pk).type == event.type


def test_a_snapshot_gives_the_same_state_as_a_fold_from_event_one(people, settings):
    settings.CARDLEAGUE_SNAPSHOT_EVERY = 25
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], seed="snap")
    bots_advance(match_id=match.pk, budget=60)
    match.refresh_from_db()
    assert Snapshot.objects.filter(match=match).exists()
    store.forget_cache()
    from_snapshot = store.load_state(match)
    payloads = store.engine_payloads(Event.objects.filter(match=match).order_by("seq"))
    assert from_snapshot == registry.get("livol").fold(payloads)


def test_the_state_at_an_earlier_position_is_the_fold_up_to_it(people, settings):
    settings.CARDLEAGUE_SNAPSHOT_EVERY = 10
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], seed="upto")
    bots_advance(match_id=match.pk, budget=40)
    match.refresh_from_db()
    payloads = store.engine_payloads(Event.objects.filter(match=match, seq__lte=17).order_by("seq"))
    assert store.load_state(match, upto=17) == registry.get("livol").fold(payloads)


def _finished(seed: str) -> Match:
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")], seed=seed,
                         options={"target": 30})
    bots_advance(match_id=match.pk, budget=100000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match_verify(match).ok
    return match


def test_every_event_hash_covers_its_time(people):
    match = _finished("timed")
    event = Event.objects.get(match=match, seq=6)
    # an event moved in time no longer matches its hash
    event.created_at = event.created_at.replace(year=event.created_at.year - 1)
    assert store.event_hash(prev_hash=event.prev_hash, match_id=match.pk, seq=6, payload=event.payload,
                            seat=event.seat, move=event.move, created_at=event.created_at) != event.hash


@pytest.mark.postgres
def test_verify_match_names_an_event_moved_in_time(db):
    need(connection.vendor == "postgresql", "editing a recorded event needs the trigger switched off (PostgreSQL)")
    import pgtrigger

    match = _finished("moved-in-time")
    with pgtrigger.ignore("games.Event:event_append_only"), connection.cursor() as cur:
        cur.execute("UPDATE games_event SET created_at = created_at - interval '1 day' WHERE match_id = %s AND seq = 7",
                    [match.pk])
    report = match_verify(match)
    assert not report.ok and report.first_bad_seq == 7


def test_verify_match_headline_names_the_event_of_a_forged_commitment(db, capsys):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    match = _finished("forged")
    Match.objects.filter(pk=match.pk).update(seed_commitment="0" * 64)
    with pytest.raises(CommandError):
        call_command("verify_match", str(match.pk))
    out = capsys.readouterr().out
    # the opening published the real commitment: the forged one is named at that event
    assert "BAD at event 1:" in out and "commitment" in out and "None" not in out


@pytest.mark.postgres
def test_verify_match_names_the_first_missing_event_after_a_deletion(db):
    need(connection.vendor == "postgresql", "deleting a recorded event needs the trigger switched off (PostgreSQL)")
    import pgtrigger

    match = _finished("deleted")
    with pgtrigger.ignore("games.Event:event_append_only"), connection.cursor() as cur:
        cur.execute("DELETE FROM games_event WHERE match_id = %s AND seq IN (9, 10)", [match.pk])
    report = match_verify(match)
    assert report.first_bad_seq == 9
    assert report.problems[0].startswith("event 9: missing")


@pytest.mark.postgres
def test_truncating_the_events_table_is_refused(livol_match):
    need(connection.vendor == "postgresql", "the append-only triggers are PostgreSQL triggers")
    with pytest.raises(DatabaseError, match="Cannot truncate"), transaction.atomic(), connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's own inserts must not be what refuses it
        cur.execute("TRUNCATE games_event CASCADE")
    assert Event.objects.filter(match=livol_match).exists()


@pytest.mark.postgres
def test_an_application_role_cannot_update_delete_or_truncate_events(livol_match):
    need(connection.vendor == "postgresql", "roles and grants are PostgreSQL's")
    from importlib import import_module

    revoke = import_module("games.migrations.0002_hardening").revoke_event_writes
    role = "cardleague_app_test"
    with connection.cursor() as cur:
        cur.execute(f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{role}') "
                    f"THEN CREATE ROLE {role}; END IF; END $$")
        cur.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON games_event TO {role}")

    class Editor:
        pass

    editor = Editor()
    editor.connection = connection
    from django.test import override_settings

    # when the migration's lockdown runs for the application's role
    with override_settings(CARDLEAGUE_DB_APP_ROLES=[role]):
        revoke(None, editor)
    # then, acting as that role, every rewrite is refused by the database's grants
    for sql in ("UPDATE games_event SET type = 'x'", "DELETE FROM games_event", "TRUNCATE games_event"):
        with pytest.raises(DatabaseError, match="permission denied"), transaction.atomic(), connection.cursor() as cur:
            cur.execute(f"SET LOCAL ROLE {role}")
            cur.execute(sql)
    with connection.cursor() as cur:
        cur.execute(f"REVOKE ALL ON games_event FROM {role}")
    assert Event.objects.filter(match=livol_match).exists()
