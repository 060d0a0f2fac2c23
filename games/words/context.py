"""What a sentence needs from the events before it.

The log is built from one seat's feed, one event at a time; a few sentences depend on what came
before in that feed:

- a resignation the seat never chose: ``seat_resigned`` after the clocks' ``seat_timed_out`` with
  ``"then": "resign"`` (the seat was given up after its timeouts in a row), after a no-show's
  ``seat_timed_out`` with ``"phase": "join"`` (it was not taken in time), or after the organiser's
  ``seat_forfeited``;
- a run of timeouts ("in a row"): a seat's own move ends it, as the clocks count it;
- Karuselis builds, named by their cards and value ("the build of 7 (2♦ 5♣)"), never by the id the
  engine gives them.

``EventContext`` remembers those: ``words.event_words(game, event, names, context)`` reads it and
then notes the event (``see``); whoever cuts the feed into moves says where a move begins
(``move_started``). Without a context the sentences are the plain ones ("janis resigned").
"""
from __future__ import annotations

#: Why a seat's resignation was not its own choice, as ``EventContext.resigned_because`` says it.
TIMEOUTS, NO_SHOW, FORFEIT = "timeouts", "no_show", "forfeit"


class EventContext:
    """The memory of one seat's feed, in order (see the module's docstring)."""

    def __init__(self, builds: dict | None = None):
        self.previous: dict | None = None
        self.streak: dict[int, int] = {}
        self.pending: dict[int, tuple[str, int]] = {}
        #: Karuselis: build id -> {"cards": [codes], "value": n, "owner": seat}
        self.builds: dict[str, dict] = dict(builds or {})

    @classmethod
    def from_view(cls, view: dict | None) -> EventContext:
        """A context that knows the builds on a Karuselis table (``view["table"]["builds"]``): for the
        labels of the moves that take or raise them."""
        table = (view or {}).get("table") if isinstance(view, dict) else None
        builds = {}
        if isinstance(table, dict):
            for b in table.get("builds") or []:
                if isinstance(b, dict) and b.get("id"):
                    builds[str(b["id"])] = {"cards": list(b.get("cards") or []), "value": b.get("value"),
                                            "owner": b.get("owner")}
        return cls(builds)

    # -- what a sentence asks ------------------------------------------------------------------------
    def resigned_because(self, seat) -> tuple[str, int] | None:
        """Why ``seat`` resigns now, if it was not its own choice: ``(TIMEOUTS, n in a row)``,
        ``(NO_SHOW, 0)`` or ``(FORFEIT, 0)``; None for a Resign pressed."""
        return self.pending.get(seat)

    def build(self, build_id) -> dict | None:
        return self.builds.get(str(build_id))

    # -- what the feed says --------------------------------------------------------------------------
    def move_started(self, seat) -> None:
        """A move of ``seat`` begins. A move right after the clocks' timeout of that seat is the one the
        rule made for it; any other move of the seat is its own, and ends its run of timeouts."""
        if seat is None:
            return
        p = self.previous or {}
        if not (p.get("type") == "seat_timed_out" and p.get("seat") == seat):
            self.streak.pop(seat, None)

    def see(self, event: dict) -> None:
        """Note ``event`` (after its sentence was made)."""
        if not isinstance(event, dict):
            return
        kind, seat = event.get("type"), event.get("seat")
        if kind == "seat_timed_out":
            if event.get("phase") == "join":
                self.pending[seat] = (NO_SHOW, 0)
            else:
                self.streak[seat] = self.streak.get(seat, 0) + 1
                if event.get("then") == "resign":
                    self.pending[seat] = (TIMEOUTS, self.streak[seat])
        elif kind == "seat_forfeited":
            self.pending[seat] = (FORFEIT, 0)
        elif kind == "seat_resigned":
            self.pending.pop(seat, None)
        self._karuselis(kind, event)
        self.previous = event

    def _karuselis(self, kind, e: dict) -> None:
        if kind == "build_made" and e.get("build"):
            bid = str(e["build"])
            card = e.get("card")
            if e.get("raised"):
                before = self.builds.get(bid, {}).get("cards", [])
                cards = list(before) + ([card] if card else [])
            else:
                cards = [str(c) for c in e.get("onto") or []] + ([card] if card else [])
            self.builds[bid] = {"cards": cards, "value": e.get("value"), "owner": e.get("seat")}
        elif kind == "cards_captured":
            for group in e.get("groups") or []:
                for x in group if isinstance(group, list) else []:
                    self.builds.pop(str(x), None)
        elif kind in ("table_swept", "table_collected", "round_dealt"):
            self.builds.clear()
