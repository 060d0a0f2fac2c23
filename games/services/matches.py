"""Opening a match, seats joining it with their randomness, declining, and the organiser's abort, award and
forfeit of a seat.

A match opens with the server's commitment and its seats: people at the table, invited people (who
accept by joining, or decline: the match is cancelled), people a tournament seated (who take their seat
by opening the match), and bots. Each seat's random value, the start and the bots' key are
``games.services.opening``; the end of a match is recorded by ``games.services.recording``.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from engine import registry
from engine.bots import BOTS_KEYED_BY_SECRET, POLICY_NAMES, levels_for
from engine.core import is_contribution
from engine.record import SEAT_FORFEITED
from games import publish, store
from games.clock_rules import check_clock
from games.errors import (
    BadMatchSettings,
    InvitationClosed,
    MalformedRequest,
    MatchError,
    MatchNotRunning,
    SeatedTwice,
    SeatForbidden,
    UnknownPlayer,
)
from games.models import MATCH_ABORTED, MATCH_AWARDED, MATCH_OPENED, Match, Seat
from games.services.limits import challenges_allowed, new_match_allowed, one_hand_each
from games.services.opening import match_start_or_wait, seat_contribute
from games.services.recording import record_end, record_move


@dataclass(frozen=True)
class SeatSpec:
    """Who holds a seat: a user, or a bot policy (``"random"``, ``"greedy"``, …).

    A person is at the table from the start (``entropy``: the random value their browser or
    client drew; without one the server contributes for them), or ``invite``: asked to accept or
    decline, or ``seated``: put there by a tournament, taking the seat by opening the match."""
    user: object | None = None
    bot: str = ""
    name: str = ""
    invite: bool = False
    seated: bool = False
    entropy: str | None = None

    def __post_init__(self):
        if (self.user is None) == (not self.bot):
            raise ValueError("a seat is held by exactly one of a user or a bot")
        if self.bot and self.bot not in POLICY_NAMES:
            raise ValueError(f"unknown bot policy {self.bot!r}")
        if self.bot and (self.invite or self.seated or self.entropy):
            raise ValueError("a bot is at the table from the start")
        if self.invite and self.seated:
            raise ValueError("a seat is either an invitation or a tournament's seat")
        if self.entropy is not None and not is_contribution(self.entropy):
            raise ValueError("a seat's random value is 16 to 128 hex digits")

    @property
    def status(self) -> str:
        if self.invite:
            return Seat.Status.INVITED
        if self.seated:
            return Seat.Status.SEATED
        return Seat.Status.JOINED


@transaction.atomic
def match_create(*, game: str, seats: list[SeatSpec], options: dict | None = None, seed: str | None = None,
                 deck: list[str] | None = None, created_by=None, clock: dict | None = None,
                 timeout_rule: str = Match.TimeoutRule.BOT, wake_bots: bool = True,
                 secret: str | None = None) -> Match:
    """Open a match: its seats, the commitment, the contributions of the seats at the table, and —
    when nobody is still to accept or take a seat — the engine's opening events.

    ``seed`` fixes the engine's seed (tests, benchmarks; no contributions are then asked for);
    without it the server draws a secret and the seats' randomness goes into every shuffle.
    ``secret`` gives the server's secret instead of drawing it (a seeded bot tournament, for tests and
    demos only: a secret anyone can derive is no secret); the seats' randomness goes in as usual.
    Raises ``ValueError`` for an unknown game, bad options, a bad seat count, a deck that is not a
    permutation of the game's cards or a bad clock; ``SeatedTwice`` for a person in two seats.
    ``wake_bots=False`` leaves the bots for the caller to run (a benchmark, a tournament task).
    """
    engine_game = registry.get(game)
    missing = sorted({s.bot for s in seats if s.bot and s.bot not in levels_for(game)})
    if missing:
        raise ValueError(f"{game} has no {', '.join(missing)} bots (it has {', '.join(levels_for(game))})")
    people = [s.user.pk for s in seats if s.user is not None]
    if len(set(people)) != len(people):
        raise SeatedTwice()
    engine_game.start(len(seats), "options-check", options=options, deck=deck)  # ValueError before writing
    check_clock(clock)
    if timeout_rule not in Match.TimeoutRule.values:
        raise ValueError(f"unknown timeout rule {timeout_rule!r}")
    if seed and secret:
        raise ValueError("a match has either a fixed engine seed or a given secret")
    secret = seed or secret or secrets.token_hex(32)
    scheme = 1 if seed else 2
    match = Match.objects.create(game=game, options=dict(options or {}), status=Match.Status.WAITING, seed=secret,
                                 seed_commitment=store.seed_commitment(secret), seed_scheme=scheme,
                                 stacked_deck=deck, created_by=created_by, clock=clock or None,
                                 timeout_rule=timeout_rule)
    Seat.objects.bulk_create([Seat(match=match, index=i, user=s.user, bot=s.bot, name=s.name, status=s.status)
                              for i, s in enumerate(seats)])
    store.append_events(match, [{"type": MATCH_OPENED, "game": game, "options": match.options,
                                 "players": [seat_label(i, s) for i, s in enumerate(seats)],
                                 "clock": match.clock, "timeout_rule": timeout_rule,
                                 "commitment": match.seed_commitment, "seed_scheme": scheme,
                                 "bots_keyed_by": BOTS_KEYED_BY_SECRET}], seat=None, move=None)
    for index, spec in enumerate(seats):
        if spec.status == Seat.Status.JOINED:
            seat_contribute(match, index, spec.entropy)
    match_start_or_wait(match, wake_bots=wake_bots)
    for i, spec in enumerate(seats):
        if spec.seated:
            publish.notify_user(spec.user.pk, "seated", match=match.pk, game=game, seat=i)
    for i, spec in enumerate(seats):
        if spec.invite:
            publish.notify_user(spec.user.pk, "invited", match=match.pk, game=game, seat=i,
                                by=created_by.get_username() if created_by is not None else None)
    return match


def seat_label(index: int, spec: SeatSpec) -> dict:
    """A seat as the opening event publishes it: its number, name and kind (a bot's policy)."""
    name = spec.name or (spec.user.get_username() if spec.user is not None else f"{spec.bot} bot {index}")
    return {"seat": index, "name": name, "kind": "bot" if spec.bot else "person", "bot": spec.bot or None}


def challenge_create(*, challenger, opponents: list[str], game: str, seats: int | None = None, bots: str = "greedy",
                     options: dict | None = None, clock: dict | None = None, entropy: str | None = None) -> Match:
    """A challenge: ``challenger`` at the table, each opponent (a username: a person or an outside bot)
    invited, bots in the seats left. Raises ``UnknownPlayer``, ``SeatedTwice``, ``BadMatchSettings``."""
    new_match_allowed(challenger)  # every attempt counts, refused ones too: no listing of usernames
    found = {u.get_username(): u for u in get_user_model().objects.filter(username__in=opponents, is_active=True)}
    missing = [name for name in opponents if name not in found]
    if missing:
        raise UnknownPlayer(missing=len(missing))
    one_hand_each([challenger, *found.values()])
    challenges_allowed(found.values(), by=challenger)
    total = seats or len(opponents) + 1
    if total < len(opponents) + 1:
        raise BadMatchSettings(_("More people than seats."))
    specs = ([SeatSpec(user=challenger, entropy=entropy)] + [SeatSpec(user=found[n], invite=True) for n in opponents]
             + [SeatSpec(bot=bots) for _ in range(total - len(opponents) - 1)])
    try:
        return match_create(game=game, seats=specs, options=options, clock=clock, created_by=challenger)
    except ValueError as exc:
        raise BadMatchSettings(str(exc)) from None


@transaction.atomic
def seat_join(*, match_id: int, user, entropy: str | None = None, wake_bots: bool = True) -> Match:
    """A person takes their seat (accepting an invitation, or opening a tournament's match) with
    the random value their browser or client drew; the match starts when it was the last seat.
    Joining again changes nothing."""
    if entropy is not None and not is_contribution(entropy):
        raise MalformedRequest(_("A seat's random value is 16 to 128 hex digits."))
    match = Match.objects.select_for_update().get(pk=match_id)
    seat = match.seats.filter(user=user).first() if getattr(user, "is_authenticated", False) else None
    if seat is None:
        raise SeatForbidden()
    if seat.status == Seat.Status.JOINED:
        return match
    if seat.status == Seat.Status.DECLINED or not match.is_waiting:
        raise InvitationClosed()
    seat.status, seat.deadline = Seat.Status.JOINED, None
    seat.save(update_fields=["status", "deadline"])
    seat_contribute(match, seat.index, entropy)
    match_start_or_wait(match, wake_bots=wake_bots)
    return match


@transaction.atomic
def seat_decline(*, match_id: int, user, reason: str = "") -> Match:
    """An invited person declines: the match never starts (cancelled), and says why (``reason``,
    optional, at most 200 characters: recorded in the event, which the challenger reads)."""
    match = Match.objects.select_for_update().get(pk=match_id)
    seat = match.seats.filter(user=user).first() if getattr(user, "is_authenticated", False) else None
    if seat is None:
        raise SeatForbidden()
    if seat.status != Seat.Status.INVITED or not match.is_waiting:
        raise InvitationClosed()
    seat.status = Seat.Status.DECLINED
    seat.save(update_fields=["status"])
    event = {"type": MATCH_ABORTED, "reason": "declined", "seat": seat.index}
    if reason.strip():
        event["message"] = reason.strip()[:200]
    record_end(match, Match.Status.CANCELLED, event)
    return match


@transaction.atomic
def match_abort(*, match_id: int, by=None, reason: str = "") -> Match:
    """Stop a waiting or running match (an organiser's decision): recorded as an event, and the
    secret is revealed so the match stays auditable. A match that has ended is left as it is."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.is_waiting or match.is_running:
        record_end(match, Match.Status.ABORTED, {"type": MATCH_ABORTED, "reason": reason[:200] or "organiser",
                                           "by": by.get_username() if by is not None else None})
    return match


@transaction.atomic
def match_award(*, match_id: int, ranking: list[list[int]], by=None, reason: str = "") -> Match:
    """The organiser decides a waiting or running match's result: ``ranking`` places every seat
    once, best first (tied seats share a place). Recorded as an event; the result is flagged."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if not (match.is_waiting or match.is_running):
        raise MatchNotRunning()
    n = match.seats.count()
    flat = [s for place in ranking if isinstance(place, list) for s in place]
    if (not isinstance(ranking, list) or not all(isinstance(p, list) and p for p in ranking)
            or sorted(flat) != list(range(n)) or any(type(s) is not int for s in flat)):
        raise MalformedRequest(_("A ranking places every seat once, best first."))
    scores = None
    if match.is_running:
        view = registry.get(match.game).view(store.load_state(match), None)
        scores = view.get("scores") or view.get("lives")
    result = {"ranking": ranking, "scores": list(scores) if scores else [0] * n, "awarded": True}
    record_end(match, Match.Status.FINISHED, {"type": MATCH_AWARDED, "ranking": ranking, "reason": reason[:200],
                                        "by": by.get_username() if by is not None else None}, result=result)
    return match


@transaction.atomic
def seat_forfeit(*, match_id: int, seat: int, by=None) -> Match:
    """The organiser forfeits a person's seat of a waiting or running match (a round waits for
    someone who does not come or does not move): recorded as ``seat_forfeited``, then the seat resigns
    (it ranks last; a bot plays it on for the others where the match goes on). In a waiting match
    the seat is first marked at the table, with the server's contribution for it; the match starts
    if everyone else is there, and the seat resigns at the start (now, or when the last one comes).
    Raises ``MatchNotRunning`` for a match that has ended, ``MatchError`` for a seat that is not a
    person's still playing. ``by`` (who decided) is not in the event: events name no people."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if not (match.is_waiting or match.is_running):
        raise MatchNotRunning()
    row = match.seats.filter(index=seat).first()
    if row is None or row.user_id is None or row.stand_in or row.status == Seat.Status.DECLINED:
        raise MatchError(_("Only a seat a person still plays can be forfeited."))
    event = {"type": SEAT_FORFEITED, "seat": seat, "by": "organiser"}
    if match.is_running:
        engine_game = registry.get(match.game)
        state = store.load_state(match)
        if seat in engine_game.view(state, None).get("resigned", ()):
            raise MatchError(_("Only a seat a person still plays can be forfeited."))
        move = {"type": "resign"}
        record_move(match, state, seat, move, engine_game.play(state, seat, move), by_bot=True, wake_bots=True,
                    lead=(event,))
        return match
    store.append_events(match, [event], seat=seat, move=None)
    if row.status != Seat.Status.JOINED:
        row.status, row.deadline = Seat.Status.JOINED, None
        row.save(update_fields=["status", "deadline"])
        seat_contribute(match, seat, None)
    match_start_or_wait(match, wake_bots=True)
    return match
