"""League pages: clubs, leagues, tournaments, players, ratings. Thin: fetch, call a selector, render."""
from __future__ import annotations

import csv

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.decorators import ratelimit

from engine import registry
from games.kits import GAME_LABELS
from games.web import streaming
from league import services
from league.models import LANGUAGE_SESSION_KEY, Club, ClubInvite, League, PlayerProfile, Tournament
from league.selectors import accounts, clubs, drafts, exports, players, rounds, standings, tournaments
from league.services.challenge_rules import TooManyRefused, UnknownPeople, challenge_rules, challenge_rules_set
from league.services.challenge_rules import challenger_refuse as refuse_challenger
from league.web.entries import entries_context
from league.web.forms import BotAccountForm, ChallengeRulesForm, PersonalTokenForm, SettingsForm, SignupForm


@require_GET
def index(request):
    return render(request, "league/index.html", {
        "clubs": clubs.clubs_index(),
        "running": [tournaments.tournament_summary(t) for t in tournaments.tournaments(status=Tournament.Status.RUNNING)],
        "recent": [tournaments.tournament_summary(t)
                   for t in tournaments.tournaments(status=Tournament.Status.FINISHED)[:10]],
        "games": [(g, GAME_LABELS.get(g, g)) for g in registry.names()],
    })


@require_GET
def club(request, slug: str):
    return render(request, "league/club.html", clubs.club_page(get_object_or_404(Club, slug=slug)))


@require_GET
def league(request, league_id: int):
    return render(request, "league/league.html", clubs.league_page(get_object_or_404(League, pk=league_id)))


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("league__club", "season"), pk=tournament_id)


@require_GET
def tournament(request, tournament_id: int):
    context = _tournament_context(request, tournament_id)
    return render(request, "league/tournament.html", {**context, "entries": entries_context(request,
                                                                                            context["tournament"])})


@require_GET
def tournament_live(request, tournament_id: int):
    """The part of the tournament page that changes while it runs (fetched on each change the
    tournament's stream announces, or every 3 s where the server has no streams)."""
    return render(request, "league/_tournament_live.html", _tournament_context(request, tournament_id))


@login_required
@require_POST
def tournament_pause(request, tournament_id: int):
    """An arena's "Pause" and "Come back" buttons: the signed-in player's own entry."""
    paused = request.POST.get("paused") != "0"
    try:
        services.tournament_pause(tournament_id=_tournament(tournament_id).pk, user=request.user, paused=paused)
    except (services.NotEntered, services.NotContinuous, services.NotTakingEntries) as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Paused: you are not paired until you come back.") if paused else
                         _("You are back: you are paired as soon as another player is free."))
    return redirect(reverse("league_tournament", args=[tournament_id]) + "#arena")


def _tournament_context(request, tournament_id: int) -> dict:

    tournament = _tournament(tournament_id)
    context = tournaments.tournament_page(tournament, request.user)
    context["drafts"] = drafts.tournament_drafts(tournament)
    running = tournament.status == Tournament.Status.RUNNING
    context["stream_url"] = reverse("tournament_stream", args=[tournament.pk]) \
        if streaming.available(request) and running else None
    return context


def csv_response(tournament: Tournament, rows, suffix: str) -> HttpResponse:
    """A CSV download named after the tournament (pages and admin exports)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(tournament.name) or "tournament"
    response["Content-Disposition"] = f'attachment; filename="{name}-{suffix}.csv"'
    csv.writer(response).writerows(rows)
    return response


@require_GET
def standings_csv(request, tournament_id: int):
    t = _tournament(tournament_id)
    return csv_response(t, exports.standings_csv_rows(standings.standings(t)), "standings")


@require_GET
def results_csv(request, tournament_id: int):
    t = _tournament(tournament_id)
    return csv_response(t, exports.results_csv_rows(rounds.tournament_rounds(t)), "results")


@require_GET
def player(request, player_id: int):
    return render(request, "league/player.html", players.player_page(get_object_or_404(PlayerProfile, pk=player_id),
                                                                       request.user))


@require_GET
def ratings(request, game: str):
    if game not in registry.names():
        raise Http404()
    return render(request, "league/ratings.html", {"game": game, "game_label": GAME_LABELS.get(game, game),
                                                   "ratings": players.ratings_for_game(game)})


# -- people: signing up, joining a club, their settings -------------------------------------------------

@ratelimit(key="ip", rate=lambda group, request: settings.CARDLEAGUE_RATES["signups"], method="POST", block=True)
def signup(request, token: str | None = None):
    """A new person signs up (from an organiser's invitation link, they join that club too)."""
    invite = ClubInvite.objects.select_related("club").filter(token=token).first() if token else None
    if token and (invite is None or not invite.usable):
        return render(request, "league/invite_unusable.html", status=410)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = services.person_signup(username=data["username"], password=data["password"], email=data["email"],
                                          invite_token=token)
        except services.NameTaken:
            form.add_error("username", _("That username is taken."))
        except services.InviteUnusable:
            return render(request, "league/invite_unusable.html", status=410)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            if invite is not None:
                messages.success(request, _("Welcome to %(club)s!") % {"club": invite.club.name})
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form, "invite": invite},
                  status=400 if request.method == "POST" else 200)


def club_join(request, token: str):
    """An organiser's invitation link: a signed-in person joins the club; anyone else signs up (or in)."""
    invite = ClubInvite.objects.select_related("club").filter(token=token).first()
    if invite is None or not invite.usable:
        return render(request, "league/invite_unusable.html", status=410)
    if not request.user.is_authenticated:
        return render(request, "league/join.html", {"invite": invite})
    if request.method == "POST":
        try:
            club = services.club_join(token=token, user=request.user)
        except services.InviteUnusable:
            return render(request, "league/invite_unusable.html", status=410)
        messages.success(request, _("You are a member of %(club)s.") % {"club": club.name})
        return redirect("league_club", slug=club.slug)
    return render(request, "league/join.html", {"invite": invite})


@login_required
def account_settings(request):
    """A person's own settings: their address, e-mails about turns and rounds, the site's language."""
    profile = services.player_for_user(user=request.user)
    initial = {"email": request.user.email, "email_notifications": profile.email_notifications,
               "language": profile.language}
    form = SettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        services.profile_update(user=request.user, email=data["email"], language=data["language"],
                                email_notifications=data["email_notifications"])
        messages.success(request, _("Your settings are saved."))
        response = redirect("account_settings")
        if data["language"]:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, data["language"], max_age=365 * 24 * 3600,
                                samesite="Lax")
        return response
    return _settings_page(request, profile, form=form, status=400 if request.method == "POST" else 200)


def _settings_page(request, profile, *, form=None, bot_form=None, rules_form=None, token_form=None, status=200):
    rules = challenge_rules(user=request.user)
    form = form or SettingsForm(initial={"email": request.user.email, "email_notifications": profile.email_notifications,
                                         "language": profile.language})
    rules_form = rules_form or ChallengeRulesForm(initial={"challenges_from": rules["challenges_from"]})
    return render(request, "league/account.html", {
        "form": form, "profile": profile, "bot_form": bot_form or BotAccountForm(), "rules_form": rules_form,
        "refused": rules["refused"], "bots": accounts.bot_accounts(request.user),
        "token_form": token_form or PersonalTokenForm(), "tokens": accounts.personal_tokens(request.user)},
        status=status)


@login_required
@require_POST
def personal_token_new(request):
    """A person's own API token, with the scopes they ticked; the key is shown once."""
    form = PersonalTokenForm(request.POST)
    if form.is_valid():
        try:
            key = services.personal_token_create(owner=request.user, name=form.cleaned_data["name"],
                                                 scopes=form.cleaned_data["scopes"])
        except services.TooManyTokens as exc:
            form.add_error(None, exc.message)
        else:
            return render(request, "league/bot_token.html", {"name": form.cleaned_data["name"], "key": key,
                                                             "personal": True})
    return _settings_page(request, services.player_for_user(user=request.user), token_form=form, status=400)


@login_required
@require_POST
def challenge_rules_save(request):
    """The settings page's "Who may challenge you": the choice, one more person to refuse, or (``allow``)
    one person allowed again. Challenges already waiting that the new rules refuse are declined."""
    profile = services.player_for_user(user=request.user)
    allow = request.POST.get("allow", "")
    if allow:
        try:
            challenge_rules_set(user=request.user, allow=[allow[:150]])
        except UnknownPeople:
            raise Http404() from None
        messages.success(request, _("%(name)s may challenge you again.") % {"name": allow[:150]})
        return redirect(reverse("account_settings") + "#challenges")
    form = ChallengeRulesForm(request.POST)
    if form.is_valid():
        refuse = [form.cleaned_data["refuse"].strip()] if form.cleaned_data["refuse"].strip() else []
        try:
            challenge_rules_set(user=request.user, challenges_from=form.cleaned_data["challenges_from"],
                                refuse=refuse)
        except UnknownPeople:
            form.add_error("refuse", _("No such player."))
        except TooManyRefused as exc:
            form.add_error("refuse", exc.message)
        else:
            messages.success(request, _("Your settings are saved."))
            return redirect(reverse("account_settings") + "#challenges")
    return _settings_page(request, profile, rules_form=form, status=400)


@login_required
@require_POST
def challenger_refuse(request, match_id: int):
    """An invitation's "Decline and refuse": the challenge is declined and its challenger's challenges
    are refused from now on (undone on the settings page)."""
    name = refuse_challenger(user=request.user, match_id=match_id)
    if name:
        messages.success(request, _("Declined. Challenges from %(name)s are refused from now on; your settings "
                                    "can allow them again.") % {"name": name})
    return redirect("home")


@login_required
@require_POST
def bot_account_new(request):
    """A person creates an outside bot account; its first token is shown once."""
    form = BotAccountForm(request.POST)
    key = name = None
    if form.is_valid():
        try:
            user, key = services.bot_account_create(owner=request.user, name=form.cleaned_data["name"])
            name = user.get_username()
        except services.NameTaken:
            form.add_error("name", _("That username is taken."))
        except services.TooManyBots as exc:
            form.add_error(None, exc.message)
    if key is None:
        return _settings_page(request, services.player_for_user(user=request.user), bot_form=form, status=400)
    return render(request, "league/bot_token.html", {"name": name, "key": key})


@login_required
@require_POST
def bot_token_new(request, user_id: int):
    """A new token for one of the person's outside bots (shown once)."""
    try:
        key = services.bot_token_create(owner=request.user, bot_user_id=user_id)
    except services.NotYourBot:
        raise Http404() from None
    name = PlayerProfile.objects.get(user_id=user_id).name
    return render(request, "league/bot_token.html", {"name": name, "key": key})


@login_required
@require_POST
def api_token_revoke(request, token_id: int):
    """Revoke one of the person's tokens or of their outside bots' (the settings page's "Revoke")."""
    try:
        name = services.api_token_revoke(owner=request.user, token_id=token_id)
    except services.NotYourToken:
        raise Http404() from None
    messages.success(request, _("The token “%(name)s” is revoked: programs using it are refused from now on.")
                     % {"name": name})
    return redirect("account_settings")


@require_POST
def language_set(request):
    """The language switcher: Django's set_language (the cookie), and for a signed-in person their
    profile too, so the choice follows them to other devices."""
    from django.utils.translation import check_for_language
    from django.views.i18n import set_language

    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and check_for_language(language):
        services.profile_update(user=request.user, language=language)
        request.session[LANGUAGE_SESSION_KEY] = language
    return response
