"""The site degrades instead of hanging: with the cache's Redis hung, people sign in
and tokens work (sessions from the database, rate limits open); a hung streams Redis costs a move at
most one short timeout; /readyz says which part is down. "Hung": a local port that accepts connections
and never answers."""
from __future__ import annotations

import hashlib
import secrets

import pytest
from django.contrib.auth import get_user_model

from games import publish
from games.models import ApiToken


@pytest.fixture
def hung_cache(settings, hung_port):
    port, accepted = hung_port
    settings.CACHES = {"default": {"BACKEND": "cardleague.cache.ForgivingRedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{port}/0"}}
    return accepted


def test_with_the_cache_redis_hung_a_person_signs_in_and_a_token_works(db, client, hung_cache):
    # given a person with a token, and the cache's Redis hung
    person = get_user_model().objects.create_user(username="anna", password="pw-anna-123")
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=person, name="bot", key_hash=hashlib.sha256(key.encode()).hexdigest())
    # when she signs in, then her session works on the next page (read from the database)
    response = client.post("/accounts/login/", {"username": "anna", "password": "pw-anna-123"})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "anna"
    # and the API answers her token (the rate limits open, not a 500)
    assert client.get("/api/invitations", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200
    # and the cache was asked at most a few times: after a failure it is left alone for a while
    assert len(hung_cache) <= 2
    # and /readyz says the cache is down while the site is ready
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["ready"] is True and ready.json()["cache"] == "down" and "cache" in ready.json()["degraded"]


def test_a_hung_streams_redis_costs_at_most_one_short_timeout_then_nothing(settings, hung_port):
    port, accepted = hung_port
    settings.CARDLEAGUE_STREAMS_URL = f"redis://127.0.0.1:{port}/0"
    settings.CARDLEAGUE_STREAMS_PUBLISH_TIMEOUT = 0.2
    publish._publisher.cache_clear()
    publish._publish_failed_at = None
    try:
        # when three moves publish their notices
        for seq in range(3):
            publish._publish("cardleague:match:1", str(seq))
        # then only the first one waited for the hung Redis; the others did not ask it
        assert len(accepted) == 1
        assert publish.publishing_down()
    finally:
        publish._publisher.cache_clear()
        publish._publish_failed_at = None


def test_readyz_says_every_part_is_ready_on_the_default(db, client):
    body = client.get("/readyz").json()
    assert body["ready"] is True and body["database"] == "ok" and body["degraded"] == []
    assert body["cache"] == "ok" and body["streams"] in ("ok", "database")


def test_the_api_docs_load_their_files_from_this_site_under_its_csp(db, client):
    # /api/docs was blank: Swagger UI came from a CDN and an inline script, both refused by the CSP
    response = client.get("/api/docs")
    page = response.content.decode()
    assert response.status_code == 200
    assert "/static/ninja/swagger-ui-bundle.js" in page and "/static/ninja/swagger-ui-init.js" in page
    assert "cdn." not in page and "https://" not in page.split("<body", 1)[0]
    # no script runs inline (the settings are a JSON data block)
    import re

    inline = [m for m in re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S) if m[1].strip()]
    assert all('type="application/json"' in attrs for attrs, _ in inline)
    assert "script-src 'self'" in response["Content-Security-Policy"]
