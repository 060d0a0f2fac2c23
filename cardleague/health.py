"""``GET /readyz``: whether this server can serve, and which of its parts is degraded.

The database is the one part the site cannot do without (503 when it does not answer). The others
degrade: the cache's Redis (sessions then come from the database, the rate limits open), the streams'
Redis (the pages catch up at their next read). Each is reported as ``ok`` or ``down`` (the streams:
``database`` without Redis), for a load balancer and for an organiser looking at why the site is slow."""
from __future__ import annotations

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from games import publish
from games.web import streams


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception:
        return "down"


def _cache() -> str:
    down = getattr(cache, "down", None)
    if down is None:
        return "ok"  # the file cache of the no-server default
    if down():
        return "down"
    cache.get("readyz")  # asks Redis (within its short timeout); a failure marks it down
    return "down" if down() else "ok"


def _streams() -> str:
    if not publish.through_redis():
        return "database"
    if publish.publishing_down():
        return "down"
    try:
        publish._publisher().ping()
        return "ok"
    except Exception:
        return "down"


@never_cache
def readyz(request):
    parts = {"database": _database(), "cache": _cache(), "streams": _streams()}
    degraded = sorted(k for k, v in parts.items() if v == "down" and k != "database")
    ready = parts["database"] == "ok"
    return JsonResponse({"ready": ready, "degraded": degraded, **parts,
                         "streams_open": streams.open_streams()}, status=200 if ready else 503)
