"""Auditing a match: the hash chain, the seed against its commitment, and a full
re-derivation of every recorded event from the seed and the recorded moves.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine import IllegalMove, registry
from games import store
from games.models import SEED_REVEALED, Event, Match


@dataclass
class AuditReport:
    match_id: int
    ok: bool = True
    checked_events: int = 0
    first_bad_seq: int | None = None
    problems: list[str] = field(default_factory=list)

    def fail(self, seq: int, problem: str) -> None:
        """Record a problem at event ``seq`` (every problem names an event: the headline does)."""
        self.ok = False
        if self.first_bad_seq is None or seq < self.first_bad_seq:
            self.first_bad_seq = seq
        self.problems.append(problem)


def match_verify(match: Match) -> AuditReport:
    """Check a match's events; the report names the first bad event."""
    report = AuditReport(match_id=match.pk)
    events = list(Event.objects.filter(match=match).order_by("seq"))
    report.checked_events = len(events)
    _check_chain(match, events, report)
    seed = _check_seed(match, events, report)
    if seed is not None:
        _check_replay(match, events, seed, report)
    return report


def _check_chain(match: Match, events: list[Event], report: AuditReport) -> None:
    prev = store.GENESIS_HASH
    for expected_seq, e in enumerate(events, start=1):
        if e.seq != expected_seq:
            report.fail(expected_seq, f"event {expected_seq}: missing (the next recorded event is {e.seq})")
            return
        if e.prev_hash != prev:
            report.fail(e.seq, f"event {e.seq}: prev_hash does not match the previous event's hash")
            return
        h = store.event_hash(prev_hash=prev, match_id=match.pk, seq=e.seq, payload=e.payload, seat=e.seat,
                             move=e.move, created_at=e.created_at, chain_version=match.chain_version)
        if h != e.hash or e.type != e.payload.get("type"):
            report.fail(e.seq, f"event {e.seq}: content does not match its hash")
            return
        prev = e.hash
    recorded = events[-1].seq if events else 0
    if match.last_seq > recorded:
        report.fail(recorded + 1, f"event {recorded + 1}: missing (the match says it reached event {match.last_seq}, "
                                  f"the last recorded is {recorded})")
    elif events and (match.last_seq != recorded or match.last_hash != events[-1].hash):
        report.fail(recorded, f"event {recorded}: the match's last position does not match its last event")


def _check_seed(match: Match, events: list[Event], report: AuditReport) -> str | None:
    revealed = [e for e in events if e.type == SEED_REVEALED]
    if match.status == Match.Status.FINISHED:
        if len(revealed) != 1 or revealed[0] is not events[-1]:
            last = events[-1].seq if events else 1
            report.fail(last, f"event {last}: a finished match must end with one seed reveal")
            return None
        seed = revealed[0].payload.get("seed", "")
        where = revealed[0].seq
    else:
        if revealed:
            report.fail(revealed[0].seq, f"event {revealed[0].seq}: seed revealed before the end")
            return None
        seed, where = match.seed, 1  # the operator's own check of a running match
    if not isinstance(seed, str) or store.seed_commitment(seed) != match.seed_commitment:
        report.fail(where, f"event {where}: the seed does not match the commitment published when the match "
                           f"started ({match.seed_commitment[:12]}…)")
        return None
    return seed


def _check_replay(match: Match, events: list[Event], seed: str, report: AuditReport) -> None:
    """Re-derive every event: ``start`` from the seed, then ``play`` for each recorded move."""
    game = registry.get(match.game)
    engine_events = [e for e in events if e.type != SEED_REVEALED]
    batches: list[list[Event]] = []
    for e in engine_events:
        if e.move is not None or not batches:
            batches.append([])
        batches[-1].append(e)
    seats = match.seats.count()
    try:
        expected = game.start(seats, seed, options=match.options or None, deck=match.stacked_deck)
    except ValueError as exc:
        report.fail(1, f"the match cannot be restarted: {exc}")
        return
    state = None
    for i, batch in enumerate(batches):
        if i > 0:
            first = batch[0]
            try:
                expected = game.play(state, first.seat, first.move)
            except IllegalMove as exc:
                report.fail(first.seq, f"event {first.seq}: the recorded move is illegal ({exc.code})")
                return
        for j, e in enumerate(batch):
            if j >= len(expected) or expected[j] != e.payload:
                report.fail(e.seq, f"event {e.seq}: differs from what the engine derives")
                return
        if len(expected) > len(batch):
            report.fail(batch[-1].seq, f"event {batch[-1].seq}: the engine derives more events after it")
            return
        for payload in expected:
            state = game.apply(state, payload)
    outcome = game.outcome(state)
    if match.status == Match.Status.FINISHED and outcome != match.result:
        last = engine_events[-1].seq if engine_events else 1
        report.fail(last, f"event {last}: the recorded result differs from the replay")
