"""The entries panel of the tournament page (``templates/league/_entries.html``): sign up, withdraw and check
in (htmx posts answered with the panel; without script, a redirect back to the page), and the check-in URL
the organiser's QR code opens at the door."""
from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.errors import DomainError
from league import services
from league.models import Tournament
from league.selectors import entries

ACTIONS = {"signup": services.entry_signup, "withdraw": services.entry_withdraw, "checkin": services.entry_checkin}
DONE = {"signup": {"entered": gettext_lazy("You are in."),
                   "waiting": gettext_lazy("The tournament is full: you are on the waiting list."),
                   "pending": gettext_lazy("Signed up: the organiser approves each entry.")},
        "withdraw": gettext_lazy("You have withdrawn."), "checkin": gettext_lazy("Checked in.")}


def entries_context(request, tournament: Tournament) -> dict:
    """The panel's context: ``entries_page`` and, for the organiser, the check-in QR code (inline SVG)."""
    context = entries.entries_page(tournament, request.user)
    if context["organiser"] and context["window"] is not None and context["draft"]:
        url = request.build_absolute_uri(reverse("league_checkin_door",
                                                 args=[tournament.pk, entries.checkin_code(tournament)]))
        context["checkin_url"] = url
        context["checkin_qr"] = segno.make(url, error="m").svg_inline(scale=5, title=_("Check-in QR code"))
    return context


@require_GET
def checkin_qr(request, tournament_id: int):
    """The check-in QR code on a page of its own, to print and put at the door (the organiser's only)."""
    tournament = get_object_or_404(Tournament.objects.select_related("league__club"), pk=tournament_id)
    context = entries_context(request, tournament)
    if "checkin_qr" not in context:
        raise PermissionDenied
    return render(request, "league/checkin_qr.html", {"tournament": tournament, "entries": context})


def _panel(request, tournament: Tournament, *, note: str = "", error: str = "", status: int = 200):
    context = {**entries_context(request, tournament), "note": note, "error": error}
    return render(request, "league/_entries.html", {"entries": context}, status=status)


@require_POST
def entry_action(request, tournament_id: int, action: str):
    """Sign up, withdraw or check in, for the signed-in person."""
    tournament = get_object_or_404(Tournament.objects.select_related("league__club"), pk=tournament_id)
    if action not in ACTIONS:
        return redirect("league_tournament", tournament.pk)
    if not request.user.is_authenticated:
        if request.htmx:
            return _panel(request, tournament, error=_("Sign in first."), status=401)
        return redirect(f"{reverse('login')}?next={reverse('league_tournament', args=[tournament.pk])}")
    player = services.player_for_user(user=request.user)
    note, error, status = "", "", 200
    try:
        done = ACTIONS[action](tournament_id=tournament.pk, player_id=player.pk)
    except DomainError as exc:
        error, status = str(exc.message), exc.status
    else:
        note = str(DONE[action][done.status] if action == "signup" else DONE[action])
    tournament.refresh_from_db()
    if request.htmx:
        return _panel(request, tournament, note=note, error=error, status=status)
    (messages.error if error else messages.success)(request, error or note)
    return redirect(reverse("league_tournament", args=[tournament.pk]) + "#entries")


@require_GET
@login_required
def checkin_door(request, tournament_id: int, code: str):
    """The URL of the QR code at the door: opened signed in, it checks the person in."""
    tournament = get_object_or_404(Tournament.objects.select_related("league__club"), pk=tournament_id)
    if not entries.checkin_code_valid(tournament, code):
        return render(request, "league/checkin.html", {"tournament": tournament,
                                                       "error": _("This check-in code is not this tournament's.")},
                      status=404)
    player = services.player_for_user(user=request.user)
    try:
        services.entry_checkin(tournament_id=tournament.pk, player_id=player.pk)
    except services.AlreadyCheckedIn:
        pass
    except DomainError as exc:
        return render(request, "league/checkin.html", {"tournament": tournament, "error": str(exc.message)},
                      status=exc.status)
    return render(request, "league/checkin.html", {"tournament": tournament, "me": entries.entry_status(
        tournament, player)})
