"""Clubs, players, leagues and seasons."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import transaction

from league.models import Club, League, PlayerProfile, Season


@transaction.atomic
def club_create(*, name: str, slug: str, description: str = "", organisers: Sequence = (),
                members: Sequence = ()) -> Club:
    club = Club(name=name, slug=slug, description=description)
    club.full_clean()
    club.save()
    club.organisers.set(organisers)
    club.members.set(set(members) | set(organisers))
    return club


@transaction.atomic
def league_create(*, club_id: int, name: str, game: str, options: dict | None = None,
                  win_points=None, draw_points=None, loss_points=None, place_points: list | None = None,
                  bye_points=None, tie_breaks: list[str] | None = None, forfeit_rule: str | None = None,
                  rated: bool = True, clock: dict | None = None, timeout_rule: str | None = None,
                  unplayed_rounds: str | None = None) -> League:
    """A club's league of one game; ``clock`` (None: no clock) and ``timeout_rule`` are what its
    tournaments start from; ``unplayed_rounds`` (``virtual``, the default, or ``none``) is how a round
    without an opponent counts in Buchholz and Sonneborn–Berger."""
    league = League(club_id=club_id, name=name, game=game, options=options or {}, rated=rated, clock=clock or None)
    for field, value in (("win_points", win_points), ("draw_points", draw_points), ("loss_points", loss_points),
                         ("bye_points", bye_points), ("place_points", place_points), ("tie_breaks", tie_breaks),
                         ("forfeit_rule", forfeit_rule), ("timeout_rule", timeout_rule),
                         ("unplayed_rounds", unplayed_rounds)):
        if value is not None:
            setattr(league, field, value)
    league.full_clean()
    league.save()
    return league


@transaction.atomic
def season_create(*, league_id: int, name: str, starts_on=None, ends_on=None) -> Season:
    season = Season(league_id=league_id, name=name, starts_on=starts_on, ends_on=ends_on)
    season.full_clean()
    season.save()
    return season


@transaction.atomic
def player_for_user(*, user) -> PlayerProfile:
    """The user's player profile, created on first use (named after the user)."""
    found = PlayerProfile.objects.filter(user=user).first()
    if found:
        return found
    name = _free_name(user.get_username())
    return PlayerProfile.objects.create(user=user, name=name)


@transaction.atomic
def player_bot_create(*, name: str, policy: str = "greedy", strength: int = 1, club_id: int | None = None
                      ) -> PlayerProfile:
    bot = PlayerProfile(name=name, bot_policy=policy, bot_strength=strength, club_id=club_id)
    bot.full_clean()
    bot.save()
    return bot


@transaction.atomic
def bots_ensure(*, count: int, policy: str = "mixed", exclude: Iterable[int] = ()) -> list[PlayerProfile]:
    """``count`` bot players (created as needed), skipping the ids in ``exclude``.

    Bots are named "<policy> bot NN" and reused, so their ratings carry over.
    ``mixed`` alternates greedy and random.
    """
    exclude = set(exclude)
    out: list[PlayerProfile] = []
    i = 0
    while len(out) < count:
        i += 1
        this = ("greedy", "random")[(len(out)) % 2] if policy == "mixed" else policy
        name = f"{this.capitalize()} bot {i:02d}"
        bot = PlayerProfile.objects.filter(name=name).first()
        if bot is None:
            bot = PlayerProfile.objects.create(name=name, bot_policy=this)
        if bot.pk in exclude or not bot.is_bot:
            continue
        exclude.add(bot.pk)
        out.append(bot)
    return out


def _free_name(base: str) -> str:
    name, n = base, 1
    while PlayerProfile.objects.filter(name=name).exists():
        n += 1
        name = f"{base} {n}"
    return name
