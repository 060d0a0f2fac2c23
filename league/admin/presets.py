"""Presets in the admin: a club's own presets, the "start from a preset" links on the add-tournament form
(``?preset=`` fills the form's initial values), and the "save as a preset" action on tournaments."""
from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.web.forms import clock_preset
from league.admin.clubs import OrganiserScoped
from league.admin.forms import CUSTOM_CLOCK
from league.models import TournamentPreset
from league.selectors import presets
from league.services.tournaments import tournament_preset_save


@admin.register(TournamentPreset)
class TournamentPresetAdmin(OrganiserScoped, admin.ModelAdmin):
    """A club's own presets (saved from a tournament with "save as a preset", or written here)."""
    club_path = "club__"
    scoped_choices = {"club": ""}
    list_display = ("name", "club", "created_by", "created_at", "start")
    list_filter = ("club",)
    search_fields = ("name",)
    fields = ("club", "name", "values")
    readonly_fields = ()

    @admin.display(description=_("new tournament"))
    def start(self, obj):
        url = reverse("admin:league_tournament_add") + "?" + urlencode({"preset": f"club:{obj.pk}"})
        return format_html('<a href="{}">{}</a>', url, _("start from it"))

    def save_model(self, request, obj, form, change):
        if obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


def preset_initial(request) -> dict:
    """The add form's initial values from ``?preset=`` (nothing for an unknown preset or one not theirs).
    The clock is chosen among the form's clocks, or typed as another clock."""
    values = presets.preset_values(request.GET.get("preset", ""), request.user)
    if not values:
        return {}
    initial = {k: v for k, v in values.items() if k != "clock"}
    clock = values.get("clock")
    choice = clock_preset(clock)
    initial["clock_choice"] = choice if choice is not None else CUSTOM_CLOCK
    if choice is None:
        initial["clock"] = clock
    if initial.get("rounds") is None:
        initial.pop("rounds", None)
    return initial


def preset_fieldset(request) -> tuple:
    """The add form's first part: a link per preset, each opening the form filled from it (keeping the
    league chosen in ``?league=``)."""
    chosen = request.GET.get("preset", "")
    keep = {k: v for k, v in request.GET.items() if k == "league"}
    links = format_html_join(" · ", '<a href="?{}"{}>{}</a>', (
        (urlencode({**keep, "preset": p["key"]}), mark_safe(' aria-current="true"') if p["key"] == chosen else "",
         p["label"]) for p in presets.presets_for(request.user)))
    return (_("Start from a preset"), {"fields": (), "description": format_html(
        '<p class="lg-presets">{}</p><p class="help">{}</p>', links,
        _("A preset fills the form below; change anything before saving. A club's own presets are saved "
          "from a tournament with the action “Save as a preset”."))})


@admin.action(description=_("Save as a preset of its club"), permissions=["change"])
def save_as_preset(modeladmin, request, queryset):
    """Each chosen tournament's settings become a preset of its club, named after it."""
    saved = [tournament_preset_save(tournament_id=t.pk, by=request.user) for t in queryset]
    modeladmin.message_user(request, ngettext("%(n)s preset saved.", "%(n)s presets saved.", len(saved)) % {
        "n": len(saved)}, messages.SUCCESS)
