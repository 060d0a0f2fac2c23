"""Read side of the people at a match's table: seats, clocks, what a person may do, and what waits
for a person (the home page, the account stream's news)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from engine import registry
from games import store
from games.models import Match, Seat
from games.words.terms import clock_words


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

#: Functions other apps add (the league, in its ``ready``): ``(match) -> dict | None`` says where a
#: match belongs (tournament, round, table, with links), ``(user) -> list[dict]`` adds home-page
#: sections for a person (their tournaments' current round).
MATCH_CONTEXT: list = []
HOME_SECTIONS: list = []

SEAT_STATUS_WORDS = {
    "invited": _("invited, has not answered yet"),
    "seated": _("not at the table yet"),
    "joined": _("at the table"),
    "declined": _("declined"),
}


def match_people(match: Match, user) -> dict:
    """The play page's table panel: every seat (who, their status, their deadline), the clock, where
    the match belongs, and what the viewing person may do now (take the seat, accept or decline,
    resign)."""
    from django.utils.translation import gettext

    seats = list(match.seats.select_related("user").order_by("index"))
    turn = None
    if match.is_running:
        turn = registry.get(match.game).view(store.load_state(match), None).get("turn")
    mine = next((s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk), None)
    rows = [{"index": s.index, "number": s.index + 1, "name": s.display_name, "bot": bool(s.bot),
             "stand_in": s.stand_in, "status": s.status, "status_words": SEAT_STATUS_WORDS.get(s.status, ""),
             "deadline": s.deadline, "timeouts": s.timeouts, "is_turn": turn == s.index,
             "is_me": mine is not None and s.index == mine.index} for s in seats]
    context = next((c for c in (provider(match) for provider in MATCH_CONTEXT) if c), None)
    return {
        "seats": rows,
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


def waits_for(user) -> dict:
    """The home page's "what waits for you": matches where it is the person's turn (with the clock),
    invitations and seats to take, their tournaments' current round, and recent results."""
    your_turn, playing = [], []
    for seat in (Seat.objects.filter(user=user, stand_in="", match__status=Match.Status.RUNNING)
                 .select_related("match").order_by("deadline", "-match__moved_at")[:50]):
        view = registry.get(seat.match.game).view(store.load_state(seat.match), None)
        entry = {"match": seat.match, "seat": seat.index, "deadline": seat.deadline,
                 "clock": clock_words(seat.match.clock)}
        (your_turn if view.get("turn") == seat.index or seat.index in view.get("to_act", ()) else playing).append(entry)
    invitations = [{"seat": s, "match": s.match, "invited_by": s.match.created_by.get_username()
                    if s.match.created_by else None,
                    "others": [o.display_name for o in s.match.seats.select_related("user").order_by("index")
                               if o.pk != s.pk]} for s in waiting_seats(user)]
    results = []
    for seat in (Seat.objects.filter(user=user, match__status=Match.Status.FINISHED).select_related("match")
                 .order_by("-match__finished_at")[:8]):
        ranking = (seat.match.result or {}).get("ranking", [])
        place = next((i + 1 for i, group in enumerate(ranking) if seat.index in group), None)
        results.append({"match": seat.match, "place": place, "of": sum(len(g) for g in ranking)})
    sections = [section for provider in HOME_SECTIONS for section in provider(user)]
    return {"your_turn": your_turn, "playing": playing, "invitations": invitations, "results": results,
            "sections": sections}
