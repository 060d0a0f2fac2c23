"""Tournaments and their entrants: creating, entering, withdrawing."""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from engine.bots import levels_for
from games.models import Match
from games.services import match_abort
from league.models import (
    Entrant,
    Folded,
    League,
    PlayerProfile,
    Round,
    Season,
    TableSeat,
    Tournament,
    TournamentPreset,
    Withdrawal,
)
from league.selectors.presets import tournament_preset_values
from league.services.clubs import bots_ensure
from league.services.errors import (
    AlreadyEntered,
    AlreadyWithdrawn,
    InvalidTournament,
    NoSuchBotLevel,
    NotTakingEntries,
    OwnBotEntered,
    TournamentFinished,
)
from league.services.rounds import table_record

#: ``tournament_create(clock=LEAGUE_CLOCK)`` (the default): the tournament takes its league's clock.
LEAGUE_CLOCK = "league"


@transaction.atomic
def tournament_create(*, league_id: int, name: str, format: str = "swiss", seats_per_table: int = 2,
                      rounds: int | None = None, season_id: int | None = None, options: dict | None = None,
                      auto_advance: bool = True, seeding: str = Tournament.Seeding.RATING, starts_on=None,
                      days_between_rounds: int = 7, created_by=None, clock: dict | None | str = LEAGUE_CLOCK,
                      timeout_rule: str | None = None, format_options: dict | None = None,
                      starts_at=None) -> Tournament:
    """A tournament of the league's game, taking entries (``draft``). Its terms start from the
    league's: the match options (``options=None``), the clock (``clock=LEAGUE_CLOCK``; None: no clock)
    and what happens when a deadline passes (``timeout_rule=None``). ``format_options``: the format's own
    settings (a group's size, the bracket reset), which the format checks."""

    league = League.objects.get(pk=league_id)
    season = Season.objects.filter(pk=season_id).first() if season_id else None
    tournament = Tournament(
        league=league, season=season, name=name, format=format, game=league.game,
        options=dict(league.options if options is None else options), seats_per_table=seats_per_table,
        clock=(league.clock if clock == LEAGUE_CLOCK else clock) or None,
        timeout_rule=timeout_rule or league.timeout_rule,
        rounds=rounds, auto_advance=auto_advance, seeding=seeding,
        starts_on=starts_on or (season.starts_on if season else None), days_between_rounds=days_between_rounds,
        created_by=created_by, format_options=dict(format_options or {}), starts_at=starts_at)
    return tournament_save_checked(tournament)


def tournament_save_checked(tournament: Tournament) -> Tournament:
    """Save a tournament its model's checks accept; ``InvalidTournament`` names each field they refuse."""
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise InvalidTournament("; ".join(f"{k}: {' '.join(map(str, v))}"
                                          for k, v in exc.message_dict.items())) from None
    tournament.save()
    return tournament


@transaction.atomic
def entrant_add(*, tournament_id: int, player_id: int) -> Entrant:
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
    if tournament.status != Tournament.Status.DRAFT:
        raise NotTakingEntries()
    if tournament.entrants.filter(player_id=player_id).exists():
        raise AlreadyEntered()
    if _owner_and_bot(tournament, player_id):
        raise OwnBotEntered()
    if PlayerProfile.objects.filter(pk=player_id).exclude(bot_policy="").exclude(
            bot_policy__in=levels_for(tournament.game)).exists():
        raise NoSuchBotLevel()
    seed = tournament.entrants.count() + 1
    try:
        with transaction.atomic():
            return Entrant.objects.create(tournament=tournament, player_id=player_id, seed=seed)
    except IntegrityError:
        raise AlreadyEntered() from None


def _owner_and_bot(tournament: Tournament, player_id: int) -> bool:
    """Whether ``player_id`` and an entrant are a person and one of their outside bots (either way round):
    one person would hold two hands at a table, or play one of their games against themselves."""
    player = PlayerProfile.objects.filter(pk=player_id).values("user_id", "owner_id", "is_bot_account").first()
    if player is None:
        return False
    entered = tournament.entrants.all()
    if player["is_bot_account"] and player["owner_id"]:
        return entered.filter(player__user_id=player["owner_id"]).exists()
    if player["user_id"]:
        return entered.filter(player__owner_id=player["user_id"], player__is_bot_account=True).exists()
    return False


@transaction.atomic
def entrant_remove(*, entrant_id: int) -> None:
    entrant = Entrant.objects.select_related("tournament").get(pk=entrant_id)
    Tournament.objects.select_for_update(of=("self",)).get(pk=entrant.tournament_id)
    if entrant.tournament.status != Tournament.Status.DRAFT:
        raise NotTakingEntries()
    entrant.delete()


@transaction.atomic
def bots_add(*, tournament_id: int, count: int, policy: str = "mixed") -> list[Entrant]:
    """Enter ``count`` bots (new or reused) into a tournament taking entries."""
    Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
    taken = Entrant.objects.filter(tournament_id=tournament_id).values_list("player_id", flat=True)
    return [entrant_add(tournament_id=tournament_id, player_id=bot.pk)
            for bot in bots_ensure(count=count, policy=policy, exclude=taken)]


@transaction.atomic
def entrant_withdraw(*, entrant_id: int, reason: str = "", by=None) -> Withdrawal:
    """Withdraw an entrant: not paired again; unplayed tables scored by the league's rule.

    A table of a paired or running round that holds the entrant marks their seat
    forfeited; a running match there is aborted and the table is decided at once. A bye or a
    rest already paired for them scores nothing and is no forfeit (``scoring.table_scores``):
    everyone else in that round has a table already.

    The withdrawal's round is the round the entrant is seated in now, or, when the current round
    does not hold them (a knockout player already out), the last round they played: the page says
    "withdrew in round N" for a round they missed, "after round N" for one they played to the end.
    """
    entrant = Entrant.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=entrant_id)
    if Withdrawal.objects.filter(entrant=entrant).exists():
        raise AlreadyWithdrawn()
    tournament = entrant.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentFinished()
    current = tournament.round_set.order_by("-number").values_list("number", flat=True).first() or 0
    if current and not TableSeat.objects.filter(entrant=entrant, table__round__number=current).exists():
        # not in the current round (knocked out before it): they left after the last round they played
        current = (TableSeat.objects.filter(entrant=entrant).order_by("-table__round__number")
                   .values_list("table__round__number", flat=True).first() or 0)
    withdrawal = Withdrawal.objects.create(entrant=entrant, round_number=current, reason=reason, created_by=by)
    open_seats = (TableSeat.objects.filter(entrant=entrant,
                                           table__round__status__in=[Round.Status.PAIRED, Round.Status.RUNNING])
                  .exclude(table__folds__projection=Folded.Projection.STANDINGS)
                  .select_related("table__round", "table__match"))
    for seat in open_seats:
        table = seat.table
        if table.match_id and table.match.status == Match.Status.FINISHED:
            continue  # played to the end: the result stands
        seat.forfeited = True
        seat.save(update_fields=["forfeited"])
        if table.match_id and not table.match.has_ended:
            match_abort(match_id=table.match_id, by=by, reason="withdrawn")
        if table.round.status == Round.Status.RUNNING:
            table_record(table_id=table.pk)
    return withdrawal



@transaction.atomic
def tournament_preset_save(*, tournament_id: int, by=None, name: str | None = None) -> TournamentPreset:
    """Save a tournament's settings as its club's preset (``selectors.presets.tournament_preset_values``),
    named ``name`` or after the tournament; a preset of that name in the club is replaced."""
    tournament = Tournament.objects.select_related("league__club").get(pk=tournament_id)
    preset, _created = TournamentPreset.objects.update_or_create(
        club=tournament.league.club, name=(name or tournament.name)[:120],
        defaults={"values": tournament_preset_values(tournament), "created_by": by})
    return preset


@transaction.atomic
def entrant_seed_set(*, entrant_id: int, seed: int) -> Entrant:
    """The seed an organiser types for an entrant (seeding by hand), while the tournament takes entries."""
    entrant = Entrant.objects.select_related("tournament").get(pk=entrant_id)
    Tournament.objects.select_for_update(of=("self",)).get(pk=entrant.tournament_id)
    if entrant.tournament.status != Tournament.Status.DRAFT:
        raise NotTakingEntries()
    entrant.seed = max(0, int(seed))
    entrant.save(update_fields=["seed"])
    return entrant
