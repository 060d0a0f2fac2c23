"""The match API (django-ninja): what the pages do, for outside bot clients.

Auth: ``Authorization: Bearer <token>`` (an ApiToken; no CSRF: a token client sends no cookie) or
the browser's session (CSRF-checked, as every cookie-authenticated write must be). Errors are JSON
``{"code", "rule", "message"}``; every status an operation can answer is in the OpenAPI schema.
"""
from __future__ import annotations

from typing import Annotated, Literal

from ninja import Body as NinjaBody
from ninja import Path, Query, Router, Schema, Status
from ninja.errors import Throttled
from ninja.security import HttpBearer
from ninja.security import SessionAuth as NinjaSessionAuth
from pydantic import Field

from games import records, services
from games.errors import MatchRunning, WrongGame
from games.selectors import feeds, people
from games.selectors.matches_of import challenges_of, matches_of
from games.services import challenges
from games.web.access import access_match, access_play, access_seat, seats_of
from games.web.auth import TooManyWrongTokens, needs_scope, token_user
from games.web.schemas import (
    GAME_OPTIONS,
    Body,
    Clock,
    Entropy,
    LegalOut,
    MatchStatus,
    MoveIn,
    Position,
    Record,
    Result,
    SeatNumber,
    SeatStatus,
    TimeoutRule,
    Username,
    ViewOut,
    _per_game,
    _schema_only,
    documented,
    errors,
    move_of,
    title,
)
from games.words.terms import played_options


class TokenAuth(HttpBearer):
    """A bearer token (``games.web.auth.token_user``); too many wrong tokens from an address answer 429."""

    def authenticate(self, request, token):
        try:
            return token_user(request, token)
        except TooManyWrongTokens as exc:
            raise Throttled(wait=exc.wait) from None


class SessionAuth(NinjaSessionAuth):
    """The browser's session. Only a signed-in session is CSRF-checked, so a request without one
    (a token client, or nobody) goes on to the other auth or to 401, not to a CSRF 403."""

    def _get_key(self, request):
        if not request.user.is_authenticated:
            return None
        return super()._get_key(request)


router = Router(auth=[TokenAuth(), SessionAuth()], tags=["matches"])

RowIdPath = Annotated[int, Path(ge=1, le=2**63 - 1)]
SeatQuery = Annotated[int | None, Query(None, ge=0, le=31)]
PositionQuery = Annotated[int, Query(0, ge=0, le=2**31 - 1)]

READ_ERRORS = errors(400, 401, 403, 404, 429)


class MatchSeatOut(Schema):
    seat: int
    name: str
    bot: str | None = None
    status: SeatStatus
    stand_in: str | None = None
    deadline: str | None = None
    bank_left: float | None = None
    timeouts: int


class RandomnessOut(Schema):
    #: seats whose person's browser or client drew their random value
    players: list[int]
    #: seats the server contributed for: bots, and people who sent no value or timed out
    server: list[int]
    #: every seat has contributed (the deal is fixed)
    complete: bool
    #: every seat contributed and none was a person's: the server alone fixed the deal
    server_alone: bool


#: The options a match plays with, as the server stores them, documented as the game's (``<Game>Options``).
PLAYED_OPTIONS = {game: Annotated[dict, _schema_only(model)] for game, model in GAME_OPTIONS.items()}


class _MatchOutBase(Schema):
    id: int
    status: MatchStatus
    clock: Clock | None = None
    timeout_rule: TimeoutRule
    seats: list[MatchSeatOut]
    last_seq: int
    seed_commitment: str
    result: Result | None = None
    your_seats: list[int]
    #: whose random values went into the deal; null for a match with a fixed engine seed
    randomness: RandomnessOut | None = None


#: A match, typed per game (``game`` tells which): ``options`` are the game's (see the rules pages'
#: "What a club can set").
MatchOut = _per_game("MatchOut", _MatchOutBase, "options", PLAYED_OPTIONS)


class JoinIn(Body):
    entropy: Entropy | None = None


class _ChallengeInBase(Body):
    """Challenge people or outside bots (by username) to a match: they accept (``/join``) or decline."""
    opponents: Annotated[list[Username], Field(min_length=1, max_length=9)]
    seats: Annotated[int, Field(ge=2, le=10)] | None = None
    bots: Literal["random", "greedy", "search-easy", "search", "search-strong"] = "greedy"
    clock: Clock | None = None
    entropy: Entropy | None = None


#: A challenge, per game (``game`` tells which): ``options`` are the game's, each left out at its default.
ChallengeIn = _per_game("ChallengeIn", _ChallengeInBase, "options", GAME_OPTIONS,
                        default=lambda game: GAME_OPTIONS[game])


class _InvitationOutBase(Schema):
    match: int
    seat: int
    status: SeatStatus
    invited_by: str | None = None
    seats: list[MatchSeatOut]
    deadline: str | None = None
    #: what is accepted (beside ``options``: the options as the match plays them, defaults filled in): the clock
    #: and the rule
    clock: Clock | None = None
    timeout_rule: TimeoutRule | None = None


InvitationOut = _per_game("InvitationOut", _InvitationOutBase, "options", PLAYED_OPTIONS)


class EventOut(Schema):
    seq: int
    type: str
    seat: int | None = None
    payload: dict
    created_at: str


class _EventsOutBase(Schema):
    seat: int | None = None
    seq: int


#: A seat's events, typed per game (``game`` tells which; each event's ``payload`` by its ``type``): answered
#: as the store redacts them, documented from the engine's declarations (``<Game>Event``).
EventsOut = _per_game("EventsOut", _EventsOutBase, "events",
                      {game: Annotated[list[EventOut], documented(f"{title(game)}Event", many=True)]
                       for game in GAME_OPTIONS})


class DeclineIn(Body):
    reason: Annotated[str, Field(max_length=200)] = ""


class ResignIn(Body):
    seat: SeatNumber | None = None
    expected_seq: Position | None = None


def _seats(match) -> list[dict]:
    return [{"seat": s.index, "name": s.display_name, "bot": s.bot or None, "status": s.status,
             "stand_in": s.stand_in or None, "deadline": s.deadline.isoformat() if s.deadline else None,
             "bank_left": s.bank_left, "timeouts": s.timeouts}
            for s in match.seats.select_related("user").order_by("index")]


@router.get("/{match_id}", response={200: MatchOut, **READ_ERRORS})
def match_detail(request, match_id: RowIdPath):
    """The match, its clock, each seat's deadline (null when the seat need not act), and whose random
    values went into the deal (``randomness``: which seats the server contributed for)."""
    match = access_match(request.user, match_id)
    return {"id": match.pk, "game": match.game, "status": match.status, "options": match.options,
            "clock": match.clock, "timeout_rule": match.timeout_rule, "seats": _seats(match),
            "last_seq": match.last_seq, "seed_commitment": match.seed_commitment, "result": match.result,
            "your_seats": seats_of(request.user, match), "randomness": records.randomness(match)}


@router.post("/{match_id}/join", response={200: MatchOut, **errors(400, 401, 403, 404, 409, 413, 429)})
def match_join(request, match_id: RowIdPath, payload: JoinIn):
    """Accept an invitation, or take a seat a tournament gave you, with your own random value for
    the shuffle (``entropy``: 16–128 hex digits; without it the server contributes for you)."""
    needs_scope(request, "play")
    services.seat_join(match_id=access_match(request.user, match_id).pk, user=request.user, entropy=payload.entropy)
    return match_detail(request, match_id)


@router.post("/{match_id}/decline", response={200: MatchOut, **errors(400, 401, 403, 404, 409, 429)})
def match_decline(request, match_id: RowIdPath, payload: DeclineIn | None = None):
    """Decline an invitation: the match is cancelled. An optional ``reason`` (at most 200
    characters) is recorded in the ``match_aborted`` event as ``message``, which the challenger reads."""
    needs_scope(request, "play")
    services.seat_decline(match_id=access_match(request.user, match_id).pk, user=request.user,
                          reason=payload.reason if payload is not None else "")
    return match_detail(request, match_id)


@router.post("/{match_id}/withdraw", response={200: MatchOut, **errors(400, 401, 403, 404, 409, 429)})
def match_withdraw(request, match_id: RowIdPath):
    """Withdraw a challenge you made that has not started: the match ends (``aborted``, reason
    ``withdrawn``) and leaves the invited people's lists. 403 ``not_your_seat`` if you did not make
    it; 409 ``invitation_closed`` once it has started or ended."""
    needs_scope(request, "challenge")
    challenges.challenge_withdraw(match_id=access_match(request.user, match_id).pk, user=request.user)
    return match_detail(request, match_id)


@router.get("/{match_id}/view", response={200: ViewOut, **READ_ERRORS})
def match_view(request, match_id: RowIdPath, seat: SeatQuery = None):
    """The view of a seat you hold (``seat`` omitted: your first seat)."""
    match, seat = access_seat(request.user, match_id, seat)
    return {"game": match.game, "seat": seat, "seq": match.last_seq, "status": match.status,
            "view": feeds.seat_view(match, seat)}


@router.get("/{match_id}/spectate", response={200: ViewOut, **READ_ERRORS})
def match_spectate(request, match_id: RowIdPath):
    """The spectator's view: no hand but what the rules show to all."""
    match = access_match(request.user, match_id)
    return {"game": match.game, "seq": match.last_seq, "status": match.status,
            "view": feeds.seat_view(match, None)}


@router.get("/{match_id}/legal", response={200: LegalOut, **READ_ERRORS}, by_alias=True, exclude_unset=True)
def match_legal(request, match_id: RowIdPath, seat: SeatQuery = None):
    """The legal moves of a seat you hold, typed as the match's game's moves (``game``): post one back
    as it is."""
    match, seat = access_seat(request.user, match_id, seat)
    return {"game": match.game, "seat": seat, "seq": match.last_seq,
            "moves": feeds.seat_legal_moves(match, seat)}


@router.post("/{match_id}/moves", response={200: EventsOut, **errors(400, 401, 403, 404, 409, 413, 422, 429)})
def match_move(request, match_id: RowIdPath, payload: NinjaBody[MoveIn]):  # a tagged union: named a body
    """Submit a move for a seat you hold: ``{"game": …, "move": {…}, "expected_seq": …}``, where ``game`` is
    the match's game and picks the move schemas (``type`` picks the move within a game); without ``game``,
    the move is read as one of the match's game. ``expected_seq`` guards against stale views.

    400: the move's shape (``malformed_move``, ``unknown_card``), ``wrong_game`` (not the match's); 409: ``stale_seq`` or
    ``match_over``; 422: the engine's refusal, with its rule (``not_your_turn``, …)."""
    needs_scope(request, "play")
    match, seat = access_play(request, match_id, payload.seat)  # a refused move (no seat, …) counts too
    if getattr(payload, "game", match.game) != match.game:
        raise WrongGame(game=match.game)
    rows = services.move_submit(match_id=match.pk, seat=seat, move=move_of(payload, match.game),
                                expected_seq=payload.expected_seq)
    match.refresh_from_db(fields=["status", "last_seq"])
    return {"game": match.game, "seat": seat, "seq": match.last_seq, "events": feeds.feed_of(match, rows, seat)}


@router.post("/{match_id}/resign", response={200: EventsOut, **errors(400, 401, 403, 404, 409, 413, 422, 429)})
def match_resign(request, match_id: RowIdPath, payload: ResignIn):
    """Resign a seat you hold (the same as the move ``{"type": "resign"}``): it ranks last, and a bot
    plays it on for the others if the match goes on."""
    needs_scope(request, "play")
    match, seat = access_play(request, match_id, payload.seat)
    rows = services.match_resign(match_id=match.pk, seat=seat, expected_seq=payload.expected_seq)
    match.refresh_from_db(fields=["status", "last_seq"])
    return {"game": match.game, "seat": seat, "seq": match.last_seq, "events": feeds.feed_of(match, rows, seat)}


@router.get("/{match_id}/record", response={200: Record, **errors(400, 401, 403, 404, 409, 429)})
def match_record(request, match_id: RowIdPath):
    """The portable record of an ended match (``engine/match-record.schema.json``): verify it offline
    with ``python -m engine.verify RECORD.json``. A match that has not ended has none yet (409)."""
    match = access_match(request.user, match_id)
    if not match.has_ended:
        raise MatchRunning()
    return records.match_record(match)


@router.get("/{match_id}/events", response={200: EventsOut, **READ_ERRORS})
def match_events(request, match_id: RowIdPath, seat: SeatQuery = None,
                 after: PositionQuery = 0):
    """Events after position ``after``, as your seat (or a spectator) may know them."""
    match = access_match(request.user, match_id)
    if seat is not None:
        match, seat = access_seat(request.user, match_id, seat)
    return {"game": match.game, "seat": seat, "seq": match.last_seq, "events": feeds.events_for_seat(match, seat, after=after)}


invitations_router = Router(auth=[TokenAuth(), SessionAuth()], tags=["matches"])
challenges_router = Router(auth=[TokenAuth(), SessionAuth()], tags=["matches"])


@challenges_router.post("", response={201: MatchOut, **errors(400, 401, 403, 404, 413, 429)})
def challenge(request, payload: ChallengeIn):
    """Challenge other accounts to a match of ``game`` (``seats`` in all: bots fill those left); you
    are at the table with your ``entropy``; the match starts when every opponent has accepted."""
    needs_scope(request, "challenge")
    match = services.challenge_create(challenger=request.user, opponents=payload.opponents, game=payload.game,
                                      seats=payload.seats, bots=payload.bots, options=payload.options.model_dump(exclude_unset=True),
                                      clock=payload.clock, entropy=payload.entropy)
    return Status(201, match_detail(request, match.pk))


class ChallengeOut(Schema):
    match: int
    game: str
    direction: Literal["incoming", "outgoing"]
    invited_by: str | None = None
    seats: list[MatchSeatOut]


class DeclinedOut(Schema):
    declined: list[int]


@challenges_router.post("/decline-all", response={200: DeclinedOut, **errors(400, 401, 403, 413, 429)})
def challenges_decline_all(request, payload: DeclineIn | None = None):
    """Decline every challenge waiting for you at once (each as ``/decline`` would, with the optional
    ``reason``); tournament seats are not challenges and stay. Returns the matches declined."""
    needs_scope(request, "challenge")
    reason = payload.reason if payload is not None else ""
    declined = challenges.challenges_decline_all(user=request.user, reason=reason)
    return {"declined": declined}


@challenges_router.get("", response={200: list[ChallengeOut], **errors(400, 401, 429)})
def challenges_list(request, direction: Literal["incoming", "outgoing"] = "incoming"):
    """Challenges that wait for an answer: ``incoming`` (you are invited: ``/join`` or ``/decline``)
    or ``outgoing`` (you made them: ``/withdraw`` takes one back). ``/api/matches/{id}`` has the
    options and clock of each."""
    return [{"match": m.pk, "game": m.game, "direction": direction,
             "invited_by": m.created_by.get_username() if m.created_by else None, "seats": _seats(m)}
            for m in challenges_of(request.user, direction)]


@invitations_router.get("", response={200: list[InvitationOut], **errors(401, 429)})
def invitations(request):
    """Your seats that wait for you: invitations to accept or decline, and tournament seats to take."""
    return [{"match": s.match_id, "game": s.match.game, "seat": s.index, "status": s.status,
             "invited_by": s.match.created_by.get_username() if s.match.created_by else None,
             "seats": _seats(s.match), "deadline": s.deadline.isoformat() if s.deadline else None,
             "options": played_options(s.match.game, s.match.options) or s.match.options or {},
             "clock": s.match.clock, "timeout_rule": s.match.timeout_rule if s.match.clock else None}
            for s in people.waiting_seats(request.user)]


account_router = Router(auth=[TokenAuth(), SessionAuth()], tags=["account"])


class AccountOut(Schema):
    username: str
    is_bot: bool
    #: a bot account's owner (the person whose program plays it), else null
    owner: str | None = None
    #: how this request was signed in: an API token or the browser's session
    auth: Literal["token", "session"]


class AccountMatchOut(Schema):
    match: int
    game: str
    status: Literal["waiting", "running"]
    seat: int
    #: ``your_turn`` first; ``playing``: another seat moves; ``invited``: accept or decline;
    #: ``seated``: a seat to take; ``waiting``: accepted, the match not started
    state: Literal["your_turn", "playing", "invited", "seated", "waiting"]
    last_seq: int
    invited_by: str | None = None
    deadline: str | None = None


@account_router.get("", response={200: AccountOut, **errors(401, 429)})
def account(request):
    """Who you are signed in as ("me"): your username, whether the account is a bot, its owner."""
    user = request.user
    profile = getattr(user, "player_profile", None)
    owner = getattr(profile, "owner", None)
    return {"username": user.get_username(), "is_bot": bool(getattr(profile, "shows_as_bot", False)),
            "owner": owner.get_username() if owner is not None else None,
            "auth": "token" if request.headers.get("Authorization", "").startswith("Bearer ") else "session"}


@account_router.get("/matches", response={200: list[AccountMatchOut], **errors(401, 429)})
def account_matches(request):
    """The waiting and running matches you hold a seat in, those waiting for your move first: after
    a restart, a bot finds here every match it is playing."""
    return matches_of(request.user)
