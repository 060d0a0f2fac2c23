"""A Redis cache that degrades instead of failing: with the cache's Redis down or hung, the site keeps
working.

What uses the cache here: sessions (``cached_db``: the database holds every session, the cache only
saves its read), the rate limits (django-ratelimit) and the API's throttles. When Redis does not answer
within ``socket_timeout``, a read is a miss (sessions then come from the database), a write is dropped,
and a count starts again at 1 — so the rate limits fail open, with one warning in the log. After a
failure the cache is not asked again for ``RETRY_AFTER`` seconds (a circuit breaker): a hung Redis costs
one timeout every few seconds, not one per request. ``/readyz`` says when it is down (``down()``).
"""
from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger("cardleague.cache")

RETRY_AFTER = 5.0  # seconds without asking a cache that failed


class ForgivingRedisCache(RedisCache):
    """``RedisCache`` that answers a miss (reads), drops (writes) or counts from 1 (``incr``) while
    Redis is away, instead of raising into the request."""

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", 0.5)
        options.setdefault("socket_timeout", 0.5)
        super().__init__(server, {**params, "OPTIONS": options})
        self._failed_at: float | None = None

    def down(self) -> bool:
        """Whether the last call failed less than ``RETRY_AFTER`` seconds ago."""
        return self._failed_at is not None and time.monotonic() - self._failed_at < RETRY_AFTER

    def _call(self, name: str, default, *args, **kwargs):
        if self.down():
            return default
        try:
            result = getattr(super(), name)(*args, **kwargs)
        except ValueError:  # ``incr`` of a key that is not there: the caller handles it
            raise
        except Exception as exc:  # redis.exceptions.ConnectionError, TimeoutError, OSError…
            if self._failed_at is None:
                log.warning("the cache's Redis does not answer (%s): sessions from the database, rate limits "
                            "open, until it answers again", exc.__class__.__name__)
            self._failed_at = time.monotonic()
            return default
        if self._failed_at is not None:
            log.warning("the cache's Redis answers again")
            self._failed_at = None
        return result

    def get(self, key, default=None, version=None):
        return self._call("get", default, key, default, version)

    def get_many(self, keys, version=None):
        return self._call("get_many", {}, keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", False, key, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", None, key, value, timeout, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", [], data, timeout, version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", True, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", False, key, timeout, version)

    def incr(self, key, delta=1, version=None):
        return self._call("incr", delta, key, delta, version)

    def delete(self, key, version=None):
        return self._call("delete", False, key, version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", None, keys, version)
