"""Matches in the admin: read-only events, no deletion of anything recorded.

Nothing hidden is shown before a match has finished, to superusers neither:
the match page leaves out the seed and the stacked deck, and each event's
payload is shown as a spectator sees it (``engine.redact(payload, None)``; an
event a spectator may not know of shows as hidden). No list filter, search or
URL lookup reaches the payload, the seed or the deck. Snapshots (pickled
engine states) are not registered at all.
"""
import json

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from engine import registry
from games.models import SEED_REVEALED, ApiToken, Event, Match, Seat

# Fields that hold (or lead to) a running match's hidden state: never a changelist lookup,
# so that ``?seed__startswith=…`` or ``?payload__deck__0=…`` cannot be used as an oracle.
HIDDEN_LOOKUPS = frozenset({"seed", "stacked_deck", "payload", "move", "state", "snapshots", "last_hash"})

HIDDEN_UNTIL_THE_END = _("hidden until the match ends")
HIDDEN_EVENT = _("hidden: spectators do not know of this event until the match ends")


def revealed(match: Match) -> bool:
    """Everything may be shown once the match has finished (an aborted match keeps its secrets)."""
    return match.status == Match.Status.FINISHED


def as_json(value):
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False))


class NoHiddenLookups:
    """Changelist URL lookups may not touch the fields in ``HIDDEN_LOOKUPS`` (400 Bad Request)."""

    def lookup_allowed(self, lookup, value, request=None):
        if HIDDEN_LOOKUPS.intersection(lookup.split("__")):
            return False
        return super().lookup_allowed(lookup, value, request)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot", "name")
    readonly_fields = ("index", "user", "bot")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(NoHiddenLookups, admin.ModelAdmin):
    list_display = ("id", "game", "status", "last_seq", "created_at", "finished_at", "links")
    list_filter = ("game", "status")
    fields = ("game", "options", "status", "seed_commitment", "revealed_seed", "revealed_deck", "last_seq", "result",
              "created_by", "created_at", "finished_at")
    readonly_fields = fields
    inlines = [SeatInline]

    @admin.display(description=_("pages"))
    def links(self, obj):
        return format_html('<a href="{}">{}</a> · <a href="{}">{}</a>', reverse("match_play", args=[obj.pk]),
                           _("play"), reverse("match_audit", args=[obj.pk]), _("audit"))

    @admin.display(description=_("seed"))
    def revealed_seed(self, obj):
        return obj.seed if revealed(obj) else HIDDEN_UNTIL_THE_END

    @admin.display(description=_("stacked deck"))
    def revealed_deck(self, obj):
        if not revealed(obj):
            return HIDDEN_UNTIL_THE_END
        return as_json(obj.stacked_deck) if obj.stacked_deck else _("none: dealt from the seed")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(NoHiddenLookups, admin.ModelAdmin):
    list_display = ("match", "seq", "type", "seat", "created_at")
    list_filter = ("type",)
    list_select_related = ("match",)
    search_fields = ("match__id",)
    # the raw JSON fields never appear: payload and move are shown through the methods below
    fields = ("match", "seq", "type", "seat", "shown_payload", "shown_move", "created_at", "prev_hash", "hash")
    readonly_fields = fields

    def _spectator_payload(self, obj):
        """The payload as a spectator may know it, or None when a spectator may not know of the event."""
        if revealed(obj.match):
            return obj.payload
        if obj.type == SEED_REVEALED:
            return None
        return registry.get(obj.match.game).redact(obj.payload, None)

    @admin.display(description=_("payload"))
    def shown_payload(self, obj):
        payload = self._spectator_payload(obj)
        return HIDDEN_EVENT if payload is None else as_json(payload)

    @admin.display(description=_("move"))
    def shown_move(self, obj):
        if obj.move is None:
            return "-"
        return HIDDEN_EVENT if self._spectator_payload(obj) is None else as_json(obj.move)

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

    def has_add_permission(self, request):
        # a token is made by ``manage.py api_token_create``, which shows its key once;
        # one added here would have no key at all
        return False
