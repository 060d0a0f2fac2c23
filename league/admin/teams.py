"""Teams in the admin: a tournament's teams inline on its page (name, club, seed), and each team's own page
to choose its members among the tournament's entrants (``league.services.team_members_set``)."""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from league import services
from league.admin.clubs import OrganiserScoped
from league.models import Entrant, Team, Tournament


class TeamInline(admin.TabularInline):
    model = Team
    fields = ("seed", "name", "club", "members_note")
    readonly_fields = ("members_note",)
    extra = 0
    show_change_link = True

    @admin.display(description=_("players"))
    def members_note(self, obj):
        if obj.pk is None:
            return ""
        return ", ".join(obj.members.order_by("seed").values_list("player__name", flat=True))

    def has_change_permission(self, request, obj=None):
        return (obj is None or obj.status == Tournament.Status.DRAFT) and super().has_change_permission(request, obj)


class TeamForm(forms.ModelForm):
    members = forms.ModelMultipleChoiceField(queryset=Entrant.objects.none(), required=False,
                                             label=_("players"),
                                             help_text=_("Entrants of the tournament; in seed order they play "
                                                         "boards 1, 2, … of a team match."))

    class Meta:
        model = Team
        fields = ("tournament", "name", "club", "seed")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["members"].queryset = (Entrant.objects.filter(tournament=self.instance.tournament)
                                               .select_related("player").order_by("seed"))
            self.fields["members"].initial = list(self.instance.members.values_list("pk", flat=True))


@admin.register(Team)
class TeamAdmin(OrganiserScoped, admin.ModelAdmin):
    club_path = "tournament__league__club__"
    scoped_choices = {"tournament": "league__club__"}
    form = TeamForm
    list_display = ("name", "tournament", "seed")
    search_fields = ("name", "tournament__name")

    def get_fields(self, request, obj=None):
        return ("tournament", "name", "club", "seed", "members") if obj else ("tournament", "name", "club", "seed")

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if change and "members" in form.cleaned_data:
            chosen = sorted(form.cleaned_data["members"], key=lambda e: (e.seed, e.pk))
            try:
                Entrant.objects.filter(team=form.instance).exclude(pk__in=[e.pk for e in chosen]).update(team=None)
                services.team_members_set(team_id=form.instance.pk, entrant_ids=[e.pk for e in chosen])
            except services.InvalidTournament as exc:
                messages.error(request, str(exc))
