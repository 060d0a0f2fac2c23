"""A match's portable record: one JSON document with everything needed to verify the match offline
(``python -m engine.verify``): game, rules version, options, seats, the commitment, the seats'
contributions, the revealed secret, and every event with its hash chain. Its JSON Schema is
``engine/match-record.schema.json``.

A record is public once the match has ended; the server's audit builds the same document at any
time (its own check of a running match), with every event as recorded.
"""
from __future__ import annotations

from engine.core import match_seed
from engine.record import BOT_TOOK_SEAT, ENTROPY_CONTRIBUTED, MATCH_OPENED, SEED_REVEALED, canonical
from engine.verify import RECORD_FORMAT, RECORD_VERSION, Report, verify_record
from games import store, words
from games.models import Event, Match


def match_record(match: Match) -> dict:
    """The record of a match, every event as recorded (callers decide who may have it)."""
    events = list(Event.objects.filter(match=match).order_by("seq"))
    opened = next((e.payload for e in events if e.type == MATCH_OPENED), None)
    stand_ins = {e.payload.get("seat"): e.payload.get("policy") for e in events if e.type == BOT_TOOK_SEAT}
    if opened is not None:  # the seats as the opening published them
        seats = [{**p, "stand_in": stand_ins.get(p["seat"])} for p in opened["players"]]
    else:  # recorded before openings published them
        seats = [{"seat": s.index, "name": s.display_name, "kind": "bot" if s.bot else "person",
                  "bot": s.bot or None, "stand_in": s.stand_in or None}
                 for s in match.seats.select_related("user").order_by("index")]
    started = next((e.payload for e in events if e.type == "match_started"), {})
    revealed = next((e.payload.get("seed") for e in events if e.type == SEED_REVEALED), None)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "match": match.pk,
        "game": match.game,
        "rules_version": started.get("rules_version", 0),
        "options": match.options,
        "status": match.status,
        "seats": seats,
        "clock": match.clock,
        "commitment": match.seed_commitment,
        "seed_scheme": match.seed_scheme,
        "chain_version": match.chain_version,
        "stacked_deck": match.stacked_deck,
        "contributions": [{k: e.payload.get(k) for k in ("seat", "value", "by")}
                          for e in events if e.type == ENTROPY_CONTRIBUTED],
        "secret": revealed,
        "result": match.result,
        "last_seq": match.last_seq,
        "last_hash": match.last_hash,
        "events": [{"seq": e.seq, "type": e.type, "seat": e.seat, "move": e.move, "payload": e.payload,
                    "at": store.event_time(e.created_at) if match.chain_version >= 2 else None,
                    "prev_hash": e.prev_hash, "hash": e.hash} for e in events],
    }


def randomness(match: Match) -> dict | None:
    """Whose random values went into the deal so far: ``players`` (seats whose person's
    browser or client drew one), ``server`` (seats the server contributed for: bots, and people who sent
    none or timed out), and ``server_alone`` when every seat has contributed and none was a person's: the
    server alone fixed the deal. None for a match with a fixed engine seed (tests, benchmarks)."""
    if match.seed_scheme < 2:
        return None
    given = {e["seat"]: e.get("by") for e in Event.objects.filter(match=match, type=ENTROPY_CONTRIBUTED)
             .values_list("payload", flat=True)}
    server = sorted(seat for seat, by in given.items() if by == "server")
    players = sorted(seat for seat, by in given.items() if by != "server")
    complete = len(given) == match.seats.count()
    return {"players": players, "server": server, "complete": complete,
            "server_alone": complete and not players}


def match_verify(match: Match) -> Report:
    """The server's audit of a match: its record checked by the offline verifier (a running match
    with the server's own secret: the operator's check). The match is read again: the audit judges
    what is recorded now."""
    match.refresh_from_db()
    return verify_record(match_record(match), secret=None if match.has_ended else match.seed)


def record_text(match: Match) -> str:
    """A readable form of an ended match's record (like PGN for chess): header tags, then the
    events in words, round by round. The JSON record is the one to verify."""
    record = match_record(match)
    names = [s["name"] for s in record["seats"]]
    result = record["result"] or {}
    placed = "; ".join(f"{place}. " + ", ".join(names[s] for s in group)
                       for place, group in enumerate(result.get("ranking", []), start=1))
    secret = record["secret"]
    tags = [("Event", "cardleague match"), ("Game", match.get_game_display()), ("Match", str(match.pk)),
            ("Rules", f"{match.game}/{record['rules_version']}"), ("Options", canonical(record["options"])),
            ("Date", match.created_at.strftime("%Y.%m.%d")), ("Status", match.status),
            *[(f"Seat{s['seat']}", f"{s['name']} ({s['bot'] + ' bot' if s['bot'] else 'person'})")
              for s in record["seats"]],
            ("Clock", canonical(record["clock"]) if record["clock"] else "-"),
            ("Result", placed or "-"), ("Commitment", record["commitment"]), ("Secret", secret or "-")]
    if secret and record["seed_scheme"] >= 2:
        tags.append(("Seed", match_seed(secret, [c["value"] for c in sorted(record["contributions"],
                                                                                key=lambda c: c["seat"])])))
    tags.append(("Verify", f"python -m engine.verify match-{match.pk}.json"))
    lines = ['[{} "{}"]'.format(key, str(value).replace("\\", "\\\\").replace('"', '\\"')) for key, value in tags]
    round_no = 0
    context = words.EventContext()  # a resignation after timeouts, Karuselis builds by their cards
    for e in record["events"]:
        payload = e["payload"]
        if e.get("move") is not None:
            context.move_started(e["seat"])
        number = payload.get("round") if payload["type"] in ("round_dealt", "cards_dealt", "deal_started") else None
        if number is None and payload["type"] in ("cards_dealt",) and round_no == 0:
            number = 1
        if number is not None and number != round_no:
            round_no = number
            lines += ["", f"Round {round_no}"]
        sentence = words.event_words(match.game, payload, names, context)
        if sentence:
            lines.append(f"{e['seq']:>5}. {sentence}")
    return "\n".join(lines) + "\n"
