"""What the league adds to the games' pages: where a match belongs (``match_context``) and the home page's
part (``home_sections``). ``league.apps`` plugs them into ``games.selectors`` when the apps are ready."""
from __future__ import annotations

import time

from django.urls import reverse
from django.utils.translation import gettext

from league.models import Entrant, Table, TableSeat, Tournament

#: How long one process keeps where a match belongs (``match_context``), seconds.
MATCH_CONTEXT_SECONDS = 60.0
_match_contexts: dict[tuple, tuple[float, dict | None]] = {}


def match_context(match) -> dict | None:
    """Where a match belongs (the play page names it): its tournament, round and table, with links.

    Every board a seat fetches asks for it, and it does not change once the match exists (a round's
    table gets its match in the transaction that creates it), so each process keeps it for
    ``MATCH_CONTEXT_SECONDS``: a tournament renamed in the admin shows its new name within that time.
    Kept by the match's id and creation time (a test database hands the same ids out again)."""
    key, now = (match.pk, match.created_at), time.monotonic()
    kept = _match_contexts.get(key)
    if kept is not None and now - kept[0] < MATCH_CONTEXT_SECONDS:
        return kept[1]
    table = Table.objects.select_related("round__tournament").filter(match=match).first()
    context = None
    if table is not None:
        tournament = table.round.tournament
        context = {"tournament": tournament.name, "round": table.round.number, "table": table.number,
                   "tournament_url": reverse("league_tournament", args=[tournament.pk])}
    if len(_match_contexts) >= 10_000:  # a bound on memory: start again rather than grow
        _match_contexts.clear()
    _match_contexts[key] = (now, context)
    return context


def home_sections(user) -> list[dict]:
    """The home page's part from the league: the current round of each running tournament the person
    entered, with their table's opponents and its match."""
    lines = []
    for entrant in (Entrant.objects.filter(player__user=user, tournament__status=Tournament.Status.RUNNING)
                    .select_related("tournament")):
        tournament = entrant.tournament
        rnd = tournament.round_set.order_by("-number").first()
        if rnd is None:
            continue
        seat = (TableSeat.objects.filter(entrant=entrant, table__round=rnd)
                .select_related("table__match").first())
        if seat is None:
            continue
        others = [s.entrant.player.name for s in seat.table.seats.select_related("entrant__player")
                  .exclude(pk=seat.pk).order_by("position")]
        table = seat.table
        text = gettext("%(tournament)s, round %(round)s") % {"tournament": tournament.name, "round": rnd.number}
        if table.kind == Table.Kind.BYE:
            note = gettext("a bye this round")
        else:
            note = gettext("table %(table)s against %(names)s") % {"table": table.number, "names": ", ".join(others)}
        url = reverse("match_play", args=[table.match_id]) if table.match_id else reverse(
            "league_tournament", args=[tournament.pk])
        lines.append({"text": text, "note": note, "url": url})
    return [{"title": gettext("Your tournaments"), "lines": lines}] if lines else []
