"""Entries: people sign up for a tournament open for entries, a waiting list past its capacity, the
organiser's approval, check-in before the first round, and no-shows once it runs.

The rules (stated on the tournament page and in docs/running-a-club.md):

- A sign-up is taken while the tournament is open for entries, has not started, before its closing time and
  before check-in closes. Up to the capacity it enters the field (an ``Entrant``); past it, the person is on
  the waiting list (a ``Registration`` ``waiting``, in the order of signing up). With approval, a sign-up
  waits for the organiser (``pending``), who approves it (in the field, or on the waiting list if full) or
  refuses it with a reason the person sees. Outside bots sign up (through the API) only where the organiser
  allows them; the server's bots are added by the organiser.
- Before the start a person withdraws themselves (out of the field or off the list); once it runs they
  withdraw between rounds (``entrant_withdraw``).
- A place that frees before check-in closes goes to the first on the waiting list.
- Check-in: in the window ``[starts_at - checkin_minutes, starts_at)`` entrants, and people on the waiting
  list, check in (a button, or the QR code at the door). When it closes, entrants who did not check in are
  dropped (``Registration`` ``withdrawn``, with the reason) and their places go to the people on the waiting
  list who checked in, in the list's order. After that, nobody moves up. The server's bots need no check-in.
- No-shows: a person's seat not taken ``no_show_minutes`` after their round started is forfeited
  (``games.services.seat_forfeit``) and counted; at ``no_shows_withdraw`` no-shows they are withdrawn.

``entries_sweep`` (Celery beat, ``league.entries_sweep``) hands each tournament with something due to
``league.entries_due`` through ``games.dispatch``.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games import dispatch, publish
from games.errors import DomainError
from games.models import Match, Seat
from games.services import seat_forfeit
from league.models import Entrant, PlayerProfile, Registration, Round, Table, TableSeat, Tournament, Withdrawal
from league.selectors.entries import (
    EntryStatus,
    checkin_due,
    checkin_open,
    checkin_window,
    entries_taken,
    entry_status,
    first_round_due,
)
from league.services import rounds
from league.services.errors import (
    AlreadyCheckedIn,
    AlreadySignedUp,
    AlreadyWithdrawn,
    CheckinClosed,
    CheckinNotOpen,
    EntriesClosed,
    EntriesNotOpen,
    EntryRefused,
    InvalidTournament,
    NotPending,
    NotSignedUp,
    NotTakingEntries,
    OutsideBotsNotAllowed,
    OwnBotEntered,
)
from league.services.tournaments import entrant_withdraw, tournament_save_checked

#: The tournament's settings of entries, check-in and no-shows (the admin's "Entries" fieldset).
ENTRY_FIELDS = ("entries_open", "entries_close_at", "capacity", "approval", "outside_bots", "starts_at",
                "checkin_minutes", "no_show_minutes", "no_shows_withdraw")


def _locked(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update(of=("self",)).select_related("league__club").get(pk=tournament_id)


def _full(tournament: Tournament) -> bool:
    return tournament.capacity is not None and tournament.entrants.count() >= tournament.capacity


def _enter(tournament: Tournament, player_id: int, checked_in_at: datetime | None = None) -> Entrant:
    seed = tournament.entrants.count() + 1
    try:
        with transaction.atomic():
            return Entrant.objects.create(tournament=tournament, player_id=player_id, seed=seed,
                                          checked_in_at=checked_in_at)
    except IntegrityError:
        raise AlreadySignedUp() from None


def _owner_and_bot(tournament: Tournament, player: PlayerProfile) -> bool:
    """A person and their own outside bot, one in the field or signed up and the other signing up."""
    signed = Registration.objects.filter(tournament=tournament, status__in=[Registration.Status.PENDING,
                                                                             Registration.Status.WAITING])
    if player.is_bot_account and player.owner_id:
        return (tournament.entrants.filter(player__user_id=player.owner_id).exists()
                or signed.filter(player__user_id=player.owner_id).exists())
    if player.user_id:
        return (tournament.entrants.filter(player__owner_id=player.user_id, player__is_bot_account=True).exists()
                or signed.filter(player__owner_id=player.user_id, player__is_bot_account=True).exists())
    return False


def _status(tournament: Tournament, player: PlayerProfile) -> EntryStatus:
    return entry_status(tournament, player)


@transaction.atomic
def entry_signup(*, tournament_id: int, player_id: int, now: datetime | None = None) -> EntryStatus:
    """Sign a person (or an outside bot) up: in the field up to the capacity, else on the waiting list; with
    approval, waiting for the organiser. Answers their status."""
    tournament = _locked(tournament_id)
    player = PlayerProfile.objects.get(pk=player_id)
    if not tournament.entries_open:
        raise EntriesNotOpen()
    if tournament.status != Tournament.Status.DRAFT:
        raise NotTakingEntries()
    if not entries_taken(tournament, now):
        raise EntriesClosed()
    if player.is_bot:
        raise OutsideBotsNotAllowed()
    if player.is_bot_account and not tournament.outside_bots:
        raise OutsideBotsNotAllowed()
    if tournament.entrants.filter(player=player).exists():
        raise AlreadySignedUp()
    registration = Registration.objects.select_for_update().filter(tournament=tournament, player=player).first()
    if registration is not None:
        if registration.status == Registration.Status.REFUSED:
            raise EntryRefused(_refusal_message(registration.reason))
        if registration.status != Registration.Status.WITHDRAWN:
            raise AlreadySignedUp()
    if _owner_and_bot(tournament, player):
        raise OwnBotEntered()
    if tournament.approval:
        _register(tournament, player, registration, Registration.Status.PENDING, now)
    elif _full(tournament) or _someone_waiting(tournament):
        _register(tournament, player, registration, Registration.Status.WAITING, now)
    else:
        if registration is not None:
            registration.delete()
        _enter(tournament, player.pk)
    publish.tournament_changed(tournament.pk)
    return _status(tournament, player)


def _someone_waiting(tournament: Tournament) -> bool:
    """A place that is free is the first waiting person's, never a newcomer's."""
    return tournament.registrations.filter(status=Registration.Status.WAITING).exists()


def _refusal_message(reason: str) -> str:
    if not reason:
        return str(EntryRefused.message)
    return gettext("The organiser refused your entry: %(reason)s") % {"reason": reason}


def _register(tournament: Tournament, player: PlayerProfile, registration: Registration | None, status: str,
              now: datetime | None) -> Registration:
    now = now or timezone.now()
    if registration is None:
        return Registration.objects.create(tournament=tournament, player=player, status=status, created_at=now)
    registration.status, registration.created_at, registration.reason = status, now, ""
    registration.decided_by, registration.decided_at, registration.checked_in_at = None, None, None
    registration.save()
    return registration


def _tell(tournament_id: int, player_id: int, status: str, reason: str = "") -> None:
    """The person's account stream hears that their entry changed (``entry_changed``: ``tournament``,
    ``status`` as the API's ``EntryOut`` says it, ``reason``), after the commit; bots have no account."""
    user_id = PlayerProfile.objects.filter(pk=player_id).values_list("user_id", flat=True).first()
    publish.notify_user(user_id, "entry_changed", tournament=tournament_id, status=status, reason=str(reason))


def _promote(tournament: Tournament, *, closing: bool = False) -> list[Entrant]:
    """Fill free places from the waiting list in its order: before check-in closes, the first ones; at the
    close (``closing``), only those who checked in; after it, nobody."""
    if tournament.status != Tournament.Status.DRAFT or (tournament.checkin_closed_at is not None and not closing):
        return []
    waiting = tournament.registrations.filter(status=Registration.Status.WAITING).order_by("created_at", "pk")
    if closing:
        waiting = waiting.filter(checked_in_at__isnull=False)
    promoted = []
    for registration in waiting.select_related("player"):
        if _full(tournament):
            break
        promoted.append(_enter(tournament, registration.player_id, registration.checked_in_at))
        registration.delete()
        _tell(tournament.pk, registration.player_id, "entered")
    return promoted


@transaction.atomic
def entry_withdraw(*, tournament_id: int, player_id: int, by=None) -> EntryStatus:
    """A person withdraws themselves. Before the start: out of the field (or off the waiting list, or their
    sign-up waiting for approval), and the waiting list moves up; once running: ``entrant_withdraw``."""
    tournament = _locked(tournament_id)
    player = PlayerProfile.objects.get(pk=player_id)
    entrant = tournament.entrants.filter(player=player).first()
    if entrant is not None and tournament.status != Tournament.Status.DRAFT:
        entrant_withdraw(entrant_id=entrant.pk, reason=gettext("withdrew themselves"), by=by)
        publish.tournament_changed(tournament.pk)
        return _status(tournament, player)
    if entrant is not None:
        entrant.delete()
        Registration.objects.update_or_create(
            tournament=tournament, player=player,
            defaults={"status": Registration.Status.WITHDRAWN, "reason": gettext("withdrew themselves"),
                      "decided_by": by, "decided_at": timezone.now(), "checked_in_at": None})
        _promote(tournament)
        publish.tournament_changed(tournament.pk)
        return _status(tournament, player)
    registration = Registration.objects.filter(
        tournament=tournament, player=player,
        status__in=[Registration.Status.PENDING, Registration.Status.WAITING]).first()
    if registration is None:
        if Registration.objects.filter(tournament=tournament, player=player,
                                       status=Registration.Status.WITHDRAWN).exists():
            raise AlreadyWithdrawn()
        raise NotSignedUp()
    registration.status, registration.reason = Registration.Status.WITHDRAWN, gettext("withdrew themselves")
    registration.decided_by, registration.decided_at = by, timezone.now()
    registration.save()
    publish.tournament_changed(tournament.pk)
    return _status(tournament, player)


@transaction.atomic
def entry_approve(*, registration_id: int, by=None) -> EntryStatus:
    """The organiser approves a sign-up waiting for approval: in the field, or on the waiting list when full
    (its place on the list is the time it signed up)."""
    registration = Registration.objects.select_related("player").get(pk=registration_id)
    tournament = _locked(registration.tournament_id)
    registration = Registration.objects.select_for_update().get(pk=registration_id)
    if registration.status != Registration.Status.PENDING:
        raise NotPending()
    if tournament.status != Tournament.Status.DRAFT:
        raise NotTakingEntries()
    if _full(tournament) or _someone_waiting(tournament):
        registration.status, registration.decided_by, registration.decided_at = (
            Registration.Status.WAITING, by, timezone.now())
        registration.save()
        _tell(tournament.pk, registration.player_id, "waiting")
    else:
        registration.delete()
        _enter(tournament, registration.player_id)
        _tell(tournament.pk, registration.player_id, "entered")
    publish.tournament_changed(tournament.pk)
    return _status(tournament, registration.player)


@transaction.atomic
def entry_refuse(*, registration_id: int, reason: str, by=None) -> Registration:
    """The organiser refuses a sign-up waiting for approval, with a reason the person sees on the page."""
    registration = Registration.objects.select_related("player").get(pk=registration_id)
    _locked(registration.tournament_id)
    registration = Registration.objects.select_for_update().select_related("player").get(pk=registration_id)
    if registration.status != Registration.Status.PENDING:
        raise NotPending()
    registration.status, registration.reason = Registration.Status.REFUSED, reason[:200]
    registration.decided_by, registration.decided_at = by, timezone.now()
    registration.save()
    _tell(registration.tournament_id, registration.player_id, "refused", registration.reason)
    publish.tournament_changed(registration.tournament_id)
    return registration


@transaction.atomic
def entry_checkin(*, tournament_id: int, player_id: int, now: datetime | None = None) -> EntryStatus:
    """A person checks in during the window: an entrant, or someone on the waiting list (who may then move
    up when check-in closes)."""
    tournament = _locked(tournament_id)
    now = now or timezone.now()
    if tournament.checkin_closed_at is not None or (tournament.status != Tournament.Status.DRAFT
                                                    and checkin_window(tournament) is not None):
        raise CheckinClosed()
    if not checkin_open(tournament, now):
        window = checkin_window(tournament)
        if window is None:
            raise CheckinNotOpen(gettext("This tournament has no check-in."))
        if now >= window[1]:
            raise CheckinClosed()
        raise CheckinNotOpen(opens_at=window[0].isoformat(), closes_at=window[1].isoformat())
    entrant = Entrant.objects.select_for_update().filter(tournament=tournament, player_id=player_id).first()
    if entrant is not None:
        if entrant.checked_in_at is not None:
            raise AlreadyCheckedIn()
        entrant.checked_in_at = now
        entrant.save(update_fields=["checked_in_at"])
    else:
        registration = Registration.objects.select_for_update().filter(
            tournament=tournament, player_id=player_id, status=Registration.Status.WAITING).first()
        if registration is None:
            raise NotSignedUp()
        if registration.checked_in_at is not None:
            raise AlreadyCheckedIn()
        registration.checked_in_at = now
        registration.save(update_fields=["checked_in_at"])
    publish.tournament_changed(tournament.pk)
    return _status(tournament, PlayerProfile.objects.get(pk=player_id))


@transaction.atomic
def checkin_close(*, tournament_id: int, by=None, now: datetime | None = None) -> dict:
    """Close check-in (at the start time, or earlier by the organiser): entrants who did not check in are
    dropped, and their places go to the people on the waiting list who checked in, in its order. The
    server's bots need no check-in. Answers ``{"dropped": [names], "promoted": [names]}``."""
    tournament = _locked(tournament_id)
    if checkin_window(tournament) is None:
        raise CheckinNotOpen(gettext("This tournament has no check-in."))
    if tournament.checkin_closed_at is not None or tournament.status != Tournament.Status.DRAFT:
        raise CheckinClosed()
    now = now or timezone.now()
    tournament.checkin_closed_at = now
    tournament.save(update_fields=["checkin_closed_at"])
    absent = list(tournament.entrants.filter(checked_in_at__isnull=True, player__bot_policy="")
                  .select_related("player"))
    reason = gettext("did not check in")
    for entrant in absent:
        Registration.objects.update_or_create(
            tournament=tournament, player=entrant.player,
            defaults={"status": Registration.Status.WITHDRAWN, "reason": reason, "decided_by": by,
                      "decided_at": now, "checked_in_at": None})
        entrant.delete()
        _tell(tournament.pk, entrant.player_id, "withdrawn", reason)
    _reseed(tournament)
    promoted = _promote(tournament, closing=True)
    publish.tournament_changed(tournament.pk)
    return {"dropped": [e.player.name for e in absent], "promoted": [e.player.name for e in promoted]}


def _reseed(tournament: Tournament) -> None:
    """Entry order stays, without gaps."""
    for seed, entrant in enumerate(tournament.entrants.order_by("seed", "pk"), start=1):
        if entrant.seed != seed:
            entrant.seed = seed
            entrant.save(update_fields=["seed"])


def no_show_seats(tournament: Tournament, now: datetime | None = None) -> list[TableSeat]:
    """Seats of a running round that a person has not taken ``no_show_minutes`` after the round started."""
    if tournament.no_show_minutes is None or tournament.status != Tournament.Status.RUNNING:
        return []
    cutoff = (now or timezone.now()) - timedelta(minutes=tournament.no_show_minutes)
    seats = (TableSeat.objects.filter(table__round__tournament=tournament, table__round__status=Round.Status.RUNNING,
                                      table__round__started_at__lte=cutoff, table__kind=Table.Kind.MATCH,
                                      table__match__status=Match.Status.WAITING, match_seat__isnull=False,
                                      forfeited=False, entrant__player__user__isnull=False)
             .select_related("table", "entrant__player"))
    out = []
    for seat in seats:
        if Seat.objects.filter(match_id=seat.table.match_id, index=seat.match_seat,
                               status=Seat.Status.SEATED).exists():
            out.append(seat)
    return out


@transaction.atomic
def no_show_record(*, table_seat_id: int, now: datetime | None = None) -> bool:
    """Forfeit one no-show's seat and count it; at the tournament's ``no_shows_withdraw`` the entrant is
    withdrawn. False when the seat was taken or forfeited meanwhile (a second run changes nothing)."""
    seat = TableSeat.objects.select_related("table__round__tournament", "entrant").get(pk=table_seat_id)
    tournament = seat.table.round.tournament
    match = Match.objects.select_for_update().get(pk=seat.table.match_id)
    if not match.seats.filter(index=seat.match_seat, status=Seat.Status.SEATED).exists():
        return False
    if seat not in no_show_seats(tournament, now):
        return False
    seat_forfeit(match_id=match.pk, seat=seat.match_seat)
    entrant = Entrant.objects.select_for_update().get(pk=seat.entrant_id)
    entrant.no_shows += 1
    entrant.save(update_fields=["no_shows"])
    if (tournament.no_shows_withdraw and entrant.no_shows >= tournament.no_shows_withdraw
            and not Withdrawal.objects.filter(entrant=entrant).exists()):
        # not paired again; this round's seat is already forfeited in its match, which goes on for the others
        Withdrawal.objects.create(entrant=entrant, round_number=seat.table.round.number, reason=ngettext(
            "did not come to %(n)s round", "did not come to %(n)s rounds", entrant.no_shows) % {"n": entrant.no_shows})
    publish.tournament_changed(tournament.pk)
    return True


def no_shows_forfeit(*, tournament_id: int, now: datetime | None = None) -> int:
    """Forfeit every no-show's seat of the tournament's running round; answers how many."""
    tournament = Tournament.objects.get(pk=tournament_id)
    done = 0
    for seat in no_show_seats(tournament, now):
        try:
            done += no_show_record(table_seat_id=seat.pk, now=now)
        except DomainError:
            continue  # the match ended meanwhile
    return done


def entries_due(*, tournament_id: int, now: datetime | None = None) -> dict:
    """What is due for one tournament (the task ``league.entries_due``): close its check-in when the window
    has ended; at its start time pair the first round (released at once when rounds start automatically,
    else a draft for the organiser to release); forfeit its no-shows. Idempotent: a second run finds nothing
    due. ``not_started``: why a first round that is due could not be paired (too few players, say)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    out: dict = {"closed": False, "paired": None, "not_started": "", "no_shows": 0}
    if tournament is None:
        return out
    if checkin_due(tournament, now):
        try:
            checkin_close(tournament_id=tournament_id, now=now)
            out["closed"] = True
        except (CheckinClosed, CheckinNotOpen):
            pass
        tournament.refresh_from_db()
    if first_round_due(tournament, now):
        out.update(first_round_start(tournament_id=tournament_id))
    out["no_shows"] = no_shows_forfeit(tournament_id=tournament_id, now=now)
    return out


def first_round_start(*, tournament_id: int) -> dict:
    """Pair a tournament's first round at its start time; release it at once when its rounds start
    automatically (``auto_advance``), else leave it a draft for the organiser. A field too small to pair
    leaves the tournament taking entries, and says why."""
    try:
        with transaction.atomic():
            first = rounds.round_pair(tournament_id=tournament_id)
    except DomainError as exc:
        return {"paired": None, "not_started": str(exc)}
    if first is not None and Tournament.objects.filter(pk=tournament_id, auto_advance=True).exists():
        rounds.round_release(round_id=first.pk)
    return {"paired": first.number if first is not None else None, "not_started": ""}


def entries_sweep(*, now: datetime | None = None) -> int:
    """Periodic (Celery beat, ``league.entries_sweep``): hand every tournament whose check-in is due to close
    or whose first round is due, or which may have no-shows, to ``league.entries_due``. Answers how many were handed on."""
    now = now or timezone.now()
    # check-in to close, or a first round to pair: every tournament not started whose start time has come
    closing = Tournament.objects.filter(status=Tournament.Status.DRAFT, starts_at__lte=now)
    watching = Tournament.objects.filter(status=Tournament.Status.RUNNING, no_show_minutes__isnull=False,
                                         round_set__status=Round.Status.RUNNING,
                                         round_set__tables__match__status=Match.Status.WAITING)
    ids = sorted(set(closing.values_list("pk", flat=True)) | set(watching.values_list("pk", flat=True)))
    for tournament_id in ids:
        dispatch.send("league.entries_due", (tournament_id,))
    return len(ids)


@transaction.atomic
def entry_terms_set(*, tournament_id: int, **terms) -> Tournament:
    """Set a tournament's entry settings (``ENTRY_FIELDS``), checked: check-in needs a start time."""
    tournament = _locked(tournament_id)
    unknown = set(terms) - set(ENTRY_FIELDS)
    if unknown:
        raise InvalidTournament(f"unknown entry settings: {', '.join(sorted(unknown))}")
    for name, value in terms.items():
        setattr(tournament, name, value)
    problem = entry_terms_problem(tournament)
    if problem:
        raise InvalidTournament(problem)
    return tournament_save_checked(tournament)


def entry_terms_problem(tournament: Tournament) -> str | None:
    """What is wrong with a tournament's entry settings (None: nothing)."""
    if tournament.checkin_minutes and tournament.starts_at is None:
        return gettext("Check-in needs the time the first round starts.")
    if tournament.capacity is not None and tournament.capacity < 1:
        return gettext("The capacity is at least one player (or empty: no limit).")
    return None
