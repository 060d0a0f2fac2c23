"""Every error code the server sends, in one table: the API's schema lists them as the
enum of ``ErrorOut.code``, the table in docs/api.md is this table (``manage.py error_codes`` prints it, and a
test holds the two equal), and a test finds every code written anywhere in the code here.

Three sources: the domain errors (each ``DomainError`` subclass: its code, status and message), the edge's
own answers (a body of the wrong shape, a missing route, streams' caps), and the engine's refusals of a
move (``IllegalMove`` codes, with the player's sentence: ``games.words.SHARED_REFUSALS`` and each game's
words' ``REFUSALS``).
"""
from __future__ import annotations

import importlib

from django.utils import translation

from games.errors import ILLEGAL_MOVE_STATUS, DomainError
from games.words import refusals

#: The modules that define domain errors (imported so that every subclass is known).
ERROR_MODULES = ("games.errors", "games.services.limits", "league.services.errors", "league.services.people",
                 "league.services.challenge_rules")
#: Base classes, never raised themselves.
ABSTRACT = {"domain_error", "match_error", "league_error"}

#: The edge's own answers: code → (status, meaning).
EDGE_CODES = {
    "malformed_request": (400, ("The request's shape is wrong: not JSON, a wrong type, a missing or unknown "
                                "field (``errors`` says where).")),
    "bad_host": (400, "The request's Host is not one this server answers to."),
    "not_found": (404, "No such page, operation or tournament."),
    "method_not_allowed": (405, "The operation does not take this HTTP method."),
    "unsupported_media_type": (415, "The body is not application/json."),
    "too_many_streams": (429, "Too many open streams for this account or address (``Retry-After``)."),
    "streams_full": (503, "The server holds as many streams as it can: try again (``Retry-After``)."),
    "streams_unavailable": (503, "This server has no live streams (a WSGI server): poll instead."),
    "http_error": (400, "Any other refusal by the web framework."),
}


def _domain_errors() -> dict[str, tuple[int, object]]:
    for module in ERROR_MODULES:
        importlib.import_module(module)
    found, stack = {}, [DomainError]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.code not in ABSTRACT:
            found.setdefault(cls.code, (cls.status, cls.message))
    return found


def table() -> list[dict]:
    """Every code: ``code``, ``status``, ``source`` (``server`` or ``engine``) and its meaning in English."""
    rows = {}
    for code, (status, meaning) in {**EDGE_CODES, **_domain_errors()}.items():
        rows[code] = {"code": code, "status": status, "source": "server", "meaning": meaning}
    for code, meaning in refusals().items():
        rows.setdefault(code, {"code": code, "status": ILLEGAL_MOVE_STATUS.get(code, 422), "source": "engine",
                               "meaning": meaning})
    with translation.override("en"):
        out = [{**row, "meaning": str(row["meaning"])} for row in rows.values()]
    return sorted(out, key=lambda r: (r["source"] != "server", r["status"], r["code"]))


def codes() -> list[str]:
    return sorted(row["code"] for row in table())


def markdown() -> str:
    """The table of error codes in docs/api.md."""
    lines = ["| code | status | from | meaning |", "|---|---|---|---|"]
    for row in table():
        meaning = row["meaning"].replace("|", "\\|").replace("``", "`")
        lines.append(f"| `{row['code']}` | {row['status']} | {row['source']} | {meaning} |")
    return "\n".join(lines) + "\n"
