"""What an open stream waits on: this process's hub of notices, and the few threads its database reads run on.

After a commit, services publish a notice on a channel (``games.publish``: a match's new position, an account's
news, a tournament's change). Each server process has one hub per event loop that hands every notice to the
open streams of its channel, which then read what is new from the database:

- with ``STREAMS_URL`` (Redis), the hub is one pattern subscription (``Hub``);
- without it (the no-server default of ``make run``, where the worker is another process), notices are rows of
  ``StreamNotice`` and the hub reads the new ones every ``CARDLEAGUE_STREAM_POLL`` seconds, one query for all
  its streams (``DatabaseHub``).

A stream's database reads run on ``CARDLEAGUE_STREAM_DB_READS`` threads (``reading``) and a new stream's
authentication on two more (``authenticating``), so that however many streams are open they use that many
database connections, and a new stream's ``hello`` never waits behind the reads of streams that are behind.
"""
from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import redis.asyncio as aioredis
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from games.models import StreamNotice
from games.publish import through_redis

log = logging.getLogger("games.web.streams")


# -- the streams' database threads ----------------------------------------------------------------------

_readers: ThreadPoolExecutor | None = None
_authenticators: ThreadPoolExecutor | None = None


def reading(fn):
    """A database read for an open stream, run on this process's few stream-reader threads
    (``CARDLEAGUE_STREAM_DB_READS`` of them, each keeping its own connection): however many streams
    are open, and however many a move wakes at once, they use that many database connections."""
    async def on_reader(*args, **kwargs):
        global _readers
        if _readers is None:
            _readers = ThreadPoolExecutor(settings.CARDLEAGUE_STREAM_DB_READS, thread_name_prefix="stream-db")
        return await asyncio.get_running_loop().run_in_executor(_readers, functools.partial(_read, fn, *args,
                                                                                            **kwargs))
    return on_reader


def authenticating(fn):
    """Authentication of a new stream, on its own threads: a new stream's ``hello`` never waits behind
    the reads of streams that are behind (they have the readers, ``reading``)."""
    async def on_thread(*args, **kwargs):
        global _authenticators
        if _authenticators is None:
            _authenticators = ThreadPoolExecutor(2, thread_name_prefix="stream-auth")
        return await asyncio.get_running_loop().run_in_executor(_authenticators,
                                                                functools.partial(_read, fn, *args, **kwargs))
    return on_thread


def _read(fn, *args, **kwargs):
    """One read on a stream's thread. Without a connection pool the thread keeps its connection (opened
    again when it broke or grew too old); with one (``DB_POOL``) the connection goes back to the pool after
    the read, or the streams' threads would hold the whole pool between reads and the pages' and the API's
    requests would wait for a connection until they fail (the club night found it)."""
    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        if "pool" in connection.settings_dict.get("OPTIONS", {}):
            connection.close()


# -- the hubs: one subscription per process, fanned out to its open streams --------------------------------

class Hub:
    """One Redis pattern subscription (``<prefix>:*``) per event loop (a uvicorn worker has one),
    handing each message to the queues of the open streams on its channel: a worker holding
    thousands of streams holds one Redis connection for them, not thousands."""

    def __init__(self):
        self.queues: dict[str, set[asyncio.Queue]] = {}
        self.reader: asyncio.Task | None = None
        self.pubsub = None
        self.lock = asyncio.Lock()

    def _up(self) -> bool:
        return self.reader is not None and not self.reader.done()

    async def open(self) -> None:
        """Subscribe once: streams that start together (after a deploy) wait for the first one's
        subscription under the lock instead of each opening their own."""
        if self._up():
            return
        async with self.lock:
            if self._up():
                return
            old, self.pubsub = self.pubsub, await self._connect()
            self.reader = asyncio.get_running_loop().create_task(self._read())
            if old is not None:  # the subscription that ended: let its connection go
                try:
                    await old.aclose()
                except Exception:
                    log.debug("closing the old streams subscription failed", exc_info=True)

    async def _connect(self):
        client = aioredis.Redis.from_url(settings.CARDLEAGUE_STREAMS_URL)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        await pubsub.psubscribe(f"{settings.CARDLEAGUE_STREAMS_PREFIX}:*")
        return pubsub

    async def _read(self) -> None:
        try:
            async for message in self.pubsub.listen():
                if message.get("type") != "pmessage":
                    continue
                channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
                data = message["data"].decode() if isinstance(message["data"], bytes) else str(message["data"])
                for queue in list(self.queues.get(channel, ())):
                    queue.put_nowait(data)
        except Exception:  # Redis went away: streams fall back to reading at each heartbeat
            log.warning("the streams' Redis subscription ended", exc_info=True)

    def join(self, channel: str) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        self.queues.setdefault(channel, set()).add(queue)
        return queue

    def leave(self, channel: str, queue: asyncio.Queue) -> None:
        waiting = self.queues.get(channel)
        if waiting is not None:
            waiting.discard(queue)
            if not waiting:
                del self.queues[channel]


class DatabaseHub(Hub):
    """The hub without Redis: every ``CARDLEAGUE_STREAM_POLL`` seconds one query reads the notices
    recorded since the last (by any process: the worker's bots too) and hands those of its streams'
    channels on; every half minute it deletes the notices older than a minute."""

    async def _connect(self):
        self.last = await reading(_latest_notice)()
        self.swept = 0.0
        return None

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(settings.CARDLEAGUE_STREAM_POLL)
            try:
                if self.queues:
                    for pk, channel, message in await reading(_notices_after)(self.last):
                        self.last = pk
                        for queue in list(self.queues.get(channel, ())):
                            queue.put_nowait(message)
                else:
                    self.last = await reading(_latest_notice)()
                if loop.time() - self.swept > 30:
                    self.swept = loop.time()
                    await reading(_notices_sweep)()
            except Exception:  # the database is away for a moment: the streams read at their heartbeat
                log.warning("reading the stream notices failed", exc_info=True)


def _latest_notice() -> int:
    return StreamNotice.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def _notices_after(last: int) -> list[tuple[int, str, str]]:
    return list(StreamNotice.objects.filter(pk__gt=last).order_by("pk").values_list("pk", "channel", "message")[:5000])


def _notices_sweep() -> None:
    StreamNotice.objects.filter(created_at__lt=timezone.now() - timedelta(minutes=1)).delete()


_hubs: dict[int, Hub] = {}


# -- a stream's subscription: (hub, channel, queue) -----------------------------------------------------------

async def subscribe(channel: str):
    """A subscription to ``channel`` for one open stream (through this process's hub)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.setdefault(id(loop), Hub() if through_redis() else DatabaseHub())
    await hub.open()
    queue = hub.join(channel)
    return (hub, channel, queue)


async def next_message(subscription, timeout: float) -> str | None:
    """The next message on the stream's channel, or None after ``timeout`` seconds of silence.

    ``asyncio.timeout``, not ``asyncio.wait_for``: on Python 3.11, ``wait_for`` returns the message
    when a notice arrives just as the client leaves and swallows the cancellation, so the stream of a
    client that left went on for ever. Here a cancellation always ends the stream."""
    _, _, queue = subscription
    if timeout <= 0:
        try:
            return queue.get_nowait()
        except asyncio.QueueEmpty:
            return None
    try:
        async with asyncio.timeout(timeout):
            return await queue.get()
    except TimeoutError:
        return None


async def wait(subscription, timeout: float) -> bool:
    """Wait for the next notice on the channel (True), or ``timeout`` seconds (False); notices that
    arrived meanwhile are drained, since the stream reads everything new from the database."""
    got = await next_message(subscription, timeout) is not None
    while got and await next_message(subscription, 0) is not None:
        pass
    return got


def listening(subscription) -> bool:
    """Whether this process's Redis subscription is up (its reader task runs)."""
    hub = subscription[0]
    return hub.reader is not None and not hub.reader.done()


async def close(subscription) -> None:
    hub, channel, queue = subscription
    hub.leave(channel, queue)
