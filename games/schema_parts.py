"""The pieces a game's API shapes are built from (its kit's ``moves`` and ``view``, ``games.kits``): codes,
seat numbers, the strict move base, resigning, a view's common keys, a documented JSON field. Apart from
``games.schemas`` so that a kit can import them while ``games.schemas`` gathers every kit's shapes.
"""
from __future__ import annotations

from typing import Annotated, Literal

from ninja import Schema
from pydantic import ConfigDict, Field, StringConstraints, WithJsonSchema

Code = Annotated[str, StringConstraints(min_length=1, max_length=32)]
SeatNumber = Annotated[int, Field(ge=0, le=31)]
Coordinate = Annotated[int, Field(ge=-200, le=200)]
Position = Annotated[int, Field(ge=0, le=2**31 - 1)]

#: The key under which a field's JSON Schema names the component it is documented as (``games.openapi``
#: makes it a ``$ref``).
DOCUMENTED_AS = "x-documented-as"


def documented(name: str, *, many: bool = False) -> WithJsonSchema:
    """A field answered as the JSON it is, documented as the component ``name`` (a list of it: ``many``)."""
    item = {DOCUMENTED_AS: name}
    return WithJsonSchema({"type": "array", "items": item} if many else item)



class Move(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)


class Resign(Move):
    """Every game: the seat resigns (ENGINE.md "Resigning")."""
    type: Literal["resign"]


class Outcome(Schema):
    """The end of a match (ENGINE.md ``outcome``): places best first, tied seats sharing one, and the
    game's points per seat (Cardavia: lives left); ``awarded`` when an organiser decided it."""
    model_config = ConfigDict(extra="allow")
    ranking: list[list[int]]
    scores: list[int | float]
    awarded: bool | None = None



class View(Schema):
    """Every game's view (ENGINE.md "Views"): the keys below, and each game's own (more may come)."""
    model_config = ConfigDict(extra="allow")
    to_act: list[int]
    hand: list[str]
    turn: int | None
    over: bool
    outcome: Outcome | None
    resigned: list[int]


