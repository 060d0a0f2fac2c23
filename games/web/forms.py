"""The new-match form: a game, then that game's own seats and options, and the bots.

One form on the page, one fieldset per game (its fields prefixed with the game's name,
``livol-seats``, ``karuselis-deck``); the page shows only the chosen game's fieldset
(CSS ``:has``; every fieldset shows where that is not supported), and the server reads and
validates only the chosen game's fields — the seat range from the engine, the options with
the engine's own check (``start`` refuses what it does not accept).
"""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine import registry
from games.kits import GAME_LABELS, KitTable, game_choices
from games.models import BOT_CHOICES, bot_choices

#: Each game's options fieldset (its kit's ``form``).
GAME_FORMS = KitTable("form")

#: One line under each game's name in the selector (its kit's ``tagline``).
TAGLINES = KitTable("tagline")



def options_words(game: str) -> list[dict]:
    """What a club can set for a match of ``game``, as the rules page states it: each
    field of the new-match form with its bounds or its choices, which come from the engine."""
    out = []
    for name, field in GAME_FORMS[game]().fields.items():
        row = {"label": field.label, "help": "" if name == "seats" else field.help_text, "choices": [],
               "low": None, "high": None}
        if isinstance(field, forms.ChoiceField):
            row["choices"] = [label for _value, label in field.choices]
        else:
            row["low"], row["high"] = field.min_value, field.max_value
        out.append(row)
    return out


def options_problem(game: str, seats: int, options: dict) -> str | None:
    """Why the engine refuses these seats and options (None when it accepts them)."""
    try:
        registry.get(game).start(seats, "options-check", options=options)
    except (ValueError, TypeError, KeyError) as exc:
        return str(exc)
    return None


#: The clocks clubs use, as a person or an organiser chooses them: live clocks of 15, 30 or 60 seconds
#: a move, with or without a bank for the whole match, and correspondence of 1, 2 or 3 days a move.
CLOCKS = {
    "": None,
    "live-15": {"move_seconds": 15},
    "live-15-bank": {"move_seconds": 15, "bank_seconds": 120},
    "live-30": {"move_seconds": 30},
    "live-30-bank": {"move_seconds": 30, "bank_seconds": 300},
    "live-60": {"move_seconds": 60},
    "live-60-bank": {"move_seconds": 60, "bank_seconds": 600},
    "days-1": {"move_days": 1},
    "days-2": {"move_days": 2},
    "days-3": {"move_days": 3},
}
CLOCK_CHOICES = [
    ("", _("No clock")),
    (_("Live"), [
        ("live-15", _("15 seconds a move")),
        ("live-15-bank", _("15 seconds a move and a 2-minute bank")),
        ("live-30", _("30 seconds a move")),
        ("live-30-bank", _("30 seconds a move and a 5-minute bank")),
        ("live-60", _("60 seconds a move")),
        ("live-60-bank", _("60 seconds a move and a 10-minute bank")),
    ]),
    (_("Correspondence"), [
        ("days-1", _("1 day a move")),
        ("days-2", _("2 days a move")),
        ("days-3", _("3 days a move")),
    ]),
]


def clock_preset(clock: dict | None) -> str | None:
    """The preset key of a clock, or None when it is not one of them (a clock set by hand)."""
    return next((key for key, value in CLOCKS.items() if value == (clock or None)), None)


class NewMatchForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=game_choices, initial="livol", widget=forms.RadioSelect)
    bot = forms.ChoiceField(label=_("Bots"), choices=BOT_CHOICES, initial="greedy")
    people = forms.CharField(label=_("Invite people (usernames, comma separated; bots fill the other seats)"),
                             required=False, max_length=400,
                             help_text=_("They accept or decline; the match starts when everyone has accepted."))
    clock = forms.ChoiceField(label=_("Clock"), choices=CLOCK_CHOICES, required=False,
                              help_text=_("When time runs out, a bot makes the move; three in a row and the seat "
                                          "is given up."))
    # the random value this browser drew for the shuffle (crypto.getRandomValues); empty without script, and
    # a broken one is not an error: the server contributes instead (``games.web.params.entropy``)
    entropy = forms.CharField(required=False, max_length=1000, strip=False, widget=forms.HiddenInput)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        data = args[0] if args else kwargs.get("data")
        self.game_forms = {g: cls(data) if data is not None else cls() for g, cls in GAME_FORMS.items()
                           if g in registry.names()}

    def sections(self) -> list[dict]:
        """Per game: its radio, name, tagline and options form (the template's fieldsets)."""
        radios = {str(r.data["value"]): r for r in self["game"]}
        return [{"game": g, "name": GAME_LABELS.get(g, g), "tagline": TAGLINES.get(g, ""), "radio": radios.get(g),
                 "form": f} for g, f in self.game_forms.items()]

    def clean(self):
        data = super().clean()
        game = data.get("game")
        if game not in self.game_forms:
            raise forms.ValidationError(_("Unknown game."))
        options_form = self.game_forms[game]
        if not options_form.is_valid():
            raise forms.ValidationError(_("Check the %(game)s options below.") % {"game": GAME_LABELS[game]})
        levels = dict(bot_choices(game))
        if data.get("bot") and data["bot"] not in levels:
            raise forms.ValidationError(gettext("%(game)s has no bots of that level: choose %(levels)s.")
                                        % {"game": GAME_LABELS[game], "levels": ", ".join(map(str, levels.values()))})
        seats = options_form.cleaned_data["seats"]
        options = options_form.options()
        problem = options_problem(game, seats, options)
        if problem:
            raise forms.ValidationError(gettext("The %(game)s options are refused: %(problem)s")
                                        % {"game": GAME_LABELS[game], "problem": problem})
        names = [n.strip() for n in (data.get("people") or "").split(",") if n.strip()]
        if self.user is not None and self.user.get_username() in names:
            raise forms.ValidationError(_("You already hold the first seat: name only the other people."))
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Name each person once: a person holds one seat."))
        users = {u.get_username(): u for u in get_user_model().objects.filter(username__in=names, is_active=True)}
        unknown = [n for n in names if n not in users]
        if unknown:
            raise forms.ValidationError(_("No player named %(names)s.") % {"names": ", ".join(unknown)})
        if len(names) + 1 > seats:
            raise forms.ValidationError(_("More people than seats."))
        data.update(seats=seats, options=options, people_users=[users[n] for n in names],
                    clock_value=CLOCKS.get(data.get("clock") or ""))
        return data

    def options(self) -> dict:
        return self.cleaned_data["options"]
