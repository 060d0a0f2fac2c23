"""Opening a match, seats joining it with their randomness, its start, and the organiser's abort, award and
forfeit of a seat.

A match opens with the server's commitment (``match_opened``: SHA-256 of its secret). Every seat
then joins with a random value of its own (``entropy_contributed``): a person's browser or API
client draws it; a bot's seat, and a person's seat the server fills in (no value sent, or the seat
timed out), gets ``engine.core.server_contribution(secret, seat)``, fixed by the commitment. When
every seat has joined, the engine's ``start`` runs with ``engine.core.match_seed(secret,
contributions)``. Invited people accept (joining) or decline (the match is cancelled); people a
tournament seated take their seat by opening the match. The bots' randomness is keyed by
``engine.bots.bot_key(secret)`` (the opening says ``"bots_keyed_by": "secret"``; matches opened before
that key it by their id: ``bots_key``).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine import registry
from engine.bots import BOTS_KEYED_BY_SECRET, POLICY_NAMES, bot_key, levels_for
from engine.core import is_contribution, match_seed, server_contribution
from engine.record import SEAT_FORFEITED
from games import publish, store
from games.errors import (BadMatchSettings, InvitationClosed, MalformedRequest, MatchError, MatchNotRunning,
                          SeatedTwice, SeatForbidden, UnknownPlayer)
from games.models import (ENTROPY_CONTRIBUTED, MATCH_ABORTED, MATCH_AWARDED, MATCH_OPENED, SEED_REVEALED, Event,
                          Match, Seat)

# Sent on commit when a match has ended (finished, awarded or aborted); ``match_id`` is its id.
match_finished = Signal()
# Sent on commit when a person's turn begins under a clock; ``match_id``, ``seat``, ``deadline``.
turn_waiting = Signal()


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
    from games.clock_rules import check_clock

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
            _contribute(match, index, spec.entropy)
    _start_or_wait(match, wake_bots=wake_bots)
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


def _contribute(match: Match, index: int, value: str | None) -> None:
    """Record a seat's random value (the server's own for it when none is given)."""
    if match.seed_scheme < 2:
        return
    by = "player" if value else "server"
    value = value or server_contribution(match.seed, index)
    store.append_events(match, [{"type": ENTROPY_CONTRIBUTED, "seat": index, "value": value, "by": by}],
                        seat=index, move=None)


def contributions(match: Match) -> list[str]:
    """Every seat's contribution, in seat order (from the recorded events)."""
    found = {e["seat"]: e["value"] for e in Event.objects.filter(match=match, type=ENTROPY_CONTRIBUTED)
             .values_list("payload", flat=True)}
    return [found[i] for i in sorted(found)]


def engine_seed(match: Match) -> str:
    """The seed the engine gets: the secret itself (scheme 1), or ``match_seed(secret, contributions)``."""
    return match.seed if match.seed_scheme < 2 else match_seed(match.seed, contributions(match))


def bots_key(match: Match) -> int | str:
    """The key of the match's bots' randomness (``engine.bots.bot_rng``): ``bot_key(secret)`` for a match
    whose opening says ``"bots_keyed_by": "secret"`` (every match opened since), else its id."""
    key = getattr(match, "_bots_key", None)
    if key is None:
        opened = (Event.objects.filter(match=match, seq=1, type=MATCH_OPENED)
                  .values_list("payload", flat=True).first())
        key = bot_key(match.seed) if (opened or {}).get("bots_keyed_by") == BOTS_KEYED_BY_SECRET else match.pk
        match._bots_key = key
    return key


def _start_or_wait(match: Match, *, wake_bots: bool) -> None:
    """Start the engine once every seat has joined; until then give seated people their deadline."""
    from games.services.clocks import join_deadlines
    from games.services.moves import after_change, settle

    seats = list(match.seats.all())
    if any(s.status != Seat.Status.JOINED for s in seats):
        join_deadlines(match, seats)
        match.save(update_fields=["last_seq", "last_hash", "moved_at"])
        return
    engine_game = registry.get(match.game)
    payloads = engine_game.start(len(seats), engine_seed(match), options=match.options or None,
                                 deck=match.stacked_deck)
    store.append_events(match, payloads, seat=None, move=None)
    match.status = Match.Status.RUNNING
    for seat in seats:
        if seat.user_id is not None:
            publish.notify_user(seat.user_id, "match_started", match=match.pk, game=match.game, seat=seat.index)
    state = engine_game.fold(payloads)
    settle(match, seats, state, mover=None)
    match.save(update_fields=["status", "last_seq", "last_hash", "moved_at", "bots_to_act"])
    store.remember(match, state)
    after_change(match, wake_bots=wake_bots)
    _forfeited_resign(match, wake_bots=wake_bots)


def _forfeited_resign(match: Match, *, wake_bots: bool) -> None:
    """At the start, the seats the organiser forfeited while the match waited resign, in seat order
    (``seat_forfeited`` is followed by the seat's resignation, as the audit checks)."""
    from games.services.moves import record_move

    forfeited = sorted(set(Event.objects.filter(match=match, type=SEAT_FORFEITED).values_list("seat", flat=True)))
    engine_game = registry.get(match.game)
    for index in forfeited:
        if not match.is_running:
            return
        state = store.load_state(match)
        if index in engine_game.view(state, None).get("resigned", ()):
            continue
        move = {"type": "resign"}
        record_move(match, state, index, move, engine_game.play(state, index, move), by_bot=True,
                    wake_bots=wake_bots)


def challenge_create(*, challenger, opponents: list[str], game: str, seats: int | None = None, bots: str = "greedy",
                     options: dict | None = None, clock: dict | None = None, entropy: str | None = None) -> Match:
    """A challenge: ``challenger`` at the table, each opponent (a username: a person or an outside bot)
    invited, bots in the seats left. Raises ``UnknownPlayer``, ``SeatedTwice``, ``BadMatchSettings``."""
    from django.contrib.auth import get_user_model

    from games.services.limits import challenges_allowed, new_match_allowed, one_hand_each

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
    _contribute(match, seat.index, entropy)
    _start_or_wait(match, wake_bots=wake_bots)
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
    _end(match, Match.Status.CANCELLED, event)
    return match


@transaction.atomic
def match_abort(*, match_id: int, by=None, reason: str = "") -> Match:
    """Stop a waiting or running match (an organiser's decision): recorded as an event, and the
    secret is revealed so the match stays auditable. A match that has ended is left as it is."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.is_waiting or match.is_running:
        _end(match, Match.Status.ABORTED, {"type": MATCH_ABORTED, "reason": reason[:200] or "organiser",
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
    _end(match, Match.Status.FINISHED, {"type": MATCH_AWARDED, "ranking": ranking, "reason": reason[:200],
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
    from games.services.moves import record_move

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
        _contribute(match, seat, None)
    _start_or_wait(match, wake_bots=True)
    return match


def _end(match: Match, status: str, event: dict, result: dict | None = None) -> None:
    """Record the organiser's (or a declining person's) ending and the secret; nothing more
    will be recorded. The caller holds the match row lock."""
    store.append_events(match, [event], seat=event.get("seat"), move=None)
    store.append_events(match, [{"type": SEED_REVEALED, "seed": match.seed}], seat=None, move=None)
    match.status, match.finished_at, match.bots_to_act = status, timezone.now(), False
    fields = ["status", "finished_at", "bots_to_act", "last_seq", "last_hash", "moved_at"]
    if result is not None:
        match.result = result
        fields.append("result")
    match.save(update_fields=fields)
    match.seats.update(deadline=None)
    announce_end(match, event)
    if status != Match.Status.CANCELLED:
        match_id = match.pk
        transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id))


def announce_end(match: Match, event: dict | None = None) -> None:
    """On commit, the account news of an ending, for the people (and outside bots) at the table: a declined
    challenge (``challenge_declined``, to the others, with the decliner's ``seat`` and ``message``), a
    withdrawn one (``challenge_withdrawn``, to the invited), else ``match_finished`` (``status``, the
    ``reason`` of an abort, and ``ranking``)."""
    event = event or {}
    reason = event.get("reason")
    base = {"match": match.pk, "game": match.game}
    for seat in match.seats.filter(user__isnull=False).only("index", "user_id", "status"):
        if reason == "declined" and match.status == Match.Status.CANCELLED:
            if seat.index != event.get("seat"):
                publish.notify_user(seat.user_id, "challenge_declined", **base, seat=seat.index,
                                    by_seat=event.get("seat"), message=event.get("message", ""))
        elif reason == "withdrawn":
            if seat.user_id != match.created_by_id:
                publish.notify_user(seat.user_id, "challenge_withdrawn", **base, seat=seat.index)
        else:
            publish.notify_user(seat.user_id, "match_finished", **base, seat=seat.index, status=match.status,
                                reason=reason if match.status != Match.Status.FINISHED else None,
                                ranking=(match.result or {}).get("ranking"))
