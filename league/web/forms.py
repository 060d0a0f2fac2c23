"""Forms of the people's own pages: signing up, their settings."""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import password_validators_help_text_html, validate_password
from django.utils.translation import gettext_lazy as _

from games.models import TOKEN_SCOPES
from league.rules.names import look_alike_taken, mixes_scripts, normalised


def clean_new_name(name: str) -> str:
    """A new account's name, as stored (NFKC), refused when it mixes scripts or looks like a taken one."""
    name = normalised(name)
    if mixes_scripts(name):
        raise forms.ValidationError(_("Use the letters of one alphabet: a name mixing Latin letters with Cyrillic "
                                      "or Greek ones can pass for someone else's."))
    if look_alike_taken(name):
        raise forms.ValidationError(_("That username is taken."))
    return name


class SignupForm(forms.Form):
    username = forms.RegexField(label=_("Username"), max_length=40, regex=r"^[\w.@+-]+\Z",
                                help_text=_("Letters, digits and @ . + - _ only; others see it at the table."))
    email = forms.EmailField(label=_("E-mail (optional)"), required=False,
                             help_text=_("For turns and rounds that wait for you; you can turn these off."))
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                               help_text=password_validators_help_text_html())
    password_again = forms.CharField(label=_("Password again"),
                                     widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_username(self):
        return clean_new_name(self.cleaned_data["username"])

    def clean(self):
        data = super().clean()
        password, again = data.get("password"), data.get("password_again")
        if password and again and password != again:
            self.add_error("password_again", _("The two passwords differ."))
        elif password and data.get("username"):
            user = get_user_model()(username=data["username"], email=data.get("email", ""))
            try:
                validate_password(password, user)
            except forms.ValidationError as exc:
                self.add_error("password", exc)
        return data


class SettingsForm(forms.Form):
    email = forms.EmailField(label=_("E-mail"), required=False)
    email_notifications = forms.BooleanField(
        label=_("E-mail me when a correspondence turn or a new tournament round waits for me"), required=False)
    language = forms.ChoiceField(label=_("Language"), required=False,
                                 choices=[("", _("my browser's"))] + list(settings.LANGUAGES))


class ChallengeRulesForm(forms.Form):
    """Whom a person takes challenges from; ``refuse``: one more person to refuse."""
    challenges_from = forms.ChoiceField(
        label=_("Who may challenge you"), widget=forms.RadioSelect,
        choices=[("everyone", _("everyone")), ("clubmates", _("people who share a club with me")),
                 ("nobody", _("nobody: tournaments only"))],
        help_text=_("A tournament you enter seats you whatever you choose here."))
    refuse = forms.CharField(label=_("Refuse challenges from"), max_length=150, required=False,
                             help_text=_("A username: their challenges, and their outside bots', are declined "
                                         "from now on."))


class PersonalTokenForm(forms.Form):
    """A person's own API token: a name, and what it may do beyond reading."""
    name = forms.CharField(label=_("Token name"), max_length=80,
                           help_text=_("Where you use it, to recognise it later: “my results script”."))
    scopes = forms.MultipleChoiceField(label=_("It may also"), required=False, widget=forms.CheckboxSelectMultiple,
                                       help_text=_("Every token reads what you may read: your matches, what you "
                                                   "see at the table, and the match records."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scopes"].choices = list(TOKEN_SCOPES.items())


class BotAccountForm(forms.Form):
    name = forms.RegexField(label=_("Bot's username"), max_length=40, regex=r"^[\w.@+-]+\Z",
                            help_text=_("Your program plays as this account through the API; it is shown as a bot."))

    def clean_name(self):
        return clean_new_name(self.cleaned_data["name"])
