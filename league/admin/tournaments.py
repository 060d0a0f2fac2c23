"""Tournaments in the admin: the tournament's form, its entrants, its progress, standings and rounds
panels, the actions that run it, and its rounds and tables.

Every action calls a service: generate the next round (``round_pair``), start the round's matches
(``round_start``), withdraw entrants (``entrant_withdraw``), record finished matches
(``tournament_sweep``), export standings and results as CSV. The progress panel says who the current
round waits for; an organiser reminds them, forfeits their seat or awards the match from there.

A tournament plays its league's game: the game is taken from the league, and match options are checked
against it before saving. Its terms start from its league's: on the add form the match options are the
league's (a small script fills them in when a league is chosen; left empty, the league's are taken), the
clock is "the league's clock" and the rule "as the league says".
"""
from __future__ import annotations

import csv
import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games.errors import DomainError
from games.models import Match, bot_choices
from games.services import seat_forfeit
from games.words.terms import clock_words, options_text
from league import services
from league.admin.clubs import OrganiserScoped
from league.admin.drafts import DraftAdmin
from league.admin.entries import ENTRIES_FIELDSET, TournamentEntries, entries_form_check, entries_form_init
from league.admin.forms import LEAGUE_CLOCK, ClockChoice, ClockForm, OptionalJSON
from league.admin.presets import preset_fieldset, preset_initial, save_as_preset
from league.admin.teams import TeamInline
from league.models import Entrant, League, Round, Table, Tournament
from league.selectors import exports, rounds, standings
from league.services.tournaments import entrant_seed_set


class LeagueSelect(forms.Select):
    """The league of a tournament, each option carrying the league's terms (its match options as JSON
    and in words, its clock and timeout rule in words) for the add form's script to show."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        league = getattr(value, "instance", None)
        if isinstance(league, League):
            option["attrs"].update({
                "data-options": json.dumps(league.options or {}, ensure_ascii=False),
                "data-options-words": options_text(league.game, league.options),
                "data-clock-words": clock_words(league.clock),
                "data-rule-words": str(league.get_timeout_rule_display()),
            })
        return option


class TournamentForm(ClockForm):
    """A tournament plays its league's game: the game is not a field, it is taken from the league,
    and the match options are checked against that game before anything is saved.

    Its terms start from the league's: a new tournament's options are the league's (shown as soon as a
    league is chosen; empty means the league's too), its clock "the league's clock" and its rule "as the
    league says". The clock and the rule may change while it runs: they apply to the matches created
    from then on."""

    timeout_rule = forms.ChoiceField(label=capfirst(_("when a deadline passes")), required=False)

    class Meta:
        model = Tournament
        fields = ("league", "season", "name", "format", "format_options", "options", "seats_per_table", "rounds",
                  "auto_advance", "seeding", "seeded_from", "starts_on", "days_between_rounds", "clock",
                  "timeout_rule", "same_club_rounds", *ENTRIES_FIELDSET[1]["fields"])
        error_messages = {"season": {"invalid_choice": _("Choose a season of the tournament's league.")}}
        field_classes = {"options": OptionalJSON, "clock": OptionalJSON, "format_options": OptionalJSON}
        widgets = {"league": LeagueSelect, "options": forms.Textarea(attrs={"rows": 3, "cols": 60})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        entries_form_init(self)
        adding = self.instance.pk is None
        league = self._league()
        if "league" in self.fields:
            self.fields["league"].help_text = _("The tournament plays the league's game.")
        if "options" in self.fields:
            self.fields["options"].required = False
            if adding and not self.is_bound:
                # the league's options as they will be played ("{}" would override them)
                self.initial["options"] = dict(league.options) if league is not None else None
            if adding:
                self.fields["options"].widget.attrs["data-fill-from-league"] = ""
            # what they play, in words (the add form's script keeps them in step with the chosen league)
            options = self.initial.get("options")
            words = options_text(league.game, options) if league is not None and options is not None \
                and not self.is_bound else ""
            self.fields["options"].help_text = format_html(
                '<span class="lg-terms-words" data-options-words-for="options">{}</span>{}', words,
                _("Empty: the league's match options. Checked against the league's game."))
        if "clock_choice" in self.fields and adding:
            self.fields["clock_choice"] = ClockChoice(league_first=True)
            self.fields["clock_choice"].widget.attrs["data-league-label"] = str(_("The league's clock: %(clock)s"))
            if league is not None:
                self.fields["clock_choice"].choices = [
                    (LEAGUE_CLOCK, _("The league's clock: %(clock)s") % {"clock": clock_words(league.clock)})
                ] + self.fields["clock_choice"].choices[1:]
            self.initial.setdefault("clock_choice", LEAGUE_CLOCK)
        if "timeout_rule" in self.fields:
            rules = list(Tournament._meta.get_field("timeout_rule").choices)
            if adding:
                label = (_("As the league says: %(rule)s") % {"rule": league.get_timeout_rule_display()}
                         if league is not None else _("As the league says"))
                self.fields["timeout_rule"].choices = [("", label)] + rules
                self.fields["timeout_rule"].widget.attrs["data-league-label"] = str(
                    _("As the league says: %(rule)s"))
                self.initial.setdefault("timeout_rule", "")
            else:
                self.fields["timeout_rule"].choices = rules
                self.initial["timeout_rule"] = self.instance.timeout_rule
        if "same_club_rounds" in self.fields:
            self.fields["same_club_rounds"].required = False   # left out: as it was
        if "format_options" in self.fields:
            self.fields["format_options"].required = False
            self.fields["format_options"].widget = forms.Textarea(attrs={"rows": 2, "cols": 60})
            self.fields["format_options"].help_text = _(
                'Empty: the format\'s defaults. Groups then play-offs: {"group_size": 4, "advance": 2}; double '
                'elimination: {"bracket_reset": true}. Checked against the chosen format.')
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

    def _league(self) -> League | None:
        league_id = self._league_id()
        return League.objects.filter(pk=league_id).first() if league_id is not None else None

    def clean(self):
        data = super().clean()
        league = data.get("league") if "league" in self.fields else None
        if league is not None:
            # set before the model's own clean() runs, so options are checked against this game
            self.instance.game = league.game
            if "options" in self.fields and data.get("options") is None:
                data["options"] = dict(league.options)
        if "same_club_rounds" in self.fields and data.get("same_club_rounds") is None:
            data["same_club_rounds"] = self.instance.same_club_rounds
        if "format_options" in self.fields and data.get("format_options") is None:
            data["format_options"] = {}
        if "timeout_rule" in self.fields and not data.get("timeout_rule"):
            # "as the league says" (a new tournament), or what it was (a form sent without it)
            if self.instance.pk is not None:
                data["timeout_rule"] = self.instance.timeout_rule
            else:
                data["timeout_rule"] = league.timeout_rule if league is not None else Match.TimeoutRule.BOT
        entries_form_check(self, data)
        return data


class BotsForm(forms.Form):
    """How many bots, and their level: only the levels the tournament's game has (``bot_choices``)."""
    count = forms.IntegerField(label=_("how many bots"), min_value=1, max_value=256, initial=8)
    policy = forms.ChoiceField(label=_("policy"), initial="greedy")

    def __init__(self, *args, game: str, **kwargs):
        super().__init__(*args, **kwargs)
        levels = bot_choices(game)
        mixed = [("mixed", _("mixed (greedy and random)"))] if {"greedy", "random"} <= dict(levels).keys() else []
        self.fields["policy"].choices = mixed + levels


def csv_download(rows: list[list], filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    csv.writer(response).writerows(rows)
    return response


class EntrantForm(forms.ModelForm):
    """An entrant row: a new one chooses its player; an entrant already in keeps theirs (only the seed
    may be typed)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None and "player" in self.fields:
            self.fields["player"].disabled = True
        if "seed" in self.fields:
            self.fields["seed"].required = False   # left empty: seeded after those with a seed, by entry

    def clean_seed(self):
        return self.cleaned_data.get("seed") or 0


class EntrantInline(admin.TabularInline):
    """The entrants; while the tournament takes entries the seeds may be typed (seeding by hand)."""
    model = Entrant
    form = EntrantForm
    fields = ("seed", "player", "status_note")
    readonly_fields = ("status_note",)
    autocomplete_fields = ("player",)
    extra = 0

    @admin.display(description=_("status"))
    def status_note(self, obj):
        if obj.pk is None:
            return ""
        withdrawal = getattr(obj, "withdrawal", None)
        return standings.withdrawal_note(withdrawal.round_number) if withdrawal else ""

    def _open(self, obj) -> bool:
        return obj is None or obj.status == Tournament.Status.DRAFT

    def has_add_permission(self, request, obj=None):
        return self._open(obj) and super().has_add_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        return ("status_note",) if self._open(obj) else ("seed", "status_note")

    def has_change_permission(self, request, obj=None):
        return self._open(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._open(obj) and super().has_delete_permission(request, obj)


@admin.register(Tournament)
class TournamentAdmin(DraftAdmin, TournamentEntries, OrganiserScoped, admin.ModelAdmin):
    club_path = "league__club__"
    scoped_choices = {"league": "club__", "season": "league__club__", "seeded_from": "league__club__"}
    form = TournamentForm
    list_display = ("name", "league", "format", "game", "seats_per_table", "status", "progress", "pages")
    list_filter = ("status", "format", "game", "league")
    search_fields = ("name",)
    inlines = [EntrantInline, TeamInline]
    actions = ["pair_next_round", "start_round", "record_finished", "export_standings", "export_results",
               "close_checkin", save_as_preset]
    clock_fieldset = (_("Clock"), {"fields": ("clock_choice", "clock", "timeout_rule"),
                                   "description": _("A change applies to the matches created from then on.")})
    fieldsets = [
        (None, {"fields": ("league", "season", "name", "format", "format_options", "game", "options", "terms",
                           "seats_per_table",
                           "rounds")}),
        clock_fieldset,
        (_("Schedule"), {"fields": ("auto_advance", "seeding", "seeded_from", "starts_on", "days_between_rounds")}),
        (_("Pairing"), {"fields": ("same_club_rounds",)}),
        ENTRIES_FIELDSET,
    ]
    add_fieldsets = [
        (None, {"fields": ("league", "season", "name", "format", "format_options", "options", "seats_per_table",
                           "rounds")}),
        (_("Clock"), {"fields": ("clock_choice", "clock", "timeout_rule")}),
        fieldsets[2],
        ENTRIES_FIELDSET,
    ]

    class Media:
        css = {"all": ["league/league.css"]}
        js = ["league/admin_terms.js"]

    running_fieldsets = [
        (_("Progress"), {"fields": ("status", "progress_panel", "entries_panel", "waiting_list_panel",
                                    "draft_link")}),
        (_("Standings"), {"fields": ("standings_panel",)}),
        (pgettext_lazy("a round of a tournament", "Rounds"), {"fields": ("rounds_panel",)}),
    ]

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [preset_fieldset(request), *self.add_fieldsets]
        return self.fieldsets + self.running_fieldsets

    def get_changeform_initial_data(self, request):
        return {**super().get_changeform_initial_data(request), **preset_initial(request)}

    def get_readonly_fields(self, request, obj=None):
        panels = ("status", "terms", "progress_panel", "entries_panel", "waiting_list_panel", "standings_panel",
                  "rounds_panel", "draft_link")
        if obj is None:
            return ()
        if obj.status == Tournament.Status.DRAFT:
            return ("game",) + panels
        # the clock and its rule stay editable while it runs: they apply to the matches created from then on
        return ("league", "season", "format", "format_options", "game", "options", "seats_per_table", "rounds",
                "seeding", "seeded_from") + panels

    def has_delete_permission(self, request, obj=None):
        # a tournament that has started has recorded rounds and results: it stays
        if obj is not None and obj.status != Tournament.Status.DRAFT:
            return False
        return super().has_delete_permission(request, obj)

    # -- list columns and panels ------------------------------------------------
    @admin.display(description=_("progress"))
    def progress(self, obj):
        p = rounds.tournament_progress(obj)
        if not p["round"]:
            n = obj.entrants.count()
            return ngettext("%(n)s entrant", "%(n)s entrants", n) % {"n": n}
        return ngettext("round %(r)s of %(R)s · %(x)s of %(y)s match finished",
                        "round %(r)s of %(R)s · %(x)s of %(y)s matches finished", p["total"]) % {
            "r": p["round"], "R": p["rounds"], "x": p["finished"], "y": p["total"]}

    @admin.display(description=_("pages"))
    def pages(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("league_tournament", args=[obj.pk]), _("tournament page"))

    @admin.display(description=_("clock"))
    def clock_choice(self, obj):
        # shown instead of the choice to those who may only look
        return clock_words(obj.clock)

    @admin.display(description=_("what its matches play"))
    def terms(self, obj):
        terms = rounds.tournament_terms(obj)
        return format_html("{} · {}{}", terms["options"], terms["clock"],
                           format_html(" · {}", terms["rule"]) if terms["rule"] else "")

    @admin.display(description=_("progress"))
    def progress_panel(self, obj):
        p = rounds.tournament_progress(obj)
        may_act = getattr(obj, "_reader_may_change", False)
        return render_to_string("league/_progress.html", {
            "progress": p, "tournament": obj, "waiting": rounds.round_waiting(obj), "admin": True,
            "may_act": may_act})

    def get_object(self, request, object_id, from_field=None):
        # the panels are drawn for this request's reader: actions only for those who may change
        obj = super().get_object(request, object_id, from_field)
        if obj is not None:
            obj._reader_may_change = self.has_change_permission(request, obj)
        return obj

    @admin.display(description=_("entries"))
    def entries_panel(self, obj):
        n = obj.entrants.count()
        if obj.status != Tournament.Status.DRAFT:
            return ngettext("%(n)s entrant; entries are closed.", "%(n)s entrants; entries are closed.", n) % {"n": n}
        return format_html('{} · <a href="{}">{}</a>', ngettext("%(n)s entrant", "%(n)s entrants", n) % {"n": n},
                           reverse("admin:league_tournament_add_bots", args=[obj.pk]), _("add bots…"))

    @admin.display(description=_("standings"))
    def standings_panel(self, obj):
        return render_to_string("league/_standings.html", {"standings": standings.standings(obj), "admin": True})

    @admin.display(description=pgettext_lazy("a round of a tournament", "rounds"))
    def rounds_panel(self, obj):
        return render_to_string("league/_rounds.html", {"rounds": rounds.tournament_rounds(obj), "admin": True})

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
            days_between_rounds=data["days_between_rounds"], created_by=request.user,
            clock=data.get("clock"), timeout_rule=data.get("timeout_rule") or None,
            format_options=data.get("format_options") or {})
        created = services.entry_terms_set(tournament_id=created.pk, **{
            name: data[name] for name in ENTRIES_FIELDSET[1]["fields"] if name in data})
        if data.get("seeded_from"):
            created.seeded_from = data["seeded_from"]
            created.save(update_fields=["seeded_from"])
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
                    added = services.entrant_add(tournament_id=tournament.pk, player_id=obj.player_id)
                    if obj.seed:
                        entrant_seed_set(entrant_id=added.pk, seed=obj.seed)
                else:   # a seed typed by hand
                    entrant_seed_set(entrant_id=obj.pk, seed=obj.seed)
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
            tables = rnd.tables.count()
            return ngettext("round %(n)s paired (%(tables)s table)", "round %(n)s paired (%(tables)s tables)",
                            tables) % {"n": rnd.number, "tables": tables}
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
        def sweep(t):
            n = services.tournament_sweep(tournament_id=t.pk)
            return ngettext("%(n)s table recorded", "%(n)s tables recorded", n) % {"n": n}
        self._each(request, queryset, sweep, "")

    def _csv(self, queryset, rows_of, suffix):
        """One CSV for the chosen tournaments, a leading "tournament" column naming each row's."""
        tournaments = list(queryset.order_by("pk"))
        rows = exports.merged_csv_rows([(t.name, rows_of(t)) for t in tournaments])
        name = slugify(tournaments[0].name) if len(tournaments) == 1 else ""
        return csv_download(rows, f"{name or 'tournaments'}-{suffix}.csv")

    @admin.action(permissions=["view"], description=_("Export standings as CSV"))
    def export_standings(self, request, queryset):
        return self._csv(queryset, lambda t: exports.standings_csv_rows(standings.standings(t)), "standings")

    @admin.action(permissions=["view"], description=_("Export results as CSV"))
    def export_results(self, request, queryset):
        return self._csv(queryset, lambda t: exports.results_csv_rows(rounds.tournament_rounds(t)), "results")

    # -- add bots ------------------------------------------------------------------
    def get_urls(self):
        waiting = "<int:tournament_id>/waiting/<int:match_id>/<int:seat>/"
        return [path("<int:tournament_id>/add-bots/", self.admin_site.admin_view(self.add_bots_view),
                     name="league_tournament_add_bots"),
                path(waiting + "remind/", self.admin_site.admin_view(self.remind_view),
                     name="league_tournament_remind"),
                path(waiting + "forfeit/", self.admin_site.admin_view(self.forfeit_view),
                     name="league_tournament_forfeit")] + super().get_urls()

    # -- acting on who a round waits for --------------------------------------------------------------
    def _waiting_seat(self, request, tournament_id: int, match_id: int, seat: int):
        """The tournament (the organiser's, with the change permission), the table of the match, and the
        seat as the round waits for it (None when it no longer does)."""
        tournament = get_object_or_404(self.get_queryset(request), pk=tournament_id)
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
        table = get_object_or_404(Table.objects.select_related("round", "match"), round__tournament=tournament,
                                  match_id=match_id)
        waiting = next((w for w in rounds.round_waiting(tournament)
                        if w["match_id"] == match_id and w["seat"] == seat), None)
        return tournament, table, waiting

    def _waiting_action(self, request, tournament_id: int, match_id: int, seat: int, *, action: str, act):
        tournament, table, waiting = self._waiting_seat(request, tournament_id, match_id, seat)
        back = reverse("admin:league_tournament_change", args=[tournament.pk])
        if request.method == "POST":
            try:
                note = act()
            except DomainError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, note, messages.SUCCESS)
            return HttpResponseRedirect(back)
        name = waiting["name"] if waiting else table.match.seats.filter(index=seat).first()
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
                   "table": table, "waiting": waiting, "name": str(name or ""), "action": action, "back": back,
                   "remind_every": int(services.REMIND_EVERY.total_seconds() // 60),
                   "title": (_("Remind %(name)s") if action == "remind" else _("Forfeit %(name)s's seat")) % {
                       "name": name or "?"}}
        return render(request, "admin/league/tournament/waiting_action.html", context)

    def remind_view(self, request, tournament_id: int, match_id: int, seat: int):
        """Remind the person a round waits for (a notice on their pages; an e-mail if they take them)."""
        def remind():
            reminder = services.seat_remind(match_id=match_id, seat=seat, by=request.user)
            name = reminder.user.get_username()
            if reminder.emailed:
                return _("Reminder sent to %(name)s, by e-mail and on their open pages.") % {"name": name}
            return _("Reminder sent to %(name)s on their open pages (no e-mail: they have no address or turned "
                     "e-mails off).") % {"name": name}
        return self._waiting_action(request, tournament_id, match_id, seat, action="remind", act=remind)

    def forfeit_view(self, request, tournament_id: int, match_id: int, seat: int):
        """Forfeit the seat of the person a round waits for: recorded in the match, the seat resigns."""
        def forfeit():
            match = seat_forfeit(match_id=match_id, seat=seat, by=request.user)
            name = match.seats.get(index=seat).display_name
            return _("Forfeited: %(name)s's seat resigned; the match goes on without it or has ended.") % {
                "name": name}
        return self._waiting_action(request, tournament_id, match_id, seat, action="forfeit", act=forfeit)

    def add_bots_view(self, request, tournament_id: int):
        tournament = get_object_or_404(self.get_queryset(request), pk=tournament_id)
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
        form = BotsForm(request.POST or None, game=tournament.game)
        if request.method == "POST" and form.is_valid():
            try:
                added = services.bots_add(tournament_id=tournament.pk, count=form.cleaned_data["count"],
                                          policy=form.cleaned_data["policy"])
                self.message_user(request, ngettext("%(n)s bot entered.", "%(n)s bots entered.", len(added)) % {
                    "n": len(added)}, messages.SUCCESS)
            except services.LeagueError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:league_tournament_change", args=[tournament.pk]))
        context = {**self.admin_site.each_context(request), "title": _("Add bots to %(t)s") % {"t": tournament.name},
                   "form": form, "tournament": tournament, "opts": self.model._meta}
        return render(request, "league/admin_add_bots.html", context)


@admin.register(Entrant)
class EntrantAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "tournament__league__club__"
    list_display = ("player", "tournament", "seed", "withdrawn", "paused")
    list_filter = ("tournament", "paused")
    search_fields = ("player__name", "tournament__name")
    actions = ["withdraw", "pause", "resume"]

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
        return standings.withdrawal_note(w.round_number) if w else ""

    @admin.action(permissions=["change"], description=_("Withdraw the selected entrants"))
    def withdraw(self, request, queryset):
        for entrant in queryset:
            try:
                services.entrant_withdraw(entrant_id=entrant.pk, reason=str(_("withdrawn in the admin")),
                                          by=request.user)
                self.message_user(request, _("%(p)s withdrawn.") % {"p": entrant.player.name}, messages.SUCCESS)
            except services.LeagueError as exc:
                self.message_user(request, f"{entrant.player.name}: {exc.message}", messages.ERROR)

    def _pause(self, request, queryset, paused: bool) -> None:
        for entrant in queryset.select_related("player"):
            try:
                services.entrant_pause(entrant_id=entrant.pk, paused=paused)
            except services.LeagueError as exc:
                self.message_user(request, f"{entrant.player.name}: {exc.message}", messages.ERROR)
            else:
                done = _("%(p)s paused.") if paused else _("%(p)s is paired again.")
                self.message_user(request, done % {"p": entrant.player.name}, messages.SUCCESS)

    @admin.action(permissions=["change"], description=_("Pause the selected arena players (not paired again)"))
    def pause(self, request, queryset):
        self._pause(request, queryset, True)

    @admin.action(permissions=["change"], description=_("Bring the selected arena players back"))
    def resume(self, request, queryset):
        self._pause(request, queryset, False)


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
        total = match_tables.count()
        return ngettext("%(x)s of %(y)s match finished", "%(x)s of %(y)s matches finished", total) % {
            "x": done, "y": total}

    @admin.action(permissions=["change"], description=_("Start the selected rounds' matches"))
    def start(self, request, queryset):
        for rnd in queryset:
            try:
                services.round_start(round_id=rnd.pk)
                self.message_user(request, _("%(r)s: started.") % {"r": rnd}, messages.SUCCESS)
            except services.LeagueError as exc:
                self.message_user(request, f"{rnd}: {exc.message}", messages.ERROR)
