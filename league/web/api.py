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
from games.web.schemas import Body, Clock, Username, errors
from league.models import PlayerProfile, Tournament
from league.selectors import event, players, standings, tournaments
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
    #: the entrant (``entrants[].id``) and their seed
    entrant_id: int | None = None
    seed: int | None = None
    #: the seat's order at the table as paired (0 first)
    position: int | None = None
    place: int | None = None
    #: exact (2.5, or 10/3 when no decimal ends)
    points: str
    game_points: int | None = None
    forfeited: bool
    match_seat: int | None = None


class BracketSlotOut(Schema):
    #: the bracket's column (a round), its label ("Semi-final"), the table's slot in it from 1, the slot of
    #: the next column it feeds (None: the final) and who went through (an entrant id, None until decided)
    column: int | None = None
    label: str = ""
    slot: int | None = None
    next: int | None = None
    winner: int | None = None


class TableOut(Schema):
    number: int
    kind: str
    stage: str = ""     # a format with stages: a group's letter, a bracket's "W", "L" or "GF"
    decided: bool
    #: its place in the bracket (a format with one), else None
    bracket: BracketSlotOut | None = None
    match_id: int | None = None
    match_status: str | None = None
    seats: list[SeatOut]


class RoundOut(Schema):
    number: int
    status: str
    stage: str = ""     # a format with stages: "groups", "playoffs", "winners", "losers", "final"
    scheduled_on: str | None = None
    #: when the round is set to start (ISO 8601 with its offset), when it started and closed
    starts_at: str | None = None
    started_at: str | None = None
    closed_at: str | None = None
    finished: int
    total: int
    tables: list[TableOut]


class ScoringOut(Schema):
    #: a two-seat table's points (exact, as text)
    win: str
    draw: str
    loss: str
    #: the league's points by place at a full table of three or more (empty: first ``win``, last ``loss``,
    #: evenly between)
    place_points: list[str]
    #: what a bye scores in this format
    bye_points: str
    tie_breaks: list[str]
    forfeit_rule: str
    unplayed_rounds: str


class TermsOut(Schema):
    game: str
    format: str
    format_label: str
    #: the format's own settings (a group's size, how many advance, the bracket reset...)
    format_options: dict[str, int | float | bool | str | None]
    #: the match options as set (the engine fills in its defaults; ``<Game>Options`` types them per game)
    options: dict[str, int | float | bool | str | None]
    seats_per_table: int
    rounds: int | None = None
    clock: Clock | None = None
    timeout_rule: str | None = None
    seeding: str
    #: seeding by a previous event's standings: that event's id
    seeded_from: int | None = None
    starts_on: str | None = None
    starts_at: str | None = None
    days_between_rounds: int
    #: the club's time zone (times in this document carry their offset)
    time_zone: str
    scoring: ScoringOut


class TeamRefOut(Schema):
    id: int
    name: str


class EntrantOut(Schema):
    id: int
    player_id: int
    name: str
    is_bot: bool
    seed: int
    team: TeamRefOut | None = None
    checked_in: bool
    #: the round in which they withdrew (0: before the start), None: still in
    withdrawn_in: int | None = None


class StageOut(Schema):
    name: str
    rounds: list[int]


class ColumnOut(Schema):
    key: str
    label: str
    help: str


class EventStandingRowOut(StandingRowOut):
    entrant_id: int
    seed: int


class EventStandingsOut(Schema):
    order: list[str]
    columns: list[ColumnOut]
    #: tie-break values are exact (the page rounds them to two decimals); positions are shared only by
    #: players equal on every exact value
    rows: list[EventStandingRowOut]


class TeamStandingOut(Schema):
    position: int
    team_id: int
    name: str
    #: the team's players, in seed order
    members: list[str]
    #: exact, as text ("7", "5/2"): at each table the points its players took on one side, counted once
    points: str
    #: tables won (a team match: boards won), a draw counting half, exact as text
    tables_won: str
    played: int
    wins: int
    draws: int
    losses: int


class MatchScoreOut(Schema):
    """Two teams' match by tables (boards) won, in seed order; ``winner`` None for a drawn match."""
    a: str
    b: str
    a_won: str
    b_won: str
    winner: str | None = None


class TournamentDetailOut(TournamentOut):
    """The whole event: terms, entrants with their seeds, stages, rounds with their tables and standings.
    Results only: nothing of any match's cards."""
    url: str = ""
    terms: TermsOut | None = None
    #: every entrant in seed order (``entrants`` is their number)
    entrant_list: list[EntrantOut] = []
    stages: list[StageOut] = []
    rounds_played: list[RoundOut]
    standings: EventStandingsOut | None = None
    #: a tournament with teams: their table (each player's own results stay in ``standings``)
    team_standings: list[TeamStandingOut] = []
    #: exactly two teams (a club team match): the score by boards won
    match_score: MatchScoreOut | None = None


class RatingOut(Schema):
    #: shared only by ratings that read the same to one decimal (``shown``), as on the ratings page
    position: int
    player_id: int
    name: str
    is_bot: bool
    #: exact: mu - 3 sigma
    rating: float
    #: the rating as the page shows it (one decimal, halves up): what decides a shared position
    shown: str = ""
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
    """The whole event as one document (``manage.py tournament_show --json`` prints the same)."""
    return event.event_document(_tournament(tournament_id))


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
