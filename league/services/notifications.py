"""E-mails that tell people something waits for them: a correspondence turn, a new tournament round.

Sent by Celery tasks (``league.notify_turn``, ``league.notify_round``) so that no move waits for a
mail server; in the person's own language; only to people who have an address and have not
turned e-mails off (their profile). Django's mail backend: the console in a local copy, SMTP in
production (EMAIL_HOST and friends).
"""
from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.models import Seat
from league.models import PlayerProfile, Round, TableSeat


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
