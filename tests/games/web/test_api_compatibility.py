"""The API keeps its word (docs/api.md, "Compatibility"): the published schema is the kept copy
(tests/fixtures/api/openapi.json), a change to it fails until the copy is refreshed, a breaking change is named
and needs a changelog entry, and the checker that tells a breaking change from another is itself checked."""
from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from tests.api_schema import RECORD, breaking, normalized, published, read_copy, without_record

API_DOC = Path(__file__).resolve().parents[3] / "docs" / "api.md"
REFRESH = "python -m tests.api_schema --write"


def test_the_published_schema_is_the_kept_copy():
    live, kept = published(), without_record(read_copy())
    if normalized(live) == normalized(kept):
        return
    broken = breaking(kept, live)
    assert not broken, ("The API's schema breaks clients written against the published one:\n  "
                        + "\n  ".join(broken) + "\nUndo that; or, if it must break, add a changelog entry to "
                        f"docs/api.md and run `{REFRESH} --breaking`.")
    pytest.fail(f"The API's schema changed (without breaking a client): refresh the copy with `{REFRESH}`.")


def changelog() -> dict[str, str]:
    """docs/api.md's changelog: each entry's text by its heading's date."""
    text = API_DOC.read_text(encoding="utf-8")
    section = text.split("\n## Changelog\n", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### (\d{4}-\d{2}-\d{2})\b.*$", section, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def test_every_breaking_change_the_copy_records_has_its_changelog_entry():
    entries = changelog()
    assert entries, "docs/api.md has a changelog, one ### YYYY-MM-DD heading per entry"
    for day, changes in read_copy().get(RECORD, {}).items():
        assert day in entries, f"a breaking change of {day} has no changelog entry: {changes}"
        assert "breaking" in entries[day].lower(), f"the changelog entry of {day} does not say it breaks"


# -- the checker ----------------------------------------------------------------------------------------------

def _object(properties: dict, required=(), closed=True) -> dict:
    shape = {"type": "object", "properties": properties, "required": list(required)}
    if closed:
        shape["additionalProperties"] = False
    return shape


THING = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}


def _body(s) -> dict:
    return s["paths"]["/things/{id}"]["post"]["requestBody"]["content"]["application/json"]["schema"]


BASE = {
    "paths": {
        "/things/{id}": {
            "get": {
                "parameters": [{"in": "path", "name": "id", "required": True, "schema": {"type": "integer"}},
                               {"in": "query", "name": "seat", "required": False,
                                "schema": {"anyOf": [{"type": "integer", "maximum": 31}, {"type": "null"}]}}],
                "responses": {"200": THING,
                              "404": {"content": {"application/json": {"schema": {"type": "object"}}}}},
            },
            "post": {
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "oneOf": [{"$ref": "#/components/schemas/RedIn"}, {"$ref": "#/components/schemas/BlueIn"}]}}}},
                "responses": {"200": THING},
            },
        },
        "/stream": {"get": {"responses": {"200": {"content": {"text/event-stream": {"schema": {"type": "string"}}},
                                                  "x-sse-events": {"hello": {}, "end": {}}}}}},
    },
    "components": {"schemas": {
        "Thing": _object({"id": {"type": "integer"}, "name": {"type": "string"},
                          "status": {"type": "string", "enum": ["open", "closed"]},
                          "parent": {"anyOf": [{"$ref": "#/components/schemas/Thing"}, {"type": "null"}]}},
                         required=["id", "name", "status"], closed=False),
        "RedIn": _object({"colour": {"const": "red", "type": "string"},
                          "kind": {"type": "string", "enum": ["a", "b"]},
                          "size": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                          "count": {"type": "integer", "minimum": 0, "maximum": 10},
                          "note": {"type": "string", "maxLength": 200}},
                         required=["colour", "kind"]),
        "BlueIn": _object({"colour": {"const": "blue", "type": "string"}, "note": {"type": "string"}},
                          required=["colour"]),
    }},
}


def changed(edit) -> dict:
    schema = copy.deepcopy(BASE)
    edit(schema)
    return schema


def _thing(s):
    return s["components"]["schemas"]["Thing"]


def _red(s):
    return s["components"]["schemas"]["RedIn"]


def test_the_same_schema_breaks_nothing():
    assert breaking(BASE, copy.deepcopy(BASE)) == []


@pytest.mark.parametrize("edit,expected", [
    (lambda s: s["paths"].pop("/stream"), "/stream: the path was removed"),
    (lambda s: s["paths"]["/things/{id}"].pop("post"), "POST /things/{id}: the operation was removed"),
    (lambda s: _thing(s)["properties"].pop("name"), "field 'name' was removed"),
    (lambda s: _thing(s)["required"].remove("name"), "field 'name' may now be left out"),
    (lambda s: _thing(s)["properties"].update(name={"anyOf": [{"type": "string"}, {"type": "null"}]}),
     ".name: may now answer null"),
    (lambda s: _red(s)["properties"].update(size={"type": "integer"}) or None, ".size: no longer takes string"),
    (lambda s: _red(s)["properties"].update(shade={"type": "string"}) or _red(s)["required"].append("shade"),
     "field 'shade' is new and required"),
    (lambda s: _red(s)["required"].append("note"), "field 'note' is now required"),
    (lambda s: _red(s)["properties"]["kind"].update(enum=["a"]), ".kind: no longer takes \"b\""),
    (lambda s: _red(s)["properties"]["note"].update(enum=["x"]), ".note: now takes only \"x\""),
    (lambda s: _red(s)["properties"]["count"].update(maximum=5), ".count: maximum is now 5 (was 10)"),
    (lambda s: _red(s)["properties"]["note"].update(maxLength=100), ".note: maxLength is now 100 (was 200)"),
    (lambda s: _red(s)["properties"].pop("note"), "field 'note' is no longer taken"),
    (lambda s: _body(s)["oneOf"].pop(), "the variant BlueIn is no longer taken"),
    (lambda s: s["paths"]["/things/{id}"]["get"]["parameters"].append(
        {"in": "query", "name": "page", "required": True, "schema": {"type": "integer"}}),
     "query parameter 'page' is new and required"),
    (lambda s: s["paths"]["/things/{id}"]["get"]["parameters"][1]["schema"]["anyOf"][0].update(maximum=9),
     "query parameter 'seat': maximum is now 9 (was 31)"),
    (lambda s: s["paths"]["/things/{id}"]["get"]["responses"].pop("200"), "GET /things/{id}: no longer answers 200"),
    (lambda s: s["paths"]["/stream"]["get"]["responses"]["200"]["x-sse-events"].pop("end"),
     "the stream no longer sends event 'end'"),
])
def test_a_breaking_change_is_named(edit, expected):
    found = breaking(BASE, changed(edit))
    assert any(expected in line for line in found), found


@pytest.mark.parametrize("edit", [
    lambda s: s["paths"].update({"/more": {"get": {"responses": {}}}}),
    lambda s: s["paths"]["/stream"].update(post={"responses": {}}),
    lambda s: _red(s)["properties"].update(shade={"type": "string"}),
    lambda s: _thing(s)["properties"].update(extra={"type": "string"}),
    lambda s: _thing(s)["properties"]["status"].update(enum=["open", "closed", "archived"]),
    lambda s: _red(s)["properties"]["kind"].update(enum=["a", "b", "c"]),
    lambda s: _red(s)["properties"]["count"].update(type="number", maximum=20),
    lambda s: _red(s)["properties"]["count"].pop("minimum"),
    lambda s: _red(s)["required"].remove("kind"),
    lambda s: _body(s)["oneOf"].append({"$ref": "#/components/schemas/GreenIn"}),
    lambda s: s["paths"]["/things/{id}"]["get"]["parameters"].append(
        {"in": "query", "name": "page", "required": False, "schema": {"type": "integer"}}),
    lambda s: s["paths"]["/stream"]["get"]["responses"]["200"]["x-sse-events"].update(news={}),
    lambda s: _thing(s).update(description="A thing, described better."),
])
def test_a_change_no_client_notices_is_not_breaking(edit):
    assert breaking(BASE, changed(edit)) == []


def test_a_schema_that_refers_to_itself_is_checked_to_its_end():
    found = breaking(BASE, changed(lambda s: _thing(s)["properties"].pop("id")))
    assert found == ["GET /things/{id}: 200 answer (Thing): field 'id' was removed"]


def test_a_refresh_refuses_a_breaking_change_unless_told_and_then_records_it(tmp_path, monkeypatch):
    from tests import api_schema

    monkeypatch.setattr(api_schema, "COPY", tmp_path / "openapi.json")
    monkeypatch.setattr(api_schema, "published", lambda: BASE)
    assert api_schema.write(accept_breaking=False) == []
    # when the schema loses a path
    narrower = changed(lambda s: s["paths"].pop("/stream"))
    monkeypatch.setattr(api_schema, "published", lambda: narrower)
    # then a refresh refuses it, and the copy stays
    with pytest.raises(SystemExit, match="/stream: the path was removed"):
        api_schema.write(accept_breaking=False)
    assert read_copy() == {**BASE, RECORD: {}}
    # unless it is told to accept it: then the copy records it, with its date
    assert api_schema.write(accept_breaking=True, today="2027-01-02") == ["/stream: the path was removed"]
    assert without_record(read_copy()) == narrower
    assert read_copy()[RECORD] == {"2027-01-02": ["/stream: the path was removed"]}
