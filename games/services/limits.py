"""What one account may start and hold at once.

- At most ``CARDLEAGUE_MAX_OPEN_MATCHES`` matches waiting or running in which the account holds a seat
  (``too_many_matches``, 429): nobody fills the server with matches of bots playing for ever.
- At most ``CARDLEAGUE_RATES["new_matches"]`` attempts to start a match or challenge an hour, refused
  ones included (``too_many_new_matches``, 429): a challenge's "no such player" cannot be used to list the
  site's usernames.
- At most ``CARDLEAGUE_MAX_INCOMING_CHALLENGES`` challenges waiting for one account
  (``too_many_challenges``, 429): 300 challenges in 13 s made a person's home page 28 times slower.
- A person may refuse challenges from someone, or from everyone but the people who share a club with
  them, or from everyone (``challenge_refused``, 403): ``CHALLENGE_GATES``, which the league fills with
  each person's own rules. A tournament seats its entrants regardless: they entered.
- A person never sits at one table with their own outside bot (``own_bot_at_table``, 400): one person
  would hold two hands.
"""
from __future__ import annotations

from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import is_ratelimited

from games.errors import MatchError
from games.models import Match, Seat

# who may challenge whom: the league fills it with each person's own rules (the home page asks it too)
from games.selectors.hooks import CHALLENGE_GATES


class TooManyMatches(MatchError):
    code = "too_many_matches"
    status = 429
    message = _("You have as many matches open as one account may: finish, resign or withdraw one first.")


class TooManyNewMatches(MatchError):
    code = "too_many_new_matches"
    status = 429
    message = _("You have started as many matches this hour as one account may: try again later.")


class TooManyChallenges(MatchError):
    code = "too_many_challenges"
    status = 429
    message = _("That player has too many challenges waiting for an answer: try again later.")


class ChallengeRefused(MatchError):
    code = "challenge_refused"
    status = 403
    message = _("That player does not take challenges from you.")


class OwnBotAtTable(MatchError):
    code = "own_bot_at_table"
    status = 400
    message = _("A person and their own outside bot cannot sit at one table: one person would hold two hands.")


def open_matches(user) -> int:
    return (Match.objects.filter(seats__user=user, status__in=(Match.Status.WAITING, Match.Status.RUNNING))
            .distinct().count())


def new_match_allowed(request_or_user) -> None:
    """Count one attempt to start a match (or challenge) against the hour's allowance, and check the
    account's open matches. Raises ``TooManyNewMatches`` or ``TooManyMatches``."""
    user = getattr(request_or_user, "user", request_or_user)
    if user is None or not getattr(user, "is_authenticated", False):
        return
    joined = getattr(user, "date_joined", None)
    account = f"user:{user.pk}:{joined.timestamp() if joined else ''}"  # a reused id is another account
    if is_ratelimited(_Request(user), group="new-matches", key=lambda group, request: account,
                      rate=settings.CARDLEAGUE_RATES["new_matches"], increment=True):
        raise TooManyNewMatches()
    if open_matches(user) >= settings.CARDLEAGUE_MAX_OPEN_MATCHES:
        raise TooManyMatches()


def challenges_allowed(users, *, by) -> None:
    """Every invited account takes challenges from ``by`` and can take one more. Raises
    ``ChallengeRefused`` or ``TooManyChallenges``."""
    for user in users:
        for gate in CHALLENGE_GATES:
            refusal = gate(by, user)
            if refusal:
                raise ChallengeRefused(refusal)
        waiting = Seat.objects.filter(user=user, status=Seat.Status.INVITED,
                                      match__status=Match.Status.WAITING).count()
        if waiting >= settings.CARDLEAGUE_MAX_INCOMING_CHALLENGES:
            raise TooManyChallenges()


def one_hand_each(users) -> None:
    """No person sits at one table with one of their own outside bots. Raises ``OwnBotAtTable``."""
    from django.apps import apps

    ids = [u.pk for u in users if u is not None]
    if len(ids) < 2 or not apps.is_installed("league"):
        return
    profiles = apps.get_model("league", "PlayerProfile").objects
    if profiles.filter(Q(user_id__in=ids) & Q(is_bot_account=True) & Q(owner_id__in=ids)).exists():
        raise OwnBotAtTable()


class _Request:
    """What django-ratelimit reads of a request, for a count kept per account."""

    def __init__(self, user):
        self.user = user
        self.method = "POST"
        self.META = {}
