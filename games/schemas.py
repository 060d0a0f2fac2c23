"""The API's shapes: errors, and every game's moves as a discriminated union (ENGINE.md "Moves per game").

These schemas describe the API exactly (OpenAPI) and refuse a wrong shape before the engine sees it;
the engine still validates every move itself (``engine.core.guard_move`` and each game's ``play``).
Models are strict (no coercion: ``"1"`` is not ``1``) and forbid unknown keys, as the engine does,
and their bounds are the engine's (short codes, small numbers, short lists).
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from ninja import Schema
from pydantic import ConfigDict, Field, StringConstraints, model_validator

Code = Annotated[str, StringConstraints(min_length=1, max_length=32)]
SeatNumber = Annotated[int, Field(ge=0, le=31)]
Coordinate = Annotated[int, Field(ge=-200, le=200)]
Position = Annotated[int, Field(ge=0, le=2**31 - 1)]
Entropy = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16,128}$")]
#: A username as Django's default validator allows it (letters, digits and @.+-_).
Username = Annotated[str, StringConstraints(min_length=1, max_length=150, pattern=r"^[\w.@+-]+$")]


class Body(Schema):
    """A request body: a JSON object with only the documented fields (not a list, not extras)."""
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, data):
        if data is None or isinstance(data, (list, tuple, str, int, float, bool)):
            raise ValueError("the body is a JSON object")
        if _holds_nul(data):
            raise ValueError("no text in the body may hold a NUL character")
        return data


def _holds_nul(data) -> bool:
    """Whether any key or string in a parsed JSON body holds U+0000, which no text column (nor
    PostgreSQL's ``jsonb``) can store: refused as a bad request, not left to fail in the database."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


class Move(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)


class Resign(Move):
    """Every game: the seat resigns (ENGINE.md "Resigning")."""
    type: Literal["resign"]


# -- LIVOL ------------------------------------------------------------------------------------
LivolColour = Literal["R", "Y", "G", "B"]


class LivolPlay(Move):
    type: Literal["play"]
    card: Code
    color: LivolColour | None = None
    call: bool | None = None


class LivolColor(Move):
    type: Literal["color"]
    color: LivolColour


class Catch(Move):
    type: Literal["catch"]
    target: SeatNumber


class Draw(Move):
    type: Literal["draw"]


class Call(Move):
    type: Literal["call"]


class Challenge(Move):
    type: Literal["challenge"]


class Accept(Move):
    type: Literal["accept"]


LivolMove = Annotated[Union[LivolPlay, Draw, LivolColor, Call, Catch, Challenge, Accept, Resign],
                      Field(discriminator="type")]

# -- UNO FLIP -------------------------------------------------------------------------------------
FlipColour = Literal["R", "Y", "G", "B", "P", "T", "O", "V"]


class FlipPlay(Move):
    type: Literal["play"]
    card: Code
    color: FlipColour | None = None
    call: bool | None = None


class FlipColor(Move):
    type: Literal["color"]
    color: FlipColour


class Pass(Move):
    type: Literal["pass"]


FlipMove = Annotated[Union[FlipPlay, Draw, Pass, FlipColor, Call, Catch, Challenge, Accept, Resign],
                     Field(discriminator="type")]

# -- Karuselis ------------------------------------------------------------------------------------
Group = Annotated[list[Code], Field(min_length=1, max_length=16)]


class Capture(Move):
    type: Literal["capture"]
    card: Code
    groups: Annotated[list[Group], Field(min_length=1, max_length=16)]


class Build(Move):
    type: Literal["build"]
    card: Code
    onto: Annotated[list[Code], Field(min_length=1, max_length=16)]
    value: Annotated[int, Field(ge=1, le=20)]


class Trail(Move):
    type: Literal["trail"]
    card: Code


class Sweep(Move):
    type: Literal["sweep"]
    card: Code


KaruselisMove = Annotated[Union[Capture, Build, Trail, Sweep, Resign], Field(discriminator="type")]

# -- IOTA -------------------------------------------------------------------------------------------


class Placement(Move):
    card: Code
    x: Coordinate
    y: Coordinate


class IotaPlay(Move):
    type: Literal["play"]
    cards: Annotated[list[Placement], Field(min_length=1, max_length=4)]


class IotaPass(Move):
    type: Literal["pass"]
    return_: Annotated[list[Code], Field(max_length=4, alias="return")] = []

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class Recycle(Move):
    type: Literal["recycle"]
    card: Code
    x: Coordinate
    y: Coordinate


IotaMove = Annotated[Union[IotaPlay, IotaPass, Recycle, Resign], Field(discriminator="type")]

# -- Cardavia -------------------------------------------------------------------------------------


class Keep(Move):
    type: Literal["keep"]


class Ask(Move):
    type: Literal["ask"]


CardaviaMove = Annotated[Union[Keep, Ask, Resign], Field(discriminator="type")]

#: A move of any game; which game's moves a match takes is the match's ``game``.
AnyMove = Union[LivolMove, FlipMove, KaruselisMove, IotaMove, CardaviaMove]


def move_json(move) -> dict:
    """The move as the client sent it (only the keys it gave), for the engine and the event store."""
    return move.model_dump(by_alias=True, exclude_unset=True)


class ErrorOut(Schema):
    """Every refusal: a stable ``code``, the rule it enforces (if any) and a message.
    Some refusals add details (``expected_seq`` and ``last_seq`` for a stale position)."""
    model_config = ConfigDict(extra="allow")

    code: str
    rule: str | None = None
    message: str


def errors(*statuses: int) -> dict:
    """The documented error responses of an operation (each with the ``ErrorOut`` body)."""
    return {status: ErrorOut for status in statuses}
