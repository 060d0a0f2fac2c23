"""Read side of matches: seat views, legal moves, event feeds, the move log, boards, replays.

Everything a page, the API or a bot client sees comes from here, and every
engine view or event passes through ``engine.view`` / ``engine.redact`` for the
seat that asks — nothing else reaches them. The play page's move log is built
only from ``events_for_seat`` (the seat's redacted feed), and its boards only
from the seat's own view at each position.

Templates render what these functions return: cards arrive already named
(``games.words``), seats with their names and markers, moves with their labels.
"""
from __future__ import annotations

import bisect
import json
from copy import deepcopy

from django.urls import reverse
from django.utils.translation import gettext, ngettext

from engine import registry
from games import store, words
from games.kits import kit, kits
from games.kits.boards import seat_name as _name
from games.words.terms import time_left  # noqa: F401 (the countdown's words, used by the pages)
from games.kits import GAME_LABELS
from games.models import STORE_EVENTS, Event, Match

#: At most this many positions are played back one by one when a poll finds several new moves.
MAX_FRAMES = 12
#: Events read for a log (a match's engine bound is well below it).
LOG_LIMIT = 200_000
#: The rounds of a log shown line by line on every board; older ones load their lines when opened.
INLINE_ROUNDS = 3
#: A round shown line by line shows at most this many of its newest lines at first.
INLINE_LINES = 150


def players(match: Match, seats: list | None = None) -> list[str]:
    """The seats' names in order (``seats``: ``table_seats`` already read)."""
    return [s.display_name for s in (seats if seats is not None else table_seats(match))]


def seat_view(match: Match, seat: int | None) -> dict:
    """The engine's view of the match for ``seat`` (None: a spectator)."""
    return registry.get(match.game).view(store.load_state(match), seat)


def seat_legal_moves(match: Match, seat: int) -> list[dict]:
    if not match.is_running:
        return []
    return registry.get(match.game).legal_moves(store.load_state(match), seat)


def events_for_seat(match: Match, seat: int | None, after: int = 0, limit: int = 1000,
                    before: int | None = None) -> list[dict]:
    """The events after position ``after`` (and before ``before``) as ``seat`` may know them
    (``store.redact_event``: while the match runs each payload goes through the engine's ``redact`` or the
    store's own rule, and events the seat may not know of are left out; once it has ended every event is
    public)."""
    rows = Event.objects.filter(match=match, seq__gt=after)
    if before is not None:
        rows = rows.filter(seq__lt=before)
    return feed_of(match, rows.order_by("seq")[:limit], seat)


def feed_of(match: Match, rows, seat: int | None) -> list[dict]:
    """Events just recorded (``rows``, as a service returned them) as ``seat`` may know them: the
    same shape and rule as ``events_for_seat``, without reading them back. ``match`` must have its
    current status (a move that ended the match makes every event public)."""
    out = []
    for e in rows:
        payload = store.redact_event(match, e.payload, seat)
        if payload is not None:
            out.append({"seq": e.seq, "type": e.type, "seat": e.seat, "payload": payload,
                        "created_at": e.created_at.isoformat()})
    return out


# ==========================================================================
# Cards, named and ready to draw
# ==========================================================================

def card(game: str, code: str, side: str = "light") -> dict:
    """One card as the templates draw it (its kit's ``card``; UNO FLIP: a face code, or a physical
    ``light/dark`` with ``side`` up)."""
    return kit(game).card(code, side)


# ==========================================================================
# The move log: the seat's redacted events in words, by round, newest first
# ==========================================================================

def move_starts(match: Match, upto: int | None = None, since: int = 0) -> list[tuple[int, int | None]]:
    """``(seq, seat)`` of the first event of every recorded move (from ``since`` on): where one move's
    events end and the next begin (positions only; what a move was is read from the seat's own feed)."""
    rows = Event.objects.filter(match=match, move__isnull=False)
    if since:
        rows = rows.filter(seq__gte=since)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows.order_by("seq").values_list("seq", "seat"))


def _groups(match: Match, events: list[dict], last_seq: int, starts, first: int = 1) -> list[dict]:
    """The positions of a match: the deal before the first move, then one per move
    (``start``..``end`` seqs, ``seat`` the mover), each with the seat's events of it. ``first``: the
    positions from the move that starts there (a window of the match: ``starts`` begin at it)."""
    if first > 1:
        bounds = [(s, seat, True) for s, seat in starts if s >= first]
    else:
        bounds = [(1, None, False)] + [(s, seat, True) for s, seat in starts if s > 1]
    groups = []
    for i, (start, seat, is_move) in enumerate(bounds):
        end = bounds[i + 1][0] - 1 if i + 1 < len(bounds) else last_seq
        groups.append({"start": start, "end": end, "seat": seat, "move": is_move,
                       "events": [], "lines": [], "summary": None})
    firsts = [g["start"] for g in groups]
    for e in events:
        i = bisect.bisect_right(firsts, e["seq"]) - 1
        if i >= 0:
            groups[i]["events"].append(e)
    return groups


def _round_title(game: str, number) -> str:
    if kit(game).one_deal:
        return gettext("The deal")
    if number is None:
        return gettext("Before the first round")
    return gettext("Round %(round)d") % {"round": number}


class _LogBuilder:
    """Puts a seat's feed into words, move by move, by round: the state of a log being written. It can be
    kept (``_keep_tail``) and fed only what came after, so that a live board's log is appended, never
    rebuilt from event 1 (issue 22 item 4)."""

    def __init__(self, game: str, names, seat, options: dict | None = None):
        self.game, self.names, self.seat = game, names, seat
        self.opts = dict(options or {})
        table = kit(game).deal_table  # a deal's table completed by what follows it (Cardavia)
        self.deal = table(names) if table is not None else None
        self.context = words.EventContext()  # what a line needs from the ones before (timeouts, builds)
        self.rounds: list[dict] = []
        self.current: dict | None = None
        self.count = 0  # rounds opened so far (the index of the next one)

    def rename(self, names) -> None:
        """The seats' names now (a bot that took a seat is named from then on)."""
        self.names = names
        if self.deal is not None:
            self.deal.names = names

    def _close_deal(self) -> None:
        if self.deal is not None and self.current is not None:
            table = self.deal.table()
            if table is not None:
                self.current["summary"] = table
                if self.deal.group is not None:
                    self.deal.group["summary"] = table
            self.deal.reset()

    def _open(self, number, opened: bool, first: int) -> None:
        self.current = {"number": number, "title": _round_title(self.game, number), "lines": [],
                        "summary": None, "opened": opened, "first": first, "index": self.count}
        self.count += 1
        self.rounds.append(self.current)

    def feed(self, groups: list[dict], cut: int | None = None) -> None:
        """Fill each group's lines and summaries, in order. ``cut``: events before it belong to rounds
        that are not rebuilt here (``_board_log``'s window): they fill their move's own lines and table
        (what the board's news and last table read) but no round of the log."""
        game, names, seat, opts = self.game, self.names, self.seat, self.opts
        for g in groups:
            if g["move"] and not g.get("continued"):
                self.context.move_started(g["seat"])
            for e in g["events"]:
                p, kind = e["payload"], e["type"]
                if kind == "match_started" and isinstance(p.get("options"), dict):
                    opts.update(p["options"])
                if cut is not None and e["seq"] < cut:
                    summary = words.round_summary(game, p, names, opts) if self.deal is None else None
                    if summary is not None:
                        g["summary"] = summary
                    text = words.event_words(game, p, names, self.context)
                    if text is not None:
                        g["lines"].append({"seq": e["seq"], "move": g["start"], "text": text, "type": kind,
                                           "seat": p.get("seat"), "mine": seat is not None and p.get("seat") == seat,
                                           "scored": summary is not None})
                    continue
                current = self.current
                if kind in kit(game).round_starts:
                    number = p.get("round", (current["number"] or 0) + 1 if current else 1)
                    if current is not None and not current["opened"]:
                        current.update(number=number, title=_round_title(game, number), opened=True)
                    else:
                        self._close_deal()
                        self._open(number, True, e["seq"])
                elif current is None:
                    self._open(None, False, e["seq"])
                current = self.current
                summary = None
                if self.deal is not None:
                    self.deal.see(p, g, opts)
                else:
                    summary = words.round_summary(game, p, names, opts)
                    if summary is not None:
                        current["summary"] = summary
                        g["summary"] = summary
                text = words.event_words(game, p, names, self.context)
                if text is None:
                    continue
                line = {"seq": e["seq"], "move": g["start"], "text": text, "type": kind, "seat": p.get("seat"),
                        "mine": seat is not None and p.get("seat") == seat,
                        "scored": summary is not None or kind == "deal_settled"}
                current["lines"].append(line)
                g["lines"].append(line)

    def tail(self, rounds_before: int) -> _LogBuilder:
        """A copy that goes on from here: the newest round kept without its lines (the page has them),
        ``rounds_before`` rounds in the log the page shows (the newest is the last of them)."""
        rounds, self.rounds = self.rounds, []
        current, self.current = self.current, None
        try:
            copy = deepcopy(self)
        finally:
            self.rounds, self.current = rounds, current
        if current is not None:
            copy.current = {**deepcopy({k: v for k, v in current.items() if k != "lines"}), "lines": [],
                            "index": rounds_before - 1}
            copy.rounds = [copy.current]
        copy.count = rounds_before
        return copy

    def log(self) -> dict:
        """The log by round, newest first (lines newest first); Cardavia's last deal gets its table as it
        stands (a builder goes on from its ``tail``, taken before)."""
        self._close_deal()
        out = []
        for i, r in enumerate(reversed(self.rounds)):
            out.append({"number": r["number"], "title": r["title"], "first": r["first"], "index": r["index"],
                        "lines": list(reversed(r["lines"])), "summary": r["summary"], "newest": i == 0,
                        "count": len(r["lines"]), "lazy": False, "hidden": 0})
        return {"rounds": out, "options": self.opts, "empty": not any(r["lines"] for r in self.rounds)}


def _build_log(game: str, groups: list[dict], names, seat, options: dict | None = None,
               cut: int | None = None) -> dict:
    """Fill each group's lines and summaries; return the log by round, newest first (``_LogBuilder``)."""
    builder = _LogBuilder(game, names, seat, options)
    builder.feed(groups, cut=cut)
    return builder.log()


def _fold_old_rounds(log: dict, inline: int = INLINE_ROUNDS) -> dict:
    """Rounds older than the newest ``inline`` keep their table and the number of their lines; the
    lines come when the reader opens the round (``match_log_round``): a long match's page stays light."""
    log["inline"] = inline  # a page that appends rounds folds the older ones as well (static/js/app.js)
    for r in log["rounds"][inline:]:
        r["lazy"], r["lines"] = True, []
    for r in log["rounds"][:inline]:
        r["hidden"] = max(0, len(r["lines"]) - INLINE_LINES)
        if r["hidden"]:
            r["lines"] = r["lines"][:INLINE_LINES]
    return log


def match_log(match: Match, seat: int | None, upto: int | None = None) -> dict:
    """The move log of ``seat`` (None: a spectator): every event the seat may know
    (``events_for_seat``), in words, grouped by round (newest first, lines newest first),
    with each scored round's table. ``upto``: the log as it stood at that position."""
    names = players(match)
    events = events_for_seat(match, seat, limit=LOG_LIMIT)
    if upto is not None:
        events = [e for e in events if e["seq"] <= upto]
    last = match.last_seq if upto is None else min(upto, match.last_seq)
    groups = _groups(match, events, last, move_starts(match, upto=last))
    return _build_log(match.game, groups, names, seat, match.options)


def match_log_round(match: Match, seat: int | None, index: int, upto: int | None = None) -> dict | None:
    """One round of ``match_log`` (``index``: 0 for the first round), lines newest first."""
    rounds = match_log(match, seat, upto=upto)["rounds"]
    return next((r for r in rounds if r["index"] == index), None)


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


def _last(group: dict | None, names) -> dict | None:
    """The last move in words, for the banner above the board."""
    if group is None or not group["lines"]:
        return None
    # the game's own events; the store's (an opening, a seed revealed) stay in the log
    lines = [line["text"] for line in group["lines"]
             if line["type"] not in STORE_EVENTS and line["type"] != "match_started"] or \
        [line["text"] for line in group["lines"]]
    return {"seat": group["seat"], "name": _name(names, group["seat"]), "start": group["start"],
            "end": group["end"], "lines": lines[:4], "more": max(0, len(lines) - 4), "is_move": bool(group["move"])}


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
    from engine import IllegalMove

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


def _recent_summary(groups: list[dict], upto: int, seat: int | None):
    """The latest round table that the seat has not moved since (so a round never ends silently);
    a spectator sees the table of the last move only."""
    done = [g for g in groups if g["end"] <= upto and g["lines"]]
    if seat is None:
        return done[-1]["summary"] if done else None
    for g in reversed(done):
        if g["summary"] is not None:
            return g["summary"]
        if seat is not None and g["move"] and g["seat"] == seat:
            return None
    return None


def _result(view: dict, names) -> list[dict] | None:
    """A finished match's places: ``[{"place": 1, "names": "anna"}, …]`` (tied seats share one)."""
    outcome = view.get("outcome") if view.get("over") else None
    if not outcome:
        return None
    out, place = [], 1
    for seats in outcome.get("ranking") or []:
        out.append({"place": place, "names": words.common.names_list(names, seats), "seats": list(seats)})
        place += len(seats)
    return out


def _position(match: Match, game, view: dict, seat, names, group, groups, legal, seq: int, live: bool,
              reasons: dict | None = None) -> dict:
    entries = _entries(match.game, view, legal, seq, names) if live else []
    turn = _turn(view, seat, entries, names)
    return {
        "seq": seq,
        "view": view,
        "legal": entries,
        "b": board_for(match.game, view, seat, entries, names, group, reasons=reasons),
        "turn": turn,
        "last": _last(group, names),
        "summary": _recent_summary(groups, seq, seat),
        "title": _title(match, turn),
        "from": group["start"] if group else seq,
        "result": _result(view, names),
    }


#: At most this many moves since a page's position are read out (the newest; the rest are counted).
MAX_NEWS = 12


def _news(visible: list[dict], since: int, seat: int | None, names) -> list[str]:
    """What the page's live region reads out when a board arrives: every move since the page's own
    position (``since``) other than the seat's own, one short sentence each (the move itself, its
    consequences are in the log), oldest first."""
    said = []
    for g in visible:
        if g["start"] > since and not (seat is not None and g["seat"] == seat):
            last = _last(g, names)
            if last and last["lines"]:
                said.append(last["lines"][0])
    if len(said) > MAX_NEWS:
        n = len(said) - MAX_NEWS
        said = [ngettext("%(n)d earlier move is in the log", "%(n)d earlier moves are in the log", n) % {"n": n}] + \
            said[-MAX_NEWS:]
    return said


def windowed_games() -> list[str]:
    """Games whose log is built from a window of the newest rounds on the board (their kit's
    ``windowed_log``): the multi-round ones. IOTA is one deal of at most a few hundred events; Cardavia's
    deal tables carry every seat's lives from the first deal on, and its matches are short: both are built
    whole."""
    return [k.game for k in kits() if k.windowed_log]
#: A match this short builds its board's log whole (one query fewer than finding the window).
WINDOW_AFTER = 300


def _board_log(match: Match, seat: int | None, names, *, window: bool = True) -> tuple[dict, list[dict]]:
    """The board's log and the positions it was built from (``_board_build``)."""
    log, groups, _builder = _board_build(match, seat, names, window=window)
    return log, groups


def _board_build(match: Match, seat: int | None, names, *, window: bool = True):
    """The board's log, the positions it was built from and its builder (before its last deal was closed),
    at a cost that does not grow with the match (issue 22 item 4): the newest ``INLINE_ROUNDS`` rounds are
    built from their own events (a window that starts at the move in which the oldest of them was dealt);
    the older rounds, folded on the board, never change, so their titles, line counts and tables are built
    once (the whole log, when the window moves on) and kept in the cache. ``window=False``: the whole log,
    every time (the reference a test compares)."""
    from django.core.cache import cache
    from django.utils.translation import get_language

    long = window and kit(match.game).windowed_log and match.last_seq > WINDOW_AFTER
    starts = [] if not long else list(
        Event.objects.filter(match=match, type__in=kit(match.game).round_starts).order_by("seq")
        .values_list("seq", flat=True))
    if len(starts) <= INLINE_ROUNDS:
        events = events_for_seat(match, seat, limit=LOG_LIMIT)
        groups = _groups(match, events, match.last_seq, move_starts(match))
        builder = _LogBuilder(match.game, names, seat, match.options)
        builder.feed(groups)
        kept = builder.tail(builder.count)
        return _fold_old_rounds(builder.log()), groups, kept
    cut = starts[-INLINE_ROUNDS]
    key = f"board-log:{match.pk}:{seat}:{get_language()}:{{}}"
    started = Event.objects.filter(match=match, type="match_started").values_list("payload", flat=True).first()
    options = {**match.options, **((started or {}).get("options") or {})}
    older = cache.get(key.format(cut))
    if older is None:
        older = _older_rounds(match, seat, names, options, starts, cut, cache.get(key.format(starts[-INLINE_ROUNDS - 1])))
        cache.set(key.format(cut), older, 24 * 3600)
    groups, builder = _window(match, seat, names, options, cut)
    kept = builder.tail(builder.count + len(older))
    recent = builder.log()
    log = {"rounds": recent["rounds"] + older, "options": options,
           "empty": recent["empty"] and all(not r["count"] for r in older)}
    for i, r in enumerate(log["rounds"]):
        r["index"], r["newest"] = len(log["rounds"]) - 1 - i, i == 0
    return _fold_old_rounds(log), groups, kept


def _older_rounds(match: Match, seat: int | None, names, options: dict, starts: list[int], cut: int,
                  kept: list[dict] | None) -> list[dict]:
    """The folded rounds of a board whose window starts at ``cut``, newest first. When the window has just
    moved on by one round and the rounds folded before it are still ``kept`` (the previous window's, from
    the cache: a page followed through the match), only the round between the two windows is built, from
    its own events; otherwise the whole log is built once."""
    if kept is None:
        whole, _whole_groups = _board_log(match, seat, names, window=False)
        return [r for r in whole["rounds"] if r["first"] < cut]
    previous = starts[starts.index(cut) - 1]
    _groups_built, builder = _window(match, seat, names, options, previous, before=cut)
    return [r for r in builder.log()["rounds"] if previous <= r["first"] < cut] + kept


def _window(match: Match, seat: int | None, names, options: dict, cut: int, before: int | None = None):
    """The log's groups and builder from the round dealt at ``cut`` on (to the event before ``before``),
    built from the events of the move in which that round was dealt onwards."""
    first = (Event.objects.filter(match=match, move__isnull=False, seq__lte=cut).order_by("-seq")
             .values_list("seq", flat=True).first()) or cut
    events = events_for_seat(match, seat, after=first - 1, before=before, limit=LOG_LIMIT)
    groups = _groups(match, events, match.last_seq, move_starts(match, since=first), first=first)
    builder = _LogBuilder(match.game, names, seat, options)
    builder.feed(groups, cut=cut)
    return groups, builder


#: How long a board's log tail is kept for the next board of the same page (``_keep_tail``).
TAIL_SECONDS = 3600


def _tail_key(match: Match, seat: int | None, seq: int) -> str:
    from django.utils.translation import get_language

    return f"board-tail:{match.pk}:{seat}:{get_language()}:{seq}"


def _keep_tail(match: Match, seat: int | None, builder: _LogBuilder, last: dict | None, latest: dict | None,
               recent) -> None:
    """What the next board of this page needs to append to its log instead of rebuilding it: the log's
    builder, the last position (a timeout may still belong to it), the last one with lines and the round
    table the board shows now."""
    from django.core.cache import cache

    cache.set(_tail_key(match, seat, match.last_seq),
              {"builder": builder, "last": last, "latest": latest, "recent": recent}, TAIL_SECONDS)


def _whole(match: Match, seat: int | None, names):
    """The board's log as a page's first board has it (``_board_build``), its tail kept:
    ``(log, groups, positions, latest)`` as ``_appended`` gives them."""
    log, groups, builder = _board_build(match, seat, names)
    log["seq"] = match.last_seq
    visible = [g for g in groups if g["lines"]]
    latest = visible[-1] if visible else None
    _keep_tail(match, seat, builder, groups[-1] if groups else None, latest,
               _recent_summary(groups, match.last_seq, seat))
    return log, groups, groups, latest


def _appended(match: Match, seat: int | None, names, since: int):
    """The log lines after ``since`` (the position the page shows, whose tail was kept), appended to the
    log the page has: ``(log, groups, positions, latest)``, or None when the tail is gone (the page gets
    the whole board). ``groups``: the positions after ``since`` (the first one continues the page's last
    position when events without a move of their own followed it); ``positions``: the same, after a
    stand-in for everything before (for the round table the board shows); ``latest``: the last position
    with lines."""
    from django.core.cache import cache

    tail = cache.get(_tail_key(match, seat, since))
    if tail is None:
        return None
    builder: _LogBuilder = tail["builder"]
    builder.rename(names)
    events = events_for_seat(match, seat, after=since, limit=LOG_LIMIT)
    starts = move_starts(match, since=since + 1)
    fresh = _groups(match, events, match.last_seq, starts, first=since + 1) if starts else []
    before = [e for e in events if not starts or e["seq"] < starts[0][0]]
    groups: list[dict] = []
    last = tail["last"]
    if before and last is not None:
        continued = {**last, "end": before[-1]["seq"], "events": before, "lines": [], "summary": None,
                     "continued": True}
        builder.feed([continued])
        merged = {**last, "end": continued["end"], "events": last["events"] + before,
                  "lines": last["lines"] + continued["lines"], "summary": continued["summary"] or last["summary"]}
        groups.append(merged)
    builder.feed(fresh)
    groups.extend(fresh)
    visible = [g for g in groups if g["lines"]]
    latest = visible[-1] if visible else tail["latest"]
    stand_in = {"start": 0, "end": since, "seat": None, "move": False, "lines": [None], "summary": tail["recent"]}
    positions = [stand_in, *groups]
    _keep_tail(match, seat, builder.tail(builder.count), groups[-1] if groups else last, latest,
               _recent_summary(positions, match.last_seq, seat))
    log = builder.log()
    log.update(append=True, since=since, seq=match.last_seq)
    return log, groups, positions, latest


def match_board(match: Match, seat: int | None, since: int | None = None, seats: list | None = None) -> dict:
    """What the play page needs for one seat (or a spectator): the board at the match's
    position, the move log, and — when ``since`` is an earlier position — the boards after each
    move since then (at most ``MAX_FRAMES``, older ones skipped), each from the seat's own
    view at that position, for the page to play back one by one.

    With ``since`` (the position the page shows) the log is only its lines after it (``log["append"]``),
    built from the log's tail kept at that position, for the page to append: a live board's update reads
    and writes only what is new, however long the match (issue 22 item 4). Without a kept tail, or once
    the match has ended (every event is then public), the log is built as on the page's first board.
    ``seats``: ``table_seats`` already read."""
    game = registry.get(match.game)
    names = players(match, seats)
    # an ended match shows every event in full (what was hidden while it ran): its log is built whole
    appended = _appended(match, seat, names, since) \
        if since is not None and 0 <= since < match.last_seq and match.is_running else None
    log, groups, positions, latest = appended or _whole(match, seat, names)
    state = store.load_state(match) if not match.is_waiting else None
    if state is None:  # the seats are not all taken yet: no deal, only the log of the opening
        return {"match": match, "game": match.game, "game_name": GAME_LABELS.get(match.game, match.game),
                "seat": seat, "players": names, "log": log, "frames": [], "hands": None, "waiting": True,
                "seq": match.last_seq, "view": {"over": match.has_ended}, "legal": [], "b": None, "last": None,
                "summary": None, "result": None, "from": match.last_seq, "title": f"{match} · cardleague",
                "turn": {"state": "none", "seat": None,
                         "text": gettext("This match never started.") if match.has_ended
                         else gettext("Waiting for the players to take their seats")}}
    view = game.view(state, seat)
    # a seat given up is played by a bot: its person is offered no moves
    legal = game.legal_moves(state, seat) if seat is not None and match.is_running \
        and seat not in (view.get("resigned") or ()) else []
    visible = [g for g in groups if g["lines"]]
    context = {"match": match, "game": match.game, "game_name": GAME_LABELS.get(match.game, match.game),
               "seat": seat, "players": names, "log": log, "frames": [], "hands": None, "news": []}
    context.update(_position(match, game, view, seat, names, latest, positions, legal, match.last_seq, live=True,
                             reasons=hand_reasons(match.game, state, seat, view, legal)))
    if since is not None and 0 <= since < match.last_seq:
        context["news"] = _news(visible, since, seat, names)
        later = [g for g in visible if g["start"] > since][-MAX_FRAMES:]
        frames = later[:-1] if later and later[-1] is latest else later
        if frames:
            state = store.load_state(match, upto=frames[0]["end"])
            at = frames[0]["end"]
            rows = Event.objects.filter(match=match, seq__gt=at, seq__lte=frames[-1]["end"]).order_by("seq")
            pending = list(rows.only("seq", "type", "payload"))
            for g in frames:
                while pending and pending[0].seq <= g["end"]:
                    e = pending.pop(0)
                    if e.type not in STORE_EVENTS:
                        state = game.apply(state, e.payload)
                frame_view = game.view(state, seat)
                context["frames"].append(
                    _position(match, game, frame_view, seat, names, g, positions, [], g["end"], live=False))
    return context


# ==========================================================================
# Replays
# ==========================================================================

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
    groups = _groups(match, upto, position["seq"], [(p["start"], p["seat"]) for p in positions[1:step + 1]])
    log = _fold_old_rounds(_build_log(match.game, groups, names, None, match.options))
    group = groups[-1] if groups and groups[-1]["end"] == position["seq"] else None
    label = ""
    if position["move"]:
        table = words.EventContext()  # the table before the move: the builds it takes, named by their cards
        for e in upto:
            if e["seq"] < position["start"]:
                table.see(e["payload"])
        label = words.move_words(match.game, position["move"], names, table)
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
        "move_label": label,
        "view": view,
        "hands": hands,
        "seat": None,
        "legal": [],
        "seq": position["seq"],
        "players": names,
        "b": board_for(match.game, view, None, [], names, group, hands=hands),
        "last": _last(group, names),
        "summary": _recent_summary(groups, position["seq"], None),
        "result": _result(view, names),
        "log": log,
        "events": [e["payload"] for e in upto if e["seq"] > (positions[step - 1]["seq"] if step else 0)],
    }


def audit_events(match: Match, seat: int | None) -> list[dict]:
    """The audit page's event table: the seat's feed with each event in words (as the log says it)
    and its data as the record has it (JSON)."""
    names = players(match)
    starts = move_starts(match)
    context, i = words.EventContext(), 0
    out = []
    for e in events_for_seat(match, seat, limit=LOG_LIMIT):
        while i < len(starts) and starts[i][0] <= e["seq"]:
            context.move_started(starts[i][1])
            i += 1
        out.append(dict(e, words=words.event_words(match.game, e["payload"], names, context) or "",
                        json=json.dumps(e["payload"], ensure_ascii=False)))
    return out


def turn_clock(match: Match, people: dict) -> dict | None:
    """The countdown of the seat to act, for the turn banner (``people``: ``match_people``): its
    deadline, the time left in words as the server sees it now, the move's allowance (the banner
    turns amber under 30% of it, red under 10 seconds or 10%) and whose it is; None without a clock
    or a deadline."""
    from django.utils import timezone

    if not match.clock or not match.is_running:
        return None
    row = next((s for s in people.get("seats") or [] if s.get("is_turn") and s.get("deadline")), None)
    if row is None:
        return None
    left = (row["deadline"] - timezone.now()).total_seconds()
    allowance = match.clock["move_days"] * 86400 if "move_days" in match.clock else match.clock.get("move_seconds", 60)
    level = "ok"
    if left < max(10, allowance * 0.1):
        level = "urgent"
    elif left < allowance * 0.3:
        level = "low"
    return {"deadline": row["deadline"].isoformat(), "text": time_left(left), "allowance": allowance,
            "level": level, "name": row["name"], "mine": row.get("is_me", False)}


# ==========================================================================
# Rules pages
# ==========================================================================

def rules_page(game: str, language: str) -> dict:
    """The rules page of ``game``: its name, and the languages to read it in — the rulebook's
    own first, then the site's other languages (each a ``set_language`` form)."""
    from django.conf import settings
    from django.utils.translation import get_language_info

    rulebook = kit(game).rulebook_languages  # KeyError: not a game
    site = [code for code, _label in settings.LANGUAGES]
    ordered = [c for c in rulebook if c in site] + [c for c in site if c not in rulebook]
    languages = []
    for code in ordered:
        info = get_language_info(code)
        languages.append({"code": code, "name": info["name_local"], "english": info["name"],
                          "current": code == language, "rulebook": code in rulebook})
    examples = {key: card(game, code) for key, code in kit(game).rule_examples.items()}
    if kit(game).rule_extras is not None:
        examples.update(kit(game).rule_extras())
    return {"game": game, "game_name": GAME_LABELS.get(game, game), "languages": languages, "ex": examples,
            "rulebook": [lang for lang in languages if lang["rulebook"]],
            "rules_url": reverse("rules", args=[game]), **kit(game).assets(),
            "games": [{"game": g, "name": GAME_LABELS.get(g, g), "current": g == game} for g in registry.names()]}


# The people at the table (seats, clocks, what waits for a person): ``games.selectors.people``.
from games.selectors.people import (HOME_SECTIONS, MATCH_CONTEXT, SEAT_STATUS_WORDS, account_news,  # noqa: E402,F401
                                    clock_words, match_people, table_seats, waiting_seats, waits_for)
