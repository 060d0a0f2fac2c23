"""The clubs' side of the admin: clubs, the links that invite people to join them, leagues and seasons;
and the organiser's scope that every organiser's page keeps to (the clubs they organise)."""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from games.models import Match
from games.words.terms import clock_words
from league import services
from league.admin.forms import ClockForm, OptionalJSON
from league.models import TIE_BREAKS, Club, ClubInvite, League, Season, default_tie_breaks


class OrganiserScoped:
    """Staff who are not superusers see only the clubs they organise, and choose only among them.

    ``scoped_choices`` maps a foreign key of the form to the path from its model to the club.
    """
    club_path = ""
    scoped_choices: dict[str, str] = {}

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.club_path}organisers": request.user}).distinct()

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        club_path = self.scoped_choices.get(db_field.name)
        if club_path is not None and not request.user.is_superuser:
            kwargs["queryset"] = db_field.remote_field.model._default_manager.filter(
                **{f"{club_path}organisers": request.user}).distinct()
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Club)
class ClubAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = ""
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("members", "organisers")


@admin.register(ClubInvite)
class ClubInviteAdmin(OrganiserScoped, admin.ModelAdmin):
    """Links an organiser shares so that people join the club (signing up, or signing in)."""
    club_path = "club__"
    scoped_choices = {"club": ""}
    list_display = ("club", "link", "created_at", "expires_at", "uses", "max_uses")
    list_filter = ("club",)
    fields = ("club", "days", "max_uses")
    readonly_fields = ()

    class Form(forms.ModelForm):
        days = forms.IntegerField(label=_("valid for (days)"), min_value=1, max_value=365, initial=14)

        class Meta:
            model = ClubInvite
            fields = ("club", "max_uses")

    form = Form

    def get_fields(self, request, obj=None):
        return ("club", "link", "expires_at", "uses", "max_uses") if obj else self.fields

    def get_readonly_fields(self, request, obj=None):
        return ("club", "link", "expires_at", "uses", "max_uses") if obj else ()

    @admin.display(description=_("link to share"))
    def link(self, obj):
        url = settings.SITE_URL + reverse("club_join", args=[obj.token])
        return format_html('<a href="{}">{}</a>', url, url)

    def save_model(self, request, obj, form, change):
        if not change:
            created = services.club_invite_create(club_id=form.cleaned_data["club"].pk, by=request.user,
                                                  days=form.cleaned_data["days"],
                                                  max_uses=form.cleaned_data["max_uses"])
            obj.pk, obj.token = created.pk, created.token
            obj.refresh_from_db()


class CommaList(forms.CharField):
    """A list typed as comma-separated words."""

    def prepare_value(self, value):
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value):
        value = super().to_python(value)
        return [v.strip() for v in (value or "").split(",") if v.strip()]


class LeagueForm(ClockForm):
    tie_breaks = CommaList(label=capfirst(_("tie-break order")), initial=default_tie_breaks)
    place_points = CommaList(label=capfirst(_("points by place")), required=False,
                             help_text=_("Tournaments of three or more seats a table: points for 1st, 2nd, … at a "
                                         "full table, e.g. 3, 2, 1, 0. Empty: first scores the points for a win, last "
                                         "the points for a loss, the places between evenly spaced."))

    class Meta:
        model = League
        fields = "__all__"
        field_classes = {"clock": OptionalJSON}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "tie_breaks" in self.fields:
            # formatted here, in the reader's language (formatted at import it stayed English)
            self.fields["tie_breaks"].help_text = _("Comma-separated, first decides first: %(keys)s.") % {
                "keys": ", ".join(TIE_BREAKS)}
        if "timeout_rule" in self.fields:
            # a form sent without it (an older page) keeps the league's rule
            self.fields["timeout_rule"].required = False
        if "unplayed_rounds" in self.fields:
            self.fields["unplayed_rounds"].required = False

    def clean_timeout_rule(self):
        return self.cleaned_data.get("timeout_rule") or self.instance.timeout_rule or Match.TimeoutRule.BOT

    def clean_unplayed_rounds(self):
        return (self.cleaned_data.get("unplayed_rounds") or self.instance.unplayed_rounds
                or League.UnplayedRounds.VIRTUAL)

    def clean_place_points(self):
        values = self.cleaned_data["place_points"]
        try:
            return [float(v) if "." in v else int(v) for v in values]
        except ValueError:
            raise ValidationError(_("Numbers separated by commas.")) from None


@admin.register(League)
class LeagueAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "club__"
    scoped_choices = {"club": ""}
    form = LeagueForm
    list_display = ("name", "club", "game", "forfeit_rule", "rated", "page")
    list_filter = ("game", "club")
    search_fields = ("name",)
    fieldsets = [
        (None, {"fields": ("club", "name", "game", "options", "rated")}),
        (_("Points"), {"fields": ("win_points", "draw_points", "loss_points", "place_points", "bye_points")}),
        (_("Tie-breaks and withdrawals"), {"fields": ("tie_breaks", "unplayed_rounds", "forfeit_rule")}),
        (_("Clock"), {"fields": ("clock_choice", "clock", "timeout_rule"),
                      "description": _("What the league's tournaments start from; each tournament may change it.")}),
    ]

    class Media:
        js = ["league/admin_terms.js"]

    @admin.display(description=_("clock"))
    def clock_choice(self, obj):
        # shown instead of the choice to those who may only look
        return clock_words(obj.clock)

    def get_readonly_fields(self, request, obj=None):
        # its tournaments play the league's game: it stays once there is one
        return ("game",) if obj is not None and obj.tournaments.exists() else ()

    @admin.display(description=_("page"))
    def page(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("league_detail", args=[obj.pk]), _("league page"))


@admin.register(Season)
class SeasonAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "league__club__"
    scoped_choices = {"league": "club__"}
    list_display = ("name", "league", "starts_on", "ends_on")
    list_filter = ("league",)
