#!/usr/bin/env python3
"""cardleague reference client: an outside bot that plays on a cardleague server through its API.

One file, Python 3.11+, the standard library and ``httpx`` (``pip install httpx``; in a cardleague
checkout the project's ``.venv`` already has it: ``.venv/bin/python clients/python/cardleague_client.py``).
Copy it, change the policy, and your bot plays in tournaments and answers challenges.

Running it
----------
::

    export CARDLEAGUE_URL=https://cards.example.org
    export CARDLEAGUE_TOKEN=...            # the bot account's API token (better than --token: not in `ps`)
    python cardleague_client.py                                   # plays for ever, random moves
    python cardleague_client.py --policy engine:greedy --matches 3
    python cardleague_client.py --policy mybot:choose --accept-from alice,bob
    python cardleague_client.py --challenge alice --game livol --options '{"target": 200}' --matches 1

Options: ``--url`` / ``--token`` (or ``CARDLEAGUE_URL`` / ``CARDLEAGUE_TOKEN``); ``--policy`` (below;
default ``random``); ``--matches N``: exit 0 once N matches have ended (default 0: run for ever);
``--accept-from NAMES``: accept invitations only from these usernames (comma-separated, repeatable;
others are declined; tournament seats are always taken: entering the tournament was the decision);
``--max-matches N``: accept an invitation only while fewer than N matches are being played (default 4;
beyond, it is declined with the reason "busy"), so a flood of challenges is not a flood of matches;
``--challenge NAME --game GAME`` [``--seats N``] [``--options JSON``]: challenge accounts to a match
on start; ``--records DIR``: save each ended match's portable record as ``DIR/match-<id>.json``
(check it offline with ``python -m engine.verify FILE``); ``--seed S``: make the policy's randomness
repeatable; ``-v`` / ``-q``: more / less logging.

Exit codes: 0 when ``--matches`` matches have ended; 2 for a bad command line or a refused token;
130 on Ctrl-C.

What it does
------------
1. **The account stream** ``GET /api/stream`` (Server-Sent Events) brings the account's news: first
   ``hello`` and whatever waits now (``invited``, ``seated``: a tournament seat to take,
   ``your_turn``), then live ``invited``, ``match_started``, ``your_turn``, ``round_started``. When the
   connection drops the client reconnects with exponential backoff; since every connection starts
   with what still waits, nothing that matters is missed.
2. **Invitations and tournament seats** (``invited``, ``seated``, and a live ``round_started`` that
   names a match) are taken with ``POST /api/matches/{id}/join`` and a random value of the client's
   own (``{"entropy": secrets.token_hex(16)}``): it goes into the shuffle, and since the server
   committed to its own secret before the seats' values came in, it cannot pick the deal (the
   match's record proves it). Declining is ``POST /api/matches/{id}/decline``.
3. **Each match is played in its own thread**, which follows the seat's stream
   ``GET /api/matches/{id}/stream?seat=n`` (``match_event`` frames with ``id: <seq>``; ``end`` when
   the match is over), resuming after a drop with ``Last-Event-ID``. On (re)connecting, and whenever
   something new happened, it reads ``GET .../view?seat=n``; if the seat is in ``view["to_act"]`` it reads
   ``GET .../legal?seat=n``, asks the policy, and posts ``POST .../moves`` with
   ``{"game", "seat", "move", "expected_seq"}`` (``game``: the legal moves' ``game``). ``409 stale_seq`` means the match moved on meanwhile: read
   again and decide again. It never posts when the seat is not asked to act. (That is about four
   requests a move; the server's rate limits answer 429 beyond theirs, and the client waits.)
4. It **exits** after ``--matches`` matches have ended (their threads log the result).

Every ASGI server has streams (a local ``make run`` too: without Redis they go through its database).
A server without them (503 ``streams_unavailable``: a WSGI server) is polled instead:
``/api/invitations`` and ``/api/matches/{id}`` every second. (An expected answer: the server's console
does not log it.)

Policies
--------
A policy is a function ``policy(game, view, legal, rng, must_act) -> move | None``:

- ``game``: the game's name (``"livol"``, ``"uno_flip"``, ``"karuselis"``, ``"iota"``, ``"cardavia"``);
- ``view``: what the seat may see (``view["hand"]``, ``view["to_act"]``, ``view["turn"]``, and the
  game's keys: docs/engine-contract.md "View keys every client may rely on");
- ``legal``: every move the seat may make now, as dicts (``{"type": "play", "card": "R5"}``, …);
- ``rng``: a ``random.Random`` for the policy's own randomness (repeatable with ``--seed``);
- ``must_act``: true when the seat holds the turn (``view["turn"] == seat``) and has to move; false
  when only optional moves are offered (LIVOL's catch or call out of turn): return ``None`` to let
  them go.

Return one of the ``legal`` moves. If the server refuses it, the client falls back to a random legal
move when the seat must act. ``--policy`` chooses one:

- ``random``: any legal move, optional moves half of the time (standard library only);
- ``engine:<name>``: the project's own bots (``engine.bots.choose``, e.g. ``engine:greedy``), when
  the cardleague engine is importable (installed, or this file is run from a checkout);
- ``module:function``: your own, e.g. ``--policy mybot:choose`` with ``mybot.py`` in the current
  directory::

      def choose(game, view, legal, rng, must_act):
          # a card when there is one (else draw, pass, ...); optional moves never
          if not must_act:
              return None
          plays = [m for m in legal if m["type"] == "play"]
          return rng.choice(plays or legal)
"""
from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import random
import secrets
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

log = logging.getLogger("cardleague")

Policy = Callable[[str, dict, list, random.Random, bool], dict | None]

ENDED = ("finished", "aborted", "cancelled")
REQUEST_TIMEOUT = httpx.Timeout(30.0, connect=10.0)
#: The server sends a heartbeat every ~15 s; this long without a byte means the stream is dead.
STREAM_READ_TIMEOUT = 45.0
POLL_SECONDS = 1.0

#: Set when the client is done: every loop and every backoff wait stops.
STOP = threading.Event()


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# -- HTTP ----------------------------------------------------------------------------------------------

class ApiError(Exception):
    """An error answer: ``status`` and the body's ``code``, ``rule`` and ``message``."""

    def __init__(self, status: int, body: Any):
        body = body if isinstance(body, dict) else {}
        self.status = status
        self.code = body.get("code") or f"http_{status}"
        self.rule = body.get("rule")
        self.message = body.get("message") or ""
        super().__init__(f"{status} {self.code}" + (f" [{self.rule}]" if self.rule else "")
                         + (f": {self.message}" if self.message else ""))


class Backoff:
    """Exponential backoff with jitter: 1 s, 2 s, 4 s, … up to ``most`` seconds."""

    def __init__(self, first: float = 1.0, most: float = 30.0):
        self.first, self.most, self.delay = first, most, first

    def reset(self) -> None:
        self.delay = self.first

    def next(self) -> float:
        delay = random.uniform(self.delay / 2, self.delay)
        self.delay = min(self.delay * 2, self.most)
        return delay


@dataclass
class Frame:
    """One Server-Sent Event: its ``event`` name, its ``data`` (parsed JSON) and its ``id``."""
    event: str
    data: Any
    id: int | None = None


def sse_frames(lines: Iterator[str]) -> Iterator[Frame]:
    """Parse Server-Sent Events from a response's lines (comment lines, the heartbeats, are skipped)."""
    event, data, frame_id = "message", [], None
    for line in lines:
        if line == "":
            if data:
                yield Frame(event, json.loads("\n".join(data)), frame_id)
            event, data, frame_id = "message", [], None
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            frame_id = int(value) if value.isdigit() else None


class Api:
    """One thread's connection to the server (each thread makes its own).

    ``get`` and ``post`` send JSON with the bearer token and retry what is worth retrying — a lost
    connection, a 5xx, a 429 (after its Retry-After) — with backoff; any other error answer raises
    ``ApiError``. Retrying a move is safe: it carries ``expected_seq``, so a move that did land
    the first time is answered ``409 stale_seq`` the second time, never played twice.
    """

    def __init__(self, url: str, token: str):
        self.http = httpx.Client(base_url=url.rstrip("/"), timeout=REQUEST_TIMEOUT,
                                 headers={"Authorization": f"Bearer {token}", "Accept": "application/json",
                                          "User-Agent": "cardleague-reference-client/1"})

    def close(self) -> None:
        self.http.close()

    def get(self, path: str, **params) -> Any:
        return self.request("GET", path, params=params or None)

    def post(self, path: str, body: dict | None = None, *, attempts: int = 5) -> Any:
        return self.request("POST", path, body=body or {}, attempts=attempts)

    def request(self, method: str, path: str, *, params=None, body=None, attempts: int = 5) -> Any:
        backoff = Backoff()
        for attempt in range(1, attempts + 1):
            last = attempt == attempts
            try:
                response = self.http.request(method, path, params=params, json=body)
            except httpx.TransportError as exc:
                if last or STOP.is_set():
                    raise
                log.warning("%s %s: %s; retrying", method, path, exc.__class__.__name__)
                STOP.wait(backoff.next())
                continue
            if response.status_code == 429 and not last:
                wait = min(float(response.headers.get("Retry-After") or 5), 60.0)
                log.warning("%s %s: rate limited; waiting %.0f s", method, path, wait)
                STOP.wait(wait)
                continue
            if response.status_code >= 500 and response.status_code != 503 and not last:
                log.warning("%s %s: server error %d; retrying", method, path, response.status_code)
                STOP.wait(backoff.next())
                continue
            if response.status_code >= 400:
                raise ApiError(response.status_code, _json_or_none(response))
            return response.json()
        raise AssertionError("unreachable")

    def stream(self, path: str, *, params=None, last_event_id: int | None = None) -> Iterator[Frame]:
        """The frames of an SSE stream until the server closes it; ``ApiError`` if it is refused,
        ``httpx.TransportError`` (a ``ReadTimeout`` too) when the connection drops."""
        headers = {"Accept": "text/event-stream"}
        if last_event_id:
            headers["Last-Event-ID"] = str(last_event_id)
        timeout = httpx.Timeout(REQUEST_TIMEOUT.connect, read=STREAM_READ_TIMEOUT)
        with self.http.stream("GET", path, params=params, headers=headers, timeout=timeout) as response:
            if response.status_code != 200:
                response.read()
                raise ApiError(response.status_code, _json_or_none(response))
            yield from sse_frames(response.iter_lines())


def _json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


# -- policies ------------------------------------------------------------------------------------------

def random_policy(game: str, view: dict, legal: list, rng: random.Random, must_act: bool) -> dict | None:
    """Any legal move, uniformly; optional moves (out of turn) half of the time."""
    if not legal or (not must_act and rng.random() < 0.5):
        return None
    return rng.choice(legal)


def engine_policy(name: str) -> Policy:
    """The project's bot ``name`` (``engine.bots.choose``); ``random`` for a game that has no such bot."""
    try:
        from engine import registry
        from engine.bots import choose, policies_for
    except ImportError:
        # run from a checkout (clients/python/ inside the project): the engine is two levels up
        root = Path(__file__).resolve().parents[2]
        if not (root / "engine" / "__init__.py").is_file():
            raise SystemExit(f"--policy engine:{name} needs the cardleague engine: run this file from a "
                             "checkout of the project, or install the project (pip install -e .)") from None
        sys.path.insert(0, str(root))
        from engine import registry
        from engine.bots import choose, policies_for
    known = sorted({p for game in registry.names() for p in policies_for(game)})
    if name not in known:
        raise SystemExit(f"no engine policy {name!r}; the engine has: {', '.join(known)}")

    def policy(game: str, view: dict, legal: list, rng: random.Random, must_act: bool) -> dict | None:
        return choose(game, name if name in policies_for(game) else "random", view, legal, rng, must_act)

    return policy


def load_policy(spec: str) -> Policy:
    """``random``, ``engine:<name>`` or ``module:function``."""
    if spec == "random":
        return random_policy
    if spec.startswith("engine:"):
        return engine_policy(spec.partition(":")[2])
    module_name, _, function_name = spec.partition(":")
    if not module_name or not function_name:
        raise SystemExit(f"--policy {spec!r}: use random, engine:<name> or module:function")
    sys.path.insert(0, os.getcwd())
    try:
        return getattr(importlib.import_module(module_name), function_name)
    except (ImportError, AttributeError) as exc:
        raise SystemExit(f"--policy {spec!r}: {exc}") from None


# -- one match -----------------------------------------------------------------------------------------

class MatchPlayer(threading.Thread):
    """Plays one seat of one match, from joining (or the start) to the end, in its own thread."""

    def __init__(self, bot: Bot, match_id: int, seat: int | None):
        super().__init__(name=f"match-{match_id}", daemon=True)
        self.bot, self.match_id, self.seat = bot, match_id, seat
        self.game = ""
        self.status = "waiting"
        self.checked = 0  # the position whose view was last read: events up to here need no new look
        seed = bot.args.seed
        self.rng = random.Random(f"{seed}:{match_id}") if seed is not None else random.Random()

    @property
    def path(self) -> str:
        return f"/api/matches/{self.match_id}"

    def run(self) -> None:
        api = self.bot.api()
        ended = False
        try:
            ended = self.play(api)
        except ApiError as exc:
            log.error("match %d: %s; leaving it", self.match_id, exc)
        except Exception:
            if not STOP.is_set():
                log.exception("match %d: unexpected error; leaving it", self.match_id)
        finally:
            api.close()
            self.bot.match_left(self.match_id, ended)

    def play(self, api: Api) -> bool:
        """Follow the seat's stream and act on what it brings; True once the match has ended."""
        detail = api.get(self.path)
        if not detail["your_seats"]:
            log.warning("match %d: this account holds no seat in it", self.match_id)
            return False
        if self.seat not in detail["your_seats"]:
            self.seat = detail["your_seats"][0]
        self.game, self.status = detail["game"], detail["status"]
        names = ", ".join(f"{s['seat']}: {s['name']}" for s in detail["seats"])
        log.info("match %d: %s, seat %d, %s (%s)", self.match_id, self.game, self.seat, self.status, names)
        if self.status in ENDED:
            return self.finish(api)
        self.checked = position = detail["last_seq"]
        backoff = Backoff()
        while not STOP.is_set():
            try:
                self.act(api)  # catch up first: a move may be due before anything new happens
                position = max(position, self.checked)  # what the view showed needs no second look
                for frame in api.stream(f"{self.path}/stream", params={"seat": self.seat}, last_event_id=position):
                    backoff.reset()
                    if frame.event == "match_event":
                        position = frame.id or position
                        log.debug("match %d: #%s %s", self.match_id, frame.id, compact(frame.data))
                        if position > self.checked:
                            self.act(api)
                    elif frame.event == "end":
                        return self.finish(api)
            except ApiError as exc:
                if exc.code == "streams_unavailable":
                    return self.poll(api)
                if exc.status in (401, 403, 404):
                    raise
                log.warning("match %d: stream refused (%s)", self.match_id, exc)
            except httpx.TransportError as exc:
                log.warning("match %d: stream dropped (%s)", self.match_id, exc.__class__.__name__)
            delay = backoff.next()
            log.info("match %d: resuming the stream after event %d in %.1f s", self.match_id, position, delay)
            STOP.wait(delay)
        return False

    def poll(self, api: Api) -> bool:
        """Without streams: look at the match every second."""
        log.info("match %d: the server has no streams; polling", self.match_id)
        while not STOP.wait(POLL_SECONDS):
            try:
                detail = api.get(self.path)
                self.status = detail["status"]
                if self.status in ENDED:
                    return self.finish(api)
                if detail["last_seq"] > self.checked:
                    self.act(api)
            except httpx.TransportError as exc:
                log.warning("match %d: %s", self.match_id, exc.__class__.__name__)
        return False

    def act(self, api: Api) -> None:
        """Move while the seat is asked to (it is in ``view["to_act"]``); return when it is not, or
        when the policy lets optional moves go."""
        refused_at = None  # the position where the server refused the policy's move
        while not STOP.is_set():
            if self.status == "waiting":  # not dealt yet: nothing to see
                detail = api.get(self.path)
                self.status, self.checked = detail["status"], detail["last_seq"]
                if self.status != "running":
                    return
            seen = api.get(f"{self.path}/view", seat=self.seat)
            self.status, self.checked, view = seen["status"], seen["seq"], seen["view"]
            if self.status != "running" or self.seat not in view.get("to_act", ()):
                return
            legal = api.get(f"{self.path}/legal", seat=self.seat)
            if legal["seq"] != seen["seq"]:
                continue  # the match moved on between the two reads
            if not legal["moves"]:
                return
            must_act = view.get("turn") == self.seat
            if refused_at == seen["seq"]:
                move = self.rng.choice(legal["moves"]) if must_act else None
            else:
                move = self.choose(view, legal["moves"], must_act)
            if move is None:
                log.debug("match %d: lets the optional moves go at %d", self.match_id, seen["seq"])
                return
            try:
                done = api.post(f"{self.path}/moves", {"game": legal["game"], "seat": self.seat, "move": move,
                                                       "expected_seq": seen["seq"]})
            except ApiError as exc:
                if exc.code == "stale_seq":
                    log.info("match %d: %s came too late (stale_seq); reading again", self.match_id, compact(move))
                    continue
                if exc.code == "match_over":
                    return  # the stream's ``end`` follows
                if exc.status in (400, 422):
                    log.warning("match %d: %s refused: %s", self.match_id, compact(move), exc)
                    if refused_at == seen["seq"]:
                        return  # a listed move refused too: wait for the match to move on
                    refused_at = seen["seq"]  # once more, with a random legal move if the seat must act
                    continue
                raise
            log.info("match %d: seat %d %s -> seq %d", self.match_id, self.seat, compact(move), done["seq"])
            self.checked = done["seq"]

    def choose(self, view: dict, legal: list, must_act: bool) -> dict | None:
        """The policy's move; a random legal one if the policy fails or passes when it must act."""
        try:
            move = self.bot.policy(self.game, view, legal, self.rng, must_act)
        except Exception:
            log.exception("match %d: the policy failed", self.match_id)
            move = None
        if move is None and must_act:
            log.warning("match %d: no move from the policy although it is the seat's turn; playing a random one",
                        self.match_id)
            move = self.rng.choice(legal)
        return move

    def finish(self, api: Api) -> bool:
        """Log the result (and save the record with ``--records``); True: the match has ended."""
        detail = api.get(self.path)
        result = detail.get("result") or {}
        ranking = result.get("ranking") or []
        ahead = 0
        for place in ranking:
            if self.seat in place:
                break
            ahead += len(place)
        if ranking:
            log.info("match %d %s: seat %d placed %d of %d (scores %s)", self.match_id, detail["status"],
                     self.seat, ahead + 1, len(detail["seats"]), result.get("scores"))
        else:
            log.info("match %d %s", self.match_id, detail["status"])
        if self.bot.args.records:
            self.save_record(api, Path(self.bot.args.records) / f"match-{self.match_id}.json")
        return True

    def save_record(self, api: Api, target: Path) -> None:
        try:
            record = api.get(f"{self.path}/record")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(record, indent=1), encoding="utf-8")
            log.info("match %d: record saved to %s", self.match_id, target)
        except (ApiError, httpx.TransportError, OSError) as exc:
            log.warning("match %d: could not save the record: %s", self.match_id, exc)


# -- the account ---------------------------------------------------------------------------------------

class Bot:
    """The account: follows its news, takes seats, starts a ``MatchPlayer`` per match, counts ends."""

    def __init__(self, args: argparse.Namespace, policy: Policy):
        self.args, self.policy = args, policy
        self.accept_from = {n.strip() for value in args.accept_from or () for n in value.split(",") if n.strip()}
        self.players: dict[int, MatchPlayer] = {}
        self.ended: set[int] = set()
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.exit_code = 0

    def api(self) -> Api:
        return Api(self.args.url, self.args.token)

    def run(self) -> int:
        if self.args.challenge:
            api = self.api()
            try:
                self.challenge(api)
            except (ApiError, httpx.TransportError) as exc:
                log.error("could not challenge: %s", exc)
                return 2
            finally:
                api.close()
        threading.Thread(target=self.follow_account, name="account", daemon=True).start()
        self.done.wait()
        STOP.set()
        return self.exit_code

    def stop(self, code: int) -> None:
        self.exit_code = code
        self.done.set()

    # the account's news

    def follow_account(self) -> None:
        api = self.api()
        backoff = Backoff()
        while not STOP.is_set():
            try:
                for frame in api.stream("/api/stream"):
                    backoff.reset()
                    self.on_news(api, frame.event, frame.data or {})
            except ApiError as exc:
                if exc.status == 401:
                    log.error("the server refused the token (%s)", exc)
                    return self.stop(2)
                if exc.code == "streams_unavailable":
                    return self.poll_invitations(api)
                log.warning("account stream refused (%s)", exc)
            except httpx.TransportError as exc:
                log.warning("account stream dropped (%s)", exc.__class__.__name__)
            except Exception:
                log.exception("account stream: unexpected error")
            if STOP.is_set():
                break
            delay = backoff.next()
            log.info("reconnecting to the account stream in %.1f s", delay)
            STOP.wait(delay)

    def on_news(self, api: Api, kind: str, news: dict) -> None:
        match_id, seat = news.get("match"), news.get("seat")
        if kind == "hello":
            log.info("connected as %s (%d waiting)", news.get("user"), news.get("waiting", 0))
        elif kind == "invited":
            by = news.get("by")
            if self.accept_from and by not in self.accept_from:
                log.info("match %d: declining the invitation from %s (not in --accept-from)", match_id, by)
                self.request(api, "POST", f"/api/matches/{match_id}/decline", {"reason": "not in --accept-from"})
            elif self.playing() >= self.args.max_matches:
                log.info("match %d: declining the invitation from %s (already playing %d matches)", match_id, by,
                         self.playing())
                self.request(api, "POST", f"/api/matches/{match_id}/decline",
                             {"reason": f"busy: already playing {self.args.max_matches} matches"})
            else:
                log.info("match %d: accepting the invitation from %s to %s", match_id, by, news.get("game"))
                self.join(api, match_id, seat)
        elif kind == "seated":
            log.info("match %d: taking a tournament seat at %s", match_id, news.get("game"))
            self.join(api, match_id, seat)
        elif kind == "round_started":
            log.info("tournament %s: round %s started%s", news.get("tournament"), news.get("round"),
                     f" (match {match_id})" if match_id else " (no match for us: a bye)")
            if match_id:
                self.join(api, match_id, None)  # the seat waits to be taken; joining twice changes nothing
        elif kind in ("match_started", "your_turn"):
            log.debug("match %s: %s", match_id, kind)
            if match_id:
                self.play(match_id, seat)
        else:
            log.debug("news %s: %s", kind, compact(news))

    def poll_invitations(self, api: Api) -> None:
        """Without streams: look at the invitations every second."""
        log.info("the server has no streams; polling /api/invitations")
        try:  # after a restart: the running matches we hold a seat in, those waiting for our move first
            for mine in api.get("/api/account/matches"):
                if mine["status"] == "running":
                    self.play(mine["match"], mine["seat"])
        except (ApiError, httpx.TransportError) as exc:
            log.warning("account/matches: %s", exc)
        while not STOP.is_set():
            try:
                for invitation in api.get("/api/invitations"):
                    if invitation["match"] not in self.players:
                        self.on_news(api, invitation["status"], {**invitation, "by": invitation["invited_by"]})
            except ApiError as exc:
                if exc.status == 401:
                    log.error("the server refused the token (%s)", exc)
                    return self.stop(2)
                log.warning("invitations: %s", exc)
            except httpx.TransportError as exc:
                log.warning("invitations: %s", exc.__class__.__name__)
            STOP.wait(POLL_SECONDS)

    def join(self, api: Api, match_id: int, seat: int | None) -> None:
        """Take the seat with our own randomness for the shuffle, then play the match."""
        if self.request(api, "POST", f"/api/matches/{match_id}/join", {"entropy": secrets.token_hex(16)}):
            self.play(match_id, seat)

    def request(self, api: Api, method: str, path: str, body: dict | None = None) -> bool:
        """A request whose refusal is logged, not raised (an invitation already closed, …)."""
        try:
            api.request(method, path, body=body)
            return True
        except ApiError as exc:
            log.warning("%s %s: %s", method, path, exc)
        except httpx.TransportError as exc:
            log.warning("%s %s: %s", method, path, exc.__class__.__name__)
        return False

    def challenge(self, api: Api) -> None:
        opponents = [n.strip() for value in self.args.challenge for n in value.split(",") if n.strip()]
        body = {"game": self.args.game, "opponents": opponents, "entropy": secrets.token_hex(16)}
        if self.args.seats:
            body["seats"] = self.args.seats
        if self.args.options:
            body["options"] = json.loads(self.args.options)
        match = api.post("/api/challenges", body, attempts=1)  # not repeated: it would open a second match
        log.info("match %d: challenged %s to %s; waiting for them to accept", match["id"], ", ".join(opponents),
                 self.args.game)
        self.play(match["id"], match["your_seats"][0])

    # the matches

    def playing(self) -> int:
        """How many matches this client is playing now."""
        with self.lock:
            return sum(1 for p in self.players.values() if p.is_alive())

    def play(self, match_id: int, seat: int | None) -> None:
        """Start the match's thread unless it runs already or the match is over."""
        with self.lock:
            running = self.players.get(match_id)
            if match_id in self.ended or (running is not None and running.is_alive()) or STOP.is_set():
                return
            self.players[match_id] = player = MatchPlayer(self, match_id, seat)
        player.start()

    def match_left(self, match_id: int, ended: bool) -> None:
        with self.lock:
            self.players.pop(match_id, None)
            if not ended or match_id in self.ended:
                return
            self.ended.add(match_id)
            count = len(self.ended)
        wanted = self.args.matches
        log.info("%d match%s ended%s", count, "" if count == 1 else "es", f" of {wanted}" if wanted else "")
        if wanted and count >= wanted:
            self.stop(0)


# -- the command line ----------------------------------------------------------------------------------

def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="cardleague reference client: an outside bot.",
                                     epilog="See the module docstring for the protocol and policies.")
    parser.add_argument("--url", default=os.environ.get("CARDLEAGUE_URL"),
                        help="the server, e.g. https://cards.example.org (env CARDLEAGUE_URL)")
    parser.add_argument("--token", default=os.environ.get("CARDLEAGUE_TOKEN"),
                        help="the bot account's API token; better in env CARDLEAGUE_TOKEN: a command line "
                             "is visible to everyone on the machine (ps)")
    parser.add_argument("--policy", default="random", help="random | engine:<name> | module:function")
    parser.add_argument("--matches", type=int, default=0, metavar="N", help="exit after N matches ended (0: never)")
    parser.add_argument("--accept-from", action="append", metavar="NAMES",
                        help="accept invitations only from these usernames (comma-separated)")
    parser.add_argument("--max-matches", type=int, default=4, metavar="N",
                        help="accept invitations only while playing fewer than N matches (default 4)")
    parser.add_argument("--challenge", action="append", metavar="NAMES", help="challenge these usernames")
    parser.add_argument("--game", help="the game of --challenge (livol, uno_flip, karuselis, iota, cardavia)")
    parser.add_argument("--seats", type=int, help="seats of --challenge's match (bots fill the rest)")
    parser.add_argument("--options", help='game options of --challenge\'s match as JSON, e.g. \'{"target": 200}\'')
    parser.add_argument("--records", metavar="DIR", help="save each ended match's record in DIR")
    parser.add_argument("--seed", help="seed for the policy's randomness (repeatable decisions)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every stream event")
    parser.add_argument("-q", "--quiet", action="store_true", help="log warnings and errors only")
    args = parser.parse_args(argv)
    if not args.url or not args.token:
        parser.error("--url and --token (or CARDLEAGUE_URL and CARDLEAGUE_TOKEN) are required")
    if args.challenge and not args.game:
        parser.error("--challenge needs --game")
    if args.options and not isinstance(_json_or_error(args.options), dict):
        parser.error("--options is a JSON object")
    if args.matches < 0:
        parser.error("--matches is 0 or more")
    return args


def _json_or_error(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    try:
        policy = load_policy(args.policy)
    except SystemExit as exc:
        log.error("%s", exc)
        return 2
    log.info("cardleague client for %s, policy %s%s", args.url, args.policy,
             f", until {args.matches} matches have ended" if args.matches else "")
    try:
        return Bot(args, policy).run()
    except KeyboardInterrupt:
        STOP.set()
        log.info("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
