"""The edge's one responder (``games.web.respond``): a refusal of any kind, as a page's answer or as JSON, in
the one error shape, every 401 saying how to authenticate and every 429 when to come back."""
from __future__ import annotations

import json

import pytest
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from ninja.errors import AuthenticationError, AuthorizationError, HttpError, Throttled, ValidationError

from engine import IllegalMove
from games.errors import MatchNotFound, NotSignedIn, RateLimited, StaleSequence
from games.web.respond import EdgeRefusal, respond


def body(response) -> dict:
    return json.loads(response.content)


def test_a_domain_error_as_json_is_the_error_shape_with_its_details(rf):
    response = respond(rf.post("/api/matches/1/moves"), StaleSequence(expected_seq=3, last_seq=5))
    assert response.status_code == 409 and response["Content-Type"] == "application/json; charset=utf-8"
    assert body(response) == {"code": "stale_seq", "rule": None, "expected_seq": 3, "last_seq": 5,
                              "message": "The match has moved on since you looked: reload and try again."}


def test_an_illegal_move_says_its_rule_and_the_engines_words(rf):
    response = respond(rf.post("/api/matches/1/moves"), IllegalMove("not_your_turn", "seat 1 cannot play", rule="L2"))
    found = body(response)
    assert response.status_code == 422 and found["code"] == "not_your_turn" and found["rule"] == "L2"
    assert found["detail"] == "seat 1 cannot play" and found["message"]


def test_a_domain_error_on_a_page_is_its_code_and_message_in_plain_text(rf):
    response = respond(rf.post("/matches/1/move/"), StaleSequence(), as_="page")
    assert response.status_code == 409 and response["Content-Type"] == "text/plain"
    assert response.content.decode() == "stale_seq: The match has moved on since you looked: reload and try again."


def test_a_missing_match_on_a_page_is_the_sites_not_found_page(rf):
    with pytest.raises(Http404):
        respond(rf.get("/matches/9/"), MatchNotFound(), as_="page")
    assert respond(rf.get("/api/matches/9"), MatchNotFound()).status_code == 404


@pytest.mark.parametrize("exc", [NotSignedIn(), AuthenticationError()])
@pytest.mark.parametrize("as_", ["json", "page"])
def test_every_401_says_how_to_authenticate(rf, exc, as_):
    response = respond(rf.get("/api/invitations"), exc, as_=as_)
    assert response.status_code == 401 and response["WWW-Authenticate"] == 'Bearer realm="cardleague"'


@pytest.mark.parametrize("exc,wait", [(RateLimited(), "60"), (Throttled(wait=7), "7"), (Throttled(wait=0.2), "1"),
                                      (EdgeRefusal("too_many_streams", "full", wait=17), "17")])
@pytest.mark.parametrize("as_", ["json", "page"])
def test_every_429_says_when_to_come_back(rf, exc, wait, as_):
    response = respond(rf.get("/api/stream"), exc, as_=as_)
    assert response.status_code == 429 and response["Retry-After"] == wait


def test_a_full_servers_503_says_when_to_come_back_and_others_do_not(rf):
    full = respond(rf.get("/api/stream"), EdgeRefusal("streams_full", "full", wait=17))
    assert full.status_code == 503 and full["Retry-After"] == "17" and body(full)["code"] == "streams_full"
    assert not respond(rf.get("/api/stream"), EdgeRefusal("streams_unavailable", "WSGI")).has_header("Retry-After")


def test_the_edges_own_refusals_take_their_status_from_the_table_of_codes(rf):
    assert respond(rf.post("/api/challenges"), EdgeRefusal("unsupported_media_type", "JSON")).status_code == 415
    with pytest.raises(KeyError):
        EdgeRefusal("no_such_code", "?")


@pytest.mark.parametrize("exc,status,code", [
    (HttpError(404, "Not Found"), 404, "not_found"),
    (HttpError(405, "Method not allowed"), 405, "method_not_allowed"),
    (HttpError(400, "Cannot parse"), 400, "malformed_request"),
    (AuthorizationError(), 403, "http_error"),
    (RequestDataTooBig(), 413, "request_too_large"),
])
def test_the_frameworks_refusals_are_answered_in_the_error_shape(rf, exc, status, code):
    response = respond(rf.get("/api/x"), exc)
    assert response.status_code == status and body(response)["code"] == code and body(response)["rule"] is None


@pytest.mark.parametrize("path,loc,kind,code", [
    ("/api/matches/1/moves", ["body", "payload", "livol", "move", "play", "card"], "string_type", "malformed_move"),
    ("/api/challenges", ["body", "payload", "livol", "options", "target"], "less_than_equal", "bad_match_settings"),
    ("/api/challenges", ["body", "payload", "livol", "opponents"], "missing", "malformed_request"),
    ("/api/matches/1/moves", ["body", "payload"], "union_tag_invalid", "malformed_move"),
    ("/api/challenges", ["body", "payload"], "union_tag_invalid", "malformed_request"),
])
def test_a_body_of_the_wrong_shape_names_what_is_at_fault(rf, path, loc, kind, code):
    error = {"loc": tuple(loc), "msg": "wrong", "type": kind, "input": "x" * 10_000}
    found = body(respond(rf.post(path), ValidationError([error])))
    assert found["code"] == code
    assert found["errors"] == [{"loc": loc, "msg": "wrong", "type": kind}]  # never the input itself
    if kind == "union_tag_invalid":
        assert '"game"' in found["message"] and "livol" in found["message"]


def test_anything_else_is_not_a_refusal(rf):
    with pytest.raises(TypeError):
        respond(rf.get("/"), ValueError("a bug"))
