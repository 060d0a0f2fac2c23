"""Who may challenge a person: a flood of 300 challenges in 13 s made a person's home page
28 times slower, and nothing let them say "not from you".

Each person (and each outside bot's owner, for the bot) says whom they take challenges from:

- ``everyone`` (the default), ``clubmates`` (people who share a club with them: a member, an organiser
  or a home club; an outside bot counts in its owner's clubs), or ``nobody`` (tournaments only);
- and whatever that says, a list of people whose challenges they refuse (``refused_challengers``).
  Refusing a person refuses their outside bots too.

A refused challenge is ``challenge_refused`` (403), nothing written. A tournament seats its entrants
regardless: they entered it. ``challenge_gate`` is what ``games.services.limits`` asks (registered by
``league.receivers``); the rest are the writers the settings page and the API call.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Match, Seat
from games.services.challenges import challenges_decline_all
from league.models import Club, PlayerProfile
from league.services.clubs import player_for_user
from league.services.errors import LeagueError

CHALLENGES_FROM = ("everyone", "clubmates", "nobody")
#: The longest refusal list one account keeps.
REFUSED_AT_MOST = 500


class UnknownPeople(LeagueError):
    code = "unknown_player"
    status = 404
    message = _("No such player.")


class TooManyRefused(LeagueError):
    code = "too_many_refused"
    status = 400
    message = _("You can refuse challenges from at most 500 people: choose who may challenge you instead.")


def _acting_people(user) -> set[int]:
    """The account and, for an outside bot, the person who runs it."""
    owner = (PlayerProfile.objects.filter(user=user, is_bot_account=True)
             .values_list("owner_id", flat=True).first())
    return {user.pk} | ({owner} if owner else set())


def clubs_of(user) -> set[int]:
    """The clubs a person is in (member, organiser or home club); an outside bot is in its owner's."""
    people = _acting_people(user)
    clubs = set(Club.objects.filter(Q(members__in=people) | Q(organisers__in=people)).values_list("pk", flat=True))
    clubs |= set(PlayerProfile.objects.filter(user_id__in=people, club__isnull=False)
                 .values_list("club_id", flat=True))
    return clubs


def challenge_gate(challenger, invited) -> str | None:
    """The words refusing ``challenger``'s challenge to ``invited``, or None when it may go through."""
    profile = (PlayerProfile.objects.filter(user=invited).only("pk", "challenges_from", "owner_id")
               .first())
    if profile is None:
        return None
    if profile.refused_challengers.filter(pk__in=_acting_people(challenger)).exists():
        return gettext("That player does not take challenges from you.")
    name = invited.get_username()
    if profile.challenges_from == "nobody":
        return gettext("%(name)s takes no challenges, only tournament matches.") % {"name": name}
    if profile.challenges_from == "clubmates" and not clubs_of(challenger) & clubs_of(invited):
        return gettext("%(name)s takes challenges only from people who share a club with them.") % {"name": name}
    return None


def challenge_rules(*, user) -> dict:
    """A person's rules as the settings page and ``GET /api/account/challenge-rules`` show them."""
    profile = player_for_user(user=user)
    return {"challenges_from": profile.challenges_from,
            "refused": sorted(profile.refused_challengers.values_list("username", flat=True))}


@transaction.atomic
def challenge_rules_set(*, user, challenges_from: str | None = None, refused: list[str] | None = None,
                        refuse: list[str] = (), allow: list[str] = ()) -> dict:
    """Change whom ``user`` takes challenges from: ``challenges_from`` (one of ``CHALLENGES_FROM``),
    ``refused`` (the whole list, replacing it), ``refuse`` / ``allow`` (names to add / remove). Challenges
    already waiting from a newly refused person are declined. Raises ``UnknownPeople``, ``TooManyRefused``,
    ``ValueError`` for an unknown ``challenges_from``."""
    profile = PlayerProfile.objects.select_for_update().get(pk=player_for_user(user=user).pk)
    if challenges_from is not None:
        if challenges_from not in CHALLENGES_FROM:
            raise ValueError(f"challenges_from is one of {', '.join(CHALLENGES_FROM)}")
        profile.challenges_from = challenges_from
        profile.save(update_fields=["challenges_from"])
    names = set(refused or ()) | set(refuse) | set(allow)
    found = {u.get_username(): u for u in get_user_model().objects.filter(username__in=names)}
    missing = [n for n in names if n not in found]
    if missing:
        raise UnknownPeople(missing=len(missing))
    before = set(profile.refused_challengers.values_list("pk", flat=True))
    after = {found[n].pk for n in refused} if refused is not None else set(before)
    after = (after | {found[n].pk for n in refuse}) - {found[n].pk for n in allow} - {user.pk}
    if len(after) > REFUSED_AT_MOST:
        raise TooManyRefused()
    if after != before:
        profile.refused_challengers.set(after)
    added = after - before
    if added or profile.challenges_from != "everyone":
        challenges_decline_all(user=user, refused=True)
    return challenge_rules(user=user)


def challenger_refuse(*, user, match_id: int) -> str | None:
    """Decline the challenge of match ``match_id`` and refuse its challenger's challenges from now on
    (the home page's "Decline and refuse"). Returns the challenger's name."""
    seat = (Seat.objects.filter(match_id=match_id, user=user, status=Seat.Status.INVITED)
            .select_related("match__created_by").first())
    challenger = seat.match.created_by if seat is not None and seat.match.status == Match.Status.WAITING else None
    if challenger is None or challenger.pk == user.pk:
        return None
    challenge_rules_set(user=user, refuse=[challenger.get_username()])
    return challenger.get_username()
