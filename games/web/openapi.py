"""What the API's schema says beyond django-ninja's operations: the three live
streams (Server-Sent Events, served by ``games.web.streams`` outside ninja) with every event they send and its
payload, and the enum of every error code (``games.error_codes``)."""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine import registry
from engine.verify import record_schema
from games import error_codes
from games.web.schemas import DOCUMENTED, DOCUMENTED_AS, EVENT_COMPONENTS, GameName, title


class StreamHello(BaseModel):
    """``event: hello``: the stream is open (wait for it before expecting news). A match stream says its
    ``match``, its ``game`` (the schema of its events: ``<Game>Event``), ``seat`` and the position it starts
    ``after``; the account stream its ``user`` and how many
    items wait (sent next); a tournament stream its ``tournament``."""
    model_config = ConfigDict(extra="allow")
    match: int | None = None
    game: GameName | None = None
    seat: int | None = None
    after: int | None = None
    user: str | None = None
    waiting: int | None = None
    tournament: int | None = None


class StreamEnd(BaseModel):
    """``event: end``: nothing more will come. A match stream ends when the match has ended and every
    event was sent (``seq``: the last); any stream ends with ``reason: access_revoked`` when its token
    was revoked or its account deactivated."""
    match: int | None = None
    user: str | None = None
    seq: int | None = None
    reason: Literal["access_revoked"] | None = None


class StreamReconnect(BaseModel):
    """``event: reconnect``: the stream reached its maximum lifetime; connect again with ``Last-Event-ID``
    (a match stream) and nothing is missed."""
    after_seconds: int


class AccountNews(BaseModel):
    """An account stream's news; the SSE event name is its ``kind``:

    - ``invited`` (a challenge received: ``by``, ``seat``), ``seated`` (a tournament gave you a seat);
    - ``challenge_declined`` (to the challenger: ``by_seat``, ``message``), ``challenge_withdrawn`` (to the
      invited);
    - ``match_started``, ``your_turn`` (``deadline`` under a clock), ``reminder`` (an organiser's nudge);
    - ``match_finished`` (``status``: finished or aborted, ``reason`` of an abort, ``ranking``);
    - ``round_started`` (``tournament``, ``round``, and your ``match`` when you play in it);
    - ``entry_changed`` (``tournament``, your ``status`` there: ``entered`` when approved or moved up from
      the waiting list, ``waiting``, ``refused`` or ``withdrawn`` at check-in's close, with its ``reason``).
    What waits for the account is sent first on every connection."""
    model_config = ConfigDict(extra="allow")
    kind: Literal["invited", "seated", "challenge_declined", "challenge_withdrawn", "match_started", "your_turn",
                  "reminder", "match_finished", "round_started", "entry_changed"]
    match: int | None = None
    game: GameName | None = None
    seat: int | None = None


class TournamentChanged(BaseModel):
    """``event: changed``: the tournament's standings or rounds changed; read them again."""
    tournament: int


NEWS_KINDS = AccountNews.model_fields["kind"].annotation.__args__
_SSE_MODELS = (StreamHello, StreamEnd, StreamReconnect, AccountNews, TournamentChanged)

_ERROR = {"$ref": "#/components/schemas/ErrorOut"}


def _responses(events: dict[str, str], statuses: tuple[int, ...]) -> dict:
    lines = "\n".join(f"- `event: {name}`: {what}" for name, what in events.items())
    ok = {"description": "A stream of Server-Sent Events (``text/event-stream``), a heartbeat comment every "
                         "few seconds:\n\n" + lines,
          "content": {"text/event-stream": {"schema": {"type": "string"}}},
          "x-sse-events": {name: _event_schema(ref) for name, ref in ((n, _ref_of(w)) for n, w in events.items())
                           if ref}}
    return {"200": ok, **{str(s): {"description": "Error", "content": {"application/json": {"schema": _ERROR}}}
                          for s in statuses}}


def _event_schema(ref: str) -> dict:
    """A stream event's schema: a component, or (``GameEvent``) the event of the match's game."""
    if ref == "GameEvent":
        return {"oneOf": [{"$ref": f"#/components/schemas/{title(game)}Event"} for game in registry.names()],
                "description": "an event of the match's game (``LivolEvent``, ``IotaEvent``, …)"}
    return {"$ref": f"#/components/schemas/{ref}"}


def _ref_of(what: str) -> str | None:
    """The schema an event's words name in backticks: ``(`StreamHello`)``."""
    found = re.search(r"\(`([A-Za-z]+)`", what)
    return found.group(1) if found else None


STREAMS = {
    "/api/matches/{match_id}/stream": {
        "operation_id": "match_stream",
        "summary": "A seat's events, live",
        "description": "The events of a seat you hold (``seat``; omitted: your first) or a spectator's, as "
                       "``GET /api/matches/{id}/events`` gives them, each with its ``seq`` as the SSE id. Resume "
                       "with ``Last-Event-ID`` (or ``?after=``).",
        "parameters": [
            {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}},
            {"name": "seat", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 0, "maximum": 31}},
            {"name": "after", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0}},
            {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "integer"}}],
        "events": {"hello": "the stream is open (`StreamHello`)",
                   "match_event": "one event of the match's game as your seat may know it (`GameEvent`: `LivolEvent`, "
                                  "`IotaEvent`, …), `id:` its seq",
                   "end": "the match has ended and every event was sent (`StreamEnd`)",
                   "reconnect": "the stream's lifetime is over: connect again with Last-Event-ID (`StreamReconnect`)"},
        "statuses": (400, 401, 403, 404, 429, 503),
    },
    "/api/stream": {
        "operation_id": "account_stream",
        "summary": "Your account's news, live",
        "description": "Challenges received, declined and withdrawn, seats given, matches started and "
                       "finished, your turns, reminders and tournament rounds; what waits for you is sent "
                       "first on every connection. The SSE event name is the news' ``kind``.",
        "parameters": [],
        "events": {"hello": "the stream is open (`StreamHello`)",
                   **{kind: "news of this kind (`AccountNews`)" for kind in NEWS_KINDS},
                   "end": "access was revoked (`StreamEnd`)",
                   "reconnect": "the stream's lifetime is over: connect again (`StreamReconnect`)"},
        "statuses": (401, 429, 503),
    },
    "/api/tournaments/{tournament_id}/stream": {
        "operation_id": "tournament_stream",
        "summary": "A tournament's changes, live (public)",
        "description": "A notice whenever the tournament's standings or rounds change: read them again.",
        "parameters": [{"name": "tournament_id", "in": "path", "required": True,
                        "schema": {"type": "integer", "minimum": 1}}],
        "events": {"hello": "the stream is open (`StreamHello`)",
                   "changed": "the standings or rounds changed (`TournamentChanged`)",
                   "reconnect": "the stream's lifetime is over: connect again (`StreamReconnect`)"},
        "statuses": (404, 429, 503),
    },
}


def _record_schema() -> dict:
    """``engine/match-record.schema.json`` (the offline verifier's own), as an OpenAPI component."""
    found = record_schema()
    record = _nullable_as_any_of({k: v for k, v in found.items() if k not in ("$schema", "$id")})
    # the result is the API's Outcome (a named component: generators skip an unnamed object in a union)
    record["properties"]["result"] = {"anyOf": [{"$ref": "#/components/schemas/Outcome"}, {"type": "null"}]}
    record["properties"]["clock"] = {"anyOf": [{"$ref": "#/components/schemas/ClockSchema"}, {"type": "null"}]}
    return record


def _nullable_as_any_of(node):
    """``{"type": ["object", "null"], …}`` as ``{"anyOf": [{"type": "object", …}, {"type": "null"}]}``: the same
    JSON Schema, in the form client generators read (openapi-python-client drops an object-or-null type list)."""
    if isinstance(node, list):
        return [_nullable_as_any_of(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {k: _nullable_as_any_of(v) for k, v in node.items()}
    kinds = node.get("type")
    if isinstance(kinds, list) and "null" in kinds and len(kinds) == 2:
        other = next(k for k in kinds if k != "null")
        keep = {k: v for k, v in node.items() if k not in ("type", "description", "default")}
        node = {**({"description": node["description"]} if "description" in node else {}),
                "anyOf": [{"type": other, **keep}, {"type": "null"}]}
    return node


def _refer(node) -> None:
    """Each field documented as a schema it is not built from (``games.web.schemas._schema_only``) becomes a
    ``$ref`` to that schema's component."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if DOCUMENTED_AS in item:
                name = item.pop(DOCUMENTED_AS)
                item["$ref"] = f"#/components/schemas/{name}"
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def extend(schema: dict) -> dict:
    """Add the streams and the error codes' enum to ninja's schema (in place; returned)."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for model in (*_SSE_MODELS, *DOCUMENTED.values()):
        found = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in found.pop("$defs", {}).items():
            components.setdefault(name, sub)
        components[model.__name__] = found
    components.update(EVENT_COMPONENTS)
    components["MatchRecord"] = _record_schema()
    _refer(schema)
    if "ErrorOut" in components:
        code = components["ErrorOut"].setdefault("properties", {}).setdefault("code", {"type": "string"})
        code["enum"] = error_codes.codes()
    paths = schema.setdefault("paths", {})
    for path, spec in STREAMS.items():
        tags = ["streams"]
        operation = {"operationId": spec["operation_id"],
                     "summary": spec["summary"], "description": spec["description"], "tags": tags,
                     "parameters": spec["parameters"], "responses": _responses(spec["events"], spec["statuses"])}
        if path != "/api/tournaments/{tournament_id}/stream":
            operation["security"] = [{"TokenAuth": []}, {"SessionAuth": []}]
        paths[path] = {"get": operation}
    return schema
