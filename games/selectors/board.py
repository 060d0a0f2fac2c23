"""The play page's board: one seat's view made ready to draw, its legal moves as buttons, the last move
and whose turn it is, and the positions since the page's own, for the page to play back.

Each board is built from the seat's own view at its position (``engine.view``), and its log from the
seat's feed (``games.selectors.log_tail``). Templates render what these functions return: cards arrive
already named (``games.words``), seats with their names and markers, moves with their labels.
"""
from __future__ import annotations

import json

from django.utils.translation import gettext, ngettext

from engine import IllegalMove, registry
from games import store, words
from games.kits import GAME_LABELS, kit
from games.kits.boards import seat_name as _name
from games.models import STORE_EVENTS, Event, Match
from games.selectors import log_tail
from games.selectors.log import recent_summary
from games.selectors.people import players

#: At most this many positions are played back one by one when a poll finds several new moves.
MAX_FRAMES = 12
#: At most this many moves since a page's position are read out (the newest; the rest are counted).
MAX_NEWS = 12


# ==========================================================================
# The last move and whose turn it is
# ==========================================================================

def _marks(game: str, group: dict | None) -> dict:
    """What the board highlights of one move (from the seat's events of it): the card just
    played, the cells just filled, the cards just captured, the seats of a swap or refusal."""
    marks = {"seat": None, "card": None, "cells": [], "captured": None, "build": None, "trailed": None,
             "seats": {}}
    if group is None:
        return marks
    marks["seat"] = group["seat"]
    mark = kit(game).mark
    if mark is not None:
        for e in group["events"]:
            mark(marks, e["type"], e["payload"])
    return marks


def _turn(view: dict, seat: int | None, legal: list, names) -> dict:
    """The banner above the board: "Your turn" / "Waiting for janis" / the match is over."""
    if view.get("over"):
        return {"state": "over", "text": gettext("The match is over."), "seat": None}
    turn = view.get("turn")
    if seat is not None and legal:
        if turn == seat or turn is None:
            return {"state": "mine", "text": gettext("Your turn"), "seat": seat}
        return {"state": "act", "text": gettext("You may act now (it is %(player)s's turn)") % {
            "player": _name(names, turn)}, "seat": turn}
    if turn is not None:
        if turn in (view.get("resigned") or ()):
            # the seat was given up (resigned, timed out, forfeited): a bot plays it, nobody is waited for
            return {"state": "bot", "text": gettext("A bot plays for %(player)s") % {"player": _name(names, turn)},
                    "seat": turn}
        if turn == seat:
            return {"state": "mine", "text": gettext("Your turn"), "seat": seat}
        return {"state": "waiting", "text": gettext("Waiting for %(player)s") % {"player": _name(names, turn)},
                "seat": turn}
    return {"state": "none", "text": "", "seat": None}


def last_move(group: dict | None, names) -> dict | None:
    """The last move in words, for the banner above the board."""
    if group is None or not group["lines"]:
        return None
    # the game's own events; the store's (an opening, a seed revealed) stay in the log
    lines = [line["text"] for line in group["lines"]
             if line["type"] not in STORE_EVENTS and line["type"] != "match_started"] or \
        [line["text"] for line in group["lines"]]
    return {"seat": group["seat"], "name": _name(names, group["seat"]), "start": group["start"],
            "end": group["end"], "lines": lines[:4], "more": max(0, len(lines) - 4), "is_move": bool(group["move"])}


def places(view: dict, names) -> list[dict] | None:
    """A finished match's places: ``[{"place": 1, "names": "anna"}, …]`` (tied seats share one)."""
    outcome = view.get("outcome") if view.get("over") else None
    if not outcome:
        return None
    out, place = [], 1
    for seats in outcome.get("ranking") or []:
        out.append({"place": place, "names": words.common.names_list(names, seats), "seats": list(seats)})
        place += len(seats)
    return out


# ==========================================================================
# Legal moves as buttons
# ==========================================================================

def _play_scores(game: str, view: dict):
    """A preview of each move's score, where the game offers one (its kit's ``play_scores``; IOTA: the turn's)."""
    scores = kit(game).play_scores
    score = scores(view) if scores is not None else None
    return score or (lambda m: None)


def _entries(game: str, view: dict, legal: list[dict], seq: int, names) -> list[dict]:
    score_of = _play_scores(game, view) if legal else None
    table = words.EventContext.from_view(view)  # a Karuselis move names the builds it takes by their cards
    entries = []
    for m in legal:
        label, score = words.move_words(game, m, names, table), score_of(m)
        colour = m.get("color")
        entries.append({
            "move": m, "type": m.get("type"), "score": score,
            "label": label if score is None else f"{label} · +{score}",
            "vals": json.dumps({"move": json.dumps(m), "expected_seq": seq}),
            "colour": {"letter": colour, "name": words.colour_name(game, colour)} if colour else None,
            "key": "move:" + json.dumps(m, sort_keys=True),
        })
    return entries


def hand_reasons(game_name: str, state, seat: int | None, view: dict, legal: list[dict]) -> dict[str, str]:
    """Why each hand card that no legal move plays cannot be played now, in words: the engine's own
    refusal (``play`` on the seat's state, its ``IllegalMove`` code, through
    ``words.illegal_move_message``) — "That card does not match the top card or the colour in force.";
    Karuselis: "You can capture or build, so you may not put a card on the table.". Only while the seat
    may act (else nothing on the board can be played, and the banner says why). LIVOL, UNO FLIP and
    Karuselis; IOTA's board says it of a picked card itself; Cardavia has no cards to pick."""
    if seat is None or not legal or state is None:
        return {}
    game, game_kit = registry.get(game_name), kit(game_name)
    if game_kit.probe is None:
        return {}
    side = view.get("side") or "light"
    reasons: dict[str, str] = {}
    for code in view.get("hand") or []:
        code = str(code)
        move = game_kit.probe(code)
        if move is None or code in reasons or any(game_kit.plays_card(m, code, side) for m in legal):
            continue
        try:
            game.play(state, seat, move)
        except IllegalMove as exc:
            if exc.code == "color_required":  # a Wild: the colour is not what stops it
                continue
            reasons[code] = words.illegal_move_message(exc.code)
    return reasons


# ==========================================================================
# Boards: the view made ready to draw by the game's kit (``games.kits``)
# ==========================================================================

def board_for(game: str, view: dict, seat: int | None, legal: list[dict], names, group: dict | None = None,
              hands=None, reasons: dict | None = None) -> dict:
    """One game's board, ready to draw: ``view`` made into named cards and seat rows, ``legal``
    (``_entries``) attached to the cards they play, the last move (``group``) marked, and each hand
    card that cannot be played now with its ``reason`` (``hand_reasons``)."""
    marks = _marks(game, group)
    turn = view.get("turn") if not view.get("over") else None
    board = kit(game).board(view, seat, legal, names, marks, hands, turn)
    if reasons:
        for h in board.get("hand") or []:
            card = h.get("card", h) if isinstance(h, dict) else None
            if isinstance(card, dict):
                h["reason"] = reasons.get(card.get("code"), "")
    return board


# ==========================================================================
# The play page: one seat's board, its log, and the positions since the page's
# ==========================================================================

def _title(match: Match, turn: dict) -> str:
    base = f"{match} · cardleague"
    if turn["state"] == "mine":
        return gettext("(your turn) %(title)s") % {"title": base}
    return base


def _position(match: Match, view: dict, seat, names, group, groups, legal, seq: int, live: bool,
              reasons: dict | None = None) -> dict:
    entries = _entries(match.game, view, legal, seq, names) if live else []
    turn = _turn(view, seat, entries, names)
    return {
        "seq": seq,
        "view": view,
        "legal": entries,
        "b": board_for(match.game, view, seat, entries, names, group, reasons=reasons),
        "turn": turn,
        "last": last_move(group, names),
        "summary": recent_summary(groups, seq, seat),
        "title": _title(match, turn),
        "from": group["start"] if group else seq,
        "result": places(view, names),
    }


def _news(visible: list[dict], since: int, seat: int | None, names) -> list[str]:
    """What the page's live region reads out when a board arrives: every move since the page's own
    position (``since``) other than the seat's own, one short sentence each (the move itself, its
    consequences are in the log), oldest first."""
    said = []
    for g in visible:
        if g["start"] > since and not (seat is not None and g["seat"] == seat):
            last = last_move(g, names)
            if last and last["lines"]:
                said.append(last["lines"][0])
    if len(said) > MAX_NEWS:
        n = len(said) - MAX_NEWS
        said = [ngettext("%(n)d earlier move is in the log", "%(n)d earlier moves are in the log", n) % {"n": n}] + \
            said[-MAX_NEWS:]
    return said


def _not_dealt(match: Match, seat: int | None, names, log: dict) -> dict:
    """The board of a match whose seats are not all taken yet (or that never started): no deal, only
    the log of the opening."""
    return {"match": match, "game": match.game, "game_name": GAME_LABELS.get(match.game, match.game),
            "seat": seat, "players": names, "log": log, "frames": [], "hands": None, "waiting": True,
            "seq": match.last_seq, "view": {"over": match.has_ended}, "legal": [], "b": None, "last": None,
            "summary": None, "result": None, "from": match.last_seq, "title": f"{match} · cardleague",
            "turn": {"state": "none", "seat": None,
                     "text": gettext("This match never started.") if match.has_ended
                     else gettext("Waiting for the players to take their seats")}}


def _frames(match: Match, game, seat: int | None, names, frames: list[dict], positions: list[dict]) -> list[dict]:
    """The boards after each of ``frames`` (positions since the page's), each from the seat's own view at
    that position: the state at the first, then each one's events applied."""
    if not frames:
        return []
    state = store.load_state(match, upto=frames[0]["end"])
    at = frames[0]["end"]
    rows = Event.objects.filter(match=match, seq__gt=at, seq__lte=frames[-1]["end"]).order_by("seq")
    pending = list(rows.only("seq", "type", "payload"))
    boards = []
    for g in frames:
        while pending and pending[0].seq <= g["end"]:
            e = pending.pop(0)
            if e.type not in STORE_EVENTS:
                state = game.apply(state, e.payload)
        boards.append(_position(match, game.view(state, seat), seat, names, g, positions, [], g["end"], live=False))
    return boards


def match_board(match: Match, seat: int | None, since: int | None = None, seats: list | None = None) -> dict:
    """What the play page needs for one seat (or a spectator): the board at the match's
    position, the move log, and — when ``since`` is an earlier position — the boards after each
    move since then (at most ``MAX_FRAMES``, older ones skipped), each from the seat's own
    view at that position, for the page to play back one by one.

    With ``since`` (the position the page shows) the log is only its lines after it (``log["append"]``),
    built from the log's tail kept at that position, for the page to append: a live board's update reads
    and writes only what is new, however long the match. Without a kept tail, or once the match has ended
    (every event is then public), the log is built as on the page's first board.
    ``seats``: ``table_seats`` already read."""
    game = registry.get(match.game)
    names = players(match, seats)
    # an ended match shows every event in full (what was hidden while it ran): its log is built whole
    appended = log_tail.appended(match, seat, names, since) \
        if since is not None and 0 <= since < match.last_seq and match.is_running else None
    log, groups, positions, latest = appended or log_tail.built(match, seat, names)
    state = store.load_state(match) if not match.is_waiting else None
    if state is None:  # the seats are not all taken yet: no deal, only the log of the opening
        return _not_dealt(match, seat, names, log)
    view = game.view(state, seat)
    # a seat given up is played by a bot: its person is offered no moves
    legal = game.legal_moves(state, seat) if seat is not None and match.is_running \
        and seat not in (view.get("resigned") or ()) else []
    context = {"match": match, "game": match.game, "game_name": GAME_LABELS.get(match.game, match.game),
               "seat": seat, "players": names, "log": log, "frames": [], "hands": None, "news": []}
    context.update(_position(match, view, seat, names, latest, positions, legal, match.last_seq, live=True,
                             reasons=hand_reasons(match.game, state, seat, view, legal)))
    if since is not None and 0 <= since < match.last_seq:
        visible = [g for g in groups if g["lines"]]
        context["news"] = _news(visible, since, seat, names)
        later = [g for g in visible if g["start"] > since][-MAX_FRAMES:]
        context["frames"] = _frames(match, game, seat, names,
                                    later[:-1] if later and later[-1] is latest else later, positions)
    return context
