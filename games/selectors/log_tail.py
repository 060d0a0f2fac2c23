"""The board's log at a cost that does not grow with the match, and the cache that makes it so.

A page's first board builds its log from a window of the newest rounds; the older, folded rounds never
change, so they are built once and kept in the cache (``board-log:`` keys). Each board also keeps its
log's tail in the cache (``board-tail:`` keys, a pickled ``LogBuilder`` with the last positions), so that
the page's next board only appends the lines after the position the page shows.
"""
from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import get_language

from games.kits import kit, kits
from games.models import Event, Match
from games.selectors.feeds import LOG_LIMIT, events_for_seat, move_starts
from games.selectors.log import INLINE_ROUNDS, LogBuilder, fold_old_rounds, move_groups, recent_summary

#: A match this short builds its board's log whole (one query fewer than finding the window).
WINDOW_AFTER = 300
#: How long a board's log tail is kept for the next board of the same page (``_keep_tail``).
TAIL_SECONDS = 3600


def windowed_games() -> list[str]:
    """Games whose log is built from a window of the newest rounds on the board (their kit's
    ``windowed_log``): the multi-round ones. IOTA is one deal of at most a few hundred events; Cardavia's
    deal tables carry every seat's lives from the first deal on, and its matches are short: both are built
    whole."""
    return [k.game for k in kits() if k.windowed_log]


def _board_log(match: Match, seat: int | None, names, *, window: bool = True) -> tuple[dict, list[dict]]:
    """The board's log and the positions it was built from (``_board_build``)."""
    log, groups, _builder = _board_build(match, seat, names, window=window)
    return log, groups


def _board_build(match: Match, seat: int | None, names, *, window: bool = True):
    """The board's log, the positions it was built from and its builder (before its last deal was closed),
    at a cost that does not grow with the match: the newest ``INLINE_ROUNDS`` rounds are built from their
    own events (a window that starts at the move in which the oldest of them was dealt); the older rounds,
    folded on the board, never change, so their titles, line counts and tables are built once (the whole
    log, when the window moves on) and kept in the cache. ``window=False``: the whole log, every time (the
    reference a test compares)."""
    long = window and kit(match.game).windowed_log and match.last_seq > WINDOW_AFTER
    starts = [] if not long else list(
        Event.objects.filter(match=match, type__in=kit(match.game).round_starts).order_by("seq")
        .values_list("seq", flat=True))
    if len(starts) <= INLINE_ROUNDS:
        events = events_for_seat(match, seat, limit=LOG_LIMIT)
        groups = move_groups(events, match.last_seq, move_starts(match))
        builder = LogBuilder(match.game, names, seat, match.options)
        builder.feed(groups)
        kept = builder.tail(builder.count)
        return fold_old_rounds(builder.log()), groups, kept
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
    return fold_old_rounds(log), groups, kept


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
    groups = move_groups(events, match.last_seq, move_starts(match, since=first), first=first)
    builder = LogBuilder(match.game, names, seat, options)
    builder.feed(groups, cut=cut)
    return groups, builder


def _tail_key(match: Match, seat: int | None, seq: int) -> str:
    return f"board-tail:{match.pk}:{seat}:{get_language()}:{seq}"


def _keep_tail(match: Match, seat: int | None, builder: LogBuilder, last: dict | None, latest: dict | None,
               recent) -> None:
    """What the next board of this page needs to append to its log instead of rebuilding it: the log's
    builder, the last position (a timeout may still belong to it), the last one with lines and the round
    table the board shows now."""
    cache.set(_tail_key(match, seat, match.last_seq),
              {"builder": builder, "last": last, "latest": latest, "recent": recent}, TAIL_SECONDS)


def built(match: Match, seat: int | None, names):
    """The board's log as a page's first board has it (``_board_build``), its tail kept:
    ``(log, groups, positions, latest)`` as ``appended`` gives them."""
    log, groups, builder = _board_build(match, seat, names)
    log["seq"] = match.last_seq
    visible = [g for g in groups if g["lines"]]
    latest = visible[-1] if visible else None
    _keep_tail(match, seat, builder, groups[-1] if groups else None, latest,
               recent_summary(groups, match.last_seq, seat))
    return log, groups, groups, latest


def appended(match: Match, seat: int | None, names, since: int):
    """The log lines after ``since`` (the position the page shows, whose tail was kept), appended to the
    log the page has: ``(log, groups, positions, latest)``, or None when the tail is gone (the page gets
    the whole board). ``groups``: the positions after ``since`` (the first one continues the page's last
    position when events without a move of their own followed it); ``positions``: the same, after a
    stand-in for everything before (for the round table the board shows); ``latest``: the last position
    with lines."""
    tail = cache.get(_tail_key(match, seat, since))
    if tail is None:
        return None
    builder: LogBuilder = tail["builder"]
    builder.rename(names)
    events = events_for_seat(match, seat, after=since, limit=LOG_LIMIT)
    starts = move_starts(match, since=since + 1)
    fresh = move_groups(events, match.last_seq, starts, first=since + 1) if starts else []
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
               recent_summary(positions, match.last_seq, seat))
    log = builder.log()
    log.update(append=True, since=since, seq=match.last_seq)
    return log, groups, positions, latest
