"""English dates as the clubs write them (``cardleague/formats/en``): day first, on a 24-hour clock."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.models import Match
from games.services import SeatSpec, match_create


@pytest.mark.django_db
def test_english_dates_put_the_day_first_on_a_24_hour_clock(people):
    # given a match that finished on 1 December 2026 at 13:27 in the club's time zone (Riga, UTC+2)
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="dates")
    finished = datetime(2026, 12, 1, 11, 27, tzinfo=UTC)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, finished_at=finished)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people[0])
    # when an English reader opens the home page (recently finished matches)
    html = client.get("/").content.decode()
    # then the date reads day first, on a 24-hour clock
    assert "01.12.2026 13:27" in html
    assert "12/01/2026" not in html and "p.m." not in html
    # and so do the long forms
    with translation.override("en"), timezone.override(ZoneInfo("Europe/Riga")):
        local = timezone.localtime(finished)
        assert date_format(local, "DATETIME_FORMAT") == "1 December 2026, 13:27"
        assert date_format(local, "DATE_FORMAT") == "1 December 2026"
        assert date_format(local, "MONTH_DAY_FORMAT") == "1 December"
