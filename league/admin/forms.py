"""The form parts the league's and the tournament's admin forms share: a JSON field that may be left
empty, and the clock as a choice among the presets clubs use (``games.web.forms.CLOCKS``), no clock,
another clock typed as JSON, or (a tournament being added) its league's."""
from __future__ import annotations

import json

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from games.web.forms import CLOCK_CHOICES, CLOCKS, clock_preset
from league import services
from league.models import League


class OptionalJSON(forms.JSONField):
    """A JSON field that shows nothing (not "null") when it holds nothing."""

    def prepare_value(self, value):
        return "" if value is None else super().prepare_value(value)


#: The clock choices beyond the presets: another clock typed as JSON, and (a tournament being added)
#: its league's clock.
CUSTOM_CLOCK, LEAGUE_CLOCK = "custom", services.LEAGUE_CLOCK


def clock_choices(*, league_first: bool) -> list:
    """The clocks an organiser chooses from: the presets clubs use (``games.web.forms.CLOCK_CHOICES``: no
    clock, live, correspondence), another clock typed as JSON, and — a new tournament — its league's."""
    choices = list(CLOCK_CHOICES) + [(CUSTOM_CLOCK, _("Another clock (typed below as JSON)"))]
    return [(LEAGUE_CLOCK, _("The league's clock"))] + choices if league_first else choices


class ClockChoice(forms.ChoiceField):
    """The clock as a choice; the form's ``clock`` (JSON) is used only for "another clock"."""

    def __init__(self, *, league_first: bool = False, **kwargs):
        super().__init__(label=capfirst(_("clock")), choices=clock_choices(league_first=league_first), required=False,
                         help_text=_("When time runs out, the rule below decides the move."), **kwargs)
        self.widget.attrs.update({"data-clock-choice": "",
                                  "data-clocks": json.dumps({k: v for k, v in CLOCKS.items() if v})})


class ClockForm(forms.ModelForm):
    """A form with a clock: ``clock_choice`` (a preset, no clock, another clock, the league's) decides
    the model's ``clock``; the JSON field is read only for another clock, and checked
    (``games.clock_rules.check_clock``, by the model's ``clean``)."""

    clock_choice = ClockChoice()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "clock" in self.fields:
            self.fields["clock"].required = False
            self.fields["clock"].label = capfirst(_("another clock (JSON)"))
            self.fields["clock"].help_text = _(
                'Only for "another clock". Live: {"move_seconds": 60}, optionally "bank_seconds" (a time bank per '
                'match) and "join_seconds" (to take the seat); correspondence: {"move_days": 2}, optionally '
                '"join_days".')
            self.fields["clock"].widget = forms.TextInput(attrs={"size": 60, "data-clock-json": ""})
        if "clock_choice" in self.fields and not self.is_bound and self.instance.pk is not None:
            self.initial["clock_choice"] = clock_preset(self.instance.clock) if clock_preset(
                self.instance.clock) is not None else CUSTOM_CLOCK

    def clock_from_choice(self, choice: str, league: League | None):
        """The clock a choice stands for (the JSON typed for another clock)."""
        if choice == LEAGUE_CLOCK:
            return league.clock if league is not None else None
        if choice == CUSTOM_CLOCK:
            return self.cleaned_data.get("clock") or None
        return CLOCKS.get(choice or "")

    def clean(self):
        data = super().clean()
        if "clock_choice" in self.fields:
            league = data.get("league") if isinstance(data.get("league"), League) else None
            data["clock"] = self.clock_from_choice(data.get("clock_choice") or "", league)
            if data.get("clock_choice") == CUSTOM_CLOCK and not data["clock"] and "clock" not in self.errors:
                self.add_error("clock", _("Type the clock as JSON, or choose one above."))
        return data
