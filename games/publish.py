"""Publishing notices for the live streams, on commit: a match's new position (``match_changed``: the
event store sends ``events_appended`` and ``games.apps`` hands it here; the store itself does not
publish), a tournament's change and an account's news (services call these). The SSE views
(``games.web.streams``) and their hub read them. Separate from the views so that nothing that writes
imports the edge. Through Redis (``STREAMS_URL``) when there is one, else as ``StreamNotice`` rows (the
no-server default)."""
from __future__ import annotations

import json
import logging
import time
from functools import lru_cache

from django.conf import settings
from django.db import transaction

from games.models import StreamNotice

log = logging.getLogger("games.web.streams")


def through_redis() -> bool:
    """Whether notices fan out through Redis (``STREAMS_URL``); without it, through the database."""
    return bool(settings.CARDLEAGUE_STREAMS_URL)


def _channel(kind: str, key) -> str:
    return f"{settings.CARDLEAGUE_STREAMS_PREFIX}:{kind}:{key}"


@lru_cache(maxsize=1)
def _publisher():
    import redis

    timeout = settings.CARDLEAGUE_STREAMS_PUBLISH_TIMEOUT
    return redis.Redis.from_url(settings.CARDLEAGUE_STREAMS_URL, socket_timeout=timeout,
                                socket_connect_timeout=timeout)


#: When publishing last failed (a circuit breaker: a hung Redis is not asked again for
#: ``PUBLISH_RETRY_AFTER`` seconds, so it costs a move at most one short timeout, not one per notice)
_publish_failed_at: float | None = None
PUBLISH_RETRY_AFTER = 5.0


def publishing_down() -> bool:
    """Whether the streams' Redis failed to take a notice in the last ``PUBLISH_RETRY_AFTER`` seconds."""
    return _publish_failed_at is not None and time.monotonic() - _publish_failed_at < PUBLISH_RETRY_AFTER


def _publish(channel: str, message: str) -> None:
    """Publish a notice, after the commit, within ``CARDLEAGUE_STREAMS_PUBLISH_TIMEOUT`` (0.25 s): a stream
    is a convenience, so a move never fails, or waits long, because the streams' Redis is away or hung
    (the pages then catch up at their next read). Without Redis: a ``StreamNotice`` row."""
    global _publish_failed_at
    if not through_redis():
        try:
            StreamNotice.objects.create(channel=channel, message=message)
        except Exception:
            log.warning("could not record a stream notice for %s", channel, exc_info=True)
        return
    if publishing_down():
        return
    try:
        _publisher().publish(channel, message)
    except Exception:
        if _publish_failed_at is None:
            log.warning("could not publish to %s: the streams' Redis does not answer", channel, exc_info=True)
        _publish_failed_at = time.monotonic()
        return
    if _publish_failed_at is not None:
        log.warning("the streams' Redis answers again")
        _publish_failed_at = None


def match_changed(match_id: int, seq: int) -> None:
    """On commit: a match reached position ``seq`` (its streams read what is new)."""
    transaction.on_commit(lambda: _publish(_channel("match", match_id), str(seq)))


def tournament_changed(tournament_id: int) -> None:
    """On commit: a tournament's standings or rounds changed (its page's stream says so)."""
    transaction.on_commit(lambda: _publish(_channel("tournament", tournament_id), "changed"))


def notify_user(user_id: int | None, kind: str, **data) -> None:
    """On commit: news for an account's stream (``invited``, ``match_started``, ``your_turn``, …)."""
    if user_id is not None:
        message = json.dumps({"kind": kind, **data})
        transaction.on_commit(lambda: _publish(_channel("user", user_id), message))


