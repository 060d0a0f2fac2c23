"""Matches in the admin: read-only events, no deletion of anything recorded."""
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.models import ApiToken, Event, Match, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot", "name")
    readonly_fields = ("index", "user", "bot")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "last_seq", "created_at", "finished_at", "links")
    list_filter = ("game", "status")
    readonly_fields = ("game", "options", "status", "seed_commitment", "last_seq", "result", "created_by",
                       "created_at", "finished_at")
    exclude = ("seed",)
    inlines = [SeatInline]

    @admin.display(description=_("pages"))
    def links(self, obj):
        return format_html('<a href="{}">{}</a> · <a href="{}">{}</a>', reverse("match_play", args=[obj.pk]),
                           _("play"), reverse("match_audit", args=[obj.pk]), _("audit"))

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "type", "seat", "created_at")
    list_filter = ("type",)
    search_fields = ("match__id",)

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "created_at", "last_used_at")
    readonly_fields = ("key_hash", "created_at", "last_used_at")
