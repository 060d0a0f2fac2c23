"""What a game's kit builds on (``games.kits``): the new-match form's fieldset base (``GameOptionsForm``, with
the seats and an option's ``bounds`` from the engine), and the pieces of its API shapes (its ``moves`` and
``view``): codes, seat numbers, the strict move base, resigning, a view's common keys, a documented JSON
field. Here, below the edge, so that a kit imports nothing of ``games.web`` while ``games.web.schemas`` and
``games.web.forms`` gather every kit's shapes and forms.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from django import forms
from django.utils.translation import gettext_lazy as _
from ninja import Schema
from pydantic import ConfigDict, Field, StringConstraints, WithJsonSchema

from engine import registry
from games.kits import KitTable

Code = Annotated[str, StringConstraints(min_length=1, max_length=32)]
SeatNumber = Annotated[int, Field(ge=0, le=31)]
Coordinate = Annotated[int, Field(ge=-200, le=200)]
Position = Annotated[int, Field(ge=0, le=2**31 - 1)]

#: The key under which a field's JSON Schema names the component it is documented as (``games.web.openapi``
#: makes it a ``$ref``).
DOCUMENTED_AS = "x-documented-as"


def documented(name: str, *, many: bool = False) -> WithJsonSchema:
    """A field answered as the JSON it is, documented as the component ``name`` (a list of it: ``many``)."""
    item = {DOCUMENTED_AS: name}
    return WithJsonSchema({"type": "array", "items": item} if many else item)



class Move(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)


class Resign(Move):
    """Every game: the seat resigns (docs/engine-contract.md "Resigning")."""
    type: Literal["resign"]


class Outcome(Schema):
    """The end of a match (docs/engine-contract.md ``outcome``): places best first, tied seats sharing one, and the
    game's points per seat (Cardavia: lives left); ``awarded`` when an organiser decided it."""
    model_config = ConfigDict(extra="allow")
    ranking: list[list[int]]
    scores: list[int | float]
    awarded: bool | None = None



class View(Schema):
    """Every game's view (docs/engine-contract.md "Views"): the keys below, and each game's own (more may come)."""
    model_config = ConfigDict(extra="allow")
    to_act: list[int]
    hand: list[str]
    turn: int | None
    over: bool
    outcome: Outcome | None
    resigned: list[int]


# -- the new-match form's fieldset of one game ------------------------------------------------------

#: Seats a new match starts with, per game (its kit's ``default_seats``).
DEFAULT_SEATS = KitTable("default_seats")

def _seats_field(game: str) -> forms.IntegerField:
    g = registry.get(game)
    return forms.IntegerField(label=_("Seats (you and the others)"), min_value=g.MIN_SEATS, max_value=g.MAX_SEATS,
                              initial=DEFAULT_SEATS.get(game, g.MIN_SEATS),
                              help_text=_("%(low)d to %(high)d") % {"low": g.MIN_SEATS, "high": g.MAX_SEATS})


def bounds(game: str, option: str) -> dict[str, Any]:
    """An integer option's bounds, as the engine declares them (``core.int_between``)."""
    check = registry.options(game)[option][1]
    return {"min_value": check.low, "max_value": check.high}


class GameOptionsForm(forms.Form):
    """A game's seats and options; subclasses add the game's own fields and say how they
    become the engine's ``options``."""

    game = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", self.game)
        kwargs.setdefault("use_required_attribute", False)
        super().__init__(*args, **kwargs)
        self.fields = {"seats": _seats_field(self.game), **self.fields}

    def options(self) -> dict[str, Any]:
        return {}
