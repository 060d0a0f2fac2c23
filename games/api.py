"""The match API (django-ninja): what the pages do, for outside bot clients.

Auth: the session (browser) or ``Authorization: Bearer <token>`` (an ApiToken).
Errors are JSON ``{"code", "rule", "message"}`` with a 4xx status.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils import timezone
from ninja import Router, Schema
from ninja.security import HttpBearer, django_auth

from games import selectors, services
from games.access import access_match, access_seat, seats_of
from games.errors import MalformedRequest
from games.models import ApiToken


class TokenAuth(HttpBearer):
    def authenticate(self, request, token):
        digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
        found = ApiToken.objects.select_related("user").filter(key_hash=digest, user__is_active=True).first()
        if found is None:
            return None
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=timezone.now())
        request.user = found.user
        return found.user


router = Router(auth=[django_auth, TokenAuth()], tags=["matches"])


class MatchOut(Schema):
    id: int
    game: str
    status: str
    seats: list[dict]
    last_seq: int
    seed_commitment: str
    result: dict | None = None
    your_seats: list[int]


class MoveIn(Schema):
    seat: int | None = None
    move: Any
    expected_seq: int | None = None


def _seats(match) -> list[dict]:
    return [{"seat": s.index, "name": s.display_name, "bot": s.bot or None}
            for s in match.seats.select_related("user").order_by("index")]


@router.get("/{match_id}", response=MatchOut)
def match_detail(request, match_id: int):
    match = access_match(request.user, match_id)
    return {"id": match.pk, "game": match.game, "status": match.status, "seats": _seats(match),
            "last_seq": match.last_seq, "seed_commitment": match.seed_commitment, "result": match.result,
            "your_seats": seats_of(request.user, match)}


@router.get("/{match_id}/view")
def match_view(request, match_id: int, seat: int | None = None):
    """The view of a seat you hold (``seat`` omitted: your first seat)."""
    match, seat = access_seat(request.user, match_id, seat)
    return {"seat": seat, "seq": match.last_seq, "status": match.status, "view": selectors.seat_view(match, seat)}


@router.get("/{match_id}/spectate")
def match_spectate(request, match_id: int):
    """The spectator's view: no hand but what the rules show to all."""
    match = access_match(request.user, match_id)
    return {"seq": match.last_seq, "status": match.status, "view": selectors.seat_view(match, None)}


@router.get("/{match_id}/legal")
def match_legal(request, match_id: int, seat: int | None = None):
    match, seat = access_seat(request.user, match_id, seat)
    return {"seat": seat, "seq": match.last_seq, "moves": selectors.seat_legal_moves(match, seat)}


@router.post("/{match_id}/moves")
def match_move(request, match_id: int, payload: MoveIn):
    """Submit a move for a seat you hold; ``expected_seq`` guards against stale views."""
    match, seat = access_seat(request.user, match_id, payload.seat)
    if not isinstance(payload.move, dict):
        raise MalformedRequest()
    rows = services.move_submit(match_id=match.pk, seat=seat, move=payload.move, expected_seq=payload.expected_seq)
    match.refresh_from_db()
    return {"seat": seat, "seq": match.last_seq, "status": match.status,
            "events": selectors.events_for_seat(match, seat, after=rows[0].seq - 1)}


@router.get("/{match_id}/events")
def match_events(request, match_id: int, seat: int | None = None, after: int = 0):
    """Events after position ``after``, as your seat (or a spectator) may know them."""
    match = access_match(request.user, match_id)
    if seat is not None:
        match, seat = access_seat(request.user, match_id, seat)
    return {"seat": seat, "seq": match.last_seq, "events": selectors.events_for_seat(match, seat, after=after)}


def parse_move(text: str) -> dict:
    """A move from a form field: JSON of an object, else ``MalformedRequest``."""
    try:
        move = json.loads(text)
    except (TypeError, ValueError):
        raise MalformedRequest() from None
    if not isinstance(move, dict):
        raise MalformedRequest()
    return move
