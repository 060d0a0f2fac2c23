"""The API's published schema, kept: a copy of ``/api/openapi.json`` (tests/fixtures/api/openapi.json, keys sorted)
and a checker that tells a breaking change from one a client written against the copy survives.

``tests/games/test_api_compatibility.py`` compares the live schema with the copy. Refresh the copy with::

    python -m tests.api_schema --write               # a change that breaks no client
    python -m tests.api_schema --write --breaking    # a breaking one, once docs/api.md's changelog has its entry

A breaking refresh is recorded in the copy (``x-breaking-changes``: the date and what broke), and the test then
wants a changelog entry of that date in docs/api.md that says it breaks. What counts as breaking is
docs/api.md's "Compatibility"; ``breaking`` checks the part of it a schema can show:

- a path or an operation removed, a success status no longer answered, a stream's event no longer sent;
- in a request (a parameter, the body): a new required field or parameter, a field no longer taken where no
  other is allowed, a type narrowed (a type, an enum value or a variant no longer taken, a bound tightened);
- in an answer: a field removed or no longer always there, a type widened (``null`` or another type where
  there was none).

Not breaking: a new path, operation, optional field or parameter, a new field in an answer, a new value of an
enum or a new variant of a union in an answer (clients ignore what they do not know, docs/api.md). Descriptions
and titles are not compared.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from pathlib import Path

import django

if __name__ == "__main__":  # a command: Django is set up first (under pytest, pytest-django has done it)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    django.setup()

from ninja.responses import NinjaJSONEncoder  # noqa: E402 - after Django is set up

from cardleague.api import api  # noqa: E402 - after Django is set up

COPY = Path(__file__).resolve().parent / "fixtures" / "api" / "openapi.json"
RECORD = "x-breaking-changes"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
REQUEST, ANSWER = "request", "answer"
#: A bound that a request may no longer meet when it moves this way ("max": lowered, "min": raised).
BOUNDS = {"maximum": "max", "exclusiveMaximum": "max", "maxLength": "max", "maxItems": "max",
          "minimum": "min", "exclusiveMinimum": "min", "minLength": "min", "minItems": "min"}


def published() -> dict:
    """The schema the server publishes at ``/api/openapi.json``, as JSON."""
    return json.loads(json.dumps(api.get_openapi_schema(), cls=NinjaJSONEncoder))


def normalized(schema: dict) -> str:
    return json.dumps(schema, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def read_copy() -> dict:
    return json.loads(COPY.read_text(encoding="utf-8"))


def without_record(schema: dict) -> dict:
    return {key: value for key, value in schema.items() if key != RECORD}


# -- the checker ------------------------------------------------------------------------------------------

def breaking(old: dict, new: dict) -> list[str]:
    """What a client written against ``old`` would find broken in ``new``: one sentence each."""
    return _Checker(old, new).run()


class _Checker:
    def __init__(self, old: dict, new: dict):
        self.old, self.new = old, new
        self.found: list[str] = []
        self.seen: set = set()

    def run(self) -> list[str]:
        new_paths = self.new.get("paths", {})
        for path, item in self.old.get("paths", {}).items():
            if path not in new_paths:
                self.found.append(f"{path}: the path was removed")
                continue
            for method in METHODS:
                if method not in item:
                    continue
                where = f"{method.upper()} {path}"
                if method not in new_paths[path]:
                    self.found.append(f"{where}: the operation was removed")
                    continue
                self._operation(where, item[method], new_paths[path][method])
        return list(dict.fromkeys(self.found))

    def _operation(self, where: str, old: dict, new: dict) -> None:
        olds = {(p.get("in"), p.get("name")): p for p in old.get("parameters", [])}
        for p in new.get("parameters", []):
            before = olds.get((p.get("in"), p.get("name")))
            label = f"{where}: {p.get('in')} parameter {p.get('name')!r}"
            if before is None:
                if p.get("required"):
                    self.found.append(f"{label} is new and required")
                continue
            if p.get("required") and not before.get("required"):
                self.found.append(f"{label} is now required")
            self._compare(label, before.get("schema", {}), p.get("schema", {}), REQUEST)
        old_body, new_body = _json_body(old.get("requestBody")), _json_body(new.get("requestBody"))
        if new_body is not None:
            if old_body is None:
                if new.get("requestBody", {}).get("required"):
                    self.found.append(f"{where}: a request body is now required")
            else:
                self._compare(f"{where}: request body", old_body, new_body, REQUEST)
        for status, answer in old.get("responses", {}).items():
            if not str(status).startswith("2"):
                continue
            now = new.get("responses", {}).get(status)
            if now is None:
                self.found.append(f"{where}: no longer answers {status}")
                continue
            before_schema, now_schema = _json_body(answer), _json_body(now)
            if before_schema is not None and now_schema is not None:
                self._compare(f"{where}: {status} answer", before_schema, now_schema, ANSWER)
            gone = set(answer.get("x-sse-events", {})) - set(now.get("x-sse-events", {}))
            for event in sorted(gone):
                self.found.append(f"{where}: the stream no longer sends event {event!r}")

    # -- one schema against the other --

    def _compare(self, where: str, old: dict, new: dict, direction: str) -> None:
        old, old_name = _resolve(self.old, old)
        new, new_name = _resolve(self.new, new)
        if old_name or new_name:
            key = (old_name, new_name, direction)
            if key in self.seen:  # each pair of components once (and recursive ones end)
                return
            self.seen.add(key)
            if old_name and old_name == new_name:
                where = f"{where} ({old_name})"
        self._types(where, old, new, direction)
        if direction == REQUEST:
            self._values(where, old, new)
            self._bounds(where, old, new)
        self._fields(where, old, new, direction)
        if "items" in old and "items" in new:
            self._compare(f"{where}[]", old["items"], new["items"], direction)
        self._variants(where, old, new, direction)

    def _types(self, where: str, old: dict, new: dict, direction: str) -> None:
        before, now = _types(self.old, old), _types(self.new, new)
        if direction == REQUEST:
            if before is None and now is not None:
                self.found.append(f"{where}: now takes only {_list(now)}")
            elif before is not None and now is not None and (lost := _beyond(before, now)):
                self.found.append(f"{where}: no longer takes {_list(lost)}")
        else:
            if now is None and before is not None:
                self.found.append(f"{where}: may now answer any type")
            elif before is not None and now is not None and (more := _beyond(now, before)):
                self.found.append(f"{where}: may now answer {_list(more)}")

    def _values(self, where: str, old: dict, new: dict) -> None:
        before, now = _values(self.old, old), _values(self.new, new)
        if now is None:
            return
        if before is None:
            if _types(self.new, new) != {"null"}:
                self.found.append(f"{where}: now takes only {_list(now)}")
        elif lost := before - now:
            self.found.append(f"{where}: no longer takes {_list(lost)}")

    def _bounds(self, where: str, old: dict, new: dict) -> None:
        for key, side in BOUNDS.items():
            if key not in new or not isinstance(new[key], (int, float)):
                continue
            before = old.get(key)
            if before is None or (new[key] < before if side == "max" else new[key] > before):
                self.found.append(f"{where}: {key} is now {new[key]} (was {before if before is not None else 'none'})")

    def _fields(self, where: str, old: dict, new: dict, direction: str) -> None:
        before, now = old.get("properties", {}), new.get("properties", {})
        needed_before, needed_now = set(old.get("required", [])), set(new.get("required", []))
        if direction == REQUEST:
            for name in sorted(needed_now - needed_before):
                self.found.append(f"{where}: field {name!r} is {'now' if name in before else 'new and'} required")
            if new.get("additionalProperties") is False:
                for name in sorted(set(before) - set(now)):
                    self.found.append(f"{where}: field {name!r} is no longer taken")
        else:
            for name in sorted(set(before) - set(now)):
                self.found.append(f"{where}: field {name!r} was removed")
            for name in sorted((needed_before - needed_now) & set(now)):
                self.found.append(f"{where}: field {name!r} may now be left out")
        for name in sorted(set(before) & set(now)):
            self._compare(f"{where}.{name}", before[name], now[name], direction)

    def _variants(self, where: str, old: dict, new: dict, direction: str) -> None:
        """The variants of a union, paired by the component they name (else by their types): in a request, a
        variant no longer taken breaks; in an answer, a new one does not (clients ignore what they do not know)."""
        before, now = _variants(old), _variants(new)
        if len(before) == 1 and len(now) == 1:
            return  # not a union on either side: compared above
        named_now = {_ref_name(v): v for v in now if _ref_name(v)}
        inline_now = [v for v in now if not _ref_name(v)]
        inline_before = [v for v in before if not _ref_name(v)]
        for variant in before:
            name = _ref_name(variant)
            if name:
                if name in named_now:
                    self._compare(where, variant, named_now[name], direction)
                elif direction == REQUEST:
                    self.found.append(f"{where}: the variant {name} is no longer taken")
                continue
            # an inline variant: the one in the same place, else the first of the same types
            place = inline_before.index(variant)
            kinds = _types(self.old, variant)
            match = (inline_now[place] if place < len(inline_now) and _types(self.new, inline_now[place]) == kinds
                     else next((v for v in inline_now if _types(self.new, v) == kinds), None))
            if match is not None:
                self._compare(where, variant, match, direction)


def _json_body(part: dict | None) -> dict | None:
    if not part:
        return None
    return part.get("content", {}).get("application/json", {}).get("schema")


def _ref_name(schema: dict) -> str | None:
    ref = schema.get("$ref", "")
    return ref.rsplit("/", 1)[1] if ref.startswith("#/components/schemas/") else None


def _resolve(document: dict, schema: dict) -> tuple[dict, str | None]:
    name = _ref_name(schema)
    if name is None:
        return schema, None
    return document.get("components", {}).get("schemas", {}).get(name, {}), name


def _variants(schema: dict) -> list[dict]:
    return list(schema.get("oneOf") or schema.get("anyOf") or [schema])


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


def _types(document: dict, schema: dict, depth: int = 0) -> frozenset[str] | None:
    """The JSON types a schema allows; None: any."""
    schema, _ = _resolve(document, schema)
    if depth > 20:
        return None
    if "type" in schema:
        kinds = schema["type"]
        return frozenset([kinds] if isinstance(kinds, str) else kinds)
    if "const" in schema:
        return frozenset([_json_type(schema["const"])])
    if "enum" in schema:
        return frozenset(_json_type(v) for v in schema["enum"])
    union = schema.get("oneOf") or schema.get("anyOf")
    if union:
        found: set[str] = set()
        for member in union:
            kinds = _types(document, member, depth + 1)
            if kinds is None:
                return None
            found |= kinds
        return frozenset(found)
    if "properties" in schema:
        return frozenset(["object"])
    return None


def _values(document: dict, schema: dict, depth: int = 0) -> frozenset | None:
    """The values a schema allows when they are listed (``enum``, ``const``, ``null``); None: not listed."""
    schema, _ = _resolve(document, schema)
    if depth > 20:
        return None
    if "const" in schema:
        return frozenset([json.dumps(schema["const"])])
    if "enum" in schema:
        return frozenset(json.dumps(v) for v in schema["enum"])
    if schema.get("type") == "null":
        return frozenset(["null"])
    union = schema.get("oneOf") or schema.get("anyOf")
    if union:
        found: set = set()
        for member in union:
            values = _values(document, member, depth + 1)
            if values is None:
                return None
            found |= values
        return frozenset(found)
    return None


def _beyond(kinds: frozenset[str], other: frozenset[str]) -> set[str]:
    """The types of ``kinds`` that ``other`` does not allow (a number allows an integer)."""
    return {k for k in kinds - other if not (k == "integer" and "number" in other)}


def _list(items) -> str:
    return ", ".join(sorted(str(i) for i in items))


# -- refreshing the copy -------------------------------------------------------------------------------------

def write(*, accept_breaking: bool, today: str | None = None) -> list[str]:
    """Write the live schema as the copy; returns what broke. Refuses (``SystemExit``) a breaking change unless
    ``accept_breaking``, and records an accepted one under ``today``'s date."""
    live = published()
    record = {}
    changes: list[str] = []
    if COPY.exists():
        copy = read_copy()
        record = dict(copy.get(RECORD, {}))
        changes = breaking(without_record(copy), live)
    if changes and not accept_breaking:
        raise SystemExit("The schema breaks clients written against the copy:\n  " + "\n  ".join(changes)
                         + "\nUndo that, or add a changelog entry to docs/api.md and run this with --breaking.")
    if changes:
        day = today or datetime.date.today().isoformat()
        record[day] = sorted(set(record.get(day, [])) | set(changes))
    COPY.parent.mkdir(parents=True, exist_ok=True)
    COPY.write_text(normalized({**live, RECORD: record}), encoding="utf-8")
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.api_schema", description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="refresh tests/fixtures/api/openapi.json")
    parser.add_argument("--breaking", action="store_true", help="accept (and record) a breaking change")
    args = parser.parse_args(argv)
    if not args.write:
        changes = breaking(without_record(read_copy()), published())
        print("\n".join(changes) or "No breaking change against the copy.")
        return 1 if changes else 0
    changes = write(accept_breaking=args.breaking)
    print(f"Wrote {COPY}" + ("; recorded as breaking:\n  " + "\n  ".join(changes) if changes else "."))
    return 0


if __name__ == "__main__":
    sys.exit(main())
