"""Drafted rounds as the organiser reviews them and the public reads their changes.

- ``round_draft``: a drafted (paired, not released) round's tables, each with the reasons behind it (seeds,
  places and points before the round, byes before) and its flags (``league.rules.drafts``), the changes
  made to it and the rules of the flags in words;
- ``forbidden_pairs``: the pairs of entrants not to be seated together in a round (forbidden pairings of the
  tournament and of its club; clubmates in the first ``same_club_rounds`` rounds), as the formats read them;
- ``tournament_drafts``: how it keeps forbidden pairs apart (``apart_rule``) and ``tournament_changes``:
  each round's changes to its draft (who made them, when) and its scheduled start,
  for the tournament page (the start in the reader's time zone and on the club's clock, ``Club.time_zone``).
"""
from __future__ import annotations

import itertools
from collections import defaultdict
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from league.models import Club, Entrant, ForbiddenPair, Round, RoundChange, Standing, Table, TableSeat, Tournament
from league.rules import drafts as rules
from league.rules.pairing import Forbidden, clubmate_pairs, sides_at
from league.rules.tiebreaks import num
from league.selectors.rounds import format_setup, pairing_rules


def _clubs(entrants: list[Entrant]) -> dict[int, frozenset[int]]:
    """Entrant id → the clubs its person belongs to (a bot belongs to none)."""
    by_user = {e.player.user_id: e.pk for e in entrants if e.player.user_id}
    clubs: dict[int, set[int]] = defaultdict(set)
    for user_id, club_id in Club.members.through.objects.filter(user_id__in=list(by_user)).values_list(
            "user_id", "club_id"):
        clubs[by_user[user_id]].add(club_id)
    return {e.pk: frozenset(clubs.get(e.pk, ())) for e in entrants}


def _forbidden_reasons(tournament: Tournament, entrants: list[Entrant]) -> dict[frozenset[int], str]:
    """Forbidden pairings among these entrants (of the tournament, or of its club) → their reason."""
    of_player = {e.player_id: e.pk for e in entrants}
    rows = ForbiddenPair.objects.filter(Q(tournament=tournament) | Q(club_id=tournament.league.club_id),
                                        first_id__in=list(of_player), second_id__in=list(of_player))
    return {frozenset((of_player[r.first_id], of_player[r.second_id])): r.reason for r in rows
            if r.first_id != r.second_id}


def forbidden_pairs(tournament: Tournament, number: int, entrants: list[Entrant]) -> Forbidden:
    """The pairs of ``entrants`` (ids) not to be seated together in round ``number``: the forbidden pairings
    of the tournament and of its club, and clubmates while ``number`` is one of the first
    ``same_club_rounds``. One query when there are none (bots' tournaments), two with clubmates."""
    pairs = set(_forbidden_reasons(tournament, entrants))
    if number <= tournament.same_club_rounds:
        pairs |= clubmate_pairs(_clubs(entrants))
    return frozenset(pairs)


def _history(tournament: Tournament, entrants: list[Entrant], before: int) -> dict[int, rules.History]:
    """Each entrant's history before round ``before``: points, opponents, positions held, byes, team, clubs."""
    opponents: dict[int, list[int]] = defaultdict(list)
    seats: dict[int, list[int]] = defaultdict(list)
    byes: dict[int, int] = defaultdict(int)
    rows = (TableSeat.objects.filter(table__round__tournament=tournament, table__round__number__lt=before)
            .order_by("table__round__number", "table__number", "position")
            .values_list("table_id", "table__kind", "entrant_id", "match_seat"))
    for _table, group in itertools.groupby(rows, key=lambda r: r[0]):
        members = list(group)
        for _t, kind, entrant_id, match_seat in members:
            if kind == Table.Kind.BYE:
                byes[entrant_id] += 1
                continue
            opponents[entrant_id] += [other for _x, _k, other, _s in members if other != entrant_id]
            if match_seat is not None:
                seats[entrant_id].append(match_seat)
    points = dict(Standing.objects.filter(tournament=tournament).values_list("entrant_id", "points"))
    clubs = _clubs(entrants)
    return {e.pk: rules.History(e.pk, int((points.get(e.pk) or 0) * 100), tuple(opponents[e.pk]),
                                tuple(seats[e.pk]), byes[e.pk], e.team_id, clubs.get(e.pk, frozenset()))
            for e in entrants}


def _flag_text(flag: rules.Flag, name: dict[int, str], reasons: dict[frozenset[int], str]) -> str:
    """One flag in words, naming its players."""
    a = name.get(flag.players[0], "?")
    b = name.get(flag.players[1], "?") if len(flag.players) > 1 else ""
    n = flag.count
    if flag.code == "repeat":
        return ngettext("%(a)s and %(b)s have met once before.", "%(a)s and %(b)s have met %(n)s times before.",
                        n) % {"a": a, "b": b, "n": n}
    if flag.code == "seat":
        return _("%(a)s: position %(p)s again (seat imbalance).") % {"a": a, "p": n + 1}
    if flag.code == "first_turn":
        return ngettext("%(a)s moves first again (first in %(n)s game before).",
                        "%(a)s moves first again (first in %(n)s games before).", n) % {"a": a, "n": n}
    if flag.code == "second_bye":
        return ngettext("%(a)s has had a bye before.", "%(a)s has had %(n)s byes before.", n) % {"a": a, "n": n}
    if flag.code == "score_gap":
        return _("%(a)s and %(b)s differ in points by %(gap)s.") % {"a": a, "b": b, "gap": num(Decimal(n) / 100)}
    if flag.code == "forbidden":
        reason = reasons.get(frozenset(flag.players[:2]), "")
        text = _("%(a)s and %(b)s are not to be seated together; the draw could not keep them apart.") % {
            "a": a, "b": b}
        return f"{text} ({reason})" if reason else text
    if flag.code == "team":
        return _("%(a)s and %(b)s play for one team.") % {"a": a, "b": b}
    return _("%(a)s and %(b)s are clubmates.") % {"a": a, "b": b}


def _table_reason(rnd: Round, table: Table, seats: list[TableSeat], history: dict[int, rules.History],
                  places: dict[int, int]) -> str:
    """Why the table is drawn so: seeds in the first round, else places and points before the round."""
    if table.kind == Table.Kind.BYE and seats:
        h = history.get(seats[0].entrant_id)
        return ngettext("A bye: %(n)s bye before; place %(place)s.", "A bye: %(n)s byes before; place %(place)s.",
                        h.byes if h else 0) % {"n": h.byes if h else 0, "place": places.get(seats[0].entrant_id, "–")}
    if rnd.number == 1:
        return _("Seeds %(seeds)s.") % {"seeds": ", ".join(str(s.entrant.seed) for s in seats)}
    return _("Places %(places)s; points %(points)s.") % {
        "places": ", ".join(str(places.get(s.entrant_id, "–")) for s in seats),
        "points": ", ".join(num(Decimal(history[s.entrant_id].score) / 100) if s.entrant_id in history else "0"
                            for s in seats)}


def round_draft(rnd: Round) -> dict:
    """A drafted round for its review: each table (number, bye, its players in seat order with seed, place
    and points, the reason it is drawn so, its flags in words), the changes made, the flags' rules, and
    whether it is still a draft (``draft``: paired, not released)."""
    tournament = rnd.tournament
    entrants = list(tournament.entrants.select_related("player"))
    name = {e.pk: e.player.name for e in entrants}
    history = _history(tournament, entrants, rnd.number)
    reasons = _forbidden_reasons(tournament, entrants)
    forbidden = frozenset(reasons)
    if rnd.number <= tournament.same_club_rounds:
        forbidden |= clubmate_pairs({k: h.clubs for k, h in history.items()})
    places = {}
    ranked = sorted(history.values(), key=lambda h: -h.score)
    for place, h in enumerate(ranked, start=1):
        places[h.id] = place
    setup = format_setup(tournament)
    gap = int(tournament.league.win_points * 100)
    tables = []
    for table in rnd.tables.order_by("number").prefetch_related("seats__entrant__player"):
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        ids = tuple(s.entrant_id for s in seats)
        flags = rules.table_flags(ids, history, bye=table.kind == Table.Kind.BYE, gap=gap, forbidden=forbidden,
                                  number=rnd.number, same_club_rounds=tournament.same_club_rounds,
                                  of_seat=sides_at(setup.sides, len(ids)))
        tables.append({
            "id": table.pk, "number": table.number, "bye": table.kind == Table.Kind.BYE,
            "reason": _table_reason(rnd, table, seats, history, places),
            "seats": [{"entrant_id": s.entrant_id, "name": name.get(s.entrant_id, "?"), "position": s.position,
                       "seed": s.entrant.seed, "place": places.get(s.entrant_id),
                       "points": num(Decimal(history[s.entrant_id].score) / 100) if s.entrant_id in history else "0",
                       "flagged": any(s.entrant_id in f.players for f in flags)} for s in seats],
            "flags": [{"code": f.code, "text": _flag_text(f, name, reasons)} for f in flags],
        })
    return {"round": rnd, "number": rnd.number, "draft": rnd.status == Round.Status.PAIRED, "tables": tables,
            "starts_at": rnd.starts_at, "changes": round_changes(rnd),
            "flag_count": sum(len(t["flags"]) for t in tables),
            "rules": flag_rules(tournament), "pairing_rules": pairing_rules(tournament),
            "min_seats": setup.min_seats, "seats": setup.seats}


def flag_rules(tournament: Tournament) -> list[dict]:
    """Each flag's rule in words, as the draft page's legend shows them."""
    out = []
    for code, rule in rules.FLAG_RULES.items():
        if code == "score_gap":
            text = str(rule) % {"gap": num(tournament.league.win_points)}
        elif code == "club":
            if not tournament.same_club_rounds:
                continue   # the tournament does not keep clubmates apart: the flag never shows
            text = rule % {"rounds": tournament.same_club_rounds}
        else:
            text = str(rule)
        out.append({"code": code, "text": text})
    return out


def change_text(change: RoundChange) -> str:
    """A change to a draft in words (the reader's language): who moved from which table to which."""
    players = change.details.get("players", [])
    if change.kind == RoundChange.Kind.SWAP and len(players) == 2:
        a, b = players
        return _("%(a)s (table %(ta)s) and %(b)s (table %(tb)s) changed places.") % {
            "a": a.get("name"), "ta": a.get("from"), "b": b.get("name"), "tb": b.get("from")}
    if players:
        p = players[0]
        return _("%(a)s moved from table %(from)s to table %(to)s.") % {"a": p.get("name"), "from": p.get("from"),
                                                                        "to": p.get("to")}
    return str(change.get_kind_display())


def round_changes(rnd: Round) -> list[dict]:
    """The changes made to a round's draft, oldest first: what, who made it, when."""
    return [{"kind": c.kind, "text": change_text(c), "by": c.by.get_username() if c.by else "", "at": c.at}
            for c in rnd.changes.select_related("by").order_by("at", "pk")]


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


#: How each format keeps forbidden pairs apart, for the tournament page (others: ``APART_OTHER``).
APART = {
    "swiss": _lazy("Players not to be seated together (forbidden pairings; clubmates in the first rounds the "
                   "tournament sets) meet only when no other draw of the round avoids it: this rule comes before "
                   "every other."),
    "knockout": _lazy("Players not to be seated together (forbidden pairings; clubmates in the first rounds the "
                      "tournament sets) are kept apart in the first round: one of them, never a table's top seed, "
                      "changes places with the player in the same place at the nearest table."),
}
APART_OTHER = _lazy("Players not to be seated together (forbidden pairings; clubmates in the first rounds the "
                    "tournament sets) are kept apart where this format's draw allows; a pair seated together is "
                    "flagged on the round's draft.")


def apart_rule(tournament: Tournament) -> str:
    """How the tournament keeps forbidden pairs apart, in words ("" when it has none to keep apart)."""
    if not tournament.same_club_rounds and not ForbiddenPair.objects.filter(
            Q(tournament=tournament) | Q(club_id=tournament.league.club_id)).exists():
        return ""
    return str(APART.get(tournament.format, APART_OTHER))


def tournament_drafts(tournament: Tournament) -> dict:
    """For the tournament page: the rounds' changes and scheduled starts (``tournament_changes``) and how it
    keeps forbidden pairs apart (``apart_rule``)."""
    return {"rounds": tournament_changes(tournament), "apart": apart_rule(tournament)}


def tournament_changes(tournament: Tournament) -> list[dict]:
    """The rounds that had their draft changed or wait for a scheduled start, for the tournament page."""
    changes: dict[int, list[dict]] = defaultdict(list)
    for c in RoundChange.objects.filter(round__tournament=tournament).select_related("by").order_by("at", "pk"):
        changes[c.round_id].append({"kind": c.kind, "text": change_text(c),
                                    "by": c.by.get_username() if c.by else "", "at": c.at})
    club_zone = _zone(tournament.league.club.time_zone)
    out = []
    for rnd in tournament.round_set.filter(Q(pk__in=list(changes)) | Q(status=Round.Status.PAIRED,
                                                                       starts_at__isnull=False)).order_by("number"):
        waiting = rnd.status == Round.Status.PAIRED and rnd.starts_at is not None
        club_time = timezone.localtime(rnd.starts_at, club_zone) if waiting else None
        out.append({"number": rnd.number, "changes": changes.get(rnd.pk, []),
                    "draft": rnd.status == Round.Status.PAIRED, "starts_at": rnd.starts_at if waiting else None,
                    # the club's wall clock (naive, so that the page does not turn it into the reader's)
                    "club_time": club_time.replace(tzinfo=None) if club_time else None,
                    "club_zone": club_time.tzname() if club_time else ""})
    return out
