"""What a page's or the API's request may carry (``games/web/params.py`` and the URL patterns): a move
nested without end, a sequence number that is not a number and an id beyond the database's range are
refused as the client's error, never a server error, and nothing is recorded."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.games.conftest import first_actor
from tests.games.conftest import recorded_events as _events


@pytest.mark.usefixtures("fresh_rate_counters")
def test_a_deeply_nested_page_move_is_a_400_not_a_server_error(livol_match, people):
    seat, _ = first_actor(livol_match)
    client = Client()
    client.force_login(people[seat])
    before = _events(livol_match)
    for text in ["[" * 100000, "{" * 5000, json.dumps({"type": "play", "card": "R1" * 3000})]:
        response = client.post(f"/matches/{livol_match.pk}/move/", {"move": text, "expected_seq": livol_match.last_seq})
        assert response.status_code == 400, text[:20]
    assert _events(livol_match) == before


@pytest.mark.usefixtures("fresh_rate_counters")
def test_a_non_numeric_expected_seq_from_the_page_is_refused(livol_match, people):
    seat, legal = first_actor(livol_match)
    client = Client()
    client.force_login(people[seat])
    before = _events(livol_match)
    response = client.post(f"/matches/{livol_match.pk}/move/", {"move": json.dumps(legal[0]), "expected_seq": "4x"})
    assert response.status_code == 400 and b"malformed_move" in response.content
    assert _events(livol_match) == before


@pytest.mark.usefixtures("fresh_rate_counters")
def test_ids_beyond_the_database_range_are_404_not_500(people):
    client = Client()
    client.force_login(people[0])
    assert client.get(f"/matches/{2**70}/").status_code == 404
    assert client.get(f"/api/matches/{2**70}").status_code == 400
    assert client.get(f"/api/matches/{2**62}").status_code == 404
