"""The API's shapes: errors, and every game's moves as a discriminated union (docs/engine-contract.md "Moves per game").

These schemas describe the API exactly (OpenAPI) and refuse a wrong shape before the engine sees it;
the engine still validates every move itself (``engine.core.guard_move`` and each game's ``play``).
Models are strict (no coercion: ``"1"`` is not ``1``) and forbid unknown keys, as the engine does,
and their bounds are the engine's (short codes, small numbers, short lists).
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from ninja import Schema
from ninja.errors import ValidationError
from pydantic import (
    ConfigDict,
    Discriminator,
    Field,
    SkipValidation,
    StringConstraints,
    Tag,
    TypeAdapter,
    WithJsonSchema,
    create_model,
    model_validator,
)
from pydantic import ValidationError as ShapeError

from engine import protocol, registry
from engine.core import CONTRIBUTION_PATTERN
from engine.record import STORE_EVENT_KEYS
from games.kits import kit, with_kits
from games.kits.base import (  # noqa: F401 (the API's shapes are named from here)
    DOCUMENTED_AS,
    Code,
    Coordinate,
    Move,
    Outcome,
    Position,
    Resign,
    SeatNumber,
    View,
    documented,
)

Entropy = Annotated[str, StringConstraints(pattern=CONTRIBUTION_PATTERN)]
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


#: Each game's moves, discriminated by ``type`` within the game (``type`` values repeat across games:
#: ``play``, ``pass``, ``color``): the game's kit declares them (``games.kits``).
GAME_MOVES = {game: kit(game).moves for game in with_kits()}


def title(game: str) -> str:
    """A game's name as a schema names it: ``uno_flip`` → ``UnoFlip``."""
    return "".join(part.title() for part in game.split("_"))


def _game_models(suffix: str, base: type, field: str, types: dict, default=...) -> dict[str, type]:
    """One model per game (``LivolMoveIn``, ``IotaMoveIn``, …): ``base``'s fields, ``game`` (the game's
    name) and ``field`` of that game's type (``default``: a factory when it may be left out)."""
    return {game: create_model(title(game) + suffix, __base__=base, __doc__=f"{suffix} of a {game} match.",
                               game=(Literal[game], ...),
                               **{field: (kind, ... if default is ... else Field(default_factory=default(game)))})
            for game, kind in types.items()}


def _per_game(suffix: str, base: type, field: str, types: dict, default=...):
    """The union of the per-game models (``_game_models``), discriminated by ``game``."""
    models = _game_models(suffix, base, field, types, default)
    return Annotated[Union[tuple(models.values())], Field(discriminator="game")]


def _options_model(game: str) -> type:
    """A game's options as its ``OPTIONS`` declares them (docs/engine-contract.md: "the API its schema from it"): a list
    of choices, or a whole number between bounds (``engine.core.int_between``); unknown options refused."""
    fields = {}
    for option, (default, check) in registry.options(game).items():
        if isinstance(check, tuple):
            kind = Literal[check]
        elif hasattr(check, "low"):
            kind = Annotated[int, Field(ge=check.low, le=check.high)]
            if check.none:
                kind = Union[kind, None]
        else:
            raise TypeError(f"{game}'s option {option!r} declares no choices or bounds the API can state")
        fields[option] = (kind, default)
    return create_model(f"{title(game)}Options", __config__=ConfigDict(extra="forbid", strict=True),
                        __doc__=f"The options of a {game} match (each left out: its default).", **fields)


#: Each game's options (the challenge's request validates them; answers are documented by them).
GAME_OPTIONS = {game: _options_model(game) for game in registry.names()}
GameName = Literal[tuple(registry.names())]


class _MoveInBase(Body):
    seat: SeatNumber | None = None
    expected_seq: Position | None = None


class MoveWithoutGame(_MoveInBase):
    """A move request that names no game (as clients written before ``game`` existed send it): ``move`` is
    read as a move of the match's game, and refused (``malformed_move``) if it is not one."""
    move: SkipValidation[Union[tuple(GAME_MOVES.values())]]


#: The tag of a move request without ``game`` (it shows in the location of an error in its body).
WITHOUT_GAME = "without_game"


def _named_game(body):
    """Which model reads a move request: its ``game``'s, or ``MoveWithoutGame`` when it names none (a ``game``
    that is not a game's name is refused as such)."""
    if not isinstance(body, dict) or "game" not in body:
        return WITHOUT_GAME  # (not an object: refused by the model, ``Body``)
    game = body["game"]
    return game if isinstance(game, str) and game != WITHOUT_GAME else None


#: A move request (a union a generated client can tell apart): ``game`` names the match's game and picks the
#: move schemas; within a game ``type`` picks the move. No two move schemas of one game share their ``type``,
#: so a client never parses one game's move as another's and drops a key. A request without ``game`` is still
#: taken: its move is read as the match's game's once the match is known (``move_of``).
MoveIn = Annotated[Union[tuple(Annotated[model, Tag(game)]
                               for game, model in _game_models("MoveIn", _MoveInBase, "move", GAME_MOVES).items())
                         + (Annotated[MoveWithoutGame, Tag(WITHOUT_GAME)],)],
                   Discriminator(_named_game)]

_MOVE_READERS = {game: TypeAdapter(kind) for game, kind in GAME_MOVES.items()}


def move_json(move) -> dict:
    """The move as the client sent it (only the keys it gave), for the engine and the event store."""
    return move.model_dump(by_alias=True, exclude_unset=True)


def move_of(payload, game: str) -> dict:
    """The move of a move request, as ``move_json`` gives it, for a match of ``game``: a request that named its
    game was read by its game's schema already; one without ``game`` is read now, a move of another shape
    refused as the API refuses any body of the wrong shape (``malformed_move``, ``errors`` saying where)."""
    if not isinstance(payload, MoveWithoutGame):
        return move_json(payload.move)
    try:
        return move_json(_MOVE_READERS[game].validate_python(payload.move))
    except ShapeError as exc:
        raise ValidationError([{**e, "loc": ("body", "payload", WITHOUT_GAME, "move", *e["loc"])}
                               for e in exc.errors(include_url=False)]) from None


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


class _LegalOutBase(Schema):
    seat: int
    seq: int


#: A seat's legal moves, typed as the moves of the match's game (``game`` tells which): each one can be
#: posted back as it is, in ``{"game": …, "move": …}``.
LegalOut = _per_game("LegalOut", _LegalOutBase, "moves", {game: list[kind] for game, kind in GAME_MOVES.items()})


# -- Typed answers -------------------------------------------------------------------------
MatchStatus = Literal["waiting", "running", "finished", "aborted", "cancelled"]
SeatStatus = Literal["invited", "seated", "joined", "declined"]
TimeoutRule = Literal["bot", "forfeit"]


class ClockSchema(Schema):
    """A live clock (``move_seconds``, optional ``bank_seconds`` and ``join_seconds``) or a correspondence
    one (``move_days``, optional ``join_days``)."""
    model_config = ConfigDict(extra="forbid")
    move_seconds: Annotated[int, Field(ge=5, le=86_400)] | None = None
    bank_seconds: Annotated[int, Field(ge=0, le=86_400)] | None = None
    join_seconds: Annotated[int, Field(ge=10, le=604_800)] | None = None
    move_days: Annotated[int, Field(ge=1, le=60)] | None = None
    join_days: Annotated[int, Field(ge=1, le=60)] | None = None


#: Schemas documented by reference but not used to build the answer (``_schema_only``): added to the
#: OpenAPI components by ``games.web.openapi``.
DOCUMENTED: dict[str, type] = {}


def _schema_only(model) -> WithJsonSchema:
    """A field answered as the JSON it is (the engine's own: no key added, dropped or changed on the way
    out), documented as ``model`` (a ``$ref`` to its component). Tests hold every such answer to its schema."""
    DOCUMENTED[model.__name__] = model
    return WithJsonSchema({DOCUMENTED_AS: model.__name__})  # games.web.openapi makes it a $ref


#: A match's portable record, as ``engine/match-record.schema.json`` declares it (``games.web.openapi`` adds that
#: file as the component ``MatchRecord``).
Record = Annotated[dict, WithJsonSchema({DOCUMENTED_AS: "MatchRecord"})]
#: A clock as the server stores and answers it (only the keys it has).
Clock = Annotated[dict, _schema_only(ClockSchema)]
#: A result as the server stores and answers it.
Result = Annotated[dict, _schema_only(Outcome)]


class _ViewOutBase(Schema):
    seat: int | None = None
    seq: int
    status: MatchStatus


#: A seat's (or a spectator's) view, typed per game (``game`` tells which).
GAME_VIEWS = {game: kit(game).view for game in with_kits()}
#: Answered as the engine builds it (no key added, dropped or changed), documented per game.
ViewOut = _per_game("ViewOut", _ViewOutBase, "view",
                    {game: Annotated[dict, _schema_only(view)] for game, view in GAME_VIEWS.items()})


# -- Event payloads, per game and event type, from the engine's declarations ----------------
#: JSON Schema components written as such (``games.web.openapi`` adds them): each game's events.
EVENT_COMPONENTS: dict[str, dict] = {}
_PLACEMENT = {"type": "object", "additionalProperties": False, "required": ["card", "x", "y"],
              "properties": {"card": {"type": "string"}, "x": {"type": "integer"}, "y": {"type": "integer"}}}
_PLAYER = {"type": "object", "additionalProperties": False, "required": ["seat", "name", "kind", "bot"],
           "properties": {"seat": {"type": "integer"}, "name": {"type": "string"},
                          "kind": {"type": "string", "enum": ["person", "bot"]},
                          "bot": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}
_SIMPLE = {"int": {"type": "integer"}, "str": {"type": "string"}, "bool": {"type": "boolean"}, "null": {"type": "null"},
           "placement": _PLACEMENT, "player": _PLAYER}


def _kind_schema(kind: str, game: str) -> dict:
    """The JSON Schema of one declared key type (``engine.protocol``'s vocabulary)."""
    choices = protocol.split(kind)
    if len(choices) > 1:
        return {"anyOf": [_kind_schema(choice, game) for choice in choices]}
    if kind in _SIMPLE:
        return dict(_SIMPLE[kind])
    if kind == "options":
        return {"$ref": f"#/components/schemas/{title(game)}Options"}
    if kind == "clock":
        return {"$ref": "#/components/schemas/ClockSchema"}
    if kind.startswith("[") and kind.endswith("]"):
        return {"type": "array", "items": _kind_schema(kind[1:-1], game)}
    raise ValueError(f"not a declared event type: {kind!r}")


def _event_components(game: str) -> None:
    """``<Game><EventType>`` for each payload (the game's ``EVENTS`` and the store's), their union
    ``<Game>EventPayload`` discriminated by ``type``, and ``<Game>Event``: one event as a feed gives it."""
    declared = {**registry.module(game).EVENTS, **STORE_EVENT_KEYS}
    mapping = {}
    for kind, keys in sorted(declared.items()):
        name = title(game) + title(kind)
        assert name not in EVENT_COMPONENTS, name
        properties = {"type": {"type": "string", "const": kind}}
        properties.update({key.rstrip("?"): _kind_schema(of, game) for key, of in keys.items()})
        EVENT_COMPONENTS[name] = {
            "title": name, "type": "object", "additionalProperties": False, "properties": properties,
            "required": ["type", *(key for key in keys if not key.endswith("?"))],
            "description": f"``{kind}`` in a {game} match (a key that may be absent is one the rules hide from "
                           f"your seat while the match runs, or one only some of these events have)."}
        mapping[kind] = f"#/components/schemas/{name}"
    EVENT_COMPONENTS[f"{title(game)}EventPayload"] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping}}
    EVENT_COMPONENTS[f"{title(game)}Event"] = {
        "title": f"{title(game)}Event", "type": "object", "description": f"An event of a {game} match, as your "
        "seat may know it (``payload``: the event itself, with what the rules hide from you left out).",
        "properties": {"seq": {"type": "integer"}, "type": {"type": "string", "enum": sorted(declared)},
                       "seat": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                       "payload": {"$ref": f"#/components/schemas/{title(game)}EventPayload"},
                       "created_at": {"type": "string"}},
        "required": ["seq", "type", "payload", "created_at"]}


for _game in registry.names():
    _event_components(_game)
