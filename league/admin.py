"""The organiser's workflow in the admin: clubs, leagues, seasons, tournaments, entrants.

Every action calls a service (and has a management command twin):
generate the next round (``round_pair``), start the round's matches
(``round_start``), withdraw entrants (``entrant_withdraw``), record finished
matches (``tournament_sweep``), export standings and results as CSV. The
tournament page in the admin shows progress (x of y matches finished),
standings and rounds from the same selectors as the public pages.

Actions and pages that change anything need the change permission (an
account with view permissions only is not even offered them); the exports
need the view permission. A tournament plays its league's game: the game is
taken from the league, and match options are checked against it before saving.
"""
from __future__ import annotations

import csv

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from games.models import BOT_CHOICES
from league import selectors, services
from league.models import (TIE_BREAKS, Club, ClubInvite, Entrant, League, PlayerProfile, Rating, Round, Season, Table,
                           Tournament, default_tie_breaks)


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
    tie_breaks = CommaList(label=_("tie-break order"), initial=default_tie_breaks,
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
    scoped_choices = {"club": ""}
    form = LeagueForm
    list_display = ("name", "club", "game", "forfeit_rule", "rated", "page")
    list_filter = ("game", "club")
    search_fields = ("name",)
    fieldsets = [
        (None, {"fields": ("club", "name", "game", "options", "rated")}),
        (_("Points"), {"fields": ("win_points", "draw_points", "loss_points", "place_points", "bye_points")}),
        (_("Tie-breaks and withdrawals"), {"fields": ("tie_breaks", "forfeit_rule")}),
    ]

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
    """A tournament plays its league's game: the game is not a field, it is taken from the league,
    and the match options are checked against that game before anything is saved."""

    class Meta:
        model = Tournament
        fields = ("league", "season", "name", "format", "options", "seats_per_table", "rounds",
                  "auto_advance", "seeding", "starts_on", "days_between_rounds")
        error_messages = {"season": {"invalid_choice": _("Choose a season of the tournament's league.")}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "league" in self.fields:
            self.fields["league"].help_text = _("The tournament plays the league's game.")
        if "options" in self.fields:
            self.fields["options"].required = False
            self.fields["options"].help_text = _("Empty: the league's match options. Checked against the "
                                                 "league's game.")
        if "season" in self.fields:
            league_id = self._league_id()
            if league_id is not None:
                self.fields["season"].queryset = self.fields["season"].queryset.filter(league_id=league_id)
            self.fields["season"].help_text = _("A season of the tournament's league.")

    def _league_id(self) -> int | None:
        """The league whose seasons may be chosen: the one sent, else the one asked for
        (``?league=`` on the add page), else the tournament's."""
        if "league" in self.fields:
            raw = self.data.get(self.add_prefix("league")) if self.is_bound else self.initial.get("league")
            if raw not in (None, ""):
                try:
                    return int(getattr(raw, "pk", raw))
                except (TypeError, ValueError):
                    return None
        return self.instance.league_id

    def clean(self):
        data = super().clean()
        league = data.get("league") if "league" in self.fields else None
        if league is not None:
            # set before the model's own clean() runs, so options are checked against this game
            self.instance.game = league.game
            if "options" in self.fields and data.get("options") is None:
                data["options"] = dict(league.options)
        return data


class BotsForm(forms.Form):
    count = forms.IntegerField(label=_("how many bots"), min_value=1, max_value=256, initial=8)
    policy = forms.ChoiceField(label=_("policy"), choices=[("mixed", _("mixed (greedy and random)"))]
                               + BOT_CHOICES, initial="greedy")


def csv_download(rows: list[list], filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    csv.writer(response).writerows(rows)
    return response


@admin.register(Tournament)
class TournamentAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "league__club__"
    scoped_choices = {"league": "club__", "season": "league__club__"}
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
    add_fieldsets = [
        (None, {"fields": ("league", "season", "name", "format", "options", "seats_per_table", "rounds")}),
        fieldsets[1],
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
            return self.add_fieldsets
        return self.fieldsets + self.running_fieldsets

    def get_readonly_fields(self, request, obj=None):
        panels = ("status", "progress_panel", "entries_panel", "standings_panel", "rounds_panel")
        if obj is None:
            return ()
        if obj.status == Tournament.Status.DRAFT:
            return ("game",) + panels
        return ("league", "season", "format", "game", "options", "seats_per_table", "rounds", "seeding") + panels

    def has_delete_permission(self, request, obj=None):
        # a tournament that has started has recorded rounds and results: it stays
        if obj is not None and obj.status != Tournament.Status.DRAFT:
            return False
        return super().has_delete_permission(request, obj)

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
            season_id=data["season"].pk if data.get("season") else None, options=data.get("options"),
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

    @admin.action(permissions=["change"], description=_("Generate the next round"))
    def pair_next_round(self, request, queryset):
        def pair(t):
            rnd = services.round_pair(tournament_id=t.pk)
            if rnd is None:
                return _("no rounds left: the tournament has finished")
            return _("round %(n)s paired (%(tables)s tables)") % {"n": rnd.number, "tables": rnd.tables.count()}
        self._each(request, queryset, pair, "")

    @admin.action(permissions=["change"], description=_("Start the current round's matches"))
    def start_round(self, request, queryset):
        def start(t):
            rnd = t.round_set.order_by("-number").first()
            if rnd is None:
                raise services.LeagueError(_("Generate a round first."))
            services.round_start(round_id=rnd.pk)
            return _("round %(n)s started; its matches are playing in the background") % {"n": rnd.number}
        self._each(request, queryset, start, "")

    @admin.action(permissions=["change"], description=_("Record finished matches (if any were missed)"))
    def record_finished(self, request, queryset):
        self._each(request, queryset,
                   lambda t: _("%(n)s tables recorded") % {"n": services.tournament_sweep(tournament_id=t.pk)}, "")

    def _csv(self, queryset, rows_of, suffix):
        """One CSV for the chosen tournaments, a leading "tournament" column naming each row's."""
        tournaments = list(queryset.order_by("pk"))
        rows = selectors.merged_csv_rows([(t.name, rows_of(t)) for t in tournaments])
        name = slugify(tournaments[0].name) if len(tournaments) == 1 else ""
        return csv_download(rows, f"{name or 'tournaments'}-{suffix}.csv")

    @admin.action(permissions=["view"], description=_("Export standings as CSV"))
    def export_standings(self, request, queryset):
        return self._csv(queryset, selectors.standings_csv_rows, "standings")

    @admin.action(permissions=["view"], description=_("Export results as CSV"))
    def export_results(self, request, queryset):
        return self._csv(queryset, selectors.results_csv_rows, "results")

    # -- add bots ------------------------------------------------------------------
    def get_urls(self):
        return [path("<int:tournament_id>/add-bots/", self.admin_site.admin_view(self.add_bots_view),
                     name="league_tournament_add_bots")] + super().get_urls()

    def add_bots_view(self, request, tournament_id: int):
        tournament = get_object_or_404(self.get_queryset(request), pk=tournament_id)
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
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

    def has_delete_permission(self, request, obj=None):
        # only while the tournament takes entries; afterwards an entrant withdraws instead
        if obj is not None and obj.tournament.status != Tournament.Status.DRAFT:
            return False
        return super().has_delete_permission(request, obj)

    def delete_model(self, request, obj):
        services.entrant_remove(entrant_id=obj.pk)

    def delete_queryset(self, request, queryset):
        for entrant in queryset:
            services.entrant_remove(entrant_id=entrant.pk)

    @admin.display(description=_("withdrawn"))
    def withdrawn(self, obj):
        w = getattr(obj, "withdrawal", None)
        return selectors.withdrawal_note(w.round_number) if w else ""

    @admin.action(permissions=["change"], description=_("Withdraw the selected entrants"))
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

    @admin.action(permissions=["change"], description=_("Start the selected rounds' matches"))
    def start(self, request, queryset):
        for rnd in queryset:
            try:
                services.round_start(round_id=rnd.pk)
                self.message_user(request, _("%(r)s: started.") % {"r": rnd}, messages.SUCCESS)
            except services.LeagueError as exc:
                self.message_user(request, f"{rnd}: {exc.message}", messages.ERROR)


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
