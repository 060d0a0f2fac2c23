"""E-mails that tell people something waits for them: a correspondence turn, a new tournament round,
an organiser's reminder.

Sent by Celery tasks (``league.notify_turn``, ``league.notify_round``) so that no move waits for a
mail server (an organiser's reminder, rare and asked for in the admin, is sent when its request
commits; a mail server's failure is logged and does not undo it); in the person's own language;
only to people who have an address and have not turned e-mails off (their profile). Django's mail
backend: the console in a local copy, SMTP in production (EMAIL_HOST and friends).
"""
from __future__ import annotations

from datetime import timedelta
from functools import partial

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from games import publish
from games.models import Match, Seat
from league.models import PlayerProfile, Reminder, Round, Table, TableSeat
from league.services.errors import NothingToRemind, RemindedRecently

#: A seat is reminded at most once in this time.
REMIND_EVERY = timedelta(minutes=10)


def _may_mail(user) -> bool:
    """A person with an address who has not turned e-mails off."""
    return (user is not None and bool(user.email) and user.is_active
            and not PlayerProfile.objects.filter(user=user, email_notifications=False).exists())


def _mail(user, subject_template: str, body_template: str, context: dict) -> bool:
    profile = PlayerProfile.objects.filter(user=user).first()
    language = (profile.language if profile else "") or settings.LANGUAGE_CODE
    with translation.override(language):
        context = {**context, "user": user, "site": settings.SITE_URL,
                   "settings_url": settings.SITE_URL + reverse("account_settings")}
        subject = render_to_string(subject_template, context).strip()
        body = render_to_string(body_template, context)
    send_mail(subject, body, None, [user.email])
    return True


def turn_notify(*, match_id: int, seat: int) -> bool:
    """A correspondence turn waits for the person at ``seat`` (if they still hold it)."""
    found = Seat.objects.select_related("user", "match").filter(match_id=match_id, index=seat).first()
    if found is None or found.policy or found.deadline is None or not found.match.is_running:
        return False
    if not _may_mail(found.user):
        return False
    return _mail(found.user, "email/turn_subject.txt", "email/turn.txt",
                 {"match": found.match, "deadline": found.deadline,
                  "url": settings.SITE_URL + reverse("match_play", args=[match_id])})


def round_notify(*, round_id: int) -> int:
    """A tournament round has started: tell each person seated in it where to play."""
    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    sent = 0
    for ts in (TableSeat.objects.filter(table__round=rnd, entrant__player__user__isnull=False)
               .select_related("table__match", "entrant__player__user")):
        user = ts.entrant.player.user
        if not _may_mail(user):
            continue
        match = ts.table.match
        url = settings.SITE_URL + (reverse("match_play", args=[match.pk]) if match else
                                   reverse("league_tournament", args=[rnd.tournament_id]))
        sent += _mail(user, "email/round_subject.txt", "email/round.txt",
                      {"round": rnd, "tournament": rnd.tournament, "table": ts.table, "url": url,
                       "bye": match is None})
    return sent


@transaction.atomic
def seat_remind(*, match_id: int, seat: int, by=None) -> Reminder:
    """The organiser reminds the person a round waits for at ``seat`` (to take the seat, or to move):
    a notice on their open pages (the account stream's ``reminder``) and, when they have an address
    and e-mails on, an e-mail. At most once per ``REMIND_EVERY`` for a seat (``RemindedRecently``);
    ``NothingToRemind`` when the match has ended or no person plays the seat."""
    match = Match.objects.select_for_update().get(pk=match_id)
    found = match.seats.select_related("user").filter(index=seat).first()
    if (found is None or found.user_id is None or found.policy or found.status == Seat.Status.DECLINED
            or not (match.is_waiting or match.is_running)):
        raise NothingToRemind()
    now = timezone.now()
    if Reminder.objects.filter(match=match, seat=seat, sent_at__gt=now - REMIND_EVERY).exists():
        raise RemindedRecently()
    emailed = _may_mail(found.user)
    reminder = Reminder.objects.create(match=match, seat=seat, user=found.user, by=by, emailed=emailed, sent_at=now)
    take_seat = found.status == Seat.Status.SEATED
    publish.notify_user(found.user_id, "reminder", match=match.pk, game=match.game, seat=seat,
                        take_seat=take_seat, deadline=found.deadline.isoformat() if found.deadline else None)
    if emailed:
        transaction.on_commit(partial(reminder_mail, reminder_id=reminder.pk), robust=True)
    return reminder


def reminder_mail(*, reminder_id: int) -> bool:
    """The reminder's e-mail: where the person plays, what waits (the seat, or their move) and by when."""
    reminder = Reminder.objects.select_related("match", "user", "by").get(pk=reminder_id)
    match = reminder.match
    seat = match.seats.filter(index=reminder.seat).first()
    table = Table.objects.select_related("round__tournament").filter(match=match).first()
    return _mail(reminder.user, "league/email_reminder_subject.txt", "league/email_reminder.txt",
                 {"match": match, "table": table, "take_seat": seat is not None and seat.status == Seat.Status.SEATED,
                  "deadline": seat.deadline if seat is not None else None,
                  "by": reminder.by.get_username() if reminder.by else "",
                  "url": settings.SITE_URL + reverse("match_play", args=[match.pk])})
