"""Karuselis in words: card names, event sentences, move labels, the deal's score table.

Card codes (rules K2): rank ``A 2 … 10 J Q K`` + suit ``S H D C`` ("7H" is 7♥),
jokers ``X20 X15 X11`` ("Joker 20") and the broom ``BR`` ("Broom"; the Latvian
rulebook's "slota" is the translators' business). Suits and numbers are not
translated; the court and ace letters are (a Latvian deck marks them
differently). A build is named by its value and cards, "the build of 6 (2♦ 3♠ A♣)", never by the
id the engine gives it ("b1" is for moves, not people): an ``EventContext`` fed the events before
knows each build's cards; without one, what the event itself says is used, else "a build".

With four seats, seats 0+2 play against 1+3 (K1): a side is named by both its
players ("anna and karlis").
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.words.common import (
    as_int,
    first_place,
    join_list,
    match_winners_with_points,
    name_of,
    row,
    sentences,
    summary,
    target_of,
)

GAME = "karuselis"

#: Every Karuselis event says something a player may want to read.
SILENT: frozenset = frozenset()

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANK = {
    "A": pgettext_lazy("karuselis rank", "A"),
    "J": pgettext_lazy("karuselis rank", "J"),
    "Q": pgettext_lazy("karuselis rank", "Q"),
    "K": pgettext_lazy("karuselis rank", "K"),
}
_SUIT_NAME = {
    "S": pgettext_lazy("karuselis suit", "Spades"),
    "H": pgettext_lazy("karuselis suit", "Hearts"),
    "D": pgettext_lazy("karuselis suit", "Diamonds"),
    "C": pgettext_lazy("karuselis suit", "Clubs"),
}
JOKERS = {"X20": 20, "X15": 15, "X11": 11}
BROOM = "BR"


def _is_card(code: str) -> bool:
    if code in JOKERS or code == BROOM:
        return True
    rank, suit = code[:-1], code[-1:]
    return suit in SUITS and (rank in _RANK or (rank.isdigit() and 2 <= int(rank) <= 10))


def card_name(code: str) -> str:
    if code in JOKERS:
        return pgettext("karuselis card", "Joker %(value)d") % {"value": JOKERS[code]}
    if code == BROOM:
        return pgettext("karuselis card", "Broom")
    if not _is_card(code):
        return code
    rank, suit = code[:-1], code[-1]
    return "%s%s" % (_RANK.get(rank, rank), SUITS[suit])


def card_short(code: str) -> str:
    if code in JOKERS:
        return "★%d" % JOKERS[code]
    if code == BROOM:
        return "🧹"
    return card_name(code)


def colour_name(letter) -> str:
    """The suit's name ("H" → "Hearts")."""
    return str(_SUIT_NAME[letter]) if letter in _SUIT_NAME else str(letter or "")


def value_of(code) -> int | None:
    """A card's value for captures and builds (K3): A 1, 2–10, jokers theirs; courts and the Broom none."""
    code = str(code)
    if code in JOKERS:
        return JOKERS[code]
    rank = code[:-1]
    if rank == "A":
        return 1
    return int(rank) if rank.isdigit() else None


def build_words(value, cards) -> str:
    """A build as people name it: "the build of 6 (2♦ 3♠ A♣)"."""
    if cards:
        return pgettext("karuselis", "the build of %(value)d (%(cards)s)") % {
            "value": as_int(value), "cards": cards_text(cards)}
    if value:
        return pgettext("karuselis", "the build of %(value)d") % {"value": as_int(value)}
    return pgettext("karuselis", "a build")


def build_name(build_id, context=None) -> str:
    """A build by its id, named by what ``context`` knows of it (its value and cards), else "a build"."""
    known = context.build(build_id) if context is not None else None
    if known is None:
        return pgettext("karuselis", "a build")
    return build_words(known.get("value"), known.get("cards"))


def item_name(code: str, context=None) -> str:
    """A table item: a card, or a build named by its value and cards."""
    return card_name(code) if _is_card(code) else build_name(code, context)


def group_text(group, context=None) -> str:
    """One capture group: its cards side by side ("3♣ 4♦"), or a build ("the build of 7 (2♦ 5♣)")."""
    return " ".join(item_name(x, context) for x in group)


def groups_text(groups, context=None) -> str:
    """Every group of a capture, "+" between groups ("7♥ + 3♣ 4♦")."""
    return " + ".join(group_text(g, context) for g in groups)


def cards_text(codes) -> str:
    return " ".join(card_name(c) for c in codes)


def side_name(names, seat: int, seats: int) -> str:
    """A lone player's name, or both partners' names with four seats (K1)."""
    if seats == 4:
        return join_list([name_of(names, seat % 2), name_of(names, seat % 2 + 2)])
    return name_of(names, seat)


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------

def _match_started(e, names):
    options = e.get("options") or {}
    target = as_int(options.get("target"), 120)
    seats = e.get("seats")
    if seats == 4:
        first = npgettext("karuselis", "The match begins: %(side)s against %(other)s, the first side to "
                                       "%(target)d point wins",
                          "The match begins: %(side)s against %(other)s, the first side to "
                          "%(target)d points wins", target) % {
            "side": side_name(names, 0, 4), "other": side_name(names, 1, 4), "target": target}
    else:
        first = npgettext("karuselis", "The match begins: the first to %(target)d point wins",
                          "The match begins: the first to %(target)d points wins", target) % {"target": target}
    deck = options.get("deck")
    without = None
    if deck == "no_x20":
        without = pgettext("karuselis", "Played without the Joker 20")
    elif deck == "no_broom":
        without = pgettext("karuselis", "Played without the Broom")
    elif deck == "small":
        without = pgettext("karuselis", "Played without the Joker 20 and the Broom")
    return sentences(first, without)


def _round_dealt(e, names):
    first = pgettext("karuselis", "Round %(round)d: %(player)s deals") % {
        "round": as_int(e.get("round")), "player": name_of(names, e.get("dealer"))}
    returned = e.get("returned")
    n = len(returned) if isinstance(returned, list) else as_int(returned)
    back = npgettext("karuselis", "%(count)d joker or broom dealt to the table went back into the stock and "
                                  "was replaced",
                     "%(count)d jokers or brooms dealt to the table went back into the stock and were replaced",
                     n) % {"count": n} if n else None
    table = None
    if e.get("table"):
        table = pgettext("karuselis", "On the table: %(cards)s") % {"cards": cards_text(e["table"])}
    hand = pgettext("karuselis", "Your cards: %(cards)s") % {"cards": cards_text(e["hand"])} if e.get("hand") else None
    return sentences(first, back, table, hand)


def _cards_dealt(e, names):
    sizes = e.get("hand_sizes") or [len(h) for h in e.get("hands") or []]
    n = max(sizes) if sizes else 0
    first = npgettext("karuselis", "Everyone gets %(count)d more card", "Everyone gets %(count)d more cards", n) % {
        "count": n}
    hand = pgettext("karuselis", "Your cards: %(cards)s") % {"cards": cards_text(e["hand"])} if e.get("hand") else None
    return sentences(first, hand)


def _build_cards(groups, cards) -> list[str] | None:
    """The cards of the one build a capture takes: every card taken less the loose ones
    (with two builds or more the event does not say which card lay in which)."""
    taken = [x for g in groups for x in g]
    builds = [x for x in taken if not _is_card(x)]
    if len(builds) != 1 or not isinstance(cards, list):
        return None
    rest = list(cards)
    for x in taken:
        if _is_card(x) and x in rest:
            rest.remove(x)
    return rest or None


def _cards_captured(e, names, context=None):
    groups = e.get("groups") or []
    args = {"player": name_of(names, e.get("seat")), "card": card_name(e.get("card", ""))}
    builds = [x for g in groups for x in g if not _is_card(x)]
    known = context is not None and all(context.build(x) is not None for x in builds)
    inside = None if known else _build_cards(groups, e.get("cards"))
    if inside is not None:
        args["groups"] = " + ".join(
            build_words(value_of(e.get("card", "")), inside)
            if len(g) == 1 and not _is_card(g[0]) else group_text(g) for g in groups)
        return pgettext("karuselis", "%(player)s captured %(groups)s with %(card)s") % args
    args["groups"] = groups_text(groups, context)
    if builds and not known:
        n = len(e.get("cards") or [])
        return npgettext("karuselis", "%(player)s captured %(groups)s with %(card)s, taking %(count)d card",
                         "%(player)s captured %(groups)s with %(card)s, taking %(count)d cards", n) % {
            **args, "count": n}
    return pgettext("karuselis", "%(player)s captured %(groups)s with %(card)s") % args


def _build_made(e, names, context=None):
    args = {"player": name_of(names, e.get("seat")), "card": card_name(e.get("card", "")),
            "value": as_int(e.get("value"))}
    if e.get("raised"):
        args["build"] = build_name(e.get("build", ""), context)
        return pgettext("karuselis", "%(player)s raised %(build)s to %(value)d with %(card)s") % args
    args["cards"] = cards_text(e.get("onto") or [])
    return pgettext("karuselis", "%(player)s built %(value)d on %(cards)s with %(card)s") % args


def _card_trailed(e, names):
    return pgettext("karuselis", "%(player)s put %(card)s on the table") % {
        "player": name_of(names, e.get("seat")), "card": card_name(e.get("card", ""))}


def _table_swept(e, names):
    n = len(e.get("cards") or [])
    player = name_of(names, e.get("seat"))
    if not n:
        return pgettext("karuselis", "%(player)s swept the empty table with the Broom") % {"player": player}
    return npgettext("karuselis", "%(player)s swept the table with the Broom, taking %(count)d card",
                     "%(player)s swept the table with the Broom, taking %(count)d cards", n) % {
        "player": player, "count": n}


def _table_collected(e, names):
    n = len(e.get("cards") or [])
    if e.get("seat") is None:
        return npgettext("karuselis", "Nobody captured in this round: the %(count)d card left on the table is "
                                      "set aside",
                         "Nobody captured in this round: the %(count)d cards left on the table are set aside",
                         n) % {"count": n}
    return npgettext("karuselis", "%(player)s captured last and takes the %(count)d card left on the table",
                     "%(player)s captured last and takes the %(count)d cards left on the table", n) % {
        "player": name_of(names, e.get("seat")), "count": n}


def _side_seats(seats: int) -> list[int]:
    """One seat per side: every seat, or 0 and 1 with partnerships."""
    return [0, 1] if seats == 4 else list(range(seats))


def _round_scored(e, names):
    points = e.get("points") or []
    seats = len(points)
    if not seats:
        return pgettext("karuselis", "Round %(round)d is scored") % {"round": as_int(e.get("round"))}
    sides = _side_seats(seats)
    best = max(points[s] for s in sides)
    leaders = [s for s in sides if points[s] == best]
    if len(leaders) == 1:
        return pgettext("karuselis", "Round %(round)d to %(player)s: +%(points)d") % {
            "round": as_int(e.get("round")), "player": side_name(names, leaders[0], seats), "points": best}
    return pgettext("karuselis", "Round %(round)d: a tie at +%(points)d") % {
        "round": as_int(e.get("round")), "points": best}


def _match_ended(e, names):
    first = first_place(e.get("ranking"))
    scores = e.get("scores") or []
    if len(scores) == 4 and len(first) == 2 and first[0] % 2 == first[1] % 2 and first[0] < 4:
        points = as_int(scores[first[0]])
        return npgettext("karuselis", "The match is over: %(players)s win with %(points)d point",
                         "The match is over: %(players)s win with %(points)d points", points) % {
            "players": side_name(names, first[0], 4), "points": points}
    return match_winners_with_points(e, names)


#: The sentences that name builds: with an ``EventContext``, by what the events before said of them.
WORDS_IN_CONTEXT = {
    "cards_captured": _cards_captured,
    "build_made": _build_made,
}

WORDS = {
    "match_started": _match_started,
    "round_dealt": _round_dealt,
    "cards_dealt": _cards_dealt,
    "cards_captured": lambda e, names: _cards_captured(e, names),
    "build_made": lambda e, names: _build_made(e, names),
    "card_trailed": _card_trailed,
    "table_swept": _table_swept,
    "table_collected": _table_collected,
    "round_scored": _round_scored,
    "match_ended": _match_ended,
}


# --------------------------------------------------------------------------
# The deal's score table
# --------------------------------------------------------------------------

def round_summary(e, names, options=None):
    if e.get("type") != "round_scored":
        return None
    points, scores = e.get("points") or [], e.get("scores") or []
    spades, cards = e.get("spades") or [], e.get("cards") or []
    seats = len(points)
    sides = _side_seats(seats)
    leader = max((scores[s] for s in sides), default=None)
    rows = []
    for s in sides:
        n_cards = cards[s] if s < len(cards) else 0
        n_spades = spades[s] if s < len(spades) else 0
        note = ", ".join([
            npgettext("karuselis", "%(count)d card", "%(count)d cards", n_cards) % {"count": n_cards},
            npgettext("karuselis", "%(count)d spade", "%(count)d spades", n_spades) % {"count": n_spades},
        ])
        rows.append(row(seats=[s, s + 2] if seats == 4 else [s], name=side_name(names, s, seats), gain=points[s],
                        total=scores[s] if s < len(scores) else None, note=note,
                        highlight=s < len(scores) and scores[s] == leader, cards=n_cards, spades=n_spades))
    return summary(game=GAME, event=e, round_no=e.get("round"), headline=_round_scored(e, names), rows=rows,
                   target=target_of(options))


# --------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------

def _capture(m, names, context=None):
    return pgettext("karuselis move", "Capture %(groups)s with %(card)s") % {
        "groups": groups_text(m.get("groups") or [], context), "card": card_name(str(m.get("card", "")))}


def _build(m, names, context=None):
    onto = [str(x) for x in m.get("onto") or []]
    args = {"card": card_name(str(m.get("card", ""))), "value": as_int(m.get("value"))}
    if len(onto) == 1 and not _is_card(onto[0]):
        args["build"] = build_name(onto[0], context)
        return pgettext("karuselis move", "Raise %(build)s to %(value)d with %(card)s") % args
    args["cards"] = cards_text(onto)
    return pgettext("karuselis move", "Build %(value)d on %(cards)s with %(card)s") % args


#: The labels that name builds: by their cards, from the table's builds (``EventContext.from_view``).
MOVES_IN_CONTEXT = {
    "capture": _capture,
    "build": _build,
}

MOVES = {
    "capture": lambda m, names: _capture(m, names),
    "build": lambda m, names: _build(m, names),
    "trail": lambda m, names: pgettext("karuselis move", "Trail %(card)s") % {
        "card": card_name(str(m.get("card", "")))},
    "sweep": lambda m, names: pgettext("karuselis move", "Sweep with the Broom"),
}

# --------------------------------------------------------------------------
# Refused moves
# --------------------------------------------------------------------------

#: A sentence for each refusal code Karuselis raises beyond the shared ones (``games.words.SHARED_REFUSALS``).
REFUSALS = {
    "groups_overlap": gettext_lazy("A card cannot be taken twice in one capture."),
    "not_on_table": gettext_lazy("That card is not on the table."),
    "broom_sweeps": gettext_lazy("The Broom does not capture: it sweeps the table."),
    "must_take_build": gettext_lazy("You own a build: you must take it this turn."),
    "court_takes_its_pair": gettext_lazy(
        "A court card takes one card of its rank, or all three when exactly three lie on the table."),
    "bad_group": gettext_lazy("Those cards do not add up to the value of your card."),
    "no_value": gettext_lazy("Court cards and the Broom have no value: they cannot be part of a build."),
    "bad_build": gettext_lazy("Build on loose cards, or on exactly one build."),
    "own_build": gettext_lazy("You cannot raise your own build."),
    "wrong_build_value": gettext_lazy("The build does not add up to that value."),
    "build_too_high": gettext_lazy("A build is worth at most 20."),
    "no_card_for_build": gettext_lazy("You need another card of the build's value in your hand."),
    "broom_never_trailed": gettext_lazy("The Broom is never put on the table: it sweeps."),
    "must_capture_or_build": gettext_lazy("You can capture or build, so you may not put a card on the table."),
    "sweep_needs_broom": gettext_lazy("Only the Broom sweeps the table."),
}
