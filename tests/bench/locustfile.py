"""A club night for locust: people at tables, and spectators on a tournament page.

Run by ``python -m tests.bench.club_night`` (which starts the server, sets the people and tables up and
prints the figures); by hand: ``CLUB_NIGHT_FILE=var/club-night/people.json locust -f
tests/bench/locustfile.py --headless -u N -r R -t 180s --host http://127.0.0.1:PORT``.

Each locust user is one person of the set-up file (``CLUB_NIGHT_FILE``, written by the runner), in the
order they start. A seated person is what a browser tab plus the person does:

- signed in twice over: the session cookie (the pages and their streams, as the browser) and a bearer
  token (the match API: legal moves and the move, as a client of ``/api/``);
- follows the account stream (``/api/stream``, the home page's) and the seat's stream
  (``/api/matches/{id}/stream?seat=n&after=k``, the play page's), each in its own greenlet;
- on each event of the account stream fetches the home page's waits (``GET /waits/``), and on each
  event of the match stream fetches the board partial exactly as the play page does
  (``GET /matches/{id}/board/?since=<shown seq>&seat=n``: a 204 when nothing is new);
- when the board says it is their turn (``data-turn-state`` ``mine`` or ``act``): reads the legal
  moves (``GET /api/matches/{id}/legal?seat=n``), thinks (``CLUB_NIGHT_THINK`` seconds, default 3,
  ±30%), and posts one of them (``POST /api/matches/{id}/moves`` with ``expected_seq``).

A spectator opens the tournament page's stream (``/api/tournaments/{id}/stream``) and fetches the
live part (``GET /tournaments/{id}/live/``) on each change.

Move to the other boards: the mover notes the time just before its move's POST and the position it
moved from; every other person at the table, when a board it fetched (after its stream's event)
shows a position past that one, records now − that time. So it is the whole way from the click to
another person's screen: the POST, the publish, Redis, the stream, and the board fetch. All users run
in this one process, so the times are shared in a dict. The figures are written as JSON to
``CLUB_NIGHT_RESULTS`` for the runner every 5 s and at the end.

Stopping: when locust's ``-t`` is up (``test_stopping``) every stream greenlet of every user is killed
(a blocked read raises at once), as each user's own are in ``on_stop``; a stream read also gives up
after ``CLUB_NIGHT_STREAM_READ_TIMEOUT`` seconds (20, past the server's 15 s heartbeat) and reconnects.
"""
from __future__ import annotations

import json
import os
import random
import re
import time
from collections import Counter, defaultdict

import gevent
import gevent.event
import requests
from locust import HttpUser, constant, events, task
from locust.clients import LocustHttpAdapter
from locust.exception import StopUser
from urllib3.util.retry import Retry

SETUP = json.loads(open(os.environ.get("CLUB_NIGHT_FILE", "var/club-night/people.json")).read())
THINK = float(os.environ.get("CLUB_NIGHT_THINK", "3"))
RESULTS = os.environ.get("CLUB_NIGHT_RESULTS", "")
# A stream read waits at most this long for a line: the server sends a heartbeat every
# CARDLEAGUE_STREAM_HEARTBEAT (15 s), so a silent stream past it is a broken one (reconnect), and a
# stream greenlet never sits in a read for longer than this after the test stops.
STREAM_READ = float(os.environ.get("CLUB_NIGHT_STREAM_READ_TIMEOUT", "20"))

BOARD = re.compile(r'class="board live[^"]*" data-seq="(\d+)"')
TURN = re.compile(r'data-turn-state="(\w+)"')
OVER = re.compile(r'data-over="1"')

_next = iter(range(10**9))
# (match, expected_seq) -> [time before the POST, mover seat, seats that have seen it]
moves: dict[int, list] = defaultdict(list)
figures = {"move_ms": [], "to_board_ms": [], "moves": 0, "conflicts": 0, "errors": Counter(),
           "board_fetches": 0, "stream_events": 0, "matches_over": 0, "started": None, "stopped": None,
           "written": None}
# every user's stream greenlets: the test's end kills them all, whether or not each user's on_stop ran
streams: set[gevent.Greenlet] = set()
stopping = gevent.event.Event()


def _error(kind: str) -> None:
    figures["errors"][kind] += 1


def _status(r) -> str:
    """A response's status, or for no response (status 0) the exception that stood for it, down to its
    cause (``ConnectionError(ProtocolError(…, RemoteDisconnected(…)))`` is ``RemoteDisconnected``)."""
    if r.status_code:
        return str(r.status_code)
    error = getattr(r, "error", None)
    while error is not None and error.args and isinstance(error.args[-1], BaseException):
        error = error.args[-1]
    return type(error).__name__


def _sse(url: str, cookies: dict, on_event, stop: gevent.event.Event, name: str) -> None:
    """Follow one Server-Sent Events stream, reconnecting with Last-Event-ID; call on_event(event, id).

    Ends when ``stop`` (the user's) or ``stopping`` (the test's) is set, and can be killed at any
    point: the greenlet's kill (``Person.on_stop``, ``_stopping``) raises in the blocked read, and the
    read times out after ``STREAM_READ`` seconds in any case."""
    last_id = None
    session = requests.Session()
    try:
        while not (stop.is_set() or stopping.is_set()):
            headers = {"Accept": "text/event-stream"}
            if last_id is not None:
                headers["Last-Event-ID"] = last_id
            try:
                with session.get(url, cookies=cookies, headers=headers, stream=True,
                                 timeout=(10, STREAM_READ)) as r:
                    if r.status_code != 200:
                        _error(f"{name} stream {r.status_code}")
                        gevent.sleep(2)
                        continue
                    event = None
                    for line in r.iter_lines(decode_unicode=True):
                        if stop.is_set() or stopping.is_set():
                            return
                        if line is None:
                            continue
                        if line.startswith("event:"):
                            event = line[6:].strip()
                        elif line.startswith("id:"):
                            last_id = line[3:].strip()
                        elif line == "" and event:
                            figures["stream_events"] += 1
                            on_event(event, last_id)
                            if event == "end":
                                return
                            event = None
            except requests.RequestException as exc:
                if stop.is_set() or stopping.is_set():
                    return
                _error(f"{name} stream {type(exc).__name__}")
                gevent.sleep(1)
    finally:
        session.close()


class Person(HttpUser):
    wait_time = constant(0)  # the task itself waits: for the stream, and the think time

    def on_start(self) -> None:
        people = SETUP["people"]
        index = next(_next)
        if index >= len(people):
            raise StopUser()
        self.me = people[index]
        self.cookies = {SETUP["session_cookie"]: self.me["session"]}
        self.client.cookies.update(self.cookies)
        # A kept-alive connection that the server closes (uvicorn: after 5 s idle) just as a request goes
        # out fails with RemoteDisconnected / ConnectionResetError; a browser sends such a GET again on
        # a new connection, and so does this person (once; a move's POST is never sent twice).
        self.client.mount("http://", LocustHttpAdapter(pool_manager=None, max_retries=Retry(
            total=1, connect=1, read=1, status=0, other=0, allowed_methods={"GET"},
            raise_on_status=False)))
        self.auth = {"Authorization": f"Bearer {self.me['token']}"}
        self.leaving = gevent.event.Event()  # not self.stop: that is locust's User.stop(), which the runner calls
        self.changed = gevent.event.Event()
        self.waits_changed = gevent.event.Event()
        self.greenlets: list[gevent.Greenlet] = []
        self.seq = 0
        self.turn = None
        self.over = False
        if figures["started"] is None:
            figures["started"] = time.time()
        base = self.host.rstrip("/")
        if self.me["kind"] == "spectator":
            url = f"{base}/api/tournaments/{self.me['tournament']}/stream"
            self._spawn(_sse, url, self.cookies, self._on_event, self.leaving, "tournament")
            return
        self.match, self.seat = self.me["match"], self.me["seat"]
        self._spawn(_sse, f"{base}/api/stream", self.cookies, lambda e, i: self.waits_changed.set(), self.leaving,
                    "account")
        self._spawn(self._waits)
        self._board()  # the play page's first board, then its stream from there
        url = f"{base}/api/matches/{self.match}/stream?seat={self.seat}&after={self.seq}"
        self._spawn(_sse, url, self.cookies, self._on_event, self.leaving, "match")

    def _spawn(self, fn, *args) -> None:
        """A greenlet of this user's (a stream, the waits' fetcher): killed by on_stop or the test's end."""
        g = gevent.spawn(fn, *args)
        self.greenlets.append(g)
        streams.add(g)
        g.link(streams.discard)

    def on_stop(self) -> None:
        leaving = getattr(self, "leaving", None)  # None: stopped before on_start got that far
        if leaving is not None:
            leaving.set()
            self.changed.set()
            self.waits_changed.set()
        gevent.killall(getattr(self, "greenlets", []), block=False)

    def _on_event(self, event: str, _id) -> None:
        if event in ("match_event", "changed", "end"):
            self.changed.set()

    def _waits(self) -> None:
        while not self.leaving.is_set():
            self.waits_changed.wait(timeout=STREAM_READ)
            if not self.waits_changed.is_set():
                continue
            self.waits_changed.clear()
            if self.leaving.is_set():
                return
            with self.client.get("/waits/", name="/waits/", catch_response=True) as r:
                if r.status_code not in (200, 204):
                    _error(f"waits {_status(r)}")
                    r.failure(str(r.status_code))

    def _board(self) -> str | None:
        """The play page's board fetch; notes what the other seats' moves took to show here."""
        with self.client.get(f"/matches/{self.match}/board/", params={"since": self.seq, "seat": self.seat},
                             name="/matches/[id]/board/", catch_response=True) as r:
            figures["board_fetches"] += 1
            if r.status_code == 204:
                return None
            if r.status_code != 200:
                _error(f"board {_status(r)}")
                r.failure(str(r.status_code))
                return None
            found = BOARD.search(r.text)
            if not found:
                _error("board without data-seq")
                return None
            now = time.perf_counter()
            self.seq = int(found.group(1))
            for entry in moves[self.match]:
                at, expected, mover, seen = entry
                if expected < self.seq and mover != self.seat and self.seat not in seen:
                    seen.add(self.seat)
                    figures["to_board_ms"].append((now - at) * 1000)
            if OVER.search(r.text) and not self.over:
                self.over = True
                figures["matches_over"] += 1
            turn = TURN.search(r.text)
            self.turn = turn.group(1) if turn else None
            return self.turn

    def _move(self) -> None:
        r = self.client.get(f"/api/matches/{self.match}/legal", params={"seat": self.seat}, headers=self.auth,
                            name="/api/matches/[id]/legal")
        if r.status_code != 200:
            _error(f"legal {_status(r)}")
            return
        body = r.json()
        # a person does not catch others' missed calls every time they could; play, draw, call or pass
        options = [m for m in body.get("moves", []) if m.get("type") != "catch"] or body.get("moves", [])
        if not options:
            return
        gevent.sleep(THINK * random.uniform(0.7, 1.3))
        if self.leaving.is_set() or stopping.is_set():
            return
        move = random.choice(options)
        started = time.perf_counter()
        entry = [started, body["seq"], self.seat, set()]
        moves[self.match].append(entry)
        del moves[self.match][:-40]
        with self.client.post(f"/api/matches/{self.match}/moves", headers=self.auth, name="/api/matches/[id]/moves",
                              json={"game": body["game"], "seat": self.seat, "move": move,
                                    "expected_seq": body["seq"]}, catch_response=True) as r:
            elapsed = (time.perf_counter() - started) * 1000
            if r.status_code == 200:
                figures["move_ms"].append(elapsed)
                figures["moves"] += 1
            elif r.status_code == 409:
                # the table moved on while this person thought (a call, a bot): a person's stale click
                figures["conflicts"] += 1
                if entry in moves[self.match]:
                    moves[self.match].remove(entry)
                r.success()
            else:
                _error(f"move {_status(r)}")
                r.failure(f"{r.status_code} {r.text[:200]}")

    @task
    def live(self) -> None:
        if self.me["kind"] == "spectator":
            self.changed.wait(timeout=30)
            self.changed.clear()
            if self.leaving.is_set() or stopping.is_set():
                return
            with self.client.get(f"/tournaments/{self.me['tournament']}/live/", name="/tournaments/[id]/live/",
                                 catch_response=True) as r:
                if r.status_code != 200:
                    _error(f"tournament live {_status(r)}")
                    r.failure(str(r.status_code))
            return
        if self.over:
            gevent.sleep(5)
            return
        if self.turn in ("mine", "act"):
            self.turn = None
            self._move()  # its own events come back through the stream: the board is fetched then
        self.changed.wait(timeout=30)
        self.changed.clear()
        if not (self.leaving.is_set() or stopping.is_set()):
            self._board()  # a 204 (nothing new) keeps what the page shows


def _write(final: bool) -> None:
    """The figures so far, as JSON to ``CLUB_NIGHT_RESULTS``: every few seconds while the test runs (so
    the runner has figures even if it has to kill locust at its deadline) and once at its end."""
    if not RESULTS:
        return
    figures["written"] = time.time()
    out = {**figures, "errors": dict(figures["errors"]), "final": final}
    tmp = f"{RESULTS}.tmp"
    with open(tmp, "w") as f:
        json.dump(out, f)
    os.replace(tmp, RESULTS)


def _snapshots() -> None:
    while not stopping.wait(timeout=5):
        _write(final=False)


@events.test_start.add_listener
def _started(**_kwargs) -> None:
    gevent.spawn(_snapshots)


@events.test_stopping.add_listener
def _stopping(**_kwargs) -> None:
    """The test is ending (locust's ``-t``, a signal): no more stream reads, whichever user they belong to."""
    figures["stopped"] = time.time()
    stopping.set()
    gevent.killall(list(streams), block=False)


@events.test_stop.add_listener
def _stopped(**_kwargs) -> None:
    stopping.set()
    gevent.killall(list(streams), block=False)
    _write(final=True)
