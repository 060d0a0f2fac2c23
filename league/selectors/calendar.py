"""Calendar feeds (iCalendar, RFC 5545): a person's own fixtures and their clubs' events, and a club's events.

A person's feed (``person_calendar``, behind their private ``calendar_token``) holds:

- every round of the tournaments they entered (and did not leave before the start): at its start time when
  it has one (``Round.starts_at``, else when it started), or as whole days from its scheduled date up to the
  next round's date (the round's deadline); the rounds still to be paired, from the tournament's schedule;
- the deadline of each of their seats in a running match under a clock;
- their clubs' coming events: each tournament that is taking entries or running, at its start, and the
  moment its entries close.

Times carry the club's time zone (``Club.time_zone``, as a TZID with its VTIMEZONE); a time zone the
database does not know is written in UTC. A calendar shows them in the reader's own zone.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from games.models import Match, Seat
from league.models import Club, Entrant, PlayerProfile, Round, TableSeat, Tournament

PRODID = "-//cardleague//calendar//EN"
#: a round with a start time but no end yet lasts this long in the calendar
ROUND_LENGTH = timedelta(hours=1)


@dataclass(frozen=True)
class Fixture:
    """One event of a feed: ``start`` a datetime (in the club's zone) or a date (whole days to ``end``)."""
    uid: str
    summary: str
    start: datetime | date
    end: datetime | date
    url: str = ""
    description: str = ""
    categories: tuple[str, ...] = field(default=())


def club_zone(club: Club):
    """The club's time zone; UTC when the name is unknown."""
    try:
        return ZoneInfo(club.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _uid(kind: str, pk: int) -> str:
    return f"{kind}-{pk}@cardleague"


def _local(value: datetime, zone) -> datetime:
    return timezone.localtime(value, zone)


def _round_fixture(tournament: Tournament, number: int, rnd: Round | None, opponents: list[str], zone) -> Fixture | None:
    """A round in the calendar: at its start time, or as whole days from its date to the next round's."""
    title = _("%(tournament)s: round %(n)s") % {"tournament": tournament.name, "n": number}
    if opponents:
        title += " — " + _("against %(names)s") % {"names": ", ".join(opponents)}
    url = reverse("league_tournament", args=[tournament.pk])
    uid = _uid(f"t{tournament.pk}-round", number)
    start_time = (rnd.starts_at or rnd.started_at) if rnd else None
    if start_time is None and number == 1 and tournament.starts_at:
        start_time = tournament.starts_at
    if start_time is not None:
        start = _local(start_time, zone)
        end = _local(rnd.closed_at, zone) if rnd and rnd.closed_at and rnd.closed_at > start_time else start + ROUND_LENGTH
        return Fixture(uid, title, start, end, url, categories=("round",))
    on = rnd.scheduled_on if rnd and rnd.scheduled_on else tournament.round_date(number)
    if on is None:
        return None
    until = on + timedelta(days=max(1, tournament.days_between_rounds))
    description = _("Play by %(date)s.") % {"date": (until - timedelta(days=1)).isoformat()}
    return Fixture(uid, title, on, until, url, description, ("round",))


def _tournament_rounds(profile: PlayerProfile, entrant: Entrant, zone) -> list[Fixture]:
    tournament = entrant.tournament
    rounds = {r.number: r for r in tournament.round_set.all()}
    mine = {s.table.round.number: s.table_id for s in TableSeat.objects.filter(entrant=entrant)
            .select_related("table__round")}
    others: dict[int, list[str]] = {}
    for s in TableSeat.objects.filter(table_id__in=mine.values()).exclude(entrant=entrant).select_related(
            "entrant__player", "table__round").order_by("position"):
        others.setdefault(s.table.round.number, []).append(s.entrant.player.name)
    planned = tournament.rounds or 0
    out = []
    for number in range(1, max(planned, max(rounds, default=0)) + 1):
        if number not in rounds and tournament.status == Tournament.Status.FINISHED:
            continue
        if number in rounds and number not in mine:
            continue       # paired without them (withdrawn, or out of a knockout)
        fixture = _round_fixture(tournament, number, rounds.get(number), others.get(number, []), zone)
        if fixture is not None:
            out.append(fixture)
    return out


def _seat_deadlines(profile: PlayerProfile) -> list[Fixture]:
    """The deadline of each of the person's seats in a running match under a clock."""
    if profile.user_id is None:
        return []
    seats = Seat.objects.filter(user_id=profile.user_id, deadline__isnull=False, match__status=Match.Status.RUNNING)
    out = []
    for seat in seats.select_related("match"):
        when = seat.deadline
        zone = ZoneInfo(settings.TIME_ZONE)
        table = getattr(seat.match, "league_table", None)
        if table is not None:
            zone = club_zone(table.round.tournament.league.club)
        out.append(Fixture(_uid(f"m{seat.match_id}-seat", seat.index), _("Your move's deadline: %(match)s") % {
            "match": str(seat.match)}, _local(when, zone), _local(when, zone),
            reverse("match_play", args=[seat.match_id]), categories=("deadline",)))
    return out


def club_events(clubs: list[Club], leave_out: set[int] = frozenset()) -> list[Fixture]:
    """The clubs' tournaments taking entries or running (but those in ``leave_out``): their start, and when
    their entries close."""
    out = []
    tournaments = (Tournament.objects.filter(league__club__in=clubs, status__in=[Tournament.Status.DRAFT,
                                                                                Tournament.Status.RUNNING])
                   .exclude(pk__in=leave_out).select_related("league__club").order_by("pk"))
    for t in tournaments:
        zone = club_zone(t.league.club)
        url = reverse("league_tournament", args=[t.pk])
        if t.starts_at:
            start = _local(t.starts_at, zone)
            out.append(Fixture(_uid("tournament", t.pk), t.name, start, start + ROUND_LENGTH, url,
                               t.league.club.name, ("event",)))
        elif t.starts_on:
            out.append(Fixture(_uid("tournament", t.pk), t.name, t.starts_on, t.starts_on + timedelta(days=1), url,
                               t.league.club.name, ("event",)))
        if t.entries_open and t.entries_close_at:
            close = _local(t.entries_close_at, zone)
            out.append(Fixture(_uid("entries-close", t.pk), _("Entries close: %(name)s") % {"name": t.name},
                               close, close, url, t.league.club.name, ("entries",)))
    return out


def person_fixtures(profile: PlayerProfile) -> list[Fixture]:
    """What a person's feed holds (see the module), fixtures first, then deadlines, then club events; a
    tournament they entered is not repeated as a club event."""
    entrants = (Entrant.objects.filter(player=profile).exclude(withdrawal__round_number=0)
                .select_related("tournament__league__club").order_by("tournament_id"))
    out: list[Fixture] = []
    entered = set()
    for entrant in entrants:
        entered.add(entrant.tournament_id)
        out += _tournament_rounds(profile, entrant, club_zone(entrant.tournament.league.club))
    out += _seat_deadlines(profile)
    clubs = list(Club.objects.filter(Q(members__pk=profile.user_id) | Q(players=profile)).distinct()) \
        if profile.user_id else list(Club.objects.filter(players=profile))
    return out + club_events(clubs, leave_out=entered)


def calendar_ics(fixtures: list[Fixture], name: str, base_url: str = "") -> bytes:
    """The fixtures as an iCalendar file (times with their TZID and VTIMEZONE; whole days as dates)."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    stamp = timezone.now()
    for f in fixtures:
        event = Event()
        event.add("uid", f.uid)
        event.add("dtstamp", stamp)
        event.add("summary", f.summary)
        event.add("dtstart", f.start)
        if f.end != f.start:
            event.add("dtend", f.end)
        if f.description:
            event.add("description", f.description)
        if f.url:
            event.add("url", base_url + f.url)
        if f.categories:
            event.add("categories", list(f.categories))
        cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()


def person_calendar(token: str, base_url: str = "") -> bytes | None:
    """The feed behind a private calendar token (None: no such token)."""
    if not token:
        return None
    profile = PlayerProfile.objects.filter(calendar_token=token).first()
    if profile is None:
        return None
    return calendar_ics(person_fixtures(profile), f"cardleague · {profile.name}", base_url)


def club_calendar(club: Club, base_url: str = "") -> bytes:
    """A club's public feed: its coming events."""
    return calendar_ics(club_events([club]), f"cardleague · {club.name}", base_url)
