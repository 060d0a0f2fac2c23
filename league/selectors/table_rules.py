"""The points of the published tables that the rules elsewhere leave open to two readings, stated as the
code does them (the standings' legend shows those that apply to a tournament; docs/running-a-club.md states
them all; tests/league/test_table_rules.py checks each against the code):

- a withdrawn player in a schedule fixed at the start stays seated, as a forfeit (``league.formats``:
  ``RoundRobin.pair`` seats the starters, ``services.rounds`` marks a withdrawn one's seat forfeited);
- which seat preferences weigh before score gaps in a two-seat Swiss (``pairing.swiss_pairs``);
- Buchholz and Sonneborn–Berger at a table of three or more: one value per round (``tiebreaks``);
- a league's points by place at a smaller table (``scoring.Rules.by_place``);
- Sonneborn–Berger of a round without an opponent, and a tie of two sides (``tiebreaks``, ``scoring``).

The ratings list's shared positions are stated beside the ratings (``players.ranked_ratings``).
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from league.models import Tournament
from league.rules.scoring import Rules
from league.rules.tiebreaks import exact_text
from league.selectors.rounds import format_setup

#: The worked example of a league's list at a smaller table (5, 3, 2, 0 at a table of three: 5, 5/2, 0).
EXAMPLE_LIST = (5, 3, 2, 0)


def _fixed_schedule(tournament: Tournament) -> bool:
    """Whether the format fixes its rounds at the start (a round robin, a double round robin, a season)."""
    return bool(tournament.format_rules.fixtures(format_setup(tournament), 4))


def table_clarifications(tournament: Tournament) -> list[dict]:
    """The statements that apply to ``tournament``'s table, each ``key``, ``title``, ``text``."""
    seats = tournament.seats_per_table
    order = list(tournament.league.tie_breaks or [])
    out = []
    if _fixed_schedule(tournament):
        out.append({"key": "withdrawn_seated", "title": _("Withdrawals in a schedule fixed at the start"), "text": _(
            "Every round of this tournament was fixed at the start. A player who withdraws after the start keeps "
            "their seat at each of their tables still to be played: “not paired again” means no new table, not "
            "an empty seat. Each such table is a forfeit for them (the Ff column), and their opponents score it "
            "as the withdrawals rule says. Only a player who withdraws before the first round is left out of "
            "the schedule.")})
    if tournament.format == "swiss" and seats == 2:
        out.append({"key": "swiss_seats", "title": _("Seats before score gaps"), "text": _(
            "Two seat rules are absolute and weigh before the score gaps: nobody gets three more games in one "
            "seat than in the other, and nobody gets the same seat three times in a row (FIDE's absolute colour "
            "preferences). The milder claims — the seat held once less (FIDE's strong preference) and, with "
            "equal counts, the seat not held last time (mild) — weigh after the score gaps and alike: a pairing "
            "never widens a score gap only to give a player the seat they are due.")})
    if seats >= 3 and {"buchholz", "median_buchholz", "sonneborn_berger"} & set(order):
        out.append({"key": "per_round", "title": _("Buchholz and Sonneborn–Berger at a bigger table"), "text": _(
            "At a table of three or more, each round gives one value: the mean over that round's opponents "
            "(partners are not opponents). Buchholz: the mean of their match points; Sonneborn–Berger: the mean "
            "of each opponent's match points times the result against them (1 above, ½ level, 0 below). A "
            "round counts once whatever the table's size, and median Buchholz leaves out the highest and the "
            "lowest round, not single opponents.")})
    rules = Rules.of(tournament)
    if rules.uses_list:
        example = Rules(two_seat=False, place_points=EXAMPLE_LIST).by_place(3)
        out.append({"key": "smaller_table", "title": _("The list of points at a smaller table"), "text": _(
            "Exactly: of a list of m places, place p of a table of n places takes the list's value at "
            "position 1 + (p − 1) × (m − 1) / (n − 1); between two places of the list, the value on the "
            "straight line between them. So a list of %(list)s gives a table of three %(example)s (position "
            "2½ lies halfway between 3 and 2).") % {
                "list": ", ".join(exact_text(v) for v in EXAMPLE_LIST),
                "example": ", ".join(exact_text(v) for v in example)}})
    if "sonneborn_berger" in order:
        if tournament.league.unplayed_rounds == tournament.league.UnplayedRounds.VIRTUAL:
            text = _("Sonneborn–Berger of a round without an opponent: the player's own match points at the end "
                     "of the event times the round's result (1 for a forfeit won or a bye worth a win or more, ½ "
                     "for a shared first place or a smaller bye, 0 otherwise).")
        else:
            text = _("Sonneborn–Berger of a round without an opponent: 0.")
        out.append({"key": "unplayed_sb", "title": _("Sonneborn–Berger of an unplayed round"), "text": text})
    if seats >= 3:
        if rules.uses_list:
            two = _("there a tie gives each side the mean of the list's first and last points (%(points)s)") % {
                "points": exact_text(sum(rules.by_place(2)) / 2)}
        else:
            two = _("there a tie is a draw: %(draw)s each") % {"draw": exact_text(rules.draw)}
        out.append({"key": "two_places", "title": _("A tie between two sides"), "text": _(
            "“A table of two places” means two sides, not two seats: a table of two players, or a full table "
            "of two partnerships; %(two)s. A tie of two sides at a table of three places or more shares the "
            "mean of the places they cover.") % {"two": two}})
    return out
