"""Streams that end when their client leaves, open one Redis subscription however many start at once,
catch up in pages and end a finished match, start where the page is, and refuse what does not exist
."""
from __future__ import annotations

import asyncio
import json
import os
import threading

import httpx
import pytest

from games.services import SeatSpec, bots_advance, match_create
from games.web import stream_hubs, streaming, streams
from tests.games.web.test_streams import events, read_frames, token_for


def test_a_stream_cancelled_just_as_a_notice_arrives_ends():
    # given a stream waiting for its next notice
    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        waiting = asyncio.get_running_loop().create_task(stream_hubs.next_message((None, "c", queue), 30))
        await asyncio.sleep(0)  # the stream is now waiting on its queue
        # when a notice arrives in the same instant as the client leaves (its task is cancelled)
        queue.put_nowait("12")
        waiting.cancel()
        # then the stream ends (asyncio.wait_for on Python 3.11 returned "12" and it went on for ever)
        with pytest.raises(asyncio.CancelledError):
            await waiting
    asyncio.run(scenario())


def test_a_notice_or_silence_is_what_a_waiting_stream_reads():
    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        subscription = (None, "c", queue)
        queue.put_nowait("5")
        assert await stream_hubs.next_message(subscription, 1) == "5"
        assert await stream_hubs.next_message(subscription, 0.01) is None
        assert await stream_hubs.next_message(subscription, 0) is None
    asyncio.run(scenario())


def test_streams_that_start_together_open_one_subscription():
    # given a process whose streams' hub is not subscribed yet, and a Redis that answers slowly
    opened = []

    class Hub(stream_hubs.Hub):
        async def _connect(self):
            opened.append(1)
            await asyncio.sleep(0.01)
            return object()

        async def _read(self):
            await asyncio.Event().wait()

    async def scenario():
        hub = Hub()
        # when twenty streams start in the same instant
        await asyncio.gather(*(hub.open() for _ in range(20)))
        # then the hub subscribed once (the race left 21 subscriptions, 20 of them unread)
        assert len(opened) == 1 and hub._up()
        hub.reader.cancel()
    asyncio.run(scenario())


@pytest.mark.parametrize("text,expected", [("0", 0), ("17", 17), ("²", None), ("１２", None), ("-1", None),
                                           ("", None), ("9" * 5000, None), ("12a", None), (None, None)])
def test_a_count_in_a_stream_request_is_ascii_digits_and_short(rf, text, expected):
    headers = {} if text is None else {"HTTP_LAST_EVENT_ID": text}
    assert streams._position(rf.get("/api/stream", **headers)) == (expected or 0)


pytestmark_db = pytest.mark.django_db(transaction=True)


@pytestmark_db
def test_a_stream_far_behind_reads_page_after_page_and_ends_a_finished_match(asgi_server, people):
    # given a finished match (of bots) of more events than a stream reads at once
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="greedy")],
                         seed="stream-pages", options={"target": 500}, wake_bots=False)
    bots_advance(match_id=match.pk, budget=100_000)
    match.refresh_from_db()
    assert match.has_ended
    if match.last_seq <= 2 * streams.STREAM_PAGE:
        pytest.fail(f"the match has only {match.last_seq} events: the test needs more than two pages")
    # when a spectator's stream is opened from the start
    key = token_for(people[0])
    frames = read_frames(f"{asgi_server}/api/matches/{match.pk}/stream", key,
                         until=lambda fs: fs[-1]["event"] == "end", timeout=60)
    # then every event comes, in order, once, and then the end (it stalled after the first page)
    assert [f["id"] for f in events(frames)] == list(range(1, match.last_seq + 1))
    assert frames[-1] == {"event": "end", "data": {"match": match.pk, "seq": match.last_seq}}


@pytestmark_db
def test_a_stream_opened_after_a_position_starts_there(asgi_server, people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="stream-after",
                         wake_bots=False)
    match.refresh_from_db()
    key = token_for(people[0])
    frames = read_frames(f"{asgi_server}/api/matches/{match.pk}/stream?seat=0&after={match.last_seq - 1}", key,
                         until=lambda fs: len(events(fs)) >= 1)
    assert [f["id"] for f in events(frames)] == [match.last_seq]
    assert frames[0]["event"] == "hello" and frames[0]["data"]["after"] == match.last_seq - 1


@pytestmark_db
def test_the_play_page_opens_its_stream_from_the_position_it_shows(client, people, settings, monkeypatch):
    monkeypatch.setattr(streaming, "available", lambda request: True)
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="page-after",
                         wake_bots=False)
    match.refresh_from_db()
    client.force_login(people[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-stream-url="/api/matches/{match.pk}/stream?seat=0&amp;after={match.last_seq}"' in page


@pytestmark_db
@pytest.mark.parametrize("path", ["/api/tournaments/999999/stream", "/api/matches/999999/stream?seat=²",
                                  "/api/matches/1/stream?seat=" + "9" * 5000])
def test_a_stream_of_nothing_or_of_a_malformed_seat_is_refused_not_held_open(asgi_server, people, path):
    key = token_for(people[0])
    response = httpx.get(f"{asgi_server}{path}", headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert response.status_code in (400, 404) and response.json()["code"] in ("not_found", "malformed_request")
    assert response.status_code == (404 if "tournaments" in path else 400)


# -- caps, lifetimes, revoked access -------------------------------------------

def test_streams_are_capped_per_account_per_address_and_per_process(settings):
    settings.CARDLEAGUE_STREAMS_PER_ACCOUNT, settings.CARDLEAGUE_STREAMS_PER_ADDRESS = 2, 3
    settings.CARDLEAGUE_STREAMS_PER_PROCESS, settings.CARDLEAGUE_STREAM_RETRY_AFTER = 5, 17
    streams._process_cap.cache_clear()
    try:
        caps = streams._Caps()
        # an account holds two streams; its third is a 429 with Retry-After
        caps.take(1, "10.0.0.1")
        caps.take(1, "10.0.0.1")
        refused = caps.refusal(1, "10.0.0.1")
        assert refused.status == 429 and refused.wait == 17
        assert refused.code == "too_many_streams"
        # another account at the same address may open one more, then the address is full (tournament
        # streams need no account: they count against the address)
        assert caps.refusal(2, "10.0.0.1") is None
        caps.take(2, "10.0.0.1")
        assert caps.refusal(None, "10.0.0.1").status == 429
        # the process holds five in all: then a 503, whoever asks
        caps.take(3, "10.0.0.2")
        caps.take(None, "10.0.0.3")
        full = caps.refusal(4, "10.0.0.4")
        assert full.status == 503 and full.code == "streams_full"
        assert full.wait == 17
        # a stream that ends gives its place back
        caps.give_back(1, "10.0.0.1")
        assert caps.refusal(4, "10.0.0.4") is None and caps.refusal(1, "10.0.0.1") is None
    finally:
        streams._process_cap.cache_clear()


def test_the_process_cap_stays_below_the_file_limit(settings):
    import resource

    settings.CARDLEAGUE_STREAMS_PER_PROCESS = 0
    streams._process_cap.cache_clear()
    try:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert streams._process_cap() < soft or soft == resource.RLIM_INFINITY
    finally:
        streams._process_cap.cache_clear()


def test_a_stream_ends_after_its_lifetime_with_a_reconnect_and_gives_its_place_back(settings):
    settings.CARDLEAGUE_STREAM_MAX_SECONDS = 0
    closed = []

    async def frames():
        try:
            while True:
                yield "data: x\n\n"
        finally:
            closed.append(True)

    async def scenario():
        got = [f async for f in streams._capped(frames(), 7, "10.0.0.9")]
        return got
    got = asyncio.run(scenario())
    # then the stream sent its frame, said "reconnect", and ended; its source closed, its place given back
    assert got[0] == "data: x\n\n" and got[1].startswith("event: reconnect\n") and len(got) == 2
    assert closed == [True]
    assert streams._caps.accounts.get(7) is None and streams._caps.addresses.get("10.0.0.9") is None


def test_too_many_wrong_tokens_on_a_stream_is_a_429_not_a_500(monkeypatch, rf):
    from games.web import auth

    def throttled(request, token):
        raise auth.TooManyWrongTokens(42)

    monkeypatch.setattr(auth, "token_user", throttled)
    monkeypatch.setattr(streams, "_unavailable", lambda request, what: None)
    request = rf.get("/api/stream", HTTP_AUTHORIZATION="Bearer wrong")
    response = asyncio.run(streams.account_stream(request))
    assert response.status_code == 429 and response["Retry-After"] == "42"
    assert json.loads(response.content)["code"] == "rate_limited"


@pytestmark_db
def test_a_stream_stops_when_its_token_is_deleted(asgi_server, people):
    from games.models import ApiToken

    # given a seat's stream, open and current
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")],
                         seed="stream-revoked", wake_bots=False)
    key = token_for(people[0])
    hello = threading.Event()
    got: list[dict] = []

    def until(frames):
        hello.set()
        return frames[-1]["event"] == "end"

    reader = threading.Thread(target=lambda: got.extend(read_frames(
        f"{asgi_server}/api/matches/{match.pk}/stream?seat=0", key, until=until, timeout=60)))
    reader.start()
    assert hello.wait(30)
    # when its token is deleted and the match moves on
    ApiToken.objects.filter(user=people[0]).delete()
    match.refresh_from_db()
    shown = match.last_seq
    from engine import registry
    from games import store
    from games.services import move_submit

    game = registry.get("livol")
    state = store.load_state(match)
    if 0 in game.to_act(state):
        move_submit(match_id=match.pk, seat=0, move=game.legal_moves(state, 0)[0], expected_seq=match.last_seq)
    else:
        bots_advance(match_id=match.pk, budget=1)
    reader.join(60)
    # then the stream sends nothing after the deletion and ends, saying why
    assert got[-1]["event"] == "end" and got[-1]["data"]["reason"] == "access_revoked"
    assert all(f["id"] <= shown for f in events(got))


# -- no thread per open stream ----------------------------------------------------------

def _threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


@pytestmark_db
def test_open_streams_hold_no_thread_each(asgi_server, people):
    import socket

    from league.services import club_create, league_create, tournament_create

    if not asgi_server.pid or not os.path.exists(f"/proc/{asgi_server.pid}/status"):
        pytest.skip("needs /proc to count the server's threads")
    club = club_create(name="Stream club", slug="stream-club")
    league = league_create(club_id=club.pk, name="Stream league", game="livol")
    tournament = tournament_create(league_id=league.pk, name="Streamed", format="swiss", rounds=1)
    host, port = asgi_server.removeprefix("http://").split(":")
    # given the server with one stream open (its threads for readers and authentication started)
    def open_stream():
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /api/tournaments/{tournament.pk}/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        assert b"event: hello" in _read_until(sock, b"event: hello")
        return sock
    socks = [open_stream()]
    before = _threads(asgi_server.pid)
    # when sixty more are opened (each answered its hello: it is open and subscribed)
    socks += [open_stream() for _ in range(60)]
    # then the server holds them with the threads it had (Django's handler kept a thread per stream)
    assert _threads(asgi_server.pid) <= before + 4
    for sock in socks:
        sock.close()


def _read_until(sock, marker: bytes) -> bytes:
    data = b""
    sock.settimeout(30)
    while marker not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


@pytestmark_db
def test_a_signed_in_pages_stream_reads_the_session_cookie(asgi_server, people, client):
    # the play page's stream has no token: the streams' own front reads the session as Django would
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="session-stream",
                         wake_bots=False)
    client.force_login(people[0])
    cookie = client.cookies["sessionid"].value
    with httpx.stream("GET", f"{asgi_server}/api/matches/{match.pk}/stream?seat=0",
                      cookies={"sessionid": cookie}, timeout=30) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("event: hello"):
                break
    # and without the cookie it is a 401; with another person's session, a 403
    assert httpx.get(f"{asgi_server}/api/matches/{match.pk}/stream?seat=0", timeout=10).status_code == 401
    client.force_login(people[1])
    other = client.cookies["sessionid"].value
    assert httpx.get(f"{asgi_server}/api/matches/{match.pk}/stream?seat=0", cookies={"sessionid": other},
                     timeout=10).status_code == 403


@pytestmark_db
def test_streams_end_when_their_readers_leave_mid_match(asgi_server, people):
    import socket

    # given sixty readers following a running match: its player's pages and two spectators' (twenty
    # streams each, an account's most)
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed="leavers",
                         wake_bots=False)
    readers = [(token_for(people[0]), "?seat=0"), (token_for(people[1]), ""), (token_for(people[2]), "")]
    host, port = asgi_server.removeprefix("http://").split(":")
    open_before = httpx.get(f"{asgi_server}/readyz", timeout=10).json()["streams_open"]
    socks = []
    for i in range(60):
        key, query = readers[i % 3]
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /api/matches/{match.pk}/stream{query} HTTP/1.1\r\nHost: {host}\r\n"
                     f"Authorization: Bearer {key}\r\n\r\n".encode())
        assert b"event: hello" in _read_until(sock, b"event: hello")
        socks.append(sock)
    assert httpx.get(f"{asgi_server}/readyz", timeout=10).json()["streams_open"] == open_before + 60
    # when they all leave while the match moves on
    for sock in socks:
        sock.close()
    bots_advance(match_id=match.pk, budget=3)
    # then every one of their streams ends (each was kept, with its task and queue, for ever)
    for _ in range(300):
        if httpx.get(f"{asgi_server}/readyz", timeout=10).json()["streams_open"] == open_before:
            break
    assert httpx.get(f"{asgi_server}/readyz", timeout=10).json()["streams_open"] == open_before


def test_a_new_streams_start_does_not_wait_behind_busy_readers(settings):
    # given every stream-reader thread busy with the reads of streams that are behind
    settings.CARDLEAGUE_STREAM_DB_READS = 2
    stream_hubs._readers = None
    gate = threading.Event()

    async def scenario():
        busy = [asyncio.ensure_future(stream_hubs.reading(gate.wait)()) for _ in range(10)]
        await asyncio.sleep(0)
        try:
            # when a new stream starts (authentication, what waits for the account, the tournament's id)
            started = await asyncio.wait_for(stream_hubs.authenticating(lambda: "started")(), 30)
        finally:
            gate.set()
            await asyncio.gather(*busy)
        return started
    try:
        # then it starts on its own threads, not behind those reads
        assert asyncio.run(scenario()) == "started"
    finally:
        stream_hubs._readers.shutdown(wait=False)
        stream_hubs._readers = None
