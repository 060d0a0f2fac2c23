"""The matches a person is in (for ``GET /api/account/matches``): what a bot reads after a restart."""
from __future__ import annotations

from engine import registry
from games import store
from games.models import Match, Seat

#: the order of the list: the matches that wait for this person's move, then the rest
_ORDER = {"your_turn": 0, "invited": 1, "seated": 2, "playing": 3, "waiting": 4}


def matches_of(user) -> list[dict]:
    """A person's seats in waiting and running matches, those waiting for their move first, each
    with ``state``: ``your_turn``, ``playing`` (running, another seat to move), ``invited`` (to accept
    or decline), ``seated`` (a seat to take), ``waiting`` (accepted, the match not started)."""
    rows = []
    seats = (Seat.objects.filter(user=user, match__status__in=[Match.Status.WAITING, Match.Status.RUNNING])
             .select_related("match__created_by").order_by("match__created_at", "index"))
    for seat in seats:
        match = seat.match
        if match.status == Match.Status.RUNNING:
            if seat.stand_in:
                continue  # resigned or replaced: a bot plays this seat now
            turn = registry.get(match.game).view(store.load_state(match), None).get("turn")
            state = "your_turn" if turn == seat.index else "playing"
        elif seat.status == Seat.Status.INVITED:
            state = "invited"
        elif seat.status == Seat.Status.SEATED:
            state = "seated"
        else:
            state = "waiting"
        rows.append({"match": match.pk, "game": match.game, "status": match.status, "seat": seat.index,
                     "state": state, "last_seq": match.last_seq,
                     "invited_by": match.created_by.get_username() if match.created_by else None,
                     "deadline": seat.deadline.isoformat() if seat.deadline else None})
    rows.sort(key=lambda r: _ORDER[r["state"]])  # stable: oldest first within each state
    return rows


def challenges_of(user, direction: str) -> list[Match]:
    """Waiting challenges: ``incoming`` (a seat this person is invited to) or ``outgoing`` (made by
    them), oldest first."""
    found = Match.objects.filter(status=Match.Status.WAITING)
    if direction == "outgoing":
        found = found.filter(created_by=user)
    else:
        found = found.filter(seats__user=user, seats__status=Seat.Status.INVITED)
    return list(found.select_related("created_by").order_by("created_at", "pk").distinct())
