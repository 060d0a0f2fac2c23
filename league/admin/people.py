"""The people's side of the admin: player profiles (people, bots and outside bots' accounts) and their
ratings, which nobody edits (a projection of recorded results)."""
from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from league.models import PlayerProfile, Rating


@admin.register(PlayerProfile)
class PlayerProfileAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "bot_policy", "bot_strength", "club", "page")
    list_filter = ("bot_policy", "club")
    search_fields = ("name", "user__username")
    autocomplete_fields = ("user", "refused_challengers")

    @admin.display(description=_("page"))
    def page(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("league_player", args=[obj.pk]), _("player page"))


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("player", "game", "rating", "mu", "sigma", "matches", "updated_at")
    list_filter = ("game",)
    search_fields = ("player__name",)

    @admin.display(description=_("rating"), ordering="mu")
    def rating(self, obj):
        return f"{obj.ordinal:.2f}"

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        # a projection of recorded results: ``projections_rebuild`` remakes it, nobody edits it
        return False
