"""Domain errors of the match layer, each with a stable code and an HTTP status.

``engine.IllegalMove`` is the other error a move can meet; ``http_error`` maps
both to one JSON shape: ``{"code", "rule", "message"}``.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from engine import IllegalMove
from games.words import illegal_move_message


class DomainError(Exception):
    """A refused operation of any app: a stable ``code``, an HTTP ``status``, a message."""
    code = "domain_error"
    status = 400
    message = _("The request could not be carried out.")

    def __init__(self, message=None, **details):
        self.message = message or self.message
        self.details = details
        super().__init__(str(self.message))


class MatchError(DomainError):
    code = "match_error"


class MatchNotFound(MatchError):
    code = "match_not_found"
    status = 404
    message = _("No such match.")


class SeatForbidden(MatchError):
    code = "not_your_seat"
    status = 403
    message = _("You do not hold that seat.")


class NotSignedIn(MatchError):
    code = "not_signed_in"
    status = 401
    message = _("Sign in first.")


class StaleSequence(MatchError):
    code = "stale_seq"
    status = 409
    message = _("The match has moved on since you looked: reload and try again.")


class MatchNotRunning(MatchError):
    code = "match_over"
    status = 409
    message = _("The match is not running.")


class MatchRunning(MatchError):
    code = "match_running"
    status = 409
    message = _("The match has not ended: its record is published when it ends.")


class MatchWaiting(MatchError):
    code = "match_waiting"
    status = 409
    message = _("The match has not started: it waits for every seat to join.")


class InvitationClosed(MatchError):
    code = "invitation_closed"
    status = 409
    message = _("That seat can no longer be taken or declined.")


class MalformedRequest(MatchError):
    code = "malformed_move"
    status = 400
    message = _("The move is not valid JSON of the expected shape.")


class DeadlinePassed(MatchError):
    code = "deadline_passed"
    status = 409
    message = _("Your time for this move ran out before it arrived: the clock's rule plays it.")


class RateLimited(DomainError):
    code = "rate_limited"
    status = 429
    message = _("Too many requests: wait a moment and try again.")


class RequestTooLarge(DomainError):
    code = "request_too_large"
    status = 413
    message = _("The request is too large.")


class TokenScope(DomainError):
    code = "token_scope"
    status = 403
    message = _("This token may not do that: make one with the scope it needs on your settings page.")


class WrongGame(MatchError):
    code = "wrong_game"
    status = 400
    message = _("This move names another game than the match's.")


class UnknownPlayer(MatchError):
    code = "unknown_player"
    status = 404
    message = _("No such player.")


class BadMatchSettings(MatchError):
    code = "bad_match_settings"
    status = 400
    message = _("The game does not take these settings.")


class SeatedTwice(MatchError):
    code = "seated_twice"
    status = 400
    message = _("A person can hold only one seat of a match.")


ILLEGAL_MOVE_STATUS = {"malformed_move": 400, "unknown_card": 400}


def http_error(exc: Exception) -> tuple[int, dict]:
    """The status and JSON body for a domain error or an illegal move. An illegal move's ``message`` is
    the player's sentence for its code in the active language (``games.words``); the engine's own
    English explanation, specific to the position, is its ``detail``."""
    if isinstance(exc, IllegalMove):
        return ILLEGAL_MOVE_STATUS.get(exc.code, 422), {"code": exc.code, "rule": exc.rule,
                                                        "message": illegal_move_message(exc.code, exc.rule),
                                                        "detail": exc.message}
    if isinstance(exc, DomainError):
        return exc.status, {"code": exc.code, "rule": None, "message": str(exc.message), **exc.details}
    raise TypeError(exc)
