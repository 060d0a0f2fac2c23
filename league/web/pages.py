"""A club member's page; calendar feeds (a person's private one, a club's public one) and the settings that make and revoke a
person's feed address. Thin: fetch, call a selector or a service, answer."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from league.models import Club, PlayerProfile
from league.selectors import calendar, clubs
from league.services.people import calendar_token_renew, calendar_token_revoke

ICS = "text/calendar; charset=utf-8"


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=ICS)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=300"
    return response


@require_GET
def person_calendar(request, token: str):
    """A person's own fixtures and their clubs' events, behind their private address (404: no such address)."""
    body = calendar.person_calendar(token, request.build_absolute_uri("/").rstrip("/"))
    if body is None:
        raise Http404
    response = _ics(body, "cardleague.ics")
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
def club_calendar(request, slug: str):
    """A club's coming events (public, like the club's page)."""
    club = get_object_or_404(Club, slug=slug)
    return _ics(calendar.club_calendar(club, request.build_absolute_uri("/").rstrip("/")), f"{club.slug}.ics")


@login_required
@require_POST
def calendar_address_new(request):
    """Make the person's private calendar address, or replace it (the old one stops working)."""
    calendar_token_renew(user=request.user)
    messages.success(request, _("Your calendar address is ready. Add it to your calendar app as a subscription."))
    return redirect(reverse("account_settings") + "#calendar")


@login_required
@require_POST
def calendar_address_revoke(request):
    calendar_token_revoke(user=request.user)
    messages.success(request, _("Your calendar address no longer works."))
    return redirect(reverse("account_settings") + "#calendar")


@require_GET
def club_member(request, slug: str, player_id: int):
    """A club member's statistics in the club's tournaments and their head-to-head against clubmates."""
    club = get_object_or_404(Club, slug=slug)
    player = get_object_or_404(PlayerProfile, pk=player_id)
    context = clubs.club_member_page(club, player)
    if not context["member"]:
        raise Http404
    return render(request, "league/club_member.html", context)
