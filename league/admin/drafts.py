"""A drafted round in the admin: its page (tables with the reasons behind them and their flags, the changes
made so far), a form to swap two players, one to move a player to another table, and the release button;
and the forbidden pairings a club or a tournament keeps apart.

Staff who may only view a tournament see the draft page without its forms; a change or a release posted
by them is refused. Every form calls a service (``draft_swap``, ``draft_move``, ``round_release``), whose
command twin is ``manage.py round_release``.
"""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from league import services
from league.admin.clubs import OrganiserScoped
from league.models import ForbiddenPair, Round
from league.selectors import drafts


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=capfirst(_("player")), coerce=int)
    second = forms.TypedChoiceField(label=capfirst(_("swap with")), coerce=int)


class MoveForm(forms.Form):
    entrant = forms.TypedChoiceField(label=capfirst(_("player")), coerce=int)
    table = forms.TypedChoiceField(label=capfirst(_("to table")), coerce=int)


def _forms(draft: dict, data=None) -> tuple[SwapForm, MoveForm]:
    players = [(s["entrant_id"], f'{s["name"]} · {_("table")} {t["number"]}') for t in draft["tables"]
               for s in t["seats"]]
    tables = [(t["number"], f'{_("table")} {t["number"]}') for t in draft["tables"]]
    action = (data or {}).get("action")
    swap = SwapForm(data if action == "swap" else None, prefix="swap")
    move = MoveForm(data if action == "move" else None, prefix="move")
    swap.fields["first"].choices = swap.fields["second"].choices = players
    move.fields["entrant"].choices = players
    move.fields["table"].choices = tables
    return swap, move


class DraftAdmin:
    """The tournament admin's draft page (mixed into ``TournamentAdmin``) and its link on the tournament."""

    def get_urls(self):
        return [path("<int:tournament_id>/draft/", self.admin_site.admin_view(self.draft_view),
                     name="league_tournament_draft")] + super().get_urls()

    @admin.display(description=_("draft"))
    def draft_link(self, obj):
        rnd = obj.round_set.filter(status=Round.Status.PAIRED).order_by("-number").first() if obj.pk else None
        if rnd is None:
            return _("No round waits for release.")
        return format_html('<a href="{}" class="button">{}</a>', reverse("admin:league_tournament_draft",
                                                                          args=[obj.pk]),
                           _("Review and release round %(n)s") % {"n": rnd.number})

    def draft_view(self, request, tournament_id: int):
        tournament = get_object_or_404(self.get_queryset(request).select_related("league"), pk=tournament_id)
        if not self.has_view_or_change_permission(request, tournament):
            raise PermissionDenied
        may_change = self.has_change_permission(request, tournament)
        rounds = tournament.round_set.order_by("-number")
        number = request.GET.get("round") or request.POST.get("round")
        rnd = get_object_or_404(rounds, number=int(number)) if number and number.isdigit() else rounds.first()
        if rnd is None:
            raise PermissionDenied
        here = reverse("admin:league_tournament_draft", args=[tournament.pk]) + f"?round={rnd.number}"
        draft = drafts.round_draft(rnd)
        if request.method == "POST":
            if not may_change:
                raise PermissionDenied
            self._draft_act(request, rnd, draft)
            return HttpResponseRedirect(here)
        swap, move = _forms(draft)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
                   "draft": draft, "swap": swap, "move": move, "may_change": may_change and draft["draft"],
                   "back": reverse("admin:league_tournament_change", args=[tournament.pk]),
                   "title": _("Round %(n)s: draft") % {"n": rnd.number}}
        return render(request, "admin/league/tournament/draft.html", context)

    def _draft_act(self, request, rnd: Round, draft: dict) -> None:
        action = request.POST.get("action")
        swap, move = _forms(draft, request.POST)
        try:
            if action == "release":
                services.round_release(round_id=rnd.pk)
                note = _("Round %(n)s released: its matches are created and its players told.") % {"n": rnd.number}
            elif action == "swap" and swap.is_valid():
                change = services.draft_swap(round_id=rnd.pk, first_entrant_id=swap.cleaned_data["first"],
                                             second_entrant_id=swap.cleaned_data["second"], by=request.user)
                note = drafts.change_text(change)
            elif action == "move" and move.is_valid():
                change = services.draft_move(round_id=rnd.pk, entrant_id=move.cleaned_data["entrant"],
                                             table_number=move.cleaned_data["table"], by=request.user)
                note = drafts.change_text(change)
            else:
                self.message_user(request, _("Choose the players and the table again."), messages.ERROR)
                return
        except services.LeagueError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return
        self.message_user(request, note, messages.SUCCESS)


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(OrganiserScoped, admin.ModelAdmin):
    """Two players not to be seated together: in one tournament, or in every event of a club."""
    club_path = "club__"
    scoped_choices = {"club": "", "tournament": "league__club__"}
    list_display = ("first", "second", "club", "tournament", "reason")
    autocomplete_fields = ("first", "second")
    search_fields = ("first__name", "second__name")

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        if request.user.is_superuser:
            return qs
        return qs.filter(Q(club__organisers=request.user)
                         | Q(tournament__league__club__organisers=request.user)).distinct()
