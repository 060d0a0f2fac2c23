"""Read side of matches: seat views, legal moves, event feeds, replays.

Everything a page, the API or a bot client sees comes from here, and every
engine view or event passes through ``engine.view`` / ``engine.redact`` for the
seat that asks — nothing else reaches them.
"""
from __future__ import annotations

import json

from django.utils.translation import gettext_lazy as _

from engine import registry
from games import store
from games.models import SEED_REVEALED, Event, Match


def players(match: Match) -> list[str]:
    return [s.display_name for s in match.seats.select_related("user").order_by("index")]


def seat_view(match: Match, seat: int | None) -> dict:
    """The engine's view of the match for ``seat`` (None: a spectator)."""
    return registry.get(match.game).view(store.load_state(match), seat)


def seat_legal_moves(match: Match, seat: int) -> list[dict]:
    if not match.is_running:
        return []
    return registry.get(match.game).legal_moves(store.load_state(match), seat)


MOVE_WORDS = {
    "play": _("Play"), "draw": _("Draw"), "pass": _("Pass"), "color": _("Colour"), "call": _("Call"),
    "catch": _("Catch"), "challenge": _("Challenge"), "accept": _("Accept"), "capture": _("Capture"),
    "build": _("Build"), "trail": _("Trail"), "sweep": _("Sweep"), "recycle": _("Recycle"),
    "keep": _("Keep"), "ask": _("Ask"),
}


def _part(value) -> str:
    if isinstance(value, dict) and "card" in value and "x" in value:
        return f"{value['card']} ({value['x']},{value['y']})"
    if isinstance(value, list):
        return " · ".join(_part(v) for v in value) if all(isinstance(v, dict) for v in value) else \
            "+".join(_part(v) for v in value)
    return str(value)


def move_label(move: dict) -> str:
    """A short human label: the move's verb, then its details (``Play B4S (1,0) · Y2T (1,1)``)."""
    words = [str(MOVE_WORDS.get(move.get("type"), move.get("type", "?")))]
    for key, value in move.items():
        if key == "type":
            continue
        words.append(str(MOVE_WORDS.get(key, key)) if value is True else _part(value))
    return " ".join(w for w in words if w)


def _play_scores(game: str, view: dict):
    """Per-game preview of a move's score, where the game offers one (IOTA: the turn's score)."""
    if game == "iota" and view.get("hand") is not None and not view.get("over"):
        from engine.iota import view_scorer

        scorer = view_scorer(view)
        return lambda m: scorer(m["cards"]) if m.get("type") == "play" else None
    return lambda m: None


def match_board(match: Match, seat: int | None) -> dict:
    """What the play page's board needs for one seat (or a spectator)."""
    state = store.load_state(match)
    game = registry.get(match.game)
    view = game.view(state, seat)
    legal = game.legal_moves(state, seat) if seat is not None and match.is_running else []
    score_of = _play_scores(match.game, view) if legal else None
    entries = []
    for m in legal:
        label, score = move_label(m), score_of(m)
        entries.append({"move": m, "label": label if score is None else f"{label} · +{score}", "score": score,
                        "vals": json.dumps({"move": json.dumps(m), "expected_seq": match.last_seq})})
    return {
        "match": match,
        "game": match.game,
        "seat": seat,
        "seq": match.last_seq,
        "view": view,
        "players": players(match),
        "legal": entries,
    }


def events_for_seat(match: Match, seat: int | None, after: int = 0, limit: int = 1000) -> list[dict]:
    """The events after position ``after`` as ``seat`` may know them.

    While the match runs each payload goes through ``engine.redact`` (events the
    seat may not know of are left out); once it has finished every event is public (an aborted
    match never revealed its seed: it stays redacted).
    """
    game = registry.get(match.game)
    rows = Event.objects.filter(match=match, seq__gt=after).order_by("seq")[:limit]
    public = match.status == Match.Status.FINISHED
    out = []
    for e in rows:
        if public:
            payload = e.payload
        elif e.type == SEED_REVEALED:
            continue
        else:
            payload = game.redact(e.payload, seat)
            if payload is None:
                continue
        out.append({"seq": e.seq, "type": e.type, "seat": e.seat, "payload": payload,
                    "created_at": e.created_at.isoformat()})
    return out


def replay_positions(match: Match) -> list[dict]:
    """The positions a replay steps through: after the deal, then after each move."""
    starts = list(Event.objects.filter(match=match, move__isnull=False).order_by("seq")
                  .values_list("seq", "seat", "move"))
    positions = [{"seq": (starts[0][0] - 1) if starts else match.last_seq, "seat": None, "move": None}]
    for i, (seq, seat, move) in enumerate(starts):
        end = starts[i + 1][0] - 1 if i + 1 < len(starts) else match.last_seq
        positions.append({"seq": end, "seat": seat, "move": move})
    return positions


def replay_frame(match: Match, step: int) -> dict:
    """One replay step of a finished match: the table and every hand at that point."""
    positions = replay_positions(match)
    step = max(0, min(step, len(positions) - 1))
    position = positions[step]
    game = registry.get(match.game)
    state = store.load_state(match, upto=position["seq"])
    seats = match.seats.count()
    view = game.view(state, None)
    hands = [game.view(state, s).get("hand") for s in range(seats)]
    events = [e.payload for e in Event.objects.filter(
        match=match, seq__gt=positions[step - 1]["seq"] if step else 0, seq__lte=position["seq"]).order_by("seq")]
    return {
        "match": match,
        "game": match.game,
        "step": step,
        "last_step": len(positions) - 1,
        "position": position,
        "move_label": move_label(position["move"]) if position["move"] else "",
        "view": view,
        "hands": hands,
        "seat": None,
        "legal": [],
        "seq": position["seq"],
        "players": players(match),
        "events": events,
    }


def waiting_seats(user) -> list:
    """A person's seats that wait for them: invitations to answer and tournament seats to take,
    oldest first (each with its match)."""
    from games.models import Seat

    return list(Seat.objects.filter(user=user, status__in=[Seat.Status.INVITED, Seat.Status.SEATED],
                                    match__status=Match.Status.WAITING)
                .select_related("match__created_by").order_by("match__created_at"))


def account_news(user) -> list[dict]:
    """What waits for a person now, as an account stream sends it on connecting: invitations and
    seats to take, then their running matches — ``your_turn`` (with the deadline) or ``playing``."""
    from games.models import Seat

    news = [{"kind": "invited" if s.status == Seat.Status.INVITED else "seated", "match": s.match_id,
             "game": s.match.game, "seat": s.index,
             "by": s.match.created_by.get_username() if s.match.created_by else None,
             "deadline": s.deadline.isoformat() if s.deadline else None}
            for s in waiting_seats(user)]
    for seat in (Seat.objects.filter(user=user, stand_in="", match__status=Match.Status.RUNNING)
                 .select_related("match").order_by("match__moved_at")):
        view = registry.get(seat.match.game).view(store.load_state(seat.match), None)
        kind = "your_turn" if view.get("turn") == seat.index else "playing"
        news.append({"kind": kind, "match": seat.match_id, "game": seat.match.game, "seat": seat.index,
                     "deadline": seat.deadline.isoformat() if seat.deadline else None})
    return news
