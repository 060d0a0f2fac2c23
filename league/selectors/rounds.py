"""A tournament's rounds as its pages read them: progress, each round's tables and their links, the bracket
(its format's ``bracket``), the fixtures still to play, the pairing rules in words, the match terms, who
the running round waits for; and what the formats ask of the rounds played (``Played``)."""
from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Max, Prefetch, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine import registry
from games import store
from games.models import Match, Seat
from games.words.terms import clock_words, options_text
from league.formats.base import SeatedTable, Setup
from league.formats.partners import unit_setup
from league.models import Folded, Reminder, Round, Table, TableSeat, Tournament, Withdrawal
from league.rules.pairing import PairingRules
from league.rules.scoring import sides_of
from league.rules.tiebreaks import best_seat, num, number_cell


def higher_game_points_win(tournament: Tournament) -> bool:
    """Whether more game points are better in the tournament's matches: the engine's ``score_order`` of
    the game with the options its matches are played with (the tournament's, which start as the league's
    and may differ; most games: more is better; LIVOL's own-hand variant and IOTA's kids' variant: fewer)."""
    return registry.get(tournament.game).score_order(tournament.options) == "higher"


def withdrawals(tournament: Tournament) -> dict[int, int]:
    """Entrant id → the round in which they withdrew (0: before the start)."""
    return dict(Withdrawal.objects.filter(entrant__tournament=tournament).values_list("entrant_id", "round_number"))


def format_setup(tournament: Tournament) -> Setup:
    """What the tournament's format reads of it (``league.formats.base.Setup``): the seats per table, the
    game's smallest table, its partnerships at each table size (Karuselis at four: seats 0 and 2 against 1
    and 3), the rounds as set and the format's own settings."""
    seats = tournament.seats_per_table
    sides = tuple((k, of_seat) for k in range(2, seats + 1) if len(set(of_seat := sides_of(tournament.game, k))) < k)
    return Setup(seats=seats, min_seats=max(2, registry.get(tournament.game).MIN_SEATS), sides=sides,
                 rounds=tournament.rounds, options=dict(tournament.format_options or {}))


def table_winner(table: Table) -> int | None:
    """Who goes through a knockout table: the best place, then game points, then the better seed;
    a forfeited player never does."""
    seats = list(table.seats.select_related("entrant").filter(forfeited=False))
    if not seats:
        return None
    return best_seat([(s.entrant_id, s.place, s.game_points, s.entrant.seed) for s in seats],
                     higher_game_points_win(table.round.tournament))


class Played:
    """The rounds a tournament has played, as its format asks for them (``league.formats.base.Results``):
    each read from the database when asked."""

    def __init__(self, tournament: Tournament):
        self.tournament = tournament

    def winners(self, number: int) -> list[int | None]:
        tables = {t.number: table_winner(t) for t in Table.objects.filter(
            round__tournament=self.tournament, round__number=number).select_related("round__tournament")}
        return [tables.get(i) for i in range(1, max(tables, default=0) + 1)]

    def last_rounds(self) -> dict[int, int]:
        return dict(TableSeat.objects.filter(table__round__tournament=self.tournament).values("entrant_id")
                    .annotate(last=Max("table__round__number")).values_list("entrant_id", "last"))

    def seated(self, number: int) -> list[SeatedTable]:
        tables = (Table.objects.filter(round__tournament=self.tournament, round__number=number)
                  .select_related("round__tournament").prefetch_related("seats", "folds").order_by("number"))
        out = []
        for t in tables:
            decided = any(f.projection == Folded.Projection.STANDINGS for f in t.folds.all())
            entrants = tuple(s.entrant_id for s in sorted(t.seats.all(), key=lambda s: s.position))
            bye = t.kind == Table.Kind.BYE
            out.append(SeatedTable(t.stage, t.number, entrants, table_winner(t) if decided or bye else None, bye,
                                   decided or bye))
        return out

    def round_stages(self) -> dict[int, str]:
        return dict(self.tournament.round_set.values_list("number", "stage"))


def tournament_progress(tournament: Tournament) -> dict:
    """Where a tournament stands: round r of R, x of y matches finished (this round and overall)."""
    tables = Table.objects.filter(round__tournament=tournament, kind=Table.Kind.MATCH)
    folded = Q(folds__projection=Folded.Projection.STANDINGS)
    overall = tables.aggregate(total=Count("pk", distinct=True), done=Count("pk", filter=folded, distinct=True))
    current = tournament.round_set.order_by("-number").first()
    this = {"total": 0, "done": 0}
    if current is not None:
        this = tables.filter(round=current).aggregate(total=Count("pk", distinct=True),
                                                      done=Count("pk", filter=folded, distinct=True))
    rounds = tournament.rounds or 0
    if tournament.status == Tournament.Status.FINISHED and current is not None:
        rounds = current.number   # a format that ends itself early (no bracket reset needed): what it played
    closed = tournament.round_set.filter(status=Round.Status.CLOSED).count()
    fraction = 1.0 if tournament.status == Tournament.Status.FINISHED else (
        (closed + (this["done"] / this["total"] if this["total"] and current.status != Round.Status.CLOSED else 0))
        / rounds if rounds else 0.0)
    return {
        "status": tournament.status, "status_label": tournament.get_status_display(),
        "round": current.number if current else 0, "round_status": current.get_status_display() if current else "",
        "rounds": rounds, "finished": this["done"], "total": this["total"],
        "all_finished": overall["done"], "all_total": overall["total"], "percent": round(100 * min(fraction, 1.0)),
        "running": tournament.status == Tournament.Status.RUNNING,
    }


def _seat_rows(table: Table) -> list[dict]:
    out = []
    for s in table.seats.all():
        player = s.entrant.player
        out.append({"name": player.name, "player_id": player.pk, "entrant_id": s.entrant_id,
                    "is_bot": player.shows_as_bot,
                    "seed": s.entrant.seed, "place": s.place, "points": num(s.points),
                    "points_exact": number_cell(s.points)["exact"] if s.points is not None else "",
                    "game_points": s.game_points, "forfeited": s.forfeited, "match_seat": s.match_seat})
    return out


def round_dates(rnd: Round) -> dict:
    """When a round was played: started and closed (as they happened), and the date it was scheduled
    for (``scheduled_on``). ``show_scheduled``: a round not started yet says when it is scheduled; a
    started round says so only when it started later than planned (a round started early, such as one
    started automatically when the one before ended, says nothing about a schedule still ahead).

    ``same_day``: it closed on the day it started (local time), so the close needs only a time."""
    started, closed, scheduled = rnd.started_at, rnd.closed_at, rnd.scheduled_on
    same_day = bool(started and closed
                    and timezone.localtime(started).date() == timezone.localtime(closed).date())
    show_scheduled = bool(scheduled and (not started or scheduled < timezone.localtime(started).date()))
    return {"scheduled_on": scheduled, "show_scheduled": show_scheduled, "started_at": started, "closed_at": closed,
            "same_day": same_day}


def match_link(match: Match | None, user=None) -> dict | None:
    """A tournament table's link for the person reading the page: an ended match is replayed
    ("replay"); a match still to play is "play" for a person who plays a seat in it ("take your seat"
    while the tournament's seat waits for them) and "watch" for everyone else. None: no match yet."""
    if match is None:
        return None
    if match.has_ended:
        return {"kind": "replay", "label": _("replay"), "url": reverse("match_replay", args=[match.pk])}
    mine = None
    if user is not None and getattr(user, "is_authenticated", False):
        mine = next((s for s in match.seats.all() if s.user_id == user.pk), None)
    url = reverse("match_play", args=[match.pk])
    if mine is None or mine.stand_in or mine.status in (Seat.Status.DECLINED, Seat.Status.INVITED):
        return {"kind": "watch", "label": _("watch"), "url": url}
    if mine.status == Seat.Status.SEATED:
        return {"kind": "take_seat", "label": _("take your seat"), "url": url}
    return {"kind": "play", "label": _("play"), "url": url}


def tournament_rounds(tournament: Tournament, user=None) -> list[dict]:
    """Round by round: when it was played, each table's players, their places and points, and the link to
    its match for ``user`` (``match_link``: replay, play, take your seat or watch)."""
    rounds = (tournament.round_set.order_by("number").prefetch_related(
        Prefetch("tables", queryset=Table.objects.order_by("number").select_related("match")
                 .prefetch_related(Prefetch("seats", queryset=TableSeat.objects.order_by("position")
                                            .select_related("entrant__player")), "folds", "match__seats"))))
    out = []
    for rnd in rounds:
        tables = []
        for table in rnd.tables.all():
            decided = any(f.projection == Folded.Projection.STANDINGS for f in table.folds.all())
            match = table.match
            tables.append({
                "id": table.pk, "number": table.number, "kind": table.kind, "bye": table.kind == Table.Kind.BYE,
                "stage": table.stage,
                "decided": decided, "seats": _seat_rows(table),
                "match_id": match.pk if match else None,
                "match_status": match.status if match else None,
                "match_status_label": match.get_status_display() if match else "",
                "play_url": reverse("match_play", args=[match.pk]) if match else None,
                "replay_url": reverse("match_replay", args=[match.pk]) if match and match.has_ended else None,
                "link": match_link(match, user),
            })
        match_tables = [t for t in tables if not t["bye"]]
        out.append({"id": rnd.pk, "number": rnd.number, "status": rnd.status, "status_label": rnd.get_status_display(),
                    "stage": rnd.stage,
                    **round_dates(rnd), "tables": tables,
                    "finished": sum(1 for t in match_tables if t["decided"]), "total": len(match_tables)})
    return out


def tournament_bracket(tournament: Tournament, rounds: list[dict] | None = None) -> list[dict]:
    """The tournament's bracket, one column per round (its format's ``bracket``; empty for a format
    without one). ``rounds``: ``tournament_rounds``, when the caller has read them already."""
    fmt = tournament.format_rules
    rounds = rounds if rounds is not None else tournament_rounds(tournament)
    return fmt.bracket(format_setup(tournament), rounds, higher_game_points_win(tournament),
                       tournament.round_date) or []


def bracket_champion(bracket: list[dict]) -> dict | None:
    """The seat row of whoever won the final (None until it is decided)."""
    if not bracket or not bracket[-1]["groups"] or not bracket[-1]["groups"][0]:
        return None
    final = bracket[-1]["groups"][0][0]
    return next((s for s in final["seats"] if s["winner"]), None)


def tournament_fixtures(tournament: Tournament) -> list[dict]:
    """The rounds still to be paired, with their dates, in a format that fixes its rounds at the start
    (its ``fixtures``: a round robin, a league season)."""
    if tournament.status != Tournament.Status.RUNNING:
        return []
    withdrawn = withdrawals(tournament)
    entrants = list(tournament.entrants.select_related("player").order_by("seed"))
    field = [e for e in entrants if withdrawn.get(e.pk, 1) != 0]
    setup, names = format_setup(tournament), [e.player.name for e in field]
    teams = list(tournament.teams.order_by("seed", "pk"))
    units = unit_setup(setup, [[e.pk for e in field if e.team_id == t.pk] for t in teams], [e.pk for e in field])
    if units is not None:   # a partnership team event draws its teams (``league.formats.partners``)
        setup, names = units, [t.name for t in teams]
    schedule = tournament.format_rules.fixtures(setup, len(names))
    done = tournament.round_set.count()
    out = []
    for number, p in enumerate(schedule, start=1):
        if number <= done:
            continue
        out.append({"number": number, "scheduled_on": tournament.round_date(number),
                    "tables": [[names[i] for i in t] for t in p.tables],
                    "rests": [names[i] for i in p.byes]})
    return out


def pairing_rules(tournament: Tournament) -> PairingRules:
    """How the tournament's tables are drawn, in words (the page's legend: its format's ``pairing_rules``)."""
    field = tournament.entrants.count() - Withdrawal.objects.filter(entrant__tournament=tournament,
                                                                   round_number=0).count()
    return tournament.format_rules.pairing_rules(format_setup(tournament), field=field)


def tournament_terms(tournament: Tournament) -> dict:
    """What a tournament's matches play, in words: the options (as the engine plays them, defaults
    filled in), the clock and, with a clock, what happens when a deadline passes."""
    return {"options": options_text(tournament.game, tournament.options), "clock": clock_words(tournament.clock),
            "has_clock": bool(tournament.clock),
            "rule": tournament.get_timeout_rule_display() if tournament.clock else ""}


def round_waiting(tournament: Tournament) -> list[dict]:
    """Who the current round still waits for, table by table: in each undecided match, a person a
    tournament seated who has not taken the seat yet (since the match was created), or the person
    whose turn it is (since their turn started: ``Seat.turn_started_at`` under a clock, else the match's
    last event), with their deadline when the match has a clock and the last reminder sent to them.
    Names and times only: nothing of a match's hidden state."""
    rnd = tournament.round_set.filter(status=Round.Status.RUNNING).order_by("-number").first()
    if rnd is None:
        return []
    tables = (rnd.tables.filter(kind=Table.Kind.MATCH, match__status__in=[Match.Status.WAITING, Match.Status.RUNNING])
              .exclude(folds__projection=Folded.Projection.STANDINGS).select_related("match").order_by("number")
              .prefetch_related(Prefetch("match__seats", queryset=Seat.objects.select_related("user")
                                         .order_by("index"))))
    out = []
    for table in tables:
        match = table.match
        waiting: list[tuple] = []
        if match.is_waiting:
            waiting = [(s, "take_seat", match.created_at) for s in match.seats.all()
                       if s.status in (Seat.Status.SEATED, Seat.Status.INVITED)]
        else:
            turn = registry.get(match.game).view(store.load_state(match), None).get("turn")
            holder = next((s for s in match.seats.all() if s.index == turn), None)
            if holder is not None and holder.user_id is not None and not holder.policy:
                since = holder.turn_started_at if match.clock and holder.turn_started_at else match.moved_at
                waiting = [(holder, "move", since)]
        for seat, kind, since in waiting:
            out.append({"table": table.number, "match_id": match.pk, "match": str(match), "seat": seat.index,
                        "name": seat.display_name, "user_id": seat.user_id, "kind": kind, "since": since,
                        "deadline": seat.deadline if match.clock else None, "has_clock": bool(match.clock),
                        "play_url": reverse("match_play", args=[match.pk])})
    if out:
        sent = (Reminder.objects.filter(match_id__in={w["match_id"] for w in out}).order_by("sent_at")
                .values_list("match_id", "seat", "sent_at"))
        last = {(m, s): at for m, s, at in sent}
        for w in out:
            w["reminded_at"] = last.get((w["match_id"], w["seat"]))
            w["reminded_just_now"] = _just_now(w["reminded_at"])
            w["since_just_now"] = _just_now(w["since"])
    return out


def _just_now(moment) -> bool:
    """Less than a minute ago (said "just now", not "0 minutes ago")."""
    return bool(moment) and timezone.now() - moment < timedelta(minutes=1)
