"""The tournaments API (django-ninja), under ``/api/tournaments/{id}``: the whole event as one document, and
what a person does in it: sign up, withdraw yourself, check in, pause and come back in an arena. (The
league's older paths under ``/api/league/tournaments/`` stay: the same document, standings, pause.)

Auth: a bearer token with the ``play`` scope, or the browser's session. Each answers your status in the
tournament; a refusal is the project's error shape with its code (``entries_not_open``, ``entries_closed``,
``already_signed_up``, ``not_signed_up``, ``entry_refused``, ``outside_bots_not_allowed``,
``checkin_not_open``, ``checkin_closed``, ``already_checked_in``; ``not_found`` for no such tournament).
"""
from __future__ import annotations

from typing import Literal

from ninja import Router, Schema
from ninja.errors import HttpError

from games.web.api import RowIdPath, SessionAuth, TokenAuth
from games.web.auth import needs_scope
from games.web.schemas import errors
from league import services
from league.models import Tournament
from league.web import api as league_api

router = Router(auth=[TokenAuth(), SessionAuth()], tags=["entries"])

ERRORS = errors(400, 401, 403, 404, 409, 429)


class EntryOut(Schema):
    tournament_id: int
    #: ``entered`` (in the field), ``waiting`` (on the waiting list, at ``position``), ``pending`` (waiting for
    #: the organiser's approval), ``refused`` (with ``reason``), ``withdrawn`` (with ``reason``) or ``none``
    status: Literal["entered", "waiting", "pending", "refused", "withdrawn", "none"]
    #: your place on the waiting list, 1 for the first
    position: int | None = None
    reason: str = ""
    #: checked in (in the field, or on the waiting list)
    checked_in: bool


@router.get("/{tournament_id}", response={200: league_api.TournamentDetailOut, **errors(400, 404, 429)}, auth=None)
def tournament_document(request, tournament_id: RowIdPath):
    """The whole event as one document: terms, entrants with their seeds and teams, stages, rounds with their
    tables (seats, results, bracket position or group) and standings; ``manage.py tournament_show --json``
    prints the same. Public, as the tournament's page is; no match's hidden cards are in it."""
    return league_api.tournament_detail(request, tournament_id)


@router.post("/{tournament_id}/pause", response={200: league_api.PauseOut, **ERRORS})
def arena_pause(request, tournament_id: RowIdPath):
    """Pause your entry in an arena: you are not paired again until you come back (a match in play is
    finished). ``not_entered`` (404) if you have not entered; ``not_continuous`` (409) in other formats."""
    return league_api.tournament_pause_own(request, tournament_id)


@router.post("/{tournament_id}/resume", response={200: league_api.PauseOut, **ERRORS})
def arena_resume(request, tournament_id: RowIdPath):
    """Come back to an arena after a pause: you are paired at once if another player is free."""
    return league_api.tournament_resume_own(request, tournament_id)


def _entry(tournament_id: int, action, request) -> dict:
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise HttpError(404, "no such tournament")
    needs_scope(request, "play")
    player = services.player_for_user(user=request.user)
    status = action(tournament_id=tournament_id, player_id=player.pk)
    return {"tournament_id": tournament_id, "status": status.status, "position": status.position,
            "reason": status.reason, "checked_in": status.checked_in}


@router.post("/{tournament_id}/entries", response={200: EntryOut, **ERRORS})
def entry_signup(request, tournament_id: RowIdPath):
    """Sign up for a tournament open for entries: ``entered`` up to its capacity, else ``waiting`` (with your
    position); with approval, ``pending`` until the organiser decides. Outside bots only where allowed."""
    return _entry(tournament_id, services.entry_signup, request)


@router.delete("/{tournament_id}/entries", response={200: EntryOut, **ERRORS})
def entry_withdraw(request, tournament_id: RowIdPath):
    """Withdraw yourself: before the start, out of the field or off the waiting list (the list moves up);
    once it runs, you are not paired again and an unfinished match of yours is forfeited."""
    return _entry(tournament_id, services.entry_withdraw, request)


@router.post("/{tournament_id}/check-in", response={200: EntryOut, **ERRORS})
def entry_checkin(request, tournament_id: RowIdPath):
    """Check in during the window before the first round (``checkin_not_open`` outside it, with
    ``opens_at`` and ``closes_at``); someone on the waiting list checks in too, to move up when it closes."""
    return _entry(tournament_id, services.entry_checkin, request)
