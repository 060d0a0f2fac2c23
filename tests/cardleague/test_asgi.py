"""The web front (``cardleague/asgi.py``): Django on fixed pools of threads, the moves on threads of their own;
a body over the limit gets its answer."""
from __future__ import annotations

import asyncio
import json
import threading

import httpx
import pytest
from django.conf import settings

from cardleague import asgi
from games.services import SeatSpec, match_create
from tests.games.conftest import recorded_events as _events


def test_a_move_is_answered_while_every_read_thread_is_busy(monkeypatch):
    """Reads (GET, HEAD, OPTIONS) and writes have pools of their own: "a busy evening's board fetches never
    make a move wait behind them"."""
    reads = settings.CARDLEAGUE_WEB_THREADS
    entered = threading.Semaphore(0)
    release = threading.Event()

    def django_stand_in(environ, start_response):
        """Holds every GET until released (a board that takes its time); answers anything else at once."""
        if environ["REQUEST_METHOD"] == "GET":
            entered.release()
            release.wait(120)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [environ["REQUEST_METHOD"].encode()]

    monkeypatch.setattr(asgi, "django_application", django_stand_in)

    async def evening():
        transport = httpx.ASGITransport(app=asgi.application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            boards = [asyncio.create_task(client.get(f"/matches/{i}/board")) for i in range(reads)]
            try:
                # given every read thread holding a board
                for _ in range(reads):
                    assert await asyncio.to_thread(entered.acquire, timeout=60), "the boards never reached Django"
                # when a move comes
                move = await asyncio.wait_for(
                    client.post("/api/matches/1/moves", content=b'{"move": {"type": "draw"}}',
                                headers={"Content-Type": "application/json"}), timeout=60)
            finally:
                release.set()
            return move, await asyncio.gather(*boards)

    move, boards = asyncio.run(evening())
    # then it was answered while the boards still waited, and the boards were answered after
    assert (move.status_code, move.text) == (200, "POST")
    assert [(b.status_code, b.text) for b in boards] == [(200, "GET")] * reads


@pytest.mark.usefixtures("fresh_rate_counters")
@pytest.mark.django_db(transaction=True)
def test_a_body_over_the_limit_sent_whole_to_the_server_gets_its_answer(asgi_server, django_user_model):
    """Through the ASGI server (``cardleague/asgi.py``), a client that sends its whole body before it reads (as
    urllib does) gets the 413 in the JSON error shape for a 5 MB move, not a connection reset, and nothing
    is recorded."""
    import urllib.error
    import urllib.request

    from tests.games.web.test_streams import token_for

    person = django_user_model.objects.create_user(username="ilze", password="x")
    match = match_create(game="livol", seats=[SeatSpec(user=person), SeatSpec(bot="greedy")], seed="big-body",
                         wake_bots=False)
    before = _events(match)
    body = json.dumps({"move": {"type": "draw"}, "expected_seq": 1, "pad": "x" * 5_000_000}).encode()
    request = urllib.request.Request(f"{asgi_server}/api/matches/{match.pk}/moves?seat=0", data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {token_for(person)}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    assert refused.value.code == 413
    assert json.loads(refused.value.read())["code"] == "request_too_large"
    assert _events(match) == before
