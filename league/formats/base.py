"""Tournament formats: the base every format extends, and the registry that finds them.

A format is one class in its own module (``league/formats/<name>.py``), whose module declares
``FORMAT``, an instance. It owns its behaviour: how many rounds a field plays (``planned_rounds``), how the
next round is drawn (``pair``), what a bye scores and how the standings' legend says so (``bye_points``,
``bye_rule``), how its tables are drawn in words (``pairing_rules``), the rounds it fixes at the start
(``fixtures``), how far each player got (``stages``, ``stage_label``) and its bracket (``bracket``). The
base says what a format without that part does, so a format overrides only what it has.

A format is pure: no models, no queries. What it needs of its tournament it gets as plain values
(``Setup``) or asks of the object the league hands it (``Field`` when pairing, ``Results`` for the standings),
which reads the database only when asked. The algorithms are ``league.rules.pairing`` and
``league.rules.schedules``; a format chooses and calls them.

The registry: the built-in formats (``BUILT_IN``), then the modules named in ``settings.TOURNAMENT_FORMATS``
(dotted paths, each declaring ``FORMAT``), then those given to ``register``. A tournament stores its
format's ``name`` (``Tournament.format``), whose choices are ``format_choices``: a callable, so a new format
needs no migration.

A format with stages names each round's (``round_stage``) and each table's (``Seating.stage``); groups
then play-offs (``groups_knockout``) ranks its groups with ``Field.ranking`` and shows them through
``groups``, a double elimination (``double_elimination``) draws ``brackets`` and ends itself (``pair``
returns None once the final is decided, before the planned rounds, which are the most it can take);
each checks its own settings (``options_problem``).
A format that seats players as tables free up rather than round by round (an arena)
says so with ``continuous``: its one round stays open until ``closes_at``, and each time a table of it is
recorded the league asks its ``pair`` again for the players free at that moment (``Field.contenders`` then
lists only them), seating them at new tables of the same round. A format whose points depend on the
player's wins in a row says so with ``streaks`` and ``streak_points``.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar, Protocol

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league.rules.pairing import Contender, Forbidden, Pairing, PairingRules, Sides

#: The formats every site has, in the order the admin offers them.
BUILT_IN = ("league.formats.round_robin", "league.formats.double_round_robin", "league.formats.swiss",
            "league.formats.knockout", "league.formats.season", "league.formats.groups_knockout",
            "league.formats.double_elimination", "league.formats.arena", "league.formats.team_match")

#: A format's settings it does not read (``TournamentFormat.options_problem``).
UNKNOWN_SETTINGS = _("%(format)s does not read the settings %(unknown)s; it reads %(known)s.")


def unknown_settings(label: object, options: Mapping[str, Any], known: Sequence[str]) -> str | None:
    """The sentence refusing settings a format does not read (None: it reads them all)."""
    unknown = sorted(set(options) - set(known))
    if not unknown:
        return None
    return str(UNKNOWN_SETTINGS % {"format": label, "unknown": ", ".join(unknown), "known": ", ".join(known)})


#: A bye in a format whose byes score nothing (``TournamentFormat.bye_rule``).
REST_RULE = _("A rest (when the players do not fill the tables): no points, in a round without an opponent.")


@dataclass(frozen=True)
class Setup:
    """What a format reads of its tournament: ``seats`` per table, the game's smallest table
    (``min_seats``, at least two), the game's partnerships at each table size (``sides``, as
    ``league.rules.pairing`` reads them) and the number of rounds as set (``rounds``: before the start,
    what the organiser chose, if anything; from the first round on, the rounds planned). When a round is
    drawn, ``forbidden``: the pairs of entrants not to be seated together in it (forbidden pairings,
    clubmates in the first rounds), which a format that pairs from results keeps apart where it can. The format's
    own settings: ``options`` (``Tournament.format_options``)."""
    seats: int = 2
    min_seats: int = 2
    sides: Sides = ()
    rounds: int | None = None
    forbidden: Forbidden = frozenset()
    #: the format's own settings (``Tournament.format_options``: a group's size, the bracket reset...)
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Seating:
    """One table of a round as a format draws it: its ``number`` (a knockout keeps its place in the
    bracket, so numbers may skip), its ``entrants`` in seat order, and whether it is a ``bye`` (one
    entrant, no match); ``stage``: the part of the event it belongs to in a format with stages (a group's
    letter; a bracket's "W", "L" or "GF"), written to ``Table.stage``."""
    number: int
    entrants: tuple[int, ...]
    bye: bool = False
    stage: str = ""


@dataclass(frozen=True)
class SeatedTable:
    """A table of a round, as ``Results.seated`` gives it: its ``stage`` and ``number``, its ``entrants``
    in seat order, who went through (``winner``: None while undecided, or when nobody did), and whether it is
    ``decided`` (its result recorded: a bye is)."""
    stage: str
    number: int
    entrants: tuple[int, ...]
    winner: int | None
    bye: bool = False
    decided: bool = True


def numbered(tables: Iterable[Sequence[int]], byes: Iterable[int] = ()) -> list[Seating]:
    """A round's tables, then its byes, as ``Seating`` numbered from 1."""
    drawn = [(tuple(t), False) for t in tables] + [((b,), True) for b in byes]
    return [Seating(n, entrants, bye) for n, (entrants, bye) in enumerate(drawn, start=1)]


class Results(Protocol):
    """What a format may ask of the rounds its tournament has played (read when asked)."""

    def winners(self, number: int) -> list[int | None]:
        """Who went through each table of round ``number``, by table number from 1 (None: no table with
        that number, or nobody went through)."""
        ...

    def last_rounds(self) -> dict[int, int]:
        """Entrant id → the last round they were seated in."""
        ...

    def seated(self, number: int) -> list[SeatedTable]:
        """The tables of round ``number`` by table number: stage, seats and who went through."""
        ...

    def round_stages(self) -> dict[int, str]:
        """Round number → its stage (``Round.stage``), for the rounds paired so far."""
        ...


class Field(Results, Protocol):
    """What a format may ask of its tournament's entrants when it draws a round (read when asked)."""

    def starters(self) -> list[int]:
        """The entrants in seed order, without those who withdrew before the start."""
        ...

    def contenders(self) -> list[Contender]:
        """The entrants still in (none withdrawn), best placed first, with their points and history."""
        ...

    def ranking(self, entrants: Sequence[int], stage: str) -> list[int]:
        """``entrants`` ranked by the tournament's standings and tie-breaks counting only the tables of
        ``stage`` (``Table.stage``: a group's results), best first."""
        ...

    def teams(self) -> list[list[int]]:
        """The teams (``Entrant.team``) in seed order, each its entrants in seed order, without those who
        withdrew before the start."""
        ...


class CannotPair(Exception):
    """The field cannot be drawn as this format requires (the message says why, to the organiser)."""


class TournamentFormat:
    """The base of every tournament format: what a format without a part does."""

    #: The value ``Tournament.format`` stores (never renamed: the database keeps it).
    name: ClassVar[str]
    #: Its name as a person reads it.
    label: ClassVar[str | Promise]
    #: One sentence saying how it is played (the tournament page, above its pairing rules).
    description: ClassVar[str | Promise]

    def planned_rounds(self, setup: Setup, field: int) -> int:
        """How many rounds ``field`` players play."""
        raise NotImplementedError

    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        """The tables of round ``number`` (None: nobody is left to pair, the tournament is over).
        ``CannotPair`` when the field cannot be drawn."""
        raise NotImplementedError

    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        """How its tables are drawn, in words (``field``: the number of players, when known)."""
        raise NotImplementedError

    def options_problem(self, options: Mapping[str, Any], seats: int) -> str | None:
        """What is wrong with the format's settings (``Tournament.format_options``) at ``seats`` per table,
        in a sentence for the organiser (None: nothing). By default a format reads no settings."""
        return None

    def round_stage(self, number: int, seatings: Sequence[Seating]) -> str:
        """The stage round ``number`` belongs to (``Round.stage``), given its tables: by default none."""
        return ""

    def groups(self, setup: Setup, starters: Sequence[int]) -> list[tuple[str, list[int]]]:
        """Its groups as (name, entrant ids in seed order), from the entrants in seed order (``starters``);
        the standings show one table per group, counting the tables whose ``stage`` is the group's name.
        Empty: no groups."""
        return []

    def group_rule(self, setup: Setup) -> str:
        """How a group is ranked and who goes through, in words for the page (with ``groups``)."""
        return ""

    def brackets(self, setup: Setup, rounds: Sequence[Mapping[str, Any]], higher_game_points: bool
                 ) -> list[dict[str, Any]] | None:
        """Its brackets when it has more than one (a double elimination's winners' and losers' brackets
        and its final), each ``{"key", "label", "columns"}``; a column ``{"label", "tables"}``; a table as
        ``tournament_rounds`` gives it plus ``winner`` (an entrant id), or one not paired yet
        ``{"waiting": [seat rows, None for one still to be decided]}``. None: it has no such brackets."""
        return None

    def bye_points(self, league_bye: Fraction) -> Fraction:
        """What a bye scores, given the league's bye points: by default nothing (a rest)."""
        return Fraction(0)

    def bye_rule(self, points: str) -> str:
        """What a bye is and scores, in one sentence for the standings' legend (``points``: the bye's
        points as text)."""
        return str(REST_RULE)

    def fixtures(self, setup: Setup, field: int) -> list[Pairing]:
        """Every round, when they are fixed at the start (players ``0..field-1`` in seed order); empty
        when each round is drawn from the one before."""
        return []

    def stages(self, setup: Setup, results: Results, finished: bool) -> dict[int, int] | None:
        """Entrant id → how far they got (higher is further; the standings rank by it first), or None
        when the format has no stages."""
        return None

    def stage_label(self, stage: int, setup: Setup) -> str:
        """A stage in words ("Semi-final")."""
        return ""

    #: Seats players as tables free up, within a time window, rather than round by round: its one round
    #: stays open until ``closes_at``, and each recorded table has ``pair`` seat the players free then at
    #: new tables of that round. False: a round closes when its tables are played, then the next is drawn.
    continuous: ClassVar[bool] = False
    #: A seat's points depend on the wins in a row its player had before it (``streak_points``).
    streaks: ClassVar[bool] = False

    def closes_at(self, setup: Setup, opened: datetime) -> datetime | None:
        """When a continuous format stops seating players, given when it opened (None: never)."""
        minutes = setup.options.get("minutes")
        return opened + timedelta(minutes=int(minutes)) if minutes else None

    def streak_points(self, setup: Setup, wins_in_a_row: int, points: Fraction) -> Fraction:
        """A seat's points, given the wins in a row its player had just before it: by default as scored."""
        return points

    def points_rule(self, setup: Setup) -> str:
        """What the format does to the points a table gives, in one sentence for the standings' legend
        (empty: nothing)."""
        return ""

    def bracket(self, setup: Setup, rounds: Sequence[Mapping[str, Any]], higher_game_points: bool,
                round_date: Callable[[int], date | None]) -> list[dict[str, Any]] | None:
        """Its bracket, one column per round (None: it has none). ``rounds``: the rounds played so far
        as ``league.selectors.rounds.tournament_rounds`` gives them; ``round_date``: the date a round
        is planned for."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


_registered: dict[str, TournamentFormat] = {}


def _found(path: str) -> TournamentFormat:
    found = getattr(importlib.import_module(path), "FORMAT", None)
    if not isinstance(found, TournamentFormat):
        raise TypeError(f"{path} declares no FORMAT (a league.formats.base.TournamentFormat)")
    return found


@cache
def _loaded(paths: tuple[str, ...]) -> dict[str, TournamentFormat]:
    out: dict[str, TournamentFormat] = {}
    for path in BUILT_IN + paths:
        found = _found(path)
        out[found.name] = found
    return out


def formats() -> dict[str, TournamentFormat]:
    """Every format by name: the built-in ones, ``settings.TOURNAMENT_FORMATS``, then the registered."""
    return {**_loaded(tuple(getattr(settings, "TOURNAMENT_FORMATS", ()))), **_registered}


def get(name: str) -> TournamentFormat:
    """The format stored as ``name`` (``KeyError`` for an unknown one)."""
    known = formats()
    if name not in known:
        raise KeyError(f"unknown tournament format {name!r}; known: {', '.join(known)}")
    return known[name]


def register(format_: TournamentFormat) -> TournamentFormat:
    """Add a format that lives elsewhere (or replace one of the same name)."""
    _registered[format_.name] = format_
    return format_


def names() -> list[str]:
    """The formats' names, in the admin's order."""
    return list(formats())


def format_choices() -> list[tuple[str, str | Promise]]:
    """Every format, for ``Tournament.format``'s choices (a callable: the migrations name this function,
    not the list, so a new format needs no migration)."""
    return [(f.name, f.label) for f in formats().values()]
