"""The new-match form: a game, how many seats, and which bots fill them."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from engine import registry
from games.models import GAME_CHOICES

SEAT_RANGE = {"livol": (2, 6), "uno_flip": (2, 10), "karuselis": (2, 4), "iota": (2, 4), "cardavia": (3, 6)}
DEFAULT_SEATS = {"livol": 3, "uno_flip": 3, "karuselis": 2, "iota": 2, "cardavia": 4}


class NewMatchForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES, initial="livol")
    seats = forms.IntegerField(label=_("Seats (you and bots)"), min_value=2, max_value=10, initial=3)
    bot = forms.ChoiceField(label=_("Bots"), choices=[("greedy", _("greedy")), ("random", _("random"))],
                            initial="greedy")
    people = forms.CharField(label=_("Other people (usernames, comma separated; bots fill the other seats)"),
                             required=False, max_length=400)
    target = forms.IntegerField(label=_("Target points (empty: the game's default)"), required=False, min_value=1)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean(self):
        data = super().clean()
        game, seats = data.get("game"), data.get("seats")
        if game and seats:
            low, high = SEAT_RANGE.get(game, (2, 10))
            if not low <= seats <= high:
                raise forms.ValidationError(_("%(game)s is played by %(low)d to %(high)d seats.")
                                            % {"game": dict(GAME_CHOICES)[game], "low": low, "high": high})
        if game not in registry.names():
            raise forms.ValidationError(_("Unknown game."))
        names = [n.strip() for n in (data.get("people") or "").split(",") if n.strip()]
        if self.user is not None and self.user.get_username() in names:
            raise forms.ValidationError(_("You already hold the first seat: name only the other people."))
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Name each person once: a person holds one seat."))
        users = {u.get_username(): u for u in get_user_model().objects.filter(username__in=names, is_active=True)}
        unknown = [n for n in names if n not in users]
        if unknown:
            raise forms.ValidationError(_("No player named %(names)s.") % {"names": ", ".join(unknown)})
        if seats and len(names) + 1 > seats:
            raise forms.ValidationError(_("More people than seats."))
        data["people_users"] = [users[n] for n in names]
        return data

    def options(self) -> dict:
        target = self.cleaned_data.get("target")
        game = self.cleaned_data["game"]
        return {"target": target} if target and game in {"livol", "uno_flip", "karuselis"} else {}
