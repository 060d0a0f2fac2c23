"""The live streams with a real ASGI server (uvicorn) and Redis pub/sub: a seat's events arrive in order,
resume after a dropped connection without gaps or duplicates, never carry what the seat may not see; an
account's stream brings invitations, matches starting and turns."""
from __future__ import annotations

import hashlib
import json
import secrets
import threading

import httpx
import pytest

from engine import registry
from games import store
from games.models import ApiToken, Event, Match
from games.selectors.feeds import events_for_seat
from games.services import SeatSpec, bots_advance, match_create, move_submit
from tests.conftest import sse_frames

pytestmark = pytest.mark.django_db(transaction=True)


def token_for(user) -> str:
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name="stream", key_hash=hashlib.sha256(key.encode()).hexdigest())
    return key


def read_frames(url: str, key: str, *, until, headers=None, timeout=30.0) -> list[dict]:
    """Read SSE frames (``{"id", "event", "data"}``) until ``until(frames)`` is true."""
    frames: list[dict] = []
    with httpx.stream("GET", url, headers={"Authorization": f"Bearer {key}", **(headers or {})},
                      timeout=httpx.Timeout(timeout, read=timeout)) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        for frame in sse_frames(response.iter_lines()):
            frames.append(frame)
            if until(frames):
                break
    return frames


def events(frames):
    return [f for f in frames if f["event"] == "match_event"]


def test_a_seats_stream_brings_its_events_in_order_and_ends_with_the_match(asgi_server, people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="stream-1",
                         options={"target": 20}, wake_bots=False)
    key = token_for(people[0])
    got: list[dict] = []
    hello = threading.Event()

    def until_end(frames):
        hello.set()  # the first frame is the stream's hello: it is subscribed from here on
        return frames[-1]["event"] == "end"

    reader = threading.Thread(target=lambda: got.extend(read_frames(
        f"{asgi_server}/api/matches/{match.pk}/stream?seat=0", key, until=until_end, timeout=60)))
    reader.start()
    assert hello.wait(30), "the stream said no hello"
    # the match is played to the end while the stream is open
    game = registry.get("livol")
    for _ in range(5000):
        match.refresh_from_db()
        if not match.is_running:
            break
        state = store.load_state(match)
        if game.view(state, None)["turn"] == 0 or 0 in game.view(state, None)["to_act"]:
            legal = [m for m in game.legal_moves(state, 0) if m["type"] != "catch"] or game.legal_moves(state, 0)
            move_submit(match_id=match.pk, seat=0, move=legal[0], expected_seq=match.last_seq)
        else:
            bots_advance(match_id=match.pk, budget=5)
    reader.join(60)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    # every event, in order, once — the secret's reveal last — and then the end
    assert [f["id"] for f in events(got)] == list(range(1, match.last_seq + 1))
    assert events(got)[-1]["data"]["type"] == "seed_revealed"
    assert got[-1]["event"] == "end" and got[-1]["data"]["seq"] == match.last_seq


def test_a_stream_resumes_after_a_dropped_connection_without_gaps_or_duplicates(asgi_server, people):
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(user=people[1])], seed="stream-2",
                         options={"target": 20}, wake_bots=False)
    key = token_for(people[1])
    url = f"{asgi_server}/api/matches/{match.pk}/stream?seat=1"
    first = events(read_frames(url, key, until=lambda fs: len(events(fs)) >= 3))
    last_id = first[-1]["id"]
    # meanwhile the match moves on
    for _ in range(3):
        match.refresh_from_db()
        state = store.load_state(match)
        game = registry.get("livol")
        seat = game.view(state, None)["turn"]
        if seat == 1:
            move_submit(match_id=match.pk, seat=1, move=game.legal_moves(state, 1)[0], expected_seq=match.last_seq)
        else:
            bots_advance(match_id=match.pk, budget=1)
    match.refresh_from_db()
    expected = events_for_seat(match, 1, after=last_id)
    second = events(read_frames(url, key, headers={"Last-Event-ID": str(last_id)},
                                until=lambda fs: len(events(fs)) >= len(expected)))
    assert [f["id"] for f in second] == [e["seq"] for e in expected]
    assert [f["data"] for f in second] == expected
    assert {f["id"] for f in first}.isdisjoint(f["id"] for f in second)


@pytest.mark.parametrize("game", registry.names())
def test_no_frame_of_a_seats_stream_carries_what_the_seat_may_not_see(asgi_server, people, game):
    seats = {"cardavia": 3}.get(game, 2)
    specs = [SeatSpec(user=people[0])] + [SeatSpec(bot="greedy") for _ in range(seats - 1)]
    match = match_create(game=game, seats=specs, seed=f"stream-leak-{game}", wake_bots=False)
    bots_advance(match_id=match.pk, budget=12)  # the bots move until the person's turn
    match.refresh_from_db()
    expected = events_for_seat(match, 0)
    key = token_for(people[0])
    frames = events(read_frames(f"{asgi_server}/api/matches/{match.pk}/stream?seat=0", key,
                                until=lambda fs: len(events(fs)) >= len(expected)))
    # exactly the seat's own feed: each event through the engine's redact for that seat (the
    # protocol test proves redact never shows a hidden card), nothing more
    assert [f["data"] for f in frames] == expected
    assert [f["id"] for f in frames] == [e["seq"] for e in expected]
    text = json.dumps([f["data"] for f in frames])
    started = Event.objects.get(match=match, type="match_started").payload
    assert match.seed not in text and started["seed"] not in text
    assert not any(isinstance(f["data"]["payload"].get(key), list) for f in frames for key in ("deck", "stock", "pile"))


def test_an_account_stream_brings_an_invitation_and_then_the_start(asgi_server, people):
    key = token_for(people[1])
    got: list[dict] = []
    hello = threading.Event()

    def until_started(frames):
        hello.set()  # the first frame is the stream's hello: it is subscribed from here on
        return any(f["event"] == "match_started" for f in frames)

    reader = threading.Thread(target=lambda: got.extend(read_frames(f"{asgi_server}/api/stream", key,
                                                                    until=until_started)))
    reader.start()
    assert hello.wait(30), "the stream said no hello"
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         created_by=people[0])
    httpx.post(f"{asgi_server}/api/matches/{match.pk}/join", json={"entropy": "de" * 16},
               headers={"Authorization": f"Bearer {key}"}, timeout=10).raise_for_status()
    reader.join(30)
    kinds = [f["event"] for f in got]
    assert kinds[0] == "hello" and "invited" in kinds and "match_started" in kinds
    invited = next(f for f in got if f["event"] == "invited")["data"]
    assert invited == {"kind": "invited", "match": match.pk, "game": "livol", "seat": 1, "by": "player0"}


def test_a_reconnecting_account_stream_first_says_what_waits(asgi_server, people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         created_by=people[0])
    key = token_for(people[1])
    frames = read_frames(f"{asgi_server}/api/stream", key, until=lambda fs: len(fs) >= 2)
    assert frames[0]["event"] == "hello" and frames[0]["data"]["waiting"] == 1
    assert frames[1]["event"] == "invited" and frames[1]["data"]["match"] == match.pk


def test_streams_refuse_strangers_and_forged_seats(asgi_server, people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])])
    stranger = token_for(people[2])
    assert httpx.get(f"{asgi_server}/api/matches/{match.pk}/stream?seat=0",
                     headers={"Authorization": f"Bearer {stranger}"}, timeout=10).status_code == 403
    assert httpx.get(f"{asgi_server}/api/matches/{match.pk}/stream?seat=0", timeout=10).status_code == 401
    assert httpx.get(f"{asgi_server}/api/stream", headers={"Authorization": "Bearer wrong"},
                     timeout=10).status_code == 401
    assert httpx.get(f"{asgi_server}/api/matches/999999/stream",
                     headers={"Authorization": f"Bearer {stranger}"}, timeout=10).status_code == 404
    assert Match.objects.get(pk=match.pk).is_running


@pytest.mark.postgres
def test_open_streams_leave_the_connection_pool_to_the_requests(pooled_asgi_server, people):
    # given a server whose pool has two connections, and six of a seat's streams open (each authenticated
    # and read on the streams' own threads: more threads than the pool has connections)
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="random"),
                                              SeatSpec(bot="random")], seed="pool")
    key = token_for(people[0])
    url = f"{pooled_asgi_server}/api/matches/{match.pk}/stream?seat=0"
    said: list[threading.Event] = [threading.Event() for _ in range(6)]
    leave = threading.Event()

    def follow(hello: threading.Event) -> None:
        with httpx.stream("GET", url, headers={"Authorization": f"Bearer {key}"},
                          timeout=httpx.Timeout(30, read=30)) as response:
            for line in response.iter_lines():  # frames and the heartbeat's comment lines (one a second)
                if line.startswith("event:"):
                    hello.set()
                if leave.is_set():
                    return

    threads = [threading.Thread(target=follow, args=(hello,), daemon=True) for hello in said]
    for thread in threads:
        thread.start()
    assert all(hello.wait(30) for hello in said)
    # when the seat's page and client ask for its view, over and over, while the streams stay open
    answers = [httpx.get(f"{pooled_asgi_server}/api/matches/{match.pk}/view?seat=0",
                         headers={"Authorization": f"Bearer {key}"}, timeout=30).status_code for _ in range(12)]
    leave.set()
    for thread in threads:  # each leaves at its stream's next line (a heartbeat a second)
        thread.join(30)
    # then every request had a connection (a stream's thread gives its back after each read)
    assert answers == [200] * 12
    assert not any(thread.is_alive() for thread in threads)
