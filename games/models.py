"""Matches, seats and the append-only, hash-chained event store.

Writes go only through ``games.services``; the database refuses UPDATE and
DELETE of events on PostgreSQL (a pgtrigger ``Protect`` trigger).
"""
from __future__ import annotations

import pgtrigger
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from engine.bots import levels_for
from games.kits import GAME_LABELS, game_choices

# The bots' levels, weakest first (``engine.bots.POLICY_NAMES``), as a person reads them.
BOT_LEVELS = {"random": _("random"), "greedy": _("greedy"), "search-easy": _("searching, easy"),
              "search": _("searching"), "search-strong": _("searching, strong")}
BOT_CHOICES = list(BOT_LEVELS.items())


def bot_choices(game: str) -> list[tuple[str, str]]:
    """The levels ``game`` has bots for (``engine.bots.levels_for``), weakest first, as a person reads them."""
    return [(level, BOT_LEVELS.get(level, level)) for level in levels_for(game)]

# The store's own events (not the engine's: never folded, never replayed by ``play``); named
# once, in engine.record, so that the offline verifier knows them too.
from engine.record import (  # noqa: E402,F401
    BOT_TOOK_SEAT,
    ENTROPY_CONTRIBUTED,
    MATCH_ABORTED,
    MATCH_AWARDED,
    MATCH_OPENED,
    SEAT_TIMED_OUT,
    SEED_REVEALED,
    STORE_EVENTS,
)


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for players")
        RUNNING = "running", _("running")
        FINISHED = "finished", pgettext_lazy("match status", "finished")
        ABORTED = "aborted", pgettext_lazy("match status", "aborted")
        CANCELLED = "cancelled", pgettext_lazy("match status", "cancelled")

    class TimeoutRule(models.TextChoices):
        BOT = "bot", _("a bot makes the move (after three timeouts in a row the seat is abandoned)")
        FORFEIT = "forfeit", _("the seat forfeits the match (a bot plays it on for the others)")

    game = models.CharField(_("game"), max_length=32, choices=game_choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.RUNNING, db_index=True)
    seed = models.CharField(_("secret seed"), max_length=128, editable=False,
                            help_text=_("The server's secret, until the match ends; then revealed as an event. "
                                        "The shuffles are keyed by it together with every seat's contribution."))
    seed_commitment = models.CharField(_("seed commitment"), max_length=64, editable=False,
                                       help_text=_("SHA-256 of the secret, public from the opening."))
    seed_scheme = models.PositiveSmallIntegerField(
        _("seed scheme"), default=2, editable=False,
        help_text=_("1: the secret is the engine's seed (matches before players' randomness, and fixed test "
                    "seeds); 2: the engine's seed is engine.core.match_seed(secret, contributions)."))
    clock = models.JSONField(_("clock"), null=True, blank=True,
                             help_text=_('Live: {"move_seconds": 60} (optionally "bank_seconds"); '
                                         'correspondence: {"move_days": 2}. Empty: no clock.'))
    timeout_rule = models.CharField(_("when a deadline passes"), max_length=16, choices=TimeoutRule.choices,
                                    default=TimeoutRule.BOT)
    stacked_deck = models.JSONField(_("stacked deck"), null=True, blank=True, editable=False)
    last_seq = models.PositiveIntegerField(_("last event"), default=0)
    last_hash = models.CharField(max_length=64, default="", editable=False)
    result = models.JSONField(_("result"), null=True, blank=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    moved_at = models.DateTimeField(_("last event at"), default=timezone.now, editable=False,
                                    help_text=_("When the last event was recorded."))
    bots_to_act = models.BooleanField(_("a bot is to act"), default=False, editable=False,
                                      help_text=_("Set with every event; the sweeper wakes bots left waiting."))
    chain_version = models.PositiveSmallIntegerField(
        _("hash chain version"), default=2, editable=False,
        help_text=_("1: event hashes without their time (matches recorded before it was covered); "
                    "2: each hash covers the event's time too."))

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{GAME_LABELS.get(self.game, self.game)} #{self.pk}"

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_waiting(self) -> bool:
        return self.status == self.Status.WAITING

    @property
    def has_ended(self) -> bool:
        """Finished, aborted or cancelled: nothing more is recorded, and everything may be shown."""
        return self.status in (self.Status.FINISHED, self.Status.ABORTED, self.Status.CANCELLED)


class Seat(models.Model):
    """One seat of a match, held by a person or by a bot policy.

    A person's seat is ``invited`` (they accept or decline), ``seated`` (a tournament put them
    there: they take the seat by opening the match), or ``joined`` (they contributed their random
    value; a match starts when every seat has joined). A resigned or abandoned person's seat is
    played on by ``stand_in``, a bot policy. ``deadline`` is when the seat must have acted (the
    clock); ``bank_left`` the seconds of its time bank.
    """

    class Status(models.TextChoices):
        INVITED = "invited", _("invited")
        SEATED = "seated", _("seated, not yet at the table")
        JOINED = "joined", _("at the table")
        DECLINED = "declined", _("declined")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="seats", verbose_name=_("player"))
    bot = models.CharField(_("bot policy"), max_length=32, blank=True,
                           help_text=_("Empty for a person; e.g. random or greedy for a bot."))
    name = models.CharField(pgettext_lazy("the name of a person or a bot", "name"), max_length=80, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.JOINED)
    stand_in = models.CharField(_("played by a bot"), max_length=32, blank=True,
                                help_text=_("The bot policy playing a resigned or abandoned person's seat."))
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    turn_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    bank_left = models.FloatField(_("time bank left (s)"), null=True, blank=True)
    timeouts = models.PositiveSmallIntegerField(_("timeouts"), default=0)
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.CheckConstraint(condition=~(models.Q(user__isnull=False) & ~models.Q(bot="")),
                                   name="seat_person_or_bot"),
            models.UniqueConstraint(fields=["match", "user"], condition=models.Q(user__isnull=False),
                                    name="seat_person_once"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def policy(self) -> str:
        """The bot policy that plays this seat now: a bot's own, or a stand-in's; "" for a person."""
        return self.bot or self.stand_in

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        if self.user_id:
            return self.user.get_username()
        return f"{self.bot} bot {self.index}"


class Event(models.Model):
    """One immutable event. ``hash`` = SHA-256(prev_hash + canonical content)."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    payload = models.JSONField()
    seat = models.SmallIntegerField(null=True, blank=True, help_text=_("The seat whose move caused it."))
    move = models.JSONField(null=True, blank=True, help_text=_("Set on the first event of a move's batch."))
    # set by the store before hashing (chain version 2 covers it), never by the database
    created_at = models.DateTimeField(default=timezone.now)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="event_unique_seq")]
        triggers = [
            pgtrigger.Protect(name="event_append_only", operation=pgtrigger.Update | pgtrigger.Delete),
            pgtrigger.Trigger(name="event_no_truncate", operation=pgtrigger.Truncate, level=pgtrigger.Statement,
                              when=pgtrigger.Before,
                              func="RAISE EXCEPTION 'pgtrigger: Cannot truncate % table', TG_TABLE_NAME;"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.type}"


class Snapshot(models.Model):
    """A folded state after ``seq`` events, so a long match is not folded from event 1.

    The state is pickled: it is written only by ``games.store`` from states the
    engine built, and read back only by it.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="snapshot_unique_seq")]

    def __str__(self) -> str:
        return f"{self.match_id}@{self.seq}"


#: What a token may do beyond reading what its account may read: ``play`` (moves,
#: resigning, accepting and declining invitations), ``challenge`` (challenging, withdrawing, declining all,
#: choosing who may challenge the account).
TOKEN_SCOPES = {"play": _("play my matches: move, resign, accept and decline invitations"),
                "challenge": _("challenge people and manage challenges")}


def all_scopes() -> list[str]:
    return list(TOKEN_SCOPES)


class ApiToken(models.Model):
    """A bearer token for outside bot clients and people's own scripts; only its SHA-256 is stored. Every
    token reads what its account may read; ``scopes`` says what else it may do."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=80)
    scopes = models.JSONField(_("scopes"), default=all_scopes, blank=True,
                              help_text=_("Beyond reading: play, challenge."))
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"


class StreamNotice(models.Model):
    """A live stream's notice, on a server without Redis (the no-server default): the processes that
    change things (the web server, the worker) write one row per notice after their commit, and each web
    process reads the new rows for the streams it holds open, once per tick for all of them
    (``games.web.streams``' database hub). Rows older than a minute are deleted: a notice only says "read
    again", and a stream that missed one reads again at its next heartbeat."""

    channel = models.CharField(max_length=100)
    message = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.channel} {self.pk}"
