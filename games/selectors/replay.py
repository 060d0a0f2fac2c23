"""Replays of finished matches: the positions a replay steps through, and the table at each of them.

The match is over, so every event is public: each step shows every hand.
"""
from __future__ import annotations

import bisect

from engine import registry
from games import store, words
from games.kits import GAME_LABELS, kit
from games.kits.boards import seat_name as _name
from games.models import Event, Match
from games.selectors.board import board_for, last_move, places
from games.selectors.feeds import LOG_LIMIT, events_for_seat
from games.selectors.log import build_log, fold_old_rounds, move_groups, recent_summary
from games.selectors.people import players


def replay_positions(match: Match) -> list[dict]:
    """The positions a replay steps through: after the deal, then after each move."""
    starts = list(Event.objects.filter(match=match, move__isnull=False).order_by("seq")
                  .values_list("seq", "seat", "move"))
    positions = [{"seq": (starts[0][0] - 1) if starts else match.last_seq, "seat": None, "move": None,
                  "start": 1}]
    for i, (seq, seat, move) in enumerate(starts):
        end = starts[i + 1][0] - 1 if i + 1 < len(starts) else match.last_seq
        positions.append({"seq": end, "seat": seat, "move": move, "start": seq})
    return positions


def round_steps(match: Match, positions: list[dict]) -> list[int]:
    """The replay steps where a round begins (its cards dealt), first to last (step 0 always)."""
    starts = Event.objects.filter(match=match, type__in=kit(match.game).round_starts).order_by("seq") \
        .values_list("seq", flat=True)
    ends = [p["seq"] for p in positions]
    steps = {0}
    for seq in starts:
        i = bisect.bisect_left(ends, seq)
        if i < len(positions):
            steps.add(i)
    return sorted(steps)


def _move_label(game: str, position: dict, names, events: list[dict]) -> str:
    """The move that led to ``position``, in words, as the table before it was (the builds it takes,
    named by their cards); "" for the deal."""
    if not position["move"]:
        return ""
    table = words.EventContext()
    for e in events:
        if e["seq"] < position["start"]:
            table.see(e["payload"])
    return words.move_words(game, position["move"], names, table)


def replay_frame(match: Match, step: int) -> dict:
    """One replay step of a finished match: the table and every hand at that point, the move
    that led there in words, and the log up to it (the match is over: every event is public);
    ``round_back`` / ``round_forward``: the steps PageUp and PageDown go to (the start of this round,
    or of the one before; the start of the next round, or the end)."""
    positions = replay_positions(match)
    step = max(0, min(step, len(positions) - 1))
    rounds = round_steps(match, positions)
    position = positions[step]
    game = registry.get(match.game)
    names = players(match)
    state = store.load_state(match, upto=position["seq"])
    seats = match.seats.count()
    view = game.view(state, None)
    hands = [game.view(state, s).get("hand") for s in range(seats)]
    events = events_for_seat(match, None, limit=LOG_LIMIT)
    upto = [e for e in events if e["seq"] <= position["seq"]]
    groups = move_groups(upto, position["seq"], [(p["start"], p["seat"]) for p in positions[1:step + 1]])
    log = fold_old_rounds(build_log(match.game, groups, names, None, match.options))
    group = groups[-1] if groups and groups[-1]["end"] == position["seq"] else None
    return {
        "match": match,
        "game": match.game,
        "game_name": GAME_LABELS.get(match.game, match.game),
        "step": step,
        "last_step": len(positions) - 1,
        "round_back": max((i for i in rounds if i < step), default=0),
        "round_forward": min((i for i in rounds if i > step), default=len(positions) - 1),
        "position": position,
        "mover": _name(names, position["seat"]),
        "move_label": _move_label(match.game, position, names, upto),
        "view": view,
        "hands": hands,
        "seat": None,
        "legal": [],
        "seq": position["seq"],
        "players": names,
        "b": board_for(match.game, view, None, [], names, group, hands=hands),
        "last": last_move(group, names),
        "summary": recent_summary(groups, position["seq"], None),
        "result": places(view, names),
        "log": log,
        "events": [e["payload"] for e in upto if e["seq"] > (positions[step - 1]["seq"] if step else 0)],
    }
