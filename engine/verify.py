"""Verify a match record with nothing but the engine: ``python -m engine.verify RECORD.json``.

A record (``engine/match-record.schema.json``; ``manage.py match_export``, ``GET
/api/matches/{id}/record``) holds the match's game, options, seats, the commitment, every event
with its hash chain, and — once the match has ended — the revealed secret. The checks, in order:

1. the hash chain: events numbered 1, 2, …; each ``prev_hash`` is the previous event's hash; each
   hash covers the event's content (and its time, chain version 2);
2. the secret: revealed once, as the last event, and SHA-256 of it is the commitment published
   when the match opened;
3. the seats' randomness (seed scheme 2): one contribution per seat before the deal; each value the
   server gave is ``engine.core.server_contribution(secret, seat)`` (fixed by the commitment), so
   the engine's seed, ``engine.core.match_seed(secret, contributions)``, is recomputed here;
4. a replay: ``start`` from that seed and, for every recorded move, ``play`` — each must give
   exactly the recorded events; a timeout must have happened after its deadline and be followed by
   the move its rule makes (``resign``, or the stand-in bot's move, derived again from the recorded
   position with the match's bot key: ``engine.bots.bot_key(secret)`` when the opening says
   ``"bots_keyed_by": "secret"``, the match's id in records opened before that); a seat the
   organiser forfeited (``seat_forfeited``) makes no move but its resignation; the result must be
   the replay's (or the organiser's award).

"verified" means all of it was checked, the replay included: it exits 0. A record of which only the
chain could be checked (a match still running, whose secret is not revealed; one aborted before it
opened) is "chain only, not replayed": exit 2. A bad record names the first bad event and why: exit 1,
and so does a record that cannot be read or checked at all (malformed JSON, nesting too deep, a value
of the wrong type), naming the problem. Before the verdict it prints what the reader must compare
with what the server published: the match, game, players, commitment, whose randomness went into the
deal (and when no person's did: the server alone fixed it) and the result. The server's audit
(``manage.py verify_match``, the audit page) runs the same function.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import IllegalMove, registry
from engine.bots import BOTS_KEYED_BY_SECRET, POLICY_NAMES, bot_key, bot_move
from engine.core import is_contribution, match_seed, server_contribution
from engine.record import (
    BOT_TOOK_SEAT,
    ENTROPY_CONTRIBUTED,
    GENESIS_HASH,
    MATCH_ABORTED,
    MATCH_AWARDED,
    MATCH_OPENED,
    SEAT_FORFEITED,
    SEAT_TIMED_OUT,
    SEED_REVEALED,
    STORE_EVENTS,
    commitment,
    event_hash,
)

if TYPE_CHECKING:
    from engine.protocol import Game

RECORD_FORMAT = "cardleague-match-record"
RECORD_VERSION = 1
ENDED = ("finished", "aborted", "cancelled")


@dataclass
class Report:
    match_id: int | None = None
    ok: bool = True
    checked_events: int = 0
    first_bad_seq: int | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: whether the whole match was checked, the replay included (else only the hash chain)
    replayed: bool = False

    @property
    def verified(self) -> bool:
        """Nothing is wrong and everything was checked: the only case the verifier calls "verified"."""
        return self.ok and self.replayed

    @property
    def exit_code(self) -> int:
        return 0 if self.verified else (2 if self.ok else 1)

    def fail(self, seq: int, problem: str) -> None:
        """Record a problem at event ``seq`` (every problem names an event: the headline does)."""
        self.ok = False
        if self.first_bad_seq is None or seq < self.first_bad_seq:
            self.first_bad_seq = seq
        self.problems.append(problem)

    @property
    def headline(self) -> str:
        if self.verified:
            return f"verified ({self.checked_events} events)"
        if self.ok:
            return f"chain only, not replayed ({self.checked_events} events)"
        return f"BAD at event {self.first_bad_seq}: {self.problems[0]}"


def verify_record(record: object, *, secret: str | None = None) -> Report:
    """Check a match record (see the module's docstring); ``secret``: the operator's own check of a
    match still running (its secret is not in the record until the end)."""
    report = Report(match_id=record.get("match") if isinstance(record, dict) else None)
    if not isinstance(record, dict):
        report.fail(1, "event 1: the record is not a JSON object")
        return report
    try:
        return _verify(record, report, secret)
    except (RecursionError, TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        # a record of the right shape with a value of the wrong type somewhere: bad, and said so
        report.fail(report.first_bad_seq or 1, f"event {report.first_bad_seq or 1}: the record cannot be checked: "
                                                f"{exc.__class__.__name__}: {str(exc)[:200]}")
        report.replayed = False
        return report


def _verify(record: dict[str, Any], report: Report, secret: str | None) -> Report:
    events = record.get("events") or []
    report.checked_events = len(events) if isinstance(events, list) else 0
    if record.get("format") != RECORD_FORMAT or record.get("version") != RECORD_VERSION:
        report.fail(1, f"event 1: not a {RECORD_FORMAT} of version {RECORD_VERSION}")
        return report
    problem = shape_problem(record) or _type_problem(record)
    if problem:
        report.fail(1, f"event 1: the record is not of its schema's shape: {problem}")
        return report
    _check_chain(record, events, report)
    if report.ok:
        _check_metadata(record, events, report)
    secret = _check_secret(record, events, report, secret)
    if secret is not None and report.ok:
        seed = _check_contributions(record, events, secret, report)
        if seed is not None:
            _check_replay(record, events, seed, report, bots=bots_key(events, secret, record.get("match")))  # type: ignore[arg-type]
            report.replayed = report.ok
    if report.ok and record.get("result") and record.get("status") != "finished":
        where = len(events) or 1
        report.fail(where, f"event {where}: a result for a match that did not finish ({record.get('status')})")
    if report.ok and not report.replayed:
        report.notes.append("only the hash chain was checked: the record is not verified")
    return report


def _type_problem(record: dict[str, Any]) -> str | None:
    """Values of the wrong type where the checks rely on one (the schema's keys are checked above)."""
    if record.get("chain_version", 1) not in (1, 2) or type(record.get("chain_version", 1)) is not int:
        return "chain_version is 1 or 2"
    if not isinstance(record.get("game"), str):
        return "game is a text"
    for i, e in enumerate(record.get("events") or []):
        if not isinstance(e.get("payload"), dict):
            return f"events[{i}].payload is an object"
        if e.get("at") is not None and not isinstance(e.get("at"), str):
            return f"events[{i}].at is a text (an ISO time)"
        if type(e.get("seq")) is not int:
            return f"events[{i}].seq is a number"
        p = e["payload"]
        if e.get("type") == SEAT_TIMED_OUT and p.get("then") == "bot_move" and p.get("policy") not in POLICY_NAMES:
            return f"events[{i}]: an unknown stand-in policy {str(p.get('policy'))[:40]!r}"
        if e.get("type") == BOT_TOOK_SEAT and p.get("policy") not in POLICY_NAMES:
            return f"events[{i}]: an unknown stand-in policy {str(p.get('policy'))[:40]!r}"
    return None


def summary(record: dict[str, Any]) -> list[str]:
    """What the reader compares with what the server published: the match, game, players, commitment,
    whose randomness went into the deal, and the result."""
    seats = record.get("seats") or []
    names = [str(s.get("name")) if isinstance(s, dict) else "?" for s in seats]
    lines = [f"match {record.get('match')} · {record.get('game')} · status {record.get('status')}",
             "players: " + ", ".join(f"{i}: {n}" for i, n in enumerate(names)),
             f"commitment: {record.get('commitment')}"]
    contributions = [c for c in record.get("contributions") or [] if isinstance(c, dict)]
    if contributions:
        by_server = [c.get("seat") for c in contributions if c.get("by") == "server"]
        if len(by_server) == len(contributions):
            lines.append("randomness: the server contributed for every seat — no person's value went into "
                         "the deal: the server alone fixed it")
        elif by_server:
            lines.append("randomness: the server contributed for seat(s) "
                         + ", ".join(str(s) for s in by_server) + "; the others gave their own")
        else:
            lines.append("randomness: every seat gave its own")
    result = record.get("result")
    if isinstance(result, dict) and result.get("ranking") is not None:
        places = []
        for place, group in enumerate(result.get("ranking") or [], start=1):
            group = group if isinstance(group, list) else [group]
            places.append(f"{place}. " + " and ".join(names[s] if type(s) is int and 0 <= s < len(names) else "?"
                                                     for s in group))
        lines.append("result: " + " · ".join(places))
    return lines

SCHEMA_PATH = Path(__file__).with_name("match-record.schema.json")


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return SCHEMA_PATH.read_text(encoding="utf-8")


def record_schema() -> dict[str, Any]:
    """The record's JSON Schema: ``engine/match-record.schema.json``, with ``game`` an enum of the games
    of ``engine.registry`` (read when asked, so that a new game's record is valid with no list to edit)."""
    schema: dict[str, Any] = json.loads(_schema_text())
    schema["properties"]["game"]["enum"] = list(registry.names())
    return schema


def shape_problem(record: dict[str, Any]) -> str | None:
    """The first key that the schema does not allow or requires but is missing (the record, each seat,
    contribution and event): so that no byte of a record goes unchecked, not even a key's name."""
    schema = record_schema()
    props = schema["properties"]
    checks: list[tuple[str, Any, dict[str, Any]]] = [("the record", record, schema)]
    for part in ("seats", "contributions", "events"):
        items = record.get(part)
        if not isinstance(items, list):
            return f"{part} is not a list"
        checks += [(f"{part}[{i}]", item, props[part]["items"]) for i, item in enumerate(items)]
    for where, value, spec in checks:
        if not isinstance(value, dict):
            return f"{where} is not an object"
        extra = value.keys() - spec["properties"].keys()
        missing = set(spec.get("required", ())) - value.keys()
        if extra or missing:
            return f"{where}: {'unknown ' + sorted(extra)[0] if extra else 'missing ' + sorted(missing)[0]}"
    return None


def _check_chain(record: dict[str, Any], events: list[dict[str, Any]], report: Report) -> None:
    prev = GENESIS_HASH
    version = record.get("chain_version", 1)
    for expected, e in enumerate(events, start=1):
        if e.get("seq") != expected:
            report.fail(expected, f"event {expected}: missing (the next recorded event is {e.get('seq')})")
            return
        payload = e.get("payload")
        if not isinstance(payload, dict) or e.get("type") != payload.get("type"):
            report.fail(expected, f"event {expected}: its type does not match its payload")
            return
        if e.get("prev_hash") != prev:
            report.fail(expected, f"event {expected}: prev_hash does not match the previous event's hash")
            return
        h = event_hash(prev_hash=prev, match_id=record.get("match"), seq=expected, payload=payload,  # type: ignore[arg-type]
                       seat=e.get("seat"), move=e.get("move"), at=e.get("at"), chain_version=version)
        if h != e.get("hash"):
            report.fail(expected, f"event {expected}: content does not match its hash")
            return
        prev = e["hash"]
    recorded = len(events)
    last = record.get("last_seq")
    if last is not None and last > recorded:
        report.fail(recorded + 1, f"event {recorded + 1}: missing (the match reached event {last}, "
                                  f"the last recorded is {recorded})")
    elif record.get("last_hash") is not None and events and record["last_hash"] != prev:
        report.fail(recorded, f"event {recorded}: the match's last position does not match its last event")


def _check_metadata(record: dict[str, Any], events: list[dict[str, Any]], report: Report) -> None:
    """What the record says about the match beside its events must be what the events say: the
    game, options, clock and seats published at the opening, the stand-ins, the rules version,
    the revealed secret, and a status that fits how the match ended."""
    opened = next((e for e in events if e["type"] == MATCH_OPENED), None)
    first = opened["seq"] if opened else 1
    if opened is not None:
        p = opened["payload"]
        published = [{k: s.get(k) for k in ("seat", "name", "kind", "bot")} for s in record.get("seats") or []]
        for key, value in (("game", record.get("game")), ("options", record.get("options")),
                           ("clock", record.get("clock")), ("seed_scheme", record.get("seed_scheme")),
                           ("players", published)):
            if p.get(key) != value:
                report.fail(first, f"event {first}: the record's {key} is not the one published at the opening")
                return
    stand_ins = {e["payload"].get("seat"): e["payload"].get("policy") for e in events if e["type"] == BOT_TOOK_SEAT}
    if [s.get("stand_in") for s in record.get("seats") or []] != \
            [stand_ins.get(s.get("seat")) for s in record.get("seats") or []]:
        report.fail(first, f"event {first}: the record's stand-in bots are not the recorded ones")
        return
    started = next((e for e in events if e["type"] == "match_started"), None)
    if started is not None and record.get("rules_version") != started["payload"].get("rules_version", 0):
        report.fail(started["seq"], f"event {started['seq']}: the record's rules version is not the recorded one")
        return
    reveal = next((e for e in events if e["type"] == SEED_REVEALED), None)
    if record.get("secret") != (reveal["payload"].get("seed") if reveal else None):
        where = reveal["seq"] if reveal else len(events) or 1
        report.fail(where, f"event {where}: the record's secret is not the revealed one")
        return
    stopped = next((e for e in events if e["type"] == MATCH_ABORTED), None)
    expected = None if stopped is None else ("cancelled" if stopped["payload"].get("reason") == "declined"
                                             else "aborted")
    status = record.get("status")
    if (expected is not None and status != expected) or (expected is None and status in ("aborted", "cancelled")
                                                         and opened is not None):
        where = stopped["seq"] if stopped else len(events) or 1
        report.fail(where, f"event {where}: the record's status ({status}) is not how the match ended")


def _check_secret(record: dict[str, Any], events: list[dict[str, Any]], report: Report, secret: str | None) -> str | None:
    promised = record.get("commitment")
    opened = next((e for e in events if e["type"] == MATCH_OPENED), None)
    if opened is not None and opened["payload"].get("commitment") != promised:
        report.fail(opened["seq"], f"event {opened['seq']}: the commitment published at the opening is not "
                                   "the record's")
        return None
    reveals = [e for e in events if e["type"] == SEED_REVEALED]
    status = record.get("status")
    if status in ENDED:
        if not reveals and status == "aborted" and not any(e["type"] == MATCH_ABORTED for e in events):
            report.notes.append("aborted before aborting revealed the secret: only the hash chain is checked")
            return None
        if len(reveals) != 1 or reveals[0] is not events[-1]:
            last = events[-1]["seq"] if events else 1
            report.fail(last, f"event {last}: an ended match must end with one seed reveal")
            return None
        secret, where = reveals[0]["payload"].get("seed"), reveals[0]["seq"]
    else:
        if reveals:
            report.fail(reveals[0]["seq"], f"event {reveals[0]['seq']}: the secret was revealed before the end")
            return None
        if secret is None:
            report.notes.append("the secret is revealed when the match ends: until then only the hash chain is "
                                "checked")
            return None
        where = 1
    if not isinstance(secret, str) or commitment(secret) != promised:
        report.fail(where, f"event {where}: the secret does not match the commitment published when the match "
                           f"opened ({str(promised)[:12]}…)")
        return None
    return secret


def _check_contributions(record: dict[str, Any], events: list[dict[str, Any]], secret: str, report: Report) -> str | None:
    """The seats' random values, and from them the engine's seed (None: a problem was reported)."""
    scheme = record.get("seed_scheme", 1)
    if scheme < 2:
        return secret
    seats = len(record.get("seats") or [])
    first_engine = next((e["seq"] for e in events if e["type"] not in STORE_EVENTS), None)
    found: dict[int, str] = {}
    for e in events:
        if e["type"] != ENTROPY_CONTRIBUTED:
            continue
        p, seq = e["payload"], e["seq"]
        seat, value = p.get("seat"), p.get("value")
        if first_engine is not None and seq > first_engine:
            report.fail(seq, f"event {seq}: a contribution after the deal")
            return None
        if type(seat) is not int or not 0 <= seat < seats or seat in found or not is_contribution(value):
            report.fail(seq, f"event {seq}: not one valid contribution per seat")
            return None
        if p.get("by") == "server" and value != server_contribution(secret, seat):
            report.fail(seq, f"event {seq}: the server's value for seat {seat} is not the one its secret fixes")
            return None
        found[seat] = value
    if first_engine is not None and len(found) != seats:
        report.fail(first_engine, f"event {first_engine}: the deal came before every seat contributed")
        return None
    listed = record.get("contributions")
    recorded = [{k: e["payload"].get(k) for k in ("seat", "value", "by")} for e in events
                if e["type"] == ENTROPY_CONTRIBUTED]
    if listed is not None and listed != recorded:
        report.fail(1, "event 1: the record's list of contributions is not the recorded one")
        return None
    return match_seed(secret, [found[s] for s in sorted(found)])


def _batches(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The engine's events grouped by the move that caused them (the first group: the deal)."""
    batches: list[list[dict[str, Any]]] = []
    for e in events:
        if e["type"] in STORE_EVENTS:
            continue
        if e.get("move") is not None or not batches:
            batches.append([])
        batches[-1].append(e)
    return batches


def bots_key(events: list[dict[str, Any]], secret: str, match_id: int) -> int | str:
    """The key of the match's bots' randomness (``engine.bots.bot_rng``): ``bot_key(secret)`` when the
    opening event says ``"bots_keyed_by": "secret"``, else (matches opened before that) the match's id."""
    opened = next((e for e in events if e["type"] == MATCH_OPENED), None)
    if opened is not None and opened["payload"].get("bots_keyed_by") == BOTS_KEYED_BY_SECRET:
        return bot_key(secret)
    return match_id


def _check_replay(record: dict[str, Any], events: list[dict[str, Any]], seed: str, report: Report, *, bots: int | str) -> None:  # noqa: C901 - one check per kind of recorded event, in the record's order
    """Re-derive every engine event: ``start`` from the seed, then ``play`` for each recorded move;
    check each timeout's follow-up move (the stand-in bot's, keyed by ``bots``) and the result."""
    game = registry.get(record["game"])
    batches = _batches(events)
    if not batches:
        return
    opening = batches[0][0]
    version = opening["payload"].get("rules_version", 0) if opening["type"] == "match_started" else None
    current = rules_version(record["game"])
    if version is not None and version not in supported_versions(record["game"]):
        report.fail(opening["seq"], f"event {opening['seq']}: this record needs rules version {version} of "
                                    f"{record['game']}; this engine plays versions 0–{current}")
        return
    try:
        expected = game.start(len(record["seats"]), seed, options=record.get("options") or None,
                              deck=record.get("stacked_deck"))
    except ValueError as exc:
        report.fail(opening["seq"], f"event {opening['seq']}: the match cannot be started: {exc}")
        return
    if version == 0:
        # recorded before rules versions: the same rules, without the version in the opening event
        expected = [{k: v for k, v in expected[0].items() if k != "rules_version"}, *expected[1:]]
    elif version is not None and version != current:
        # an older version's opening: the game replays the rest under the version the state carries
        expected = [{**expected[0], "rules_version": version}, *expected[1:]]
    timeouts = {}  # seq of the batch's first event -> the seat_timed_out before it
    forfeits = {}  # seq of the batch's first event -> the seat_forfeited before it (the seat's next move)
    forfeited = {}  # seat -> its seat_forfeited, until the seat's next move
    # seat -> its seat_timed_out, until the seat's next move (several seats that did not take their
    # places are timed out together, then resign one by one when the match starts)
    pending: dict[Any, dict[str, Any]] = {}
    for e in events:
        if e["type"] == SEAT_TIMED_OUT:
            pending[e["payload"].get("seat")] = e
        elif e["type"] == SEAT_FORFEITED:
            forfeited[e["payload"].get("seat")] = e
        elif e["type"] not in STORE_EVENTS and e.get("move") is not None and e.get("seat") in forfeited:
            forfeits[e["seq"]] = forfeited.pop(e.get("seat"))
        elif e["type"] not in STORE_EVENTS and e.get("move") is not None and pending:
            # the move after a timeout is the timed-out seat's (the oldest timeout first)
            seat = e.get("seat") if e.get("seat") in pending else min(pending, key=lambda s: pending[s]["seq"])
            timeouts[e["seq"]] = pending.pop(seat)
    state = None
    for i, batch in enumerate(batches):
        first = batch[0]
        if i > 0:
            timeout = timeouts.get(first["seq"])
            if timeout is not None and not _timeout_holds(record, game, state, timeout, first, report, bots):
                return
            if first["seq"] in forfeits and first.get("move") != {"type": "resign"}:
                report.fail(first["seq"], f"event {first['seq']}: seat {first.get('seat')} was forfeited "
                                          f"(event {forfeits[first['seq']]['seq']}): its move is to resign")
                return
            try:
                expected = game.play(state, first.get("seat"), first["move"])  # type: ignore[arg-type]
            except IllegalMove as exc:
                report.fail(first["seq"], f"event {first['seq']}: the recorded move is illegal ({exc.code})")
                return
        for j, e in enumerate(batch):
            if j >= len(expected) or expected[j] != e["payload"]:
                report.fail(e["seq"], f"event {e['seq']}: differs from what the engine derives")
                return
        if len(expected) > len(batch):
            report.fail(batch[-1]["seq"], f"event {batch[-1]['seq']}: the engine derives more events after it")
            return
        for payload in expected:
            state = game.apply(state, payload)
    ended = state is not None and game.outcome(state) is not None
    for timeout in sorted(pending.values(), key=lambda e: e["seq"]):
        if record.get("status") == "running":
            continue  # a timeout whose move is being recorded cannot be seen mid-way: the store records both at once
        if ended and timeout["payload"].get("phase") == "join" and timeout["payload"].get("then") == "resign":
            continue  # it never took its seat, and the others' resignations ended the match before its own
        report.fail(timeout["seq"], f"event {timeout['seq']}: a timeout without the move its rule makes")
        return
    _check_result(record, events, game, state, report)


def rules_version(game: str) -> int:
    """The rules version the engine's ``game`` plays now (recorded in ``match_started``)."""
    return registry.module(game).RULES_VERSION  # type: ignore[no-any-return]


def supported_versions(game: str) -> set[int]:
    """The rules versions of ``game`` this engine replays: version 0 (matches recorded before
    versions were: the same rules as version 1, without the version in the opening event) up to
    the current one. A change that alters events bumps the version and keeps the older ones here."""
    return set(range(0, rules_version(game) + 1))


def _timeout_holds(record: dict[str, Any], game: Game, state: Any, timeout: dict[str, Any], first: dict[str, Any], report: Report,
                   bots: int | str) -> bool:
    p, seq = timeout["payload"], timeout["seq"]
    if first.get("seat") != p.get("seat"):
        report.fail(first["seq"], f"event {first['seq']}: the move after seat {p.get('seat')}'s timeout is "
                                  "another seat's")
        return False
    if "position" in p and p.get("position") != seq - 1:
        report.fail(seq, f"event {seq}: the timeout says it came at position {p.get('position')}, "
                         f"but it was recorded after event {seq - 1}")
        return False
    at, deadline = timeout.get("at"), p.get("deadline")
    if at is not None and deadline is not None and _time(at) < _time(deadline):
        report.fail(seq, f"event {seq}: recorded before its deadline ({deadline})")
        return False
    if p.get("then") == "resign":
        wanted: dict[str, Any] | None = {"type": "resign"}
    else:
        wanted = bot_move(record["game"], bots, p.get("position"), state, p.get("seat"), p.get("policy"))
    if first.get("move") != wanted:
        report.fail(first["seq"], f"event {first['seq']}: not the move the timeout's rule makes "
                                  f"({p.get('then')})")
        return False
    return True


def _check_result(record: dict[str, Any], events: list[dict[str, Any]], game: Game, state: Any, report: Report) -> None:
    if record.get("status") != "finished":
        return
    awarded = next((e for e in events if e["type"] == MATCH_AWARDED), None)
    result = record.get("result") or {}
    last = events[-1]["seq"]
    if awarded is not None:
        if result.get("ranking") != awarded["payload"].get("ranking") or not result.get("awarded"):
            report.fail(awarded["seq"], f"event {awarded['seq']}: the result is not the one awarded")
        return
    if game.outcome(state) != result:
        report.fail(last, f"event {last}: the recorded result differs from the replay")


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


USAGE_EXIT = 64  # EX_USAGE: 0 verified, 1 bad (or unreadable), 2 chain only


def main(argv: list[str] | None = None) -> int:
    """0: verified (everything checked); 2: chain only, not replayed; 1: bad, or not a record that can be
    checked (the problem named); 64: called wrongly."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print("usage: python -m engine.verify RECORD.json\n"
              "exit 0: verified · 2: chain only, not replayed · 1: bad or unreadable", file=sys.stderr)
        return USAGE_EXIT
    try:
        with open(argv[0], encoding="utf-8") as f:
            record = json.load(f)
    except RecursionError:
        print(f"BAD: cannot read {argv[0]}: its JSON is nested too deep to be a match record", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"BAD: cannot read {argv[0]}: {exc}", file=sys.stderr)
        return 1
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        print(f"BAD: {argv[0]} is not a cardleague match record", file=sys.stderr)
        return 1
    if not isinstance(record.get("game"), str) or record.get("game") not in registry.names():
        print(f"BAD: unknown game {str(record.get('game'))[:40]!r}", file=sys.stderr)
        return 1
    report = verify_record(record)
    try:
        for line in summary(record):
            print(line)
    except (TypeError, ValueError, AttributeError):
        pass  # the verdict below names what is wrong with the record
    for note in report.notes:
        print(f"note: {note}")
    print(report.headline)
    for problem in report.problems[1:]:
        print(f"  also: {problem}")
    return report.exit_code


if __name__ == "__main__":
    sys.exit(main())
