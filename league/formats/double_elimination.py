"""Double elimination, two seats: a player is out after two lost matches.

A winners' bracket (a knockout of ``P``, the field rounded up to a power of two, byes to the top seeds as
in ``league.rules.pairing.knockout_slots``) and a losers' bracket, then a grand final between their
winners, and a second final (the bracket reset) when the losers' bracket's winner wins the first, unless
``format_options["bracket_reset"]`` is false.

With ``k`` winners' rounds W1..Wk the losers' bracket has rounds L1..L(2k-2): L1 pairs the losers of W1
(neighbours in bracket order); each even round L(2j-2) seats the winners of the round before against the
losers of Wj, who enter crossed (``crossed``): the first of these orders in which nobody meets a player
they have met before: reversed, as they are, the two halves swapped, each half reversed (else reversed);
each odd round L(2j-1) pairs the winners of the round
before, neighbours. The rounds are played one bracket round per tournament round, in the order
W1, then for j = 2..k: Wj, L(2j-3), L(2j-2); then the grand final and its reset. A bracket round without a
table to play (its slots empty: byes' players' missing losers) is passed over, and a losers' slot whose
other side is empty lets its player through without a match (no table, no points).

Each round is drawn from the tables actually played (``Results.seated``): a table's number is its place in
its bracket round and its stage the bracket ("W", "L", "GF"), so the format replays the event from round 1
to know where it stands.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from league.formats.base import (
    CannotPair,
    Field,
    Results,
    SeatedTable,
    Seating,
    Setup,
    TournamentFormat,
    unknown_settings,
)
from league.rules import pairing
from league.rules.pairing import Forbidden, PairingRules
from league.rules.tiebreaks import best_seat

WINNERS, LOSERS, FINAL = "W", "L", "GF"
ROUND_STAGES = {WINNERS: "winners", LOSERS: "losers", FINAL: "final"}

RULES = (
    _("Winners' bracket: a knockout seeded as the knockout is (byes to the top seeds; seed s meets seed P + 1 - s, "
      "P the field rounded up to a power of two); the winner of a table goes on in it, the loser drops to the "
      "losers' bracket."),
    _("Losers' bracket: a loss there is a player's second, and they are out. Its round 1 pairs the losers of the "
      "winners' round 1, neighbours in bracket order (tables 1 and 2, 3 and 4, ...)."),
    _("Then its rounds alternate: the winners of its last round (slots 1, 2, 3, ... in order) meet the losers of "
      "the next winners' round, who enter in the first of these orders in which nobody meets a player they have "
      "met before: reversed (the loser of the last table against slot 1), as they are, the two halves swapped, "
      "each half reversed; reversed when each order repeats a meeting. Then its winners meet each other, "
      "neighbours (slots 1 and 2, 3 and 4, ...)."),
    _("Order of play: winners' round 1; then for each later winners' round, that round, then the two losers' "
      "rounds it feeds; then the grand final. A round with nothing to play is passed over, and a player whose "
      "opponent's slot is empty goes through without a match."),
    _("Grand final: the winners' bracket's winner against the losers' bracket's winner."),
)
RESET_RULE = _("If the losers' bracket's winner wins the grand final, both have lost once: a second final (the "
               "bracket reset) decides.")
NO_RESET_RULE = _("The grand final decides, whoever wins it (no bracket reset).")
BYE_RULE = _("A bye (winners' round 1, to the top seeds): through without a match, and no points. Passing "
             "through an empty slot of the losers' bracket is no table at all.")


def winners_rounds(field: int) -> int:
    """Winners' rounds for ``field`` players (at least one)."""
    return max(1, pairing.knockout_rounds(field, 2))


def schedule(k: int) -> list[tuple[str, int]]:
    """The bracket rounds in order of play for ``k`` winners' rounds."""
    out = [(WINNERS, 1)]
    for j in range(2, k + 1):
        out += [(WINNERS, j), (LOSERS, 2 * j - 3), (LOSERS, 2 * j - 2)]
    return out + [(FINAL, 1), (FINAL, 2)]


def crossings(losers: list[int | None]) -> list[list[int | None]]:
    """The orders in which the losers of a winners' round may enter the losers' bracket, in order of
    preference: reversed, as they are, the two halves swapped, each half reversed."""
    half = len(losers) // 2
    return [losers[::-1], list(losers), losers[half:] + losers[:half], losers[:half][::-1] + losers[half:][::-1]]


def crossed(alive: list[int | None], losers: list[int | None], met: set[frozenset[int]]) -> list[int | None]:
    """The first of ``crossings`` in which no player of the losers' bracket (``alive``) meets a dropping
    player they have met before (``met``); the first of all when each repeats a meeting."""
    orders = crossings(losers)
    for order in orders:
        if not any(a is not None and b is not None and frozenset((a, b)) in met
                   for a, b in zip(alive, order, strict=True)):
            return order
    return orders[0]


Slot = tuple[int | None, int | None]


@dataclass
class Bracket:
    """Where a double elimination stands: the slots of the bracket round to play next, and what is known."""
    k: int
    reset: bool
    position: int = 0                               # index into ``schedule(k)``
    winners_side: list[int | None] = field(default_factory=list)   # alive in the winners' bracket, in order
    losers_side: list[int | None] = field(default_factory=list)    # alive in the losers' bracket, in order
    dropped: dict[int, list[int | None]] = field(default_factory=dict)  # winners' round → its losers, in order
    champion: int | None = None
    done: bool = False
    #: entrant id → index into the schedule of the last bracket round they had a table in
    reached: dict[int, int] = field(default_factory=dict)
    #: index into the schedule → the tournament round that played it
    played_in: dict[int, int] = field(default_factory=dict)
    losses: dict[int, int] = field(default_factory=dict)
    #: every pair that has met at a table
    met: set[frozenset[int]] = field(default_factory=set)

    def current(self) -> tuple[str, int]:
        return schedule(self.k)[self.position]

    def slots(self, first: list[Slot] | None = None) -> list[Slot]:
        """The tables of the bracket round to play next, as pairs of entrants (None: an empty side)."""
        stage, n = self.current()
        if stage == WINNERS:
            if n == 1:
                return first or []
            w = self.winners_side
            return [(w[i], w[i + 1]) for i in range(0, len(w), 2)]
        if stage == LOSERS:
            if n == 1:
                d = self.dropped.get(1, [])
                return [(d[i], d[i + 1]) for i in range(0, len(d), 2)]
            if n % 2 == 0:
                order = crossed(self.losers_side, self.dropped.get(n // 2 + 1, []), self.met)
                return list(zip(self.losers_side, order, strict=True))
            lo = self.losers_side
            return [(lo[i], lo[i + 1]) for i in range(0, len(lo), 2)]
        wb = self.winners_side[0] if self.winners_side else None
        lb = self.losers_side[0] if self.losers_side else None
        return [(wb, lb)]

    def apply(self, slots: list[Slot], outcome: list[tuple[int | None, int | None]]) -> None:
        """Record the bracket round's outcome, (winner, loser) per slot, and move to the next round."""
        stage, n = self.current()
        for winner, loser in outcome:
            if loser is not None:
                self.losses[loser] = self.losses.get(loser, 0) + 1
                if winner is not None:
                    self.met.add(frozenset((winner, loser)))
        winners = [w for w, _l in outcome]
        if stage == WINNERS:
            self.winners_side = winners
            self.dropped[n] = [lo for _w, lo in outcome]
            if self.k == 1:     # two players: the loser is the losers' bracket
                self.losers_side = self.dropped[n]
        elif stage == LOSERS:
            self.losers_side = winners
        else:
            winner, loser = outcome[0]
            wb, lb = slots[0]
            if n == 1 and self.reset and wb is not None and lb is not None and winner == lb:
                self.winners_side, self.losers_side = [lb], [wb]    # the reset: both have lost once
            else:
                self.champion, self.done = winner, True
        self.position += 1
        if self.position >= len(schedule(self.k)):
            self.done = True


def _passed(slot: Slot) -> tuple[int | None, int | None] | None:
    """The outcome of a slot decided without a table (an empty side), else None."""
    a, b = slot
    if a is None or b is None:
        return (a if a is not None else b), None
    return None


class DoubleElimination(TournamentFormat):
    name = "double_elimination"
    label = _("Double elimination")
    description = _("Two lost matches and a player is out: a winners' bracket, a losers' bracket, and a grand "
                    "final between their winners (with a second final when the losers' side wins the first, "
                    "if the organiser keeps the bracket reset).")

    def options_problem(self, options: Mapping[str, Any], seats: int) -> str | None:
        if seats != 2:
            return str(_("Double elimination is played at tables of two."))
        unknown = unknown_settings(self.label, options, ("bracket_reset",))
        if unknown:
            return unknown
        if not isinstance(options.get("bracket_reset", True), bool):
            return str(_("Double elimination: the bracket reset is true or false."))
        return None

    def _reset(self, setup: Setup) -> bool:
        return bool(setup.options.get("bracket_reset", True))

    def planned_rounds(self, setup: Setup, field: int) -> int:
        """The most rounds it can take (a bracket round each, the reset included); it ends sooner when
        rounds have nothing to play or the first final decides."""
        return len(schedule(winners_rounds(field)))

    def _first(self, starters: Sequence[int]) -> list[Slot]:
        slots = pairing.knockout_slots(len(starters), 2, 2)
        if len(starters) <= 1:
            return []
        return [(starters[a - 1] if a else None, starters[b - 1] if b else None) for a, b in slots]

    def _kept_apart(self, starters: Sequence[int], forbidden: Forbidden) -> list[int]:
        """The seed order with forbidden pairs kept apart in the first round where the seeds allow
        (``pairing.knockout_apart``: a lower-placed player trades places with the same place of the nearest
        table); the bracket then follows from the tables round 1 drew."""
        slots = pairing.knockout_slots(len(starters), 2, 2)
        tables = [[starters[s - 1] for s in slot if s] for slot in slots]
        order: dict[int, int] = {}
        for slot, table in zip(slots, pairing.knockout_apart(tables, forbidden), strict=True):
            for seed, entrant in zip([s for s in slot if s], table, strict=True):
                order[seed] = entrant
        return [order[s] for s in sorted(order)]

    def replay(self, setup: Setup, starters: Sequence[int], results: Results, upto: int) -> tuple[Bracket, list[Slot]]:
        """The bracket after tournament rounds 1..``upto``, and the next bracket round's slots (passing over
        rounds with nothing to play)."""
        state = Bracket(k=winners_rounds(len(starters)), reset=self._reset(setup))
        first = self._first(starters)
        slots = self._advance(state, first)
        for number in range(1, upto + 1):
            if state.done:
                break
            tables = {t.number: t for t in results.seated(number)}
            state.played_in[state.position] = number
            for seated in tables.values():
                for e in seated.entrants:
                    state.reached[e] = state.position
            if not all(t.decided for t in tables.values()):
                break       # the round being played
            outcome = []
            for i, slot in enumerate(slots, start=1):
                passed = _passed(slot)
                table = tables.get(i)
                if table is None or (passed is not None and not table.bye):
                    outcome.append(passed or (None, None))
                    continue
                winner = table.winner
                losers = [e for e in table.entrants if e != winner]
                outcome.append((winner, losers[0] if losers and winner is not None and not table.bye else None))
            state.apply(slots, outcome)
            slots = self._advance(state, first)
        return state, slots

    def _advance(self, state: Bracket, first: list[Slot]) -> list[Slot]:
        """Pass over bracket rounds with no table to play; the slots of the next one that has."""
        while not state.done:
            slots = state.slots(first)
            stage, n = state.current()
            if any(_passed(s) is None or (stage == WINNERS and n == 1 and any(s)) for s in slots):
                return slots
            state.apply(slots, [_passed(s) or (None, None) for s in slots])
        return []

    def pair(self, number: int, setup: Setup, field: Field) -> list[Seating] | None:
        if setup.seats != 2:
            raise CannotPair(_("Double elimination is played at tables of two."))
        starters = field.starters()
        if number == 1 and setup.forbidden:
            starters = self._kept_apart(starters, setup.forbidden)
        elif number > 1:
            starters = self._starters(field, starters)   # the bracket as round 1 drew it
        state, slots = self.replay(setup, starters, field, number - 1)
        if state.done:
            return None
        stage, n = state.current()
        out = []
        for i, slot in enumerate(slots, start=1):
            if _passed(slot) is None:
                out.append(Seating(i, (slot[0], slot[1]), stage=stage))      # type: ignore[arg-type]
            elif stage == WINNERS and n == 1 and any(slot):
                out.append(Seating(i, (next(e for e in slot if e is not None),), bye=True, stage=stage))
        return out

    def round_stage(self, number: int, seatings: Sequence[Seating]) -> str:
        return ROUND_STAGES.get(seatings[0].stage, "") if seatings else ""

    def pairing_rules(self, setup: Setup, field: int | None = None) -> PairingRules:
        rules = [str(r) for r in RULES] + [str(RESET_RULE if self._reset(setup) else NO_RESET_RULE)]
        return {"ordered": False, "rules": rules}

    def bye_rule(self, points: str) -> str:
        return str(BYE_RULE)

    # -- standings ------------------------------------------------------------------------------
    def stages(self, setup: Setup, results: Results, finished: bool) -> dict[int, int] | None:
        """The bracket round each player last had a table in, counted in order of play from 1 (so the
        later a player went out, the higher); the champion one past the last."""
        starters = sorted(results.last_rounds())
        if not starters:
            return {}
        played = sorted(results.round_stages())
        state, _slots = self.replay(setup, self._starters(results, starters), results, len(played))
        out = {e: pos + 1 for e, pos in state.reached.items()}
        if state.done and state.champion is not None:
            out[state.champion] = len(schedule(state.k)) + 1
        return out

    def _starters(self, results: Results, entrants: Sequence[int]) -> list[int]:
        """The seed order, read back from round 1's tables (table by table, the better seed first)."""
        first = results.seated(1)
        if not first:
            return list(entrants)
        order: dict[int, int] = {}
        slots = pairing.knockout_slots(sum(len(t.entrants) for t in first), 2, 2)
        by_number = {t.number: t for t in first}
        for i, slot in enumerate(slots, start=1):
            table = by_number.get(i)
            if table is None:
                continue
            for seed, e in zip([s for s in slot if s], table.entrants, strict=False):
                order[seed] = e
        return [order[s] for s in sorted(order)]

    def stage_label(self, stage: int, setup: Setup) -> str:
        if not stage or not setup.rounds:
            return ""
        k = max(1, setup.rounds // 3)
        plan = schedule(k)
        if stage > len(plan):
            return str(_("Winner"))
        return bracket_round_label(*plan[stage - 1], k=k)

    # -- the two brackets ------------------------------------------------------------------------
    def brackets(self, setup: Setup, rounds: Sequence[Mapping[str, Any]], higher_game_points: bool
                 ) -> list[dict[str, Any]] | None:
        if not rounds:
            return None
        results = _RoundsRead(rounds, higher_game_points)
        starters = self._starters(results, [])
        state, slots = self.replay(setup, starters, results, len(rounds))
        names = {s["entrant_id"]: s for r in rounds for t in r["tables"] for s in t["seats"]}
        plan = schedule(state.k)
        columns: dict[str, list[dict[str, Any]]] = {WINNERS: [], LOSERS: [], FINAL: []}
        by_number = {r["number"]: r for r in rounds}
        for position, (stage, n) in enumerate(plan):
            label = bracket_round_label(stage, n, k=state.k)
            number = state.played_in.get(position)
            if number is not None and number in by_number:
                tables = [{**t, "winner": results.winner_of(t)} for t in by_number[number]["tables"]]
                columns[stage].append({"label": label, "number": number, "tables": tables})
            elif position == state.position and not state.done:
                waiting = [{"waiting": [names.get(e) if e is not None else None for e in slot]}
                           for slot in slots if _passed(slot) is None]
                columns[stage].append({"label": label, "number": None, "tables": waiting})
            elif position > state.position and not state.done and not (stage == FINAL and n == 2):
                columns[stage].append({"label": label, "number": None, "tables": []})
        return [{"key": key, "label": label, "columns": columns[key]}
                for key, label in ((WINNERS, _("Winners' bracket")), (LOSERS, _("Losers' bracket")),
                                   (FINAL, _("Grand final"))) if columns[key]]


def bracket_round_label(stage: str, n: int, k: int) -> str:
    """A bracket round in words."""
    if stage == WINNERS:
        return str(_("Winners' final")) if n == k and k > 1 else str(_("Winners' round %(n)s") % {"n": n})
    if stage == LOSERS:
        return str(_("Losers' final")) if n == 2 * k - 2 and n > 1 else str(_("Losers' round %(n)s") % {"n": n})
    return str(_("Grand final")) if n == 1 else str(_("Grand final, reset"))


class _RoundsRead:
    """The rounds as the page reads them (``tournament_rounds``), asked as ``Results``."""

    def __init__(self, rounds: Sequence[Mapping[str, Any]], higher_game_points: bool):
        self.rounds = {r["number"]: r for r in rounds}
        self.higher = higher_game_points

    def winner_of(self, table: Mapping[str, Any]) -> int | None:
        if not (table["bye"] or table["decided"]):
            return None
        return best_seat([(s["entrant_id"], s["place"], s["game_points"], s["seed"])
                          for s in table["seats"] if not s["forfeited"]], self.higher)

    def seated(self, number: int) -> list[SeatedTable]:
        rnd = self.rounds.get(number)
        if rnd is None:
            return []
        return [SeatedTable(t.get("stage", ""), t["number"], tuple(s["entrant_id"] for s in t["seats"]),
                            self.winner_of(t), t["bye"], t["bye"] or t["decided"]) for t in rnd["tables"]]

    def winners(self, number: int) -> list[int | None]:
        tables = {t.number: t.winner for t in self.seated(number)}
        return [tables.get(i) for i in range(1, max(tables, default=0) + 1)]

    def last_rounds(self) -> dict[int, int]:
        return {s["entrant_id"]: n for n, r in sorted(self.rounds.items()) for t in r["tables"] for s in t["seats"]}

    def round_stages(self) -> dict[int, str]:
        return {n: r.get("stage", "") for n, r in self.rounds.items()}


FORMAT = DoubleElimination()
