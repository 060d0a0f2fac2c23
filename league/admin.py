"""The organiser's workflow in the admin: clubs, leagues, seasons, tournaments, entrants.

Every action calls a service (and has a management command twin):
generate the next round (``round_pair``), start the round's matches
(``round_start``), withdraw entrants (``entrant_withdraw``), record finished
matches (``tournament_sweep``), export standings and results as CSV. The
tournament page in the admin shows progress (x of y matches finished),
standings and rounds from the same selectors as the public pages.
"""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from engine.bots import POLICY_NAMES
from league import selectors, services
from league.views import csv_response
from league.models import (TIE_BREAKS, Club, Entrant, League, PlayerProfile, Rating, Round, Season, Table,
                           Tournament)


class OrganiserScoped:
    """Staff who are not superusers see only the clubs they organise."""
    club_path = ""

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.club_path}organisers": request.user}).distinct()


@admin.register(Club)
class ClubAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = ""
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("members", "organisers")


@admin.register(PlayerProfile)
class PlayerProfileAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "bot_policy", "bot_strength", "club", "page")
    list_filter = ("bot_policy", "club")
    search_fields = ("name", "user__username")
    autocomplete_fields = ("user",)

    @admin.display(description=_("page"))
    def page(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("league_player", args=[obj.pk]), _("player page"))


class CommaList(forms.CharField):
    """A list typed as comma-separated words."""

    def prepare_value(self, value):
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value):
        value = super().to_python(value)
        return [v.strip() for v in (value or "").split(",") if v.strip()]


class LeagueForm(forms.ModelForm):
    tie_breaks = CommaList(label=_("tie-break order"),
                           help_text=_("Comma-separated, first decides first: %(keys)s.") % {
                               "keys": ", ".join(TIE_BREAKS)})
    place_points = CommaList(label=_("points by place"), required=False,
                             help_text=_("Tables of three or more seats, e.g. 3, 2, 1, 0. Empty: n-1 … 0."))

    class Meta:
        model = League
        fields = "__all__"

    def clean_place_points(self):
        values = self.cleaned_data["place_points"]
        try:
            return [float(v) if "." in v else int(v) for v in values]
        except ValueError:
            raise ValidationError(_("Numbers separated by commas.")) from None


@admin.register(League)
class LeagueAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "club__"
    form = LeagueForm
    list_display = ("name", "club", "game", "forfeit_rule", "rated", "page")
    list_filter = ("game", "club")
    search_fields = ("name",)
    fieldsets = [
        (None, {"fields": ("club", "name", "game", "options", "rated")}),
        (_("Points"), {"fields": ("win_points", "draw_points", "loss_points", "place_points", "bye_points")}),
        (_("Tie-breaks and withdrawals"), {"fields": ("tie_breaks", "forfeit_rule")}),
    ]

    @admin.display(description=_("page"))
    def page(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("league_detail", args=[obj.pk]), _("league page"))


@admin.register(Season)
class SeasonAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "league__club__"
    list_display = ("name", "league", "starts_on", "ends_on")
    list_filter = ("league",)


class EntrantInline(admin.TabularInline):
    model = Entrant
    fields = ("seed", "player", "status_note")
    readonly_fields = ("seed", "status_note")
    autocomplete_fields = ("player",)
    extra = 0

    @admin.display(description=_("status"))
    def status_note(self, obj):
        if obj.pk is None:
            return ""
        withdrawal = getattr(obj, "withdrawal", None)
        return selectors.withdrawal_note(withdrawal.round_number) if withdrawal else ""

    def _open(self, obj) -> bool:
        return obj is None or obj.status == Tournament.Status.DRAFT

    def has_add_permission(self, request, obj=None):
        return self._open(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return self._open(obj) and super().has_delete_permission(request, obj)


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ("league", "season", "name", "format", "game", "options", "seats_per_table", "rounds",
                  "auto_advance", "seeding", "starts_on", "days_between_rounds")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "game" in self.fields:
            self.fields["game"].required = False
            self.fields["game"].help_text = _("Empty: the league's game.")
        if "options" in self.fields:
            self.fields["options"].required = False
            self.fields["options"].help_text = _("Empty: the league's match options.")

    def clean(self):
        data = super().clean()
        league = data.get("league")
        if league is not None:
            if not data.get("game"):
                data["game"] = self.instance.game = league.game
            if not data.get("options") and not self.instance.pk:
                data["options"] = self.instance.options = dict(league.options)
        return data


class BotsForm(forms.Form):
    count = forms.IntegerField(label=_("how many bots"), min_value=1, max_value=256, initial=8)
    policy = forms.ChoiceField(label=_("policy"), choices=[("mixed", _("mixed (greedy and random)"))]
                               + [(p, p) for p in POLICY_NAMES], initial="greedy")


@admin.register(Tournament)
class TournamentAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "league__club__"
    form = TournamentForm
    list_display = ("name", "league", "format", "game", "seats_per_table", "status", "progress", "pages")
    list_filter = ("status", "format", "game", "league")
    search_fields = ("name",)
    inlines = [EntrantInline]
    actions = ["pair_next_round", "start_round", "record_finished", "export_standings", "export_results"]
    fieldsets = [
        (None, {"fields": ("league", "season", "name", "format", "game", "options", "seats_per_table", "rounds")}),
        (_("Schedule"), {"fields": ("auto_advance", "seeding", "starts_on", "days_between_rounds")}),
    ]
    class Media:
        css = {"all": ["league/league.css"]}

    running_fieldsets = [
        (_("Progress"), {"fields": ("status", "progress_panel", "entries_panel")}),
        (_("Standings"), {"fields": ("standings_panel",)}),
        (_("Rounds"), {"fields": ("rounds_panel",)}),
    ]

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return self.fieldsets
        return self.fieldsets + self.running_fieldsets

    def get_readonly_fields(self, request, obj=None):
        panels = ("status", "progress_panel", "entries_panel", "standings_panel", "rounds_panel")
        if obj is None:
            return ()
        if obj.status == Tournament.Status.DRAFT:
            return panels
        return ("league", "season", "format", "game", "options", "seats_per_table", "rounds", "seeding") + panels

    # -- list columns and panels ------------------------------------------------
    @admin.display(description=_("progress"))
    def progress(self, obj):
        p = selectors.tournament_progress(obj)
        if not p["round"]:
            return _("%(n)s entrants") % {"n": obj.entrants.count()}
        return _("round %(r)s of %(R)s · %(x)s of %(y)s matches finished") % {
            "r": p["round"], "R": p["rounds"], "x": p["finished"], "y": p["total"]}

    @admin.display(description=_("pages"))
    def pages(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("league_tournament", args=[obj.pk]), _("tournament page"))

    @admin.display(description=_("progress"))
    def progress_panel(self, obj):
        p = selectors.tournament_progress(obj)
        return render_to_string("league/_progress.html", {"progress": p, "tournament": obj})

    @admin.display(description=_("entries"))
    def entries_panel(self, obj):
        if obj.status != Tournament.Status.DRAFT:
            return _("%(n)s entrants; entries are closed.") % {"n": obj.entrants.count()}
        return format_html('{} · <a href="{}">{}</a>', _("%(n)s entrants") % {"n": obj.entrants.count()},
                           reverse("admin:league_tournament_add_bots", args=[obj.pk]), _("add bots…"))

    @admin.display(description=_("standings"))
    def standings_panel(self, obj):
        return render_to_string("league/_standings.html", {"standings": selectors.standings(obj), "admin": True})

    @admin.display(description=_("rounds"))
    def rounds_panel(self, obj):
        return render_to_string("league/_rounds.html", {"rounds": selectors.tournament_rounds(obj), "admin": True})

    # -- creating through the service -------------------------------------------
    def save_model(self, request, obj, form, change):
        if change:
            obj.full_clean()
            obj.save()
            return
        data = form.cleaned_data
        created = services.tournament_create(
            league_id=data["league"].pk, name=data["name"], format=data["format"],
            seats_per_table=data["seats_per_table"], rounds=data.get("rounds"),
            season_id=data["season"].pk if data.get("season") else None, options=data.get("options") or None,
            auto_advance=data["auto_advance"], seeding=data["seeding"], starts_on=data.get("starts_on"),
            days_between_rounds=data["days_between_rounds"], created_by=request.user)
        obj.pk = created.pk
        obj.__dict__.update({k: v for k, v in created.__dict__.items() if not k.startswith("_")})
        obj._state.adding, obj._state.db = False, created._state.db

    def save_formset(self, request, form, formset, change):
        if formset.model is not Entrant:
            return super().save_formset(request, form, formset, change)
        tournament = form.instance
        instances = formset.save(commit=False)
        try:
            for obj in formset.deleted_objects:
                services.entrant_remove(entrant_id=obj.pk)
            for obj in instances:
                if obj.pk is None:
                    services.entrant_add(tournament_id=tournament.pk, player_id=obj.player_id)
        except services.LeagueError as exc:
            self.message_user(request, exc.message, messages.ERROR)

    # -- actions -----------------------------------------------------------------
    def _each(self, request, queryset, fn, done_message):
        for tournament in queryset:
            try:
                note = fn(tournament)
                self.message_user(request, f"{tournament.name}: {note or done_message}", messages.SUCCESS)
            except services.LeagueError as exc:
                self.message_user(request, f"{tournament.name}: {exc.message}", messages.ERROR)

    @admin.action(description=_("Generate the next round"))
    def pair_next_round(self, request, queryset):
        def pair(t):
            rnd = services.round_pair(tournament_id=t.pk)
            if rnd is None:
                return _("no rounds left: the tournament has finished")
            return _("round %(n)s paired (%(tables)s tables)") % {"n": rnd.number, "tables": rnd.tables.count()}
        self._each(request, queryset, pair, "")

    @admin.action(description=_("Start the current round's matches"))
    def start_round(self, request, queryset):
        def start(t):
            rnd = t.round_set.order_by("-number").first()
            if rnd is None:
                raise services.LeagueError(_("Generate a round first."))
            services.round_start(round_id=rnd.pk)
            return _("round %(n)s started; its matches are playing in the background") % {"n": rnd.number}
        self._each(request, queryset, start, "")

    @admin.action(description=_("Record finished matches (if any were missed)"))
    def record_finished(self, request, queryset):
        self._each(request, queryset,
                   lambda t: _("%(n)s tables recorded") % {"n": services.tournament_sweep(tournament_id=t.pk)}, "")

    def _csv(self, request, queryset, rows_of, suffix):
        if queryset.count() != 1:
            self.message_user(request, _("Choose exactly one tournament to export."), messages.WARNING)
            return None
        tournament = queryset.get()
        return csv_response(tournament, rows_of(tournament), suffix)

    @admin.action(description=_("Export standings as CSV"))
    def export_standings(self, request, queryset):
        return self._csv(request, queryset, selectors.standings_csv_rows, "standings")

    @admin.action(description=_("Export results as CSV"))
    def export_results(self, request, queryset):
        return self._csv(request, queryset, selectors.results_csv_rows, "results")

    # -- add bots ------------------------------------------------------------------
    def get_urls(self):
        return [path("<int:tournament_id>/add-bots/", self.admin_site.admin_view(self.add_bots_view),
                     name="league_tournament_add_bots")] + super().get_urls()

    def add_bots_view(self, request, tournament_id: int):
        tournament = get_object_or_404(self.get_queryset(request), pk=tournament_id)
        if not self.has_change_permission(request, tournament):
            return HttpResponseRedirect(reverse("admin:index"))
        form = BotsForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                added = services.bots_add(tournament_id=tournament.pk, count=form.cleaned_data["count"],
                                          policy=form.cleaned_data["policy"])
                self.message_user(request, _("%(n)s bots entered.") % {"n": len(added)}, messages.SUCCESS)
            except services.LeagueError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:league_tournament_change", args=[tournament.pk]))
        context = {**self.admin_site.each_context(request), "title": _("Add bots to %(t)s") % {"t": tournament.name},
                   "form": form, "tournament": tournament, "opts": self.model._meta}
        return render(request, "league/admin_add_bots.html", context)


@admin.register(Entrant)
class EntrantAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "tournament__league__club__"
    list_display = ("player", "tournament", "seed", "withdrawn")
    list_filter = ("tournament",)
    search_fields = ("player__name", "tournament__name")
    actions = ["withdraw"]

    def get_readonly_fields(self, request, obj=None):
        return ("tournament", "player", "seed") if obj else ()

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("withdrawn"))
    def withdrawn(self, obj):
        w = getattr(obj, "withdrawal", None)
        return selectors.withdrawal_note(w.round_number) if w else ""

    @admin.action(description=_("Withdraw the selected entrants"))
    def withdraw(self, request, queryset):
        for entrant in queryset:
            try:
                services.entrant_withdraw(entrant_id=entrant.pk, reason=str(_("withdrawn in the admin")),
                                          by=request.user)
                self.message_user(request, _("%(p)s withdrawn.") % {"p": entrant.player.name}, messages.SUCCESS)
            except services.LeagueError as exc:
                self.message_user(request, f"{entrant.player.name}: {exc.message}", messages.ERROR)


class TableInline(admin.TabularInline):
    model = Table
    fields = ("number", "kind", "players", "match_link")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description=_("players"))
    def players(self, obj):
        return ", ".join(s.entrant.player.name + (f" ({s.place})" if s.place else "")
                         for s in obj.seats.select_related("entrant__player").order_by("position"))

    @admin.display(description=_("match"))
    def match_link(self, obj):
        if not obj.match_id:
            return ""
        return format_html('<a href="{}">#{}</a> {}', reverse("match_play", args=[obj.match_id]), obj.match_id,
                           obj.match.get_status_display())


@admin.register(Round)
class RoundAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "tournament__league__club__"
    list_display = ("tournament", "number", "status", "scheduled_on", "progress")
    list_filter = ("status", "tournament")
    readonly_fields = ("tournament", "number", "status", "paired_at", "started_at", "closed_at")
    fields = readonly_fields + ("scheduled_on",)
    inlines = [TableInline]
    actions = ["start"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("progress"))
    def progress(self, obj):
        match_tables = obj.tables.filter(kind=Table.Kind.MATCH)
        done = match_tables.filter(folds__projection="standings").count()
        return _("%(x)s of %(y)s matches finished") % {"x": done, "y": match_tables.count()}

    @admin.action(description=_("Start the selected rounds' matches"))
    def start(self, request, queryset):
        for rnd in queryset:
            services.round_start(round_id=rnd.pk)
        self.message_user(request, _("Started."), messages.SUCCESS)


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
