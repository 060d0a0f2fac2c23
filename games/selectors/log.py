"""The move log: a seat's redacted events in words, move by move, by round, newest first.

A log is built only from the seat's own feed (``games.selectors.feeds.events_for_seat``). The play page's
board builds its log from a window and a kept tail (``games.selectors.log_tail``); what it shows is what
``match_log`` says, built from event 1.
"""
from __future__ import annotations

import bisect
from copy import deepcopy

from django.utils.translation import gettext

from games import words
from games.kits import kit
from games.models import Match
from games.selectors.feeds import LOG_LIMIT, events_for_seat, move_starts
from games.selectors.people import players

#: The rounds of a log shown line by line on every board; older ones load their lines when opened.
INLINE_ROUNDS = 3
#: A round shown line by line shows at most this many of its newest lines at first.
INLINE_LINES = 150


def move_groups(events: list[dict], last_seq: int, starts, first: int = 1) -> list[dict]:
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


class LogBuilder:
    """Puts a seat's feed into words, move by move, by round: the state of a log being written. It can be
    kept (``games.selectors.log_tail``) and fed only what came after, so that a live board's log is
    appended, never rebuilt from event 1."""

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
        that are not rebuilt here (the board's window, ``games.selectors.log_tail``): they fill their
        move's own lines and table (what the board's news and last table read) but no round of the log."""
        for g in groups:
            if g["move"] and not g.get("continued"):
                self.context.move_started(g["seat"])
            for e in g["events"]:
                if e["type"] == "match_started" and isinstance(e["payload"].get("options"), dict):
                    self.opts.update(e["payload"]["options"])
                if cut is not None and e["seq"] < cut:
                    self._feed_before_cut(g, e)
                else:
                    self._feed_event(g, e)

    def _feed_before_cut(self, g: dict, e: dict) -> None:
        """An event of a round the log does not rebuild: its line and table go to its move only."""
        p, kind = e["payload"], e["type"]
        summary = words.round_summary(self.game, p, self.names, self.opts) if self.deal is None else None
        if summary is not None:
            g["summary"] = summary
        text = words.event_words(self.game, p, self.names, self.context)
        if text is not None:
            g["lines"].append({"seq": e["seq"], "move": g["start"], "text": text, "type": kind,
                               "seat": p.get("seat"), "mine": self.seat is not None and p.get("seat") == self.seat,
                               "scored": summary is not None})

    def _feed_event(self, g: dict, e: dict) -> None:
        """An event in its round (a new one when it deals one) and its move: its line, and the table of
        a round it scores."""
        p, kind = e["payload"], e["type"]
        current = self.current
        if kind in kit(self.game).round_starts:
            number = p.get("round", (current["number"] or 0) + 1 if current else 1)
            if current is not None and not current["opened"]:
                current.update(number=number, title=_round_title(self.game, number), opened=True)
            else:
                self._close_deal()
                self._open(number, True, e["seq"])
        elif current is None:
            self._open(None, False, e["seq"])
        current = self.current
        summary = None
        if self.deal is not None:
            self.deal.see(p, g, self.opts)
        else:
            summary = words.round_summary(self.game, p, self.names, self.opts)
            if summary is not None:
                current["summary"] = summary
                g["summary"] = summary
        text = words.event_words(self.game, p, self.names, self.context)
        if text is None:
            return
        line = {"seq": e["seq"], "move": g["start"], "text": text, "type": kind, "seat": p.get("seat"),
                "mine": self.seat is not None and p.get("seat") == self.seat,
                "scored": summary is not None or kind == "deal_settled"}
        current["lines"].append(line)
        g["lines"].append(line)

    def tail(self, rounds_before: int) -> LogBuilder:
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


def build_log(game: str, groups: list[dict], names, seat, options: dict | None = None,
              cut: int | None = None) -> dict:
    """Fill each group's lines and summaries; return the log by round, newest first (``LogBuilder``)."""
    builder = LogBuilder(game, names, seat, options)
    builder.feed(groups, cut=cut)
    return builder.log()


def fold_old_rounds(log: dict, inline: int = INLINE_ROUNDS) -> dict:
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


def recent_summary(groups: list[dict], upto: int, seat: int | None):
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


def match_log(match: Match, seat: int | None, upto: int | None = None) -> dict:
    """The move log of ``seat`` (None: a spectator): every event the seat may know
    (``events_for_seat``), in words, grouped by round (newest first, lines newest first),
    with each scored round's table. ``upto``: the log as it stood at that position."""
    names = players(match)
    events = events_for_seat(match, seat, limit=LOG_LIMIT)
    if upto is not None:
        events = [e for e in events if e["seq"] <= upto]
    last = match.last_seq if upto is None else min(upto, match.last_seq)
    groups = move_groups(events, last, move_starts(match, upto=last))
    return build_log(match.game, groups, names, seat, match.options)


def match_log_round(match: Match, seat: int | None, index: int, upto: int | None = None) -> dict | None:
    """One round of ``match_log`` (``index``: 0 for the first round), lines newest first."""
    rounds = match_log(match, seat, upto=upto)["rounds"]
    return next((r for r in rounds if r["index"] == index), None)
