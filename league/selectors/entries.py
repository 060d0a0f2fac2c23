"""Entries: whether a tournament takes sign-ups, its check-in window, its waiting list, a person's own
status, and the entries panel of the tournament page (``templates/league/_entries.html``)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core import signing
from django.utils import timezone

from league.models import Entrant, PlayerProfile, Registration, Tournament

#: Salt of the code in the check-in QR's URL (only the people at the door see it).
CHECKIN_SALT = "league.checkin"


def checkin_window(tournament: Tournament) -> tuple[datetime, datetime] | None:
    """When entrants check in: ``[starts_at - checkin_minutes, starts_at)``; None without check-in."""
    if not tournament.checkin_minutes or tournament.starts_at is None:
        return None
    return tournament.starts_at - timedelta(minutes=tournament.checkin_minutes), tournament.starts_at


def checkin_open(tournament: Tournament, now: datetime | None = None) -> bool:
    """Whether people check in now: inside the window, before it was closed, before the first round."""
    window = checkin_window(tournament)
    if window is None or tournament.checkin_closed_at is not None or tournament.status != Tournament.Status.DRAFT:
        return False
    now = now or timezone.now()
    return window[0] <= now < window[1]


def checkin_due(tournament: Tournament, now: datetime | None = None) -> bool:
    """Whether check-in should close now: its window has ended and it has not been closed yet."""
    window = checkin_window(tournament)
    return (window is not None and tournament.checkin_closed_at is None
            and tournament.status == Tournament.Status.DRAFT and (now or timezone.now()) >= window[1])


def first_round_due(tournament: Tournament, now: datetime | None = None) -> bool:
    """Whether its first round should be paired now: it has a start time that has come, it has not started,
    and its check-in (if any) has closed."""
    return (tournament.status == Tournament.Status.DRAFT and tournament.starts_at is not None
            and (now or timezone.now()) >= tournament.starts_at
            and (not tournament.checkin_minutes or tournament.checkin_closed_at is not None))


def entries_taken(tournament: Tournament, now: datetime | None = None) -> bool:
    """Whether the tournament takes sign-ups now: open for entries, not started, before the closing time and
    before check-in closed."""
    now = now or timezone.now()
    return (tournament.entries_open and tournament.status == Tournament.Status.DRAFT
            and tournament.checkin_closed_at is None
            and (tournament.entries_close_at is None or now < tournament.entries_close_at))


def places_left(tournament: Tournament) -> int | None:
    """Free places in the field (None: no limit)."""
    if tournament.capacity is None:
        return None
    return max(0, tournament.capacity - tournament.entrants.count())


def waiting_list(tournament: Tournament) -> list[Registration]:
    """The waiting list in its order (who signed up first moves up first)."""
    return list(tournament.registrations.filter(status=Registration.Status.WAITING)
                .select_related("player").order_by("created_at", "pk"))


def waiting_position(registration: Registration) -> int:
    """1 for the first on the waiting list."""
    ahead = Registration.objects.filter(tournament_id=registration.tournament_id,
                                        status=Registration.Status.WAITING, created_at__lt=registration.created_at)
    tied = Registration.objects.filter(tournament_id=registration.tournament_id, status=Registration.Status.WAITING,
                                       created_at=registration.created_at, pk__lt=registration.pk)
    return ahead.count() + tied.count() + 1


@dataclass(frozen=True)
class EntryStatus:
    """A person's standing in a tournament: ``entered`` (in the field), ``waiting`` (with ``position``),
    ``pending`` (waiting for approval), ``refused`` (with ``reason``), ``withdrawn`` or ``none``."""
    status: str
    position: int | None = None
    reason: str = ""
    checked_in: bool = False


def entry_status(tournament: Tournament, player: PlayerProfile | None) -> EntryStatus:
    if player is None:
        return EntryStatus("none")
    entrant = Entrant.objects.filter(tournament=tournament, player=player).select_related("withdrawal").first()
    if entrant is not None:
        if getattr(entrant, "withdrawal", None) is not None:
            return EntryStatus("withdrawn", reason=entrant.withdrawal.reason)
        return EntryStatus("entered", checked_in=entrant.checked_in_at is not None)
    registration = Registration.objects.filter(tournament=tournament, player=player).first()
    if registration is None:
        return EntryStatus("none")
    if registration.status == Registration.Status.WAITING:
        return EntryStatus("waiting", position=waiting_position(registration),
                          checked_in=registration.checked_in_at is not None)
    return EntryStatus(registration.status, reason=registration.reason)


def checkin_code(tournament: Tournament) -> str:
    """The code in the check-in QR's URL: whoever opens that URL, signed in, stood at the door."""
    return signing.Signer(salt=CHECKIN_SALT).signature(str(tournament.pk))


def checkin_code_valid(tournament: Tournament, code: str) -> bool:
    return signing.constant_time_compare(code, checkin_code(tournament))


def may_organise(user, tournament: Tournament) -> bool:
    """Whether ``user`` runs this tournament: a superuser, or staff who organise its club and may change
    tournaments (a view-only account may not)."""
    if not getattr(user, "is_authenticated", False) or not user.is_staff:
        return False
    if user.is_superuser:
        return True
    return (user.has_perm("league.change_tournament")
            and tournament.league.club.organisers.filter(pk=user.pk).exists())


def entries_page(tournament: Tournament, user=None) -> dict:
    """The entries panel of the tournament page, as ``user`` reads it."""
    player = None
    if user is not None and user.is_authenticated:
        player = PlayerProfile.objects.filter(user=user).first()
    now = timezone.now()
    entrants = list(tournament.entrants.select_related("player", "withdrawal").order_by("seed", "pk"))
    window = checkin_window(tournament)
    return {
        # the panel is shown for sign-ups, check-in or no-shows (and then it lists the field before the start)
        "shown": bool(tournament.entries_open or window or tournament.no_show_minutes),
        "tournament": tournament, "me": entry_status(tournament, player), "signed_in": bool(user and
                                                                                            user.is_authenticated),
        "taking": entries_taken(tournament, now), "places_left": places_left(tournament),
        "field": entrants, "checked_in": sum(1 for e in entrants if e.checked_in_at),
        "waiting_list": waiting_list(tournament),
        "pending": tournament.registrations.filter(status=Registration.Status.PENDING).count(),
        "window": window, "checkin_open": checkin_open(tournament, now),
        "checkin_closed": tournament.checkin_closed_at, "draft": tournament.status == Tournament.Status.DRAFT,
        "running": tournament.status == Tournament.Status.RUNNING,
        "organiser": may_organise(user, tournament) if user is not None else False,
    }
