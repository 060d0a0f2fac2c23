"""Sign-ups in the admin: the list of them (by tournament and status), approving and refusing (with a reason
the person sees, on an intermediate form), and the parts the tournament's page takes from here: its
"Entries" fieldset, the waiting list panel and the action that closes check-in.

Acting needs the change permission on sign-ups (``change_registration``) or tournaments; an account that may
only view is not offered the actions, and their pages answer 403. Each action calls a service and has a
command twin (``entry_approve``, ``checkin_close``).
"""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from league import services
from league.admin.clubs import OrganiserScoped
from league.models import Registration, Tournament
from league.selectors import entries
from league.services.entries import ENTRY_FIELDS

#: The tournament form's "Entries" fieldset.
ENTRIES_FIELDSET = (_("Entries"), {
    "fields": ENTRY_FIELDS,
    "description": _("People sign up from the tournament's page or the API. Check-in needs the start time.")})


#: Entry settings a form may leave out: they take the model's defaults (no check-in; 2 no-shows withdraw).
DEFAULTED = ("checkin_minutes", "no_shows_withdraw")


def entries_form_init(form) -> None:
    """The entry settings with a default need not be sent (a form of before they existed still saves)."""
    for name in DEFAULTED:
        if name in form.fields:
            form.fields[name].required = False


def entries_form_check(form, data: dict) -> None:
    """The tournament form's entry settings: left out, their defaults; check-in needs the time the first round
    starts."""
    for name in DEFAULTED:
        if name in form.fields and data.get(name) is None:
            data[name] = Tournament._meta.get_field(name).default
    if data.get("checkin_minutes") and not data.get("starts_at") and "starts_at" in form.fields:
        form.add_error("starts_at", _("Check-in needs the time the first round starts."))


class RefuseForm(forms.Form):
    reason = forms.CharField(label=_("reason"), max_length=200, required=False,
                             help_text=_("The person sees it on the tournament's page."),
                             widget=forms.TextInput(attrs={"size": 60}))


@admin.register(Registration)
class RegistrationAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "tournament__league__club__"
    list_display = ("player", "tournament", "status", "created_at", "reason", "checked_in_at")
    list_filter = ("status", "tournament")
    search_fields = ("player__name", "tournament__name")
    ordering = ("tournament", "created_at", "pk")
    readonly_fields = ("tournament", "player", "status", "reason", "created_at", "decided_by", "decided_at",
                       "checked_in_at")
    actions = ["approve", "refuse"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(permissions=["change"], description=_("Approve the selected sign-ups"))
    def approve(self, request, queryset):
        for registration in queryset.select_related("player"):
            try:
                status = services.entry_approve(registration_id=registration.pk, by=request.user)
            except services.LeagueError as exc:
                self.message_user(request, f"{registration.player.name}: {exc.message}", messages.ERROR)
                continue
            note = (_("%(p)s approved: on the waiting list.") if status.status == "waiting"
                    else _("%(p)s approved: in the field."))
            self.message_user(request, note % {"p": registration.player.name}, messages.SUCCESS)

    @admin.action(permissions=["change"], description=_("Refuse the selected sign-ups (with a reason)…"))
    def refuse(self, request, queryset):
        ids = ",".join(str(pk) for pk in queryset.values_list("pk", flat=True))
        return HttpResponseRedirect(reverse("admin:league_registration_refuse") + f"?ids={ids}")

    def get_urls(self):
        return [path("refuse/", self.admin_site.admin_view(self.refuse_view), name="league_registration_refuse")
                ] + super().get_urls()

    def refuse_view(self, request):
        """The intermediate form of "Refuse": one reason for the chosen sign-ups."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        raw = request.POST.get("ids") or request.GET.get("ids") or ""
        ids = [int(x) for x in raw.split(",") if x.isdigit()]
        chosen = list(self.get_queryset(request).filter(pk__in=ids).select_related("player", "tournament"))
        back = reverse("admin:league_registration_changelist")
        form = RefuseForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            refused = 0
            for registration in chosen:
                try:
                    services.entry_refuse(registration_id=registration.pk, reason=form.cleaned_data["reason"],
                                          by=request.user)
                    refused += 1
                except services.LeagueError as exc:
                    self.message_user(request, f"{registration.player.name}: {exc.message}", messages.ERROR)
            if refused:
                self.message_user(request, ngettext("%(n)s sign-up refused.", "%(n)s sign-ups refused.", refused)
                                  % {"n": refused}, messages.SUCCESS)
            return HttpResponseRedirect(back)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
                   "chosen": chosen, "ids": ",".join(str(r.pk) for r in chosen), "back": back,
                   "title": _("Refuse sign-ups")}
        return render(request, "admin/league/registration/refuse.html", context)


class TournamentEntries:
    """What the tournament's admin takes from here: the waiting list panel and closing check-in."""

    @admin.display(description=_("waiting list"))
    def waiting_list_panel(self, obj):
        return render_to_string("admin/league/tournament/waiting_list.html", {
            "waiting": entries.waiting_list(obj), "places_left": entries.places_left(obj),
            "pending": obj.registrations.filter(status=Registration.Status.PENDING).count(),
            "window": entries.checkin_window(obj), "closed": obj.checkin_closed_at,
            "sign_ups": reverse("admin:league_registration_changelist") + f"?tournament__id__exact={obj.pk}"})

    @admin.action(permissions=["change"], description=_("Close check-in now"))
    def close_checkin(self, request, queryset):
        for tournament in queryset:
            try:
                result = services.checkin_close(tournament_id=tournament.pk, by=request.user)
            except services.LeagueError as exc:
                self.message_user(request, f"{tournament.name}: {exc.message}", messages.ERROR)
                continue
            self.message_user(request, _("%(t)s: check-in closed; dropped: %(dropped)s; moved up: %(promoted)s") % {
                "t": tournament.name, "dropped": ", ".join(result["dropped"]) or "—",
                "promoted": ", ".join(result["promoted"]) or "—"}, messages.SUCCESS)
