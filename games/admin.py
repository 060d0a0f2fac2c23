"""Matches in the admin: read-only events, no deletion of anything recorded.

Nothing hidden is shown before a match has finished, to superusers neither:
the match page leaves out the seed and the stacked deck, and each event's
payload is shown as a spectator sees it (``engine.redact(payload, None)``; an
event a spectator may not know of shows as hidden). No list filter, search or
URL lookup reaches the payload, the seed or the deck. Snapshots (pickled
engine states) are not registered at all.
"""
import json

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games import services, store
from games.errors import DomainError
from games.models import ApiToken, Event, Match, Seat

# Fields that hold (or lead to) a running match's hidden state: never a changelist lookup,
# so that ``?seed__startswith=…`` or ``?payload__deck__0=…`` cannot be used as an oracle.
HIDDEN_LOOKUPS = frozenset({"seed", "stacked_deck", "payload", "move", "state", "snapshots", "last_hash"})

HIDDEN_UNTIL_THE_END = _("hidden until the match ends")
HIDDEN_EVENT = _("hidden: spectators do not know of this event until the match ends")


def revealed(match: Match) -> bool:
    """Everything may be shown once the match has ended (finished, aborted or cancelled: the
    secret is then revealed as an event too)."""
    return match.has_ended


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
    fields = ("index", "user", "bot", "name", "status", "stand_in", "deadline", "timeouts")
    readonly_fields = ("index", "user", "bot", "status", "stand_in", "deadline", "timeouts")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class AwardForm(forms.Form):
    ranking = forms.CharField(label=_("ranking"), max_length=200,
                              help_text=_("Seats best first, places separated by “;”, tied seats by “,”: "
                                          "e.g. “1; 0” (seat 1 wins) or “2; 0, 1”. Seats count from 0."))
    reason = forms.CharField(label=_("reason"), max_length=200, required=False)

    def clean_ranking(self):
        try:
            return [[int(s) for s in place.split(",")] for place in self.cleaned_data["ranking"].split(";")]
        except ValueError:
            raise forms.ValidationError(_("Seat numbers, places separated by “;”.")) from None


@admin.register(Match)
class MatchAdmin(NoHiddenLookups, admin.ModelAdmin):
    list_display = ("id", "game", "status", "last_seq", "created_at", "finished_at", "links")
    list_filter = ("game", "status")
    fields = ("game", "options", "status", "clock", "timeout_rule", "seed_commitment", "revealed_seed",
              "revealed_deck", "last_seq", "result", "created_by", "created_at", "finished_at", "organiser_actions")
    readonly_fields = fields
    inlines = [SeatInline]
    actions = ["abort_matches"]

    @admin.display(description=_("pages"))
    def links(self, obj):
        return format_html('<a href="{}">{}</a> · <a href="{}">{}</a>', reverse("match_play", args=[obj.pk]),
                           _("play"), reverse("match_audit", args=[obj.pk]), _("audit"))

    @admin.display(description=_("decide"))
    def organiser_actions(self, obj):
        if obj.has_ended:
            return "-"
        return format_html('<a href="{}">{}</a>', reverse("admin:games_match_award", args=[obj.pk]),
                           _("Award the match…"))

    @admin.action(permissions=["change"], description=_("Abort the selected matches (recorded; the seed is revealed)"))
    def abort_matches(self, request, queryset):
        ended = 0
        for match in queryset:
            if not match.has_ended:
                services.match_abort(match_id=match.pk, by=request.user, reason="organiser")
                ended += 1
        self.message_user(request, ngettext("%(n)d match aborted.", "%(n)d matches aborted.", ended) % {"n": ended})

    def get_urls(self):
        return [path("<int:match_id>/award/", self.admin_site.admin_view(self.award_view),
                     name="games_match_award")] + super().get_urls()

    def award_view(self, request, match_id: int):
        """The organiser decides a running (or waiting) match's result: recorded as an event."""
        match = get_object_or_404(Match, pk=match_id)
        if not self.has_change_permission(request, match):
            raise PermissionDenied
        form = AwardForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                services.match_award(match_id=match.pk, ranking=form.cleaned_data["ranking"], by=request.user,
                                     reason=form.cleaned_data["reason"])
            except DomainError as exc:
                form.add_error("ranking", str(exc.message))
            else:
                self.message_user(request, _("The match is awarded."))
                return redirect("admin:games_match_change", match.pk)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "match": match, "form": form,
                   "seats": match.seats.select_related("user").order_by("index"), "title": _("Award the match")}
        return TemplateResponse(request, "admin/games/match/award.html", context)

    @admin.display(description=pgettext_lazy("match secret", "seed"))
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
        return store.redact_event(obj.match, obj.payload, None)

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
