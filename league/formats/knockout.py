"""Knockout: single elimination. The winner of each table goes through, until one is left
(``league.rules.pairing.knockout_slots`` for the first round, ``knockout_next`` after it). The standings rank
by the stage reached, and the page draws the bracket."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from league.formats.base import CannotPair, Field, Results, Seating, Setup, TournamentFormat
from league.rules import pairing
from league.rules.pairing import PairingRules
from league.rules.tiebreaks import best_seat

BYE_RULE = _("A bye: through to the next round without a match, and no points.")


def stage_label(stage: int, rounds: int, seats: int) -> str:
    """Stage ``stage`` of ``rounds`` in words: a round's name, and past the final the winner."""
    if not stage:
        return ""
    if stage > rounds:
        return str(_("Winner"))
    if stage == rounds:
        return str(_("Final"))
    if seats == 2 and stage == rounds - 1:
        return str(_("Semi-final"))
    if seats == 2 and stage == rounds - 2:
        return str(_("Quarter-final"))
    return str(_("Round %(n)s") % {"n": stage})


class Knockout(TournamentFormat):
    name = "knockout"
    label = _("Knockout")
    description = _("Single elimination: the winner of each table goes through to the next round, until one "
                    "player is left.")

    def planned_rounds(self, setup: Setup, field: int) -> int:
        return pairing.knockout_rounds(field, setup.seats)

    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        if number == 1:
            seeds = field.starters()
            slots = pairing.knockout_slots(len(seeds), setup.seats, setup.min_seats)
            groups = [[seeds[s - 1] for s in slot if s is not None] for slot in slots]
            if any(1 < len(g) < setup.min_seats for g in groups):
                raise CannotPair(ngettext(
                    "Players: %(n)s. Some first-round tables would have fewer than %(min)s seat; add or remove "
                    "players.",
                    "Players: %(n)s. Some first-round tables would have fewer than %(min)s seats; add or remove "
                    "players.", setup.min_seats) % {"n": len(seeds), "min": setup.min_seats})
            if setup.forbidden:
                groups = [list(g) for g in pairing.knockout_apart(groups, setup.forbidden)]
        else:
            groups = [[w for w in slot if w is not None]
                      for slot in pairing.knockout_next(field.winners(number - 1), setup.seats)]
        # a table keeps its bracket position as its number, so the next round can find it
        return [Seating(i, tuple(group), bye=len(group) == 1) for i, group in enumerate(groups, start=1) if group]

    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        return pairing.knockout_rules()

    def bye_rule(self, points: str) -> str:
        return str(BYE_RULE)

    def stages(self, setup: Setup, results: Results, finished: bool) -> dict[int, int] | None:
        """The last round each player reached; the champion, once the final is decided, one more."""
        reached = results.last_rounds()
        if finished and setup.rounds:
            champion = next(iter(results.winners(setup.rounds)), None)
            if champion is not None:
                reached[champion] = setup.rounds + 1
        return reached

    def stage_label(self, stage: int, setup: Setup) -> str:
        return stage_label(stage, setup.rounds or 0, setup.seats)

    def bracket(self, setup: Setup, rounds: Sequence[Mapping[str, Any]], higher_game_points: bool,
                round_date: Callable[[int], date | None]) -> list[dict[str, Any]] | None:
        """One column per round, each a list of slots in bracket order.

        Table k of a round feeds table ceil(k / seats) of the next (``pairing.knockout_next``), so the
        slots of a column come in groups of ``seats`` that feed one slot of the next column (``next``);
        drawn with every slot of a column the same height, the connector lines meet in the middle.
        A slot holds its table (the seats, who goes through marked ``winner``) or, in a round not paired
        yet, the players already known to reach it (``waiting``; ``None`` for a table still to finish).
        ``tables`` lists the column's tables, each with its ``winner`` (an entrant id).
        """
        seats = setup.seats
        total = setup.rounds or len(rounds)
        by_number = {r["number"]: r for r in rounds}
        columns: list[dict[str, Any]] = []
        previous: list[dict[str, Any]] = []  # the previous column's slots
        for number in range(1, total + 1):
            rnd = by_number.get(number)
            tables = {t["number"]: t for t in rnd["tables"]} if rnd else {}
            size = max(seats ** (total - number), max(tables, default=0))
            slots: list[dict[str, Any]] = []
            tables_out: list[dict[str, Any]] = []
            for n in range(1, size + 1):
                feeders = [f for f in previous[(n - 1) * seats:n * seats] if f["live"]]
                slot: dict[str, Any] = {
                    "round": number, "number": n, "next": (n - 1) // seats + 1 if number < total else None,
                    "table": None, "seats": [], "winner": None, "decided": False, "waiting": [], "live": False}
                table = tables.get(n)
                if table is not None:
                    winner = None
                    if table["bye"] or table["decided"]:
                        winner = best_seat([(s["entrant_id"], s["place"], s["game_points"], s["seed"])
                                            for s in table["seats"] if not s["forfeited"]], higher_game_points)
                    seat_rows = [{**s, "winner": s["entrant_id"] == winner} for s in table["seats"]]
                    slot.update(table=table, seats=seat_rows, winner=winner, decided=winner is not None, live=True)
                    tables_out.append({**table, "seats": seat_rows, "winner": winner})
                elif rnd is None and feeders:
                    slot.update(live=True, waiting=[next((s for s in f["seats"] if s["winner"]), None)
                                                    for f in feeders])
                slots.append(slot)
            previous = slots
            if rnd:
                dates = {k: rnd[k] for k in ("scheduled_on", "show_scheduled", "started_at", "closed_at", "same_day")}
            else:
                scheduled = round_date(number)
                dates = {"scheduled_on": scheduled, "show_scheduled": bool(scheduled), "started_at": None,
                         "closed_at": None, "same_day": False}
            columns.append({
                "number": number, "label": stage_label(number, total, seats), "paired": rnd is not None,
                "status_label": rnd["status_label"] if rnd else "", **dates, "tables": tables_out,
                "groups": [slots[i:i + seats] for i in range(0, len(slots), seats)] if number < total else [slots],
            })
        return columns


FORMAT = Knockout()
