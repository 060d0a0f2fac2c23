"""Read side of the people at a match's table: seats, clocks, what a person may do, and what waits
for a person (the home page, the account stream's news)."""
from __future__ import annotations

import hashlib
import json
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from engine import registry
from games import store
from games.kits import GAME_LABELS
from games.models import Match, Seat
from games.selectors import hooks
from games.words.terms import clock_kind, clock_words, duration_words, options_text, time_left

#: A running match where it is a person's turn, with no clock and no move for this long, is folded
#: away on the home page ("older"): abandoned bot matches must not push what is live down the page.
IDLE_AFTER = timedelta(days=14)


def waiting_seats(user) -> list:
    """A person's seats that wait for them: invitations to answer and tournament seats to take,
    oldest first (each with its match)."""
    return list(Seat.objects.filter(user=user, status__in=[Seat.Status.INVITED, Seat.Status.SEATED],
                                    match__status=Match.Status.WAITING)
                .select_related("match__created_by").order_by("match__created_at"))


def account_news(user) -> list[dict]:
    """What waits for a person now, as an account stream sends it on connecting: invitations and
    seats to take, then their running matches — ``your_turn`` (with the deadline) or ``playing``."""
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


# ==========================================================================
# People at the table: seats, clocks, what a person may do, what waits for them
# ==========================================================================

def bot_accounts(user_ids) -> set:
    """The outside bots among these accounts (none without a provider: games do not know the league)."""
    ids = {i for i in user_ids if i is not None}
    return set().union(*(provider(ids) for provider in hooks.BOT_ACCOUNTS)) if ids else set()


def match_terms(match: Match) -> dict:
    """What a person sits down to: the game (with its rules page), its options in words (the target
    first), the clock in words with its kind ("correspondence: 1 day a move" never reads like a live
    clock or none), and what happens when a deadline passes."""
    kind = clock_kind(match.clock)
    words = clock_words(match.clock)
    clock = {"correspondence": gettext("correspondence: %(clock)s") % {"clock": words},
             "live": gettext("live clock: %(clock)s") % {"clock": words}}.get(kind, gettext("no clock"))
    return {"game": match.game, "game_name": GAME_LABELS.get(match.game, match.game),
            "rules_url": reverse("rules", args=[match.game]), "options": options_text(match.game, match.options),
            "clock": clock, "clock_kind": kind, "rule": match.get_timeout_rule_display() if match.clock else ""}


def _seat_rows(seats, user, *, bot_ids=frozenset()) -> list[dict]:
    """Who holds each seat, as a person about to sit down reads it: you, other people (and whether
    they are at the table yet), bots — a server's or an outside program's."""
    return [{"number": s.index + 1, "name": s.display_name, "is_me": s.user_id is not None and s.user_id == user.pk,
             "bot": bool(s.bot) or s.user_id in bot_ids, "outside_bot": s.user_id in bot_ids, "status": s.status,
             "status_words": SEAT_STATUS_WORDS.get(s.status, "")} for s in seats]


SEAT_STATUS_WORDS = {
    "invited": _("invited, has not answered yet"),
    "seated": _("not at the table yet"),
    "joined": _("at the table"),
    "declined": _("declined"),
}


def table_seats(match: Match) -> list:
    """The match's seats in order, each with its account: read once for a board, whose parts (the
    names, the viewer's seats, the table panel) all need them."""
    return list(match.seats.select_related("user").order_by("index"))


def players(match: Match, seats: list | None = None) -> list[str]:
    """The seats' names in order (``seats``: ``table_seats`` already read)."""
    return [s.display_name for s in (seats if seats is not None else table_seats(match))]


def match_people(match: Match, user, seats: list | None = None) -> dict:
    """The play page's table panel: every seat (who, their status, their deadline), the match's
    terms (game, options, clock), where the match belongs, and what the viewing person may do now
    (take the seat, accept or decline, resign). While a match waits for its players, outside bot
    accounts are marked as bots (``outside_bot``), as the invitation says. ``seats``: the match's seats
    in order with their accounts, if already read (``table_seats``)."""
    if seats is None:
        seats = table_seats(match)
    turn = None
    if match.is_running:
        turn = registry.get(match.game).view(store.load_state(match), None).get("turn")
    mine = next((s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk), None)
    bot_ids = bot_accounts(s.user_id for s in seats) if match.is_waiting else set()
    rows = [{"index": s.index, "number": s.index + 1, "name": s.display_name, "bot": bool(s.bot),
             "outside_bot": s.user_id in bot_ids,
             "stand_in": s.stand_in, "status": s.status, "status_words": SEAT_STATUS_WORDS.get(s.status, ""),
             "deadline": s.deadline, "timeouts": s.timeouts, "is_turn": turn == s.index,
             "is_me": mine is not None and s.index == mine.index} for s in seats]
    context = next((c for c in (provider(match) for provider in hooks.MATCH_CONTEXT) if c), None)
    return {
        "seats": rows,
        "terms": match_terms(match),
        "clock": clock_words(match.clock),
        "has_clock": bool(match.clock),
        "rule": match.get_timeout_rule_display() if match.clock else "",
        "context": context,
        "may_join": mine is not None and match.is_waiting and mine.status == Seat.Status.SEATED,
        "may_answer": mine is not None and match.is_waiting and mine.status == Seat.Status.INVITED,
        "may_resign": mine is not None and match.is_running and not mine.stand_in,
        "my_deadline": mine.deadline if mine is not None else None,
        "waiting_for": [r["name"] for r in rows if r["status"] in ("invited", "seated")],
        "never_started": match.status == Match.Status.CANCELLED,
        "summary": gettext("Waiting for %(names)s") % {"names": ", ".join(
            r["name"] for r in rows if r["status"] in ("invited", "seated"))} if match.is_waiting else "",
    }


def turn_clock(match: Match, people: dict) -> dict | None:
    """The countdown of the seat to act, for the turn banner (``people``: ``match_people``): its
    deadline, the time left in words as the server sees it now, the move's allowance (the banner
    turns amber under 30% of it, red under 10 seconds or 10%) and whose it is; None without a clock
    or a deadline."""
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


def _tables(seats: list) -> dict[int, list]:
    """Every seat of these seats' matches, by match, in order, each with its account."""
    tables: dict[int, list] = {}
    for other in (Seat.objects.filter(match_id__in=[s.match_id for s in seats])
                  .select_related("user").order_by("match_id", "index")):
        tables.setdefault(other.match_id, []).append(other)
    return tables


def _running(seats: list, tables: dict[int, list], bot_ids, now) -> tuple[list, list, list]:
    """A person's running matches, newest move first: those where it is their turn, those idle for
    weeks with no clock (``older``), and the others (``playing``), each with the opponents, the clock and
    the age of the last move."""
    your_turn, older, playing = [], [], []
    for seat in seats:
        match = seat.match
        view = registry.get(match.game).view(store.load_state(match), None)
        opponents = [{"name": o.display_name, "bot": bool(o.bot) or o.user_id in bot_ids}
                     for o in tables.get(seat.match_id, ()) if o.index != seat.index]
        entry = {"match": match, "seat": seat.index, "deadline": seat.deadline, "clock": clock_words(match.clock),
                 "opponents": opponents, "moved_at": match.moved_at,
                 "age": duration_words((now - match.moved_at).total_seconds(), parts=1)
                 if now - match.moved_at >= timedelta(minutes=1) else None}
        if view.get("turn") == seat.index or seat.index in view.get("to_act", ()):
            idle = not match.clock and match.moved_at < now - IDLE_AFTER
            (older if idle else your_turn).append(entry)
        else:
            playing.append(entry)
    return your_turn, older, playing


def _invitation(seat, user, tables: dict[int, list], bot_ids) -> dict:
    """An invitation or a seat to take, with the match's terms, who invited the person, who holds each
    seat and where the match belongs."""
    match = seat.match
    inviter = match.created_by if seat.status == Seat.Status.INVITED else None
    return {"seat": seat, "match": match, "terms": match_terms(match),
            "invited_by": inviter.get_username() if inviter is not None and inviter.pk != user.pk else None,
            "seats": _seat_rows(tables.get(match.pk, ()), user, bot_ids=bot_ids),
            "context": next((c for c in (provider(match) for provider in hooks.MATCH_CONTEXT) if c), None)}


def _results(user) -> list[dict]:
    """A person's last finished matches, newest first, with their place."""
    results = []
    for seat in (Seat.objects.filter(user=user, match__status=Match.Status.FINISHED).select_related("match")
                 .order_by("-match__finished_at")[:8]):
        ranking = (seat.match.result or {}).get("ranking", [])
        place = next((i + 1 for i, group in enumerate(ranking) if seat.index in group), None)
        results.append({"match": seat.match, "place": place, "of": sum(len(g) for g in ranking)})
    return results


def waits_for(user, *, now=None) -> dict:
    """The home page's "what waits for you": invitations and seats to take (with their terms: game,
    options, seats and who holds them, clock), matches where it is the person's turn (with their
    opponents, the clock and the age of the last move, newest first; those idle for weeks with no
    clock folded into ``older``), their tournaments' current round, their other running matches,
    the matches they sit at that wait for other people (``awaiting``), and recent results."""
    now = now or timezone.now()
    running = list(Seat.objects.filter(user=user, stand_in="", match__status=Match.Status.RUNNING)
                   .select_related("match").order_by("-match__moved_at", "-match_id")[:50])
    waiting = waiting_seats(user)
    asked = list(Seat.objects.filter(user=user, status=Seat.Status.JOINED, match__status=Match.Status.WAITING)
                 .select_related("match").order_by("match__created_at"))
    tables = _tables(running + waiting + asked)
    bot_ids = bot_accounts(o.user_id for table in tables.values() for o in table)
    your_turn, older, playing = _running(running, tables, bot_ids, now)
    invitations = [_invitation(seat, user, tables, bot_ids) for seat in waiting]
    awaiting = [{"match": seat.match, "waiting_for": [o.display_name for o in tables.get(seat.match_id, ())
                                                      if o.status in (Seat.Status.INVITED, Seat.Status.SEATED)]}
                for seat in asked]
    results = _results(user)
    sections = [section for provider in hooks.HOME_SECTIONS for section in provider(user)]
    return {"your_turn": your_turn, "older": older, "playing": playing, "invitations": invitations,
            "challenges": sum(1 for i in invitations if i["seat"].status == Seat.Status.INVITED),
            "refusals": bool(hooks.CHALLENGE_GATES), "awaiting": awaiting, "results": results,
            "sections": sections,
            "nothing": not (your_turn or older or playing or invitations or awaiting or sections)}


def waits_version(user) -> str:
    """A fingerprint of what waits for a person, cheap to compute: it changes when an invitation or a
    seat to take comes or goes, a match they sit in moves, starts or ends, or their tournaments'
    current rounds change. The home page's poll sends the one it shows and gets "nothing new" while
    it is the same."""
    seats = list(Seat.objects.filter(user=user, match__status__in=[Match.Status.WAITING, Match.Status.RUNNING])
                 .order_by("match_id").values_list("match_id", "status", "stand_in", "match__status",
                                                    "match__last_seq"))
    sections = [section for provider in hooks.HOME_SECTIONS for section in provider(user)]
    text = json.dumps([get_language(), seats, sections], default=str, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]
