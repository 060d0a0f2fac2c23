"""People and clubs: signing up, the links organisers share to let people join a club, and a person's
own settings (e-mails, language)."""
from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import ApiToken
from games.services.accounts import api_token_create
from league.models import Club, ClubInvite, PlayerProfile
from league.rules.names import look_alike_taken, mixes_scripts, normalised
from league.services.clubs import player_for_user
from league.services.errors import LeagueError


class InviteUnusable(LeagueError):
    code = "invite_unusable"
    status = 410
    message = _("This invitation link has expired or has been used up: ask the organiser for a new one.")


class NameTaken(LeagueError):
    code = "name_taken"
    status = 409
    message = _("That username is taken.")


@transaction.atomic
def person_signup(*, username: str, password: str, email: str = "", invite_token: str | None = None):
    """A new person: the account (the site's password validators apply), their player profile, and
    the club of the invitation link they followed, if any. Raises ``ValidationError`` for a weak
    password, ``NameTaken``, ``InviteUnusable``."""
    User = get_user_model()
    username = normalised(username)
    if mixes_scripts(username) or look_alike_taken(username):
        raise NameTaken()
    invite = _usable_invite(invite_token) if invite_token else None
    user = User(username=username, email=email)
    validate_password(password, user)
    user.set_password(password)
    user.save()
    player_for_user(user=user)
    if invite is not None:
        _join(invite, user)
    return user


@transaction.atomic
def club_invite_create(*, club_id: int, by=None, days: int = 14, max_uses: int = 50) -> ClubInvite:
    """A link to join a club, valid for ``days`` and ``max_uses`` people."""
    return ClubInvite.objects.create(club_id=club_id, token=secrets.token_urlsafe(32), created_by=by,
                                     expires_at=timezone.now() + timedelta(days=days), max_uses=max_uses)


@transaction.atomic
def club_join(*, token: str, user) -> Club:
    """A signed-in person follows a club's invitation link: they become a member (once)."""
    invite = _usable_invite(token)
    _join(invite, user)
    return invite.club


def _usable_invite(token: str) -> ClubInvite:
    invite = ClubInvite.objects.select_for_update().select_related("club").filter(token=token).first()
    if invite is None or not invite.usable:
        raise InviteUnusable()
    return invite


def _join(invite: ClubInvite, user) -> None:
    if not invite.club.members.filter(pk=user.pk).exists():
        invite.club.members.add(user)
        ClubInvite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    profile = player_for_user(user=user)
    if profile.club_id is None:
        PlayerProfile.objects.filter(pk=profile.pk).update(club=invite.club)


@transaction.atomic
def profile_update(*, user, email_notifications: bool | None = None, language: str | None = None,
                   email: str | None = None) -> PlayerProfile:
    """A person's own settings: e-mails about turns and rounds, the site's language, the address."""
    profile = player_for_user(user=user)
    if email_notifications is not None:
        profile.email_notifications = email_notifications
    if language is not None:
        profile.language = language
    profile.full_clean(exclude=["user", "name", "owner"])
    profile.save()
    if email is not None:
        user.email = email
        user.save(update_fields=["email"])
    return profile


class NotYourBot(LeagueError):
    code = "not_your_bot"
    status = 403
    message = _("That outside bot is not yours.")


class TooManyBots(LeagueError):
    code = "too_many_bots"
    status = 409
    message = _("You have as many outside bots as one person may: delete one (ask an organiser) to make another.")


class TooManyTokens(LeagueError):
    code = "too_many_tokens"
    status = 409
    message = _("You have as many tokens as one person may: revoke one to make another.")


#: The most personal API tokens one person keeps (their outside bots' are counted per bot).
TOKENS_PER_PERSON = 20


@transaction.atomic
def personal_token_create(*, owner, name: str, scopes: list[str]) -> str:
    """A person's own API token (for their scripts) with ``scopes`` (every token reads what the person
    may read); the key is returned once. Raises ``TooManyTokens``, ``ValueError`` for an unknown scope."""
    if ApiToken.objects.filter(user=owner).count() >= TOKENS_PER_PERSON:
        raise TooManyTokens()
    return api_token_create(user=owner, name=name.strip()[:80] or "token", scopes=scopes)


class NotYourToken(LeagueError):
    code = "not_your_token"
    status = 404
    message = _("No such token of yours.")


@transaction.atomic
def bot_account_create(*, owner, name: str) -> tuple[object, str]:
    """An outside bot account run by ``owner``: a user that cannot sign in with a password, a player
    shown as a bot, and its first API token (the key, returned once)."""
    User = get_user_model()
    if PlayerProfile.objects.filter(owner=owner, is_bot_account=True).count() >= settings.CARDLEAGUE_BOT_ACCOUNTS_PER_PERSON:
        raise TooManyBots()
    name = normalised(name)
    if mixes_scripts(name) or look_alike_taken(name) or PlayerProfile.objects.filter(name=name).exists():
        raise NameTaken()
    user = User(username=name)
    user.set_unusable_password()
    user.full_clean(exclude=["password"])
    user.save()
    PlayerProfile.objects.create(user=user, name=name, is_bot_account=True, owner=owner)
    return user, api_token_create(user=user, name=f"{name} (created by {owner.get_username()})")


@transaction.atomic
def api_token_revoke(*, owner, token_id: int) -> str:
    """Delete one of ``owner``'s tokens, or one of their outside bots' (its streams stop at their next
    read, its next request is a 401); returns the token's name. Raises ``NotYourToken``."""
    token = ApiToken.objects.filter(Q(user=owner) | Q(user__player_profile__owner=owner,
                                                      user__player_profile__is_bot_account=True),
                                    pk=token_id).first()
    if token is None:
        raise NotYourToken()
    name = token.name
    token.delete()
    return name


@transaction.atomic
def bot_token_create(*, owner, bot_user_id: int) -> str:
    """A new API token for one of ``owner``'s outside bots."""
    profile = PlayerProfile.objects.select_related("user").filter(user_id=bot_user_id, owner=owner,
                                                                   is_bot_account=True).first()
    if profile is None:
        raise NotYourBot()
    return api_token_create(user=profile.user, name=f"{profile.name} (created by {owner.get_username()})")


@transaction.atomic
def calendar_token_renew(*, user) -> str:
    """A new private address for the person's calendar feed (``PlayerProfile.calendar_token``, 43 URL-safe
    characters): made on first request, and a new one replaces the old, which stops working at once."""
    profile = player_for_user(user=user)
    profile.calendar_token = secrets.token_urlsafe(32)
    profile.save(update_fields=["calendar_token"])
    return profile.calendar_token


@transaction.atomic
def calendar_token_revoke(*, user) -> None:
    """The person's calendar feed closed: its address stops working, and none replaces it."""
    profile = player_for_user(user=user)
    profile.calendar_token = ""
    profile.save(update_fields=["calendar_token"])
