"""The league API (django-ninja): tournaments, standings, ratings, players (read-only), and whom an account
takes challenges from.

Everything comes from ``league.selectors`` (the same numbers as the pages and
the admin). Errors use the project's JSON shape ``{"code", "rule", "message"}``.
"""
from __future__ import annotations

from typing import Annotated, Literal

from ninja import Field, Router, Schema
from ninja.errors import HttpError

from engine import registry
from games.web.api import RowIdPath, SessionAuth, TokenAuth
from games.web.auth import needs_scope
from games.web.schemas import Body, Username, errors
from league.models import PlayerProfile, Tournament
from league.selectors import players, rounds, standings, tournaments
from league.services.arena import tournament_pause
from league.services.challenge_rules import challenge_rules, challenge_rules_set

ERRORS = errors(400, 404, 429)

router = Router(tags=["league"])


class ProgressOut(Schema):
    status: str
    round: int
    rounds: int
    finished: int
    total: int
    all_finished: int
    all_total: int
    percent: int


class TournamentOut(Schema):
    id: int
    name: str
    game: str
    format: str
    status: str
    league: str
    league_id: int
    club: str
    season: str | None = None
    seats_per_table: int
    rounds: int | None = None
    entrants: int
    progress: ProgressOut


class StandingRowOut(Schema):
    position: int
    player_id: int
    name: str
    is_bot: bool
    tie_breaks: dict[str, str]
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    forfeits: int
    note: str
    stage: str


class StandingsOut(Schema):
    tournament_id: int
    order: list[str]
    rows: list[StandingRowOut]


class SeatOut(Schema):
    name: str
    player_id: int
    place: int | None = None
    points: str
    game_points: int | None = None
    forfeited: bool
    match_seat: int | None = None


class TableOut(Schema):
    number: int
    kind: str
    stage: str = ""     # a format with stages: a group's letter, a bracket's "W", "L" or "GF"
    decided: bool
    match_id: int | None = None
    match_status: str | None = None
    seats: list[SeatOut]


class RoundOut(Schema):
    number: int
    status: str
    stage: str = ""     # a format with stages: "groups", "playoffs", "winners", "losers", "final"
    scheduled_on: str | None = None
    finished: int
    total: int
    tables: list[TableOut]


class TournamentDetailOut(TournamentOut):
    rounds_played: list[RoundOut]


class RatingOut(Schema):
    position: int
    player_id: int
    name: str
    is_bot: bool
    rating: float
    mu: float
    sigma: float
    matches: int


class RatingPointOut(Schema):
    match_id: int
    played_at: str
    rating: float
    mu: float
    sigma: float


class PlayerRatingOut(Schema):
    game: str
    rating: float
    mu: float
    sigma: float
    matches: int
    history: list[RatingPointOut]


class PlayerOut(Schema):
    id: int
    name: str
    is_bot: bool
    ratings: list[PlayerRatingOut]


def _tournament(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_related("league__club", "season").filter(pk=tournament_id).first()
    if found is None:
        raise HttpError(404, "no such tournament")
    return found


@router.get("/tournaments", response={200: list[TournamentOut], **ERRORS})
def tournament_list(request, status: Tournament.Status | None = None):
    return [tournaments.tournament_summary(t) for t in tournaments.tournaments(status=status)]


@router.get("/tournaments/{tournament_id}", response={200: TournamentDetailOut, **ERRORS})
def tournament_detail(request, tournament_id: RowIdPath):
    tournament = _tournament(tournament_id)
    played = [{**r, "scheduled_on": r["scheduled_on"].isoformat() if r["scheduled_on"] else None}
              for r in rounds.tournament_rounds(tournament)]
    return {**tournaments.tournament_summary(tournament), "rounds_played": played}


@router.get("/tournaments/{tournament_id}/standings", response={200: StandingsOut, **ERRORS})
def tournament_standings(request, tournament_id: RowIdPath):
    table = standings.standings(_tournament(tournament_id))
    rows = [{**r, "tie_breaks": dict(zip(table["order"], r["exact"]))} for r in table["rows"]]
    return {"tournament_id": tournament_id, "order": table["order"], "rows": rows}


@router.get("/ratings/{game}", response={200: list[RatingOut], **ERRORS})
def ratings(request, game: str):
    if game not in registry.names():
        raise HttpError(404, "no such game")
    return players.ratings_for_game(game)


@router.get("/players/{player_id}", response={200: PlayerOut, **ERRORS})
def player(request, player_id: RowIdPath):
    found = PlayerProfile.objects.filter(pk=player_id).first()
    if found is None:
        raise HttpError(404, "no such player")
    ratings_ = [{**r, "history": [{**h, "played_at": h["played_at"].isoformat()} for h in r["history"]]}
                for r in players.player_ratings(found)]
    return {"id": found.pk, "name": found.name, "is_bot": found.is_bot, "ratings": ratings_}


class PauseOut(Schema):
    tournament_id: int
    entrant_id: int
    #: not paired again until resumed (a table in play is finished)
    paused: bool


_PAUSE_AUTH = [TokenAuth(), SessionAuth()]
_PAUSE_ERRORS = errors(400, 401, 403, 404, 409, 429)


@router.post("/tournaments/{tournament_id}/pause", response={200: PauseOut, **_PAUSE_ERRORS}, auth=_PAUSE_AUTH)
def tournament_pause_own(request, tournament_id: RowIdPath):
    """Pause your entry in an arena: you are not paired again until you resume (a match in play is
    finished). ``not_entered`` (404) if you have not entered; ``not_continuous`` (409) in other formats."""
    needs_scope(request, "play")
    entrant = tournament_pause(tournament_id=_tournament(tournament_id).pk, user=request.user, paused=True)
    return {"tournament_id": tournament_id, "entrant_id": entrant.pk, "paused": entrant.paused}


@router.post("/tournaments/{tournament_id}/resume", response={200: PauseOut, **_PAUSE_ERRORS}, auth=_PAUSE_AUTH)
def tournament_resume_own(request, tournament_id: RowIdPath):
    """Come back to an arena after a pause: you are paired at once if another player is free."""
    needs_scope(request, "play")
    entrant = tournament_pause(tournament_id=_tournament(tournament_id).pk, user=request.user, paused=False)
    return {"tournament_id": tournament_id, "entrant_id": entrant.pk, "paused": entrant.paused}


_ACCOUNT_AUTH = [TokenAuth(), SessionAuth()]
account_rules_router = Router(tags=["account"])


class ChallengeRulesOut(Schema):
    #: who may challenge this account: ``everyone``, ``clubmates`` (people who share a club with it; an
    #: outside bot is in its owner's clubs) or ``nobody`` (tournament matches only)
    challenges_from: Literal["everyone", "clubmates", "nobody"]
    #: the people whose challenges (and whose outside bots' challenges) are refused whatever the above
    refused: list[str]


class ChallengeRulesIn(Body):
    challenges_from: Literal["everyone", "clubmates", "nobody"] | None = None
    #: the whole refusal list, replacing it (at most 500 names); leave out to keep it
    refused: Annotated[list[Username], Field(max_length=500)] | None = None
    #: names to add to the list
    refuse: Annotated[list[Username], Field(max_length=100)] = []
    #: names to take off the list
    allow: Annotated[list[Username], Field(max_length=100)] = []


@account_rules_router.get("", response={200: ChallengeRulesOut, **errors(401, 429)}, auth=_ACCOUNT_AUTH)
def challenge_rules_read(request):
    """Whom you take challenges from. A refused challenge is ``challenge_refused`` (403) to its challenger;
    a tournament seats its entrants regardless."""
    return challenge_rules(user=request.user)


@account_rules_router.put("", response={200: ChallengeRulesOut, **errors(400, 401, 403, 404, 413, 415, 429)},
                          auth=_ACCOUNT_AUTH)
def challenge_rules_write(request, payload: ChallengeRulesIn):
    """Change whom you take challenges from; challenges already waiting that the new rules refuse are
    declined. An unknown name is ``unknown_player`` (404) and nothing changes."""
    needs_scope(request, "challenge")
    return challenge_rules_set(user=request.user, challenges_from=payload.challenges_from, refused=payload.refused,
                               refuse=payload.refuse, allow=payload.allow)
