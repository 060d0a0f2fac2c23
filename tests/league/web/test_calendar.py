"""Calendar feeds: a person's private address serves their own fixtures and their clubs' events, parsed
here with the icalendar library."""
from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from django.test import Client
from icalendar import Calendar

from league import services
from league.models import PlayerProfile, Round, Tournament

RIGA = ZoneInfo("Europe/Riga")


def _events(body: bytes) -> dict[str, object]:
    cal = Calendar.from_ical(body)
    return {str(e.get("summary")): e for e in cal.walk("VEVENT")}


def _setting_up(club, league, django_user_model):
    """A member of the club entered in a two-round Swiss (round 1 paired, starting at 19:00 Riga time) and
    a coming event of the club taking entries."""
    user = django_user_model.objects.create_user(username="liga", password="pw-liga-12345")
    club.members.add(user)
    profile = services.player_for_user(user=user)
    swiss = services.tournament_create(league_id=league.pk, name="Club night", format="swiss", rounds=2,
                                       seeding=Tournament.Seeding.ENTRY, starts_on=date(2027, 1, 14))
    services.entrant_add(tournament_id=swiss.pk, player_id=profile.pk)
    services.bots_add(tournament_id=swiss.pk, count=1, policy="greedy")
    rnd = services.round_pair(tournament_id=swiss.pk)
    Round.objects.filter(pk=rnd.pk).update(starts_at=datetime(2027, 1, 14, 19, 0, tzinfo=RIGA))
    cup = services.tournament_create(league_id=league.pk, name="Winter cup", format="knockout")
    Tournament.objects.filter(pk=cup.pk).update(starts_at=datetime(2027, 2, 6, 11, 0, tzinfo=RIGA), entries_open=True,
                                                entries_close_at=datetime(2027, 2, 5, 20, 0, tzinfo=RIGA))
    client = Client()
    client.force_login(user)
    return user, client, swiss


def test_a_persons_calendar_feed_holds_their_rounds_and_their_clubs_events_in_the_clubs_time_zone(
        club, league, django_user_model):
    # given a member entered in a Swiss, with a club event coming
    _, client, swiss = _setting_up(club, league, django_user_model)
    opponent = swiss.entrants.exclude(player__user__isnull=False).get().player.name
    # when they make their calendar address on the settings page and their calendar app reads it
    assert client.post("/accounts/calendar/new/").status_code == 302
    token = PlayerProfile.objects.get(user__username="liga").calendar_token
    assert len(token) == 43
    settings_page = client.get("/accounts/settings/").content.decode()
    assert f"/calendar/{token}.ics" in settings_page
    response = Client().get(f"/calendar/{token}.ics")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    events = _events(response.content)
    # then round 1 is at 19:00 in Riga's time zone (a TZID with its VTIMEZONE), against its opponent
    first = events[f"Club night: round 1 — against {opponent}"]
    start = first.decoded("dtstart")
    assert start == datetime(2027, 1, 14, 19, 0, tzinfo=RIGA) and first["dtstart"].params["TZID"] == "Europe/Riga"
    assert b"BEGIN:VTIMEZONE" in response.content and b"TZID:Europe/Riga" in response.content
    # and round 2, not paired yet, is the whole week up to round 3's date (its deadline)
    second = events["Club night: round 2"]
    assert second.decoded("dtstart") == date(2027, 1, 21) and second.decoded("dtend") == date(2027, 1, 28)
    # and the club's coming event: its start and when its entries close
    assert events["Winter cup"].decoded("dtstart") == datetime(2027, 2, 6, 11, 0, tzinfo=RIGA)
    assert events["Entries close: Winter cup"].decoded("dtstart").astimezone(UTC) == datetime(
        2027, 2, 5, 18, 0, tzinfo=UTC)
    # and every event links to its page
    assert all(str(e.get("url")).startswith("http://testserver/tournaments/") for e in events.values())


def test_a_new_calendar_address_replaces_the_old_and_a_stopped_one_serves_nothing(club, league, django_user_model):
    # given a member with a calendar address
    _, client, _ = _setting_up(club, league, django_user_model)
    client.post("/accounts/calendar/new/")
    old = PlayerProfile.objects.get(user__username="liga").calendar_token
    # when they make a new one
    client.post("/accounts/calendar/new/")
    new = PlayerProfile.objects.get(user__username="liga").calendar_token
    # then the old address stops working and the new one works
    assert new != old
    assert Client().get(f"/calendar/{old}.ics").status_code == 404
    assert Client().get(f"/calendar/{new}.ics").status_code == 200
    # and once stopped, no address works
    client.post("/accounts/calendar/revoke/")
    assert PlayerProfile.objects.get(user__username="liga").calendar_token == ""
    assert Client().get(f"/calendar/{new}.ics").status_code == 404


def test_a_clubs_public_feed_lists_its_coming_events(club, league, django_user_model):
    # given a club with an event taking entries
    _setting_up(club, league, django_user_model)
    # when its feed is read
    events = _events(Client().get(f"/clubs/{club.slug}/calendar.ics").content)
    # then it holds the club's events, and nobody's own rounds
    assert set(events) == {"Club night", "Winter cup", "Entries close: Winter cup"}
    assert events["Club night"].decoded("dtstart") == date(2027, 1, 14)
