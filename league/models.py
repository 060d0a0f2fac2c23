"""The league domain: clubs, players, leagues, seasons, tournaments and their read models.

Writes go through ``league.services``. ``Standing``, ``TableSeat``'s result
fields, ``Rating`` and ``RatingHistory`` are projections folded from finished
tables; ``Folded`` remembers which table each projection has folded, so a
fold runs once and ``projections_rebuild`` can start again from nothing.
"""
from __future__ import annotations

import zoneinfo
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from engine import registry
from games.clock_rules import check_clock
from games.kits import GAME_LABELS, game_choices
from games.models import BOT_CHOICES, Match
from league.formats.base import TournamentFormat, format_choices
from league.formats.base import get as format_of
from league.rules.tiebreaks import exact

TIE_BREAKS = {
    "match_points": _("Match points"),
    "game_points": _("Game points"),
    "head_to_head": _("Head-to-head"),
    "buchholz": _("Buchholz"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn–Berger"),
    "wins": _("Wins"),
}
TIE_BREAK_SHORT = {
    "match_points": _("Pts"), "game_points": _("GP"), "head_to_head": _("H2H"), "buchholz": _("BH"),
    "median_buchholz": _("MBH"), "sonneborn_berger": _("SB"), "wins": _("Wins"),
}
DEFAULT_TIE_BREAKS = ["match_points", "head_to_head", "buchholz", "sonneborn_berger", "game_points", "wins"]


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class PointsField(models.CharField):
    """Match points kept exact: a fraction stored as text ("3", "5/2", "10/3"), read as a ``Fraction``.

    Tied places share the points of the places they cover, and three players sharing 5 + 3 + 2
    points take 10/3 each: a decimal column would keep 3.33 and lose a hundredth of a point."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 40)
        super().__init__(*args, **kwargs)
        # the value is a Fraction, not a string: its length is not checked (the column takes any fraction
        # a table can give)
        self.validators[:] = [v for v in self.validators if not isinstance(v, MaxLengthValidator)]

    def from_db_value(self, value, expression, connection):
        return None if value in (None, "") else Fraction(value)

    def to_python(self, value):
        if value in (None, ""):
            return None
        try:
            return exact(value)
        except (ValueError, TypeError, ZeroDivisionError):
            raise ValidationError(_("A number of points, such as 3, 2.5 or 10/3."), code="invalid") from None

    def get_prep_value(self, value):
        value = self.to_python(value)
        return None if value is None else str(value)


def options_problem(game: str, options, seats: int | None) -> str | None:
    """Why the engine refuses these match options (None when it accepts them)."""
    if not isinstance(options, dict):
        return str(_("Match options are a JSON object."))
    engine_game = registry.get(game)
    try:
        engine_game.start(seats or engine_game.MIN_SEATS, "options-check", options=options)
    except (ValueError, TypeError) as exc:
        return str(exc)
    return None


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), unique=True)
    description = models.TextField(_("description"), blank=True)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="clubs",
                                     verbose_name=_("members"))
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="organised_clubs",
                                        verbose_name=_("organisers"))
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Riga",
                                 help_text=_("Where the club meets: its events' times are set in it (each reader "
                                             "sees them in their own)."))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        try:
            zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValidationError({"time_zone": _("Not a time zone: write one such as Europe/Riga or "
                                                  "Europe/Vilnius.")}) from None


#: Where a signed-in person's chosen language is kept in their session ("" for none chosen), so that
#: ``cardleague.middleware.PersonLanguageMiddleware`` reads their profile once a session.
LANGUAGE_SESSION_KEY = "cardleague_language"


class PlayerProfile(models.Model):
    """Who sits at a table: a person (a user) or a bot (a policy and a strength)."""

    name = models.CharField(pgettext_lazy("the name of a person or a bot", "name"), max_length=80, unique=True)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="player_profile", verbose_name=_("user"))
    bot_policy = models.CharField(_("bot policy"), max_length=32, blank=True,
                                  choices=BOT_CHOICES,
                                  help_text=_("Empty for a person; the engine policy a bot plays with."))
    bot_strength = models.PositiveSmallIntegerField(
        _("bot strength"), default=1,
        help_text=_("For policies that take one (e.g. a search depth); random and greedy ignore it."))
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players",
                             verbose_name=_("home club"))
    email_notifications = models.BooleanField(
        _("e-mail me"), default=True,
        help_text=_("An e-mail when a correspondence turn or a new tournament round waits for you."))
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES,
                                help_text=_("The site's language for you; empty: your browser's."))
    is_bot_account = models.BooleanField(
        _("outside bot"), default=False,
        help_text=_("An account played by a program through the API (its owner's), shown as a bot."))
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="bot_accounts", verbose_name=_("owner"),
                              help_text=_("The person who runs this outside bot."))
    challenges_from = models.CharField(
        _("challenges from"), max_length=12, default="everyone",
        choices=[("everyone", _("everyone")), ("clubmates", _("people who share a club with me")),
                 ("nobody", _("nobody: tournaments only"))],
        help_text=_("Who may challenge this account to a match; a tournament seats its entrants regardless."))
    refused_challengers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="+", verbose_name=_("refuses challenges from"),
        help_text=_("People whose challenges this account refuses, whoever else it takes them from."))
    # the private address of this person's calendar feed (.ics); empty until they first ask for it
    calendar_token = models.CharField(max_length=43, blank=True, db_index=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(user__isnull=False) & models.Q(bot_policy=""))
                | (models.Q(user__isnull=True) & ~models.Q(bot_policy="")),
                name="player_person_or_bot"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        """A bot the server plays (a policy), not a person's seat."""
        return bool(self.bot_policy)

    @property
    def shows_as_bot(self) -> bool:
        """Marked as a bot in standings and pages: a server bot, or an outside bot account."""
        return bool(self.bot_policy) or self.is_bot_account


class ClubInvite(models.Model):
    """A link an organiser shares: whoever follows it (signing up, or signing in) joins the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites", verbose_name=_("club"))
    token = models.CharField(max_length=43, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    max_uses = models.PositiveIntegerField(_("how many may join with it"), default=50)
    uses = models.PositiveIntegerField(_("joined with it"), default=0, editable=False)

    class Meta:
        verbose_name = _("club invitation link")
        verbose_name_plural = _("club invitation links")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.club} ({self.created_at:%Y-%m-%d})"

    @property
    def usable(self) -> bool:
        from django.utils import timezone

        return self.uses < self.max_uses and self.expires_at > timezone.now()


class League(models.Model):
    """A club's competition for one game: match options, points and tie-break rules."""

    class ForfeitRule(models.TextChoices):
        AWARD = "award", _("Forfeited: the others score as if they finished above the withdrawn player")
        VOID = "void", _("Void: nobody scores from the withdrawn player's unplayed matches")

    class UnplayedRounds(models.TextChoices):
        VIRTUAL = "virtual", _("A virtual opponent with the player's own match points (FIDE, 2023)")
        NONE = "none", _("No opponent: the round adds nothing")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="leagues", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=32, choices=game_choices)
    options = models.JSONField(_("match options"), default=dict, blank=True,
                               help_text=_('The game\'s options, e.g. {"target": 500} for LIVOL.'))
    win_points = models.DecimalField(_("points for a win"), max_digits=6, decimal_places=2, default=Decimal(3),
                                     help_text=_("Two-seat matches."))
    draw_points = models.DecimalField(_("points for a draw"), max_digits=6, decimal_places=2, default=Decimal(1))
    loss_points = models.DecimalField(_("points for a loss"), max_digits=6, decimal_places=2, default=Decimal(0))
    place_points = models.JSONField(
        _("points by place"), default=list, blank=True,
        help_text=_("Tournaments of three or more seats a table: points for 1st, 2nd, … at a full table (a "
                    "smaller table takes them at the same fraction of the way from first to last); empty: first "
                    "scores the points for a win, last the points for a loss, the places between evenly "
                    "spaced. Tied places share the points of the places they cover."))
    bye_points = models.DecimalField(_("points for a Swiss bye"), max_digits=6, decimal_places=2,
                                     default=Decimal(3))
    tie_breaks = models.JSONField(_("tie-break order"), default=default_tie_breaks,
                                  help_text=_("An ordered list chosen from: match_points, game_points, head_to_head, "
                                              "buchholz, median_buchholz, sonneborn_berger, wins."))
    forfeit_rule = models.CharField(_("withdrawals and forfeits"), max_length=16, choices=ForfeitRule.choices,
                                    default=ForfeitRule.AWARD)
    unplayed_rounds = models.CharField(
        _("rounds without an opponent"), max_length=16, choices=UnplayedRounds.choices,
        default=UnplayedRounds.VIRTUAL,
        help_text=_("How a bye, a rest, a forfeit or a void table counts in Buchholz and Sonneborn–Berger."))
    rated = models.BooleanField(_("rated"), default=True, help_text=_("Its tournaments' matches count for ratings."))
    clock = models.JSONField(_("clock"), null=True, blank=True,
                             help_text=_('Empty: no clock. Live: {"move_seconds": 60}, optionally "bank_seconds" '
                                         '(a time bank per match) and "join_seconds" (to take the seat); '
                                         'correspondence: {"move_days": 2}.'))
    timeout_rule = models.CharField(_("when a deadline passes"), max_length=16, choices=Match.TimeoutRule.choices,
                                    default=Match.TimeoutRule.BOT)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["club__name", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="league_unique_name")]

    def __str__(self) -> str:
        return f"{self.name} ({GAME_LABELS.get(self.game, self.game)})"

    def clean(self) -> None:
        errors = {}
        order = self.tie_breaks
        if not isinstance(order, list) or not order or any(k not in TIE_BREAKS for k in order) \
                or len(set(order)) != len(order):
            errors["tie_breaks"] = _("Give each tie-break once, from: %(keys)s.") % {"keys": ", ".join(TIE_BREAKS)}
        points = self.place_points
        if not isinstance(points, list) or any(isinstance(v, bool) or not isinstance(v, (int, float, str))
                                               for v in points):
            errors["place_points"] = _("A list of numbers, first place first.")
        else:
            try:
                [Decimal(str(v)) for v in points]
            except ArithmeticError:
                errors["place_points"] = _("A list of numbers, first place first.")
            else:
                if len(points) == 1:
                    errors["place_points"] = _("At least two numbers: first place's and last place's.")
        if self.game:
            problem = options_problem(self.game, self.options, None)
            if problem:
                errors["options"] = problem
        try:
            check_clock(self.clock)
        except ValueError as exc:
            errors["clock"] = str(exc)
        if errors:
            raise ValidationError(errors)


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("league"))
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-starts_on", "name"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="season_unique_name")]

    def __str__(self) -> str:
        return f"{self.league.name} · {self.name}"


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("taking entries")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Seeding(models.TextChoices):
        RATING = "rating", _("by rating, then entry order")
        ENTRY = "entry", _("by entry order")
        STANDINGS = "standings", _("by a previous event's standings")
        HAND = "hand", _("by hand (the seeds as entered)")

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="tournaments",
                               verbose_name=_("league"))
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments",
                               verbose_name=_("season"))
    name = models.CharField(_("name"), max_length=120)
    # a format's name (``league.formats``); its choices are the registry's, so a new format needs no migration
    format = models.CharField(_("format"), max_length=24, choices=format_choices, default="swiss")
    game = models.CharField(_("game"), max_length=32, choices=game_choices)
    options = models.JSONField(_("match options"), default=dict, blank=True)
    clock = models.JSONField(_("clock"), null=True, blank=True,
                             help_text=_("Empty: no clock. Starts as the league's; a change applies to the "
                                         "matches created from then on."))
    timeout_rule = models.CharField(_("when a deadline passes"), max_length=16, choices=Match.TimeoutRule.choices,
                                    default=Match.TimeoutRule.BOT)
    seats_per_table = models.PositiveSmallIntegerField(_("seats per table"), default=2)
    rounds = models.PositiveSmallIntegerField(pgettext_lazy("a round of a tournament", "rounds"), null=True,
                                              blank=True,
                                              help_text=_("Swiss: how many; others: set from the entrants."))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.DRAFT,
                              db_index=True)
    auto_advance = models.BooleanField(_("start rounds automatically"), default=True,
                                       help_text=_("When a round ends, start the next round's matches at once."))
    seeding = models.CharField(_("seeding"), max_length=16, choices=Seeding.choices, default=Seeding.RATING)
    seeded_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                    verbose_name=_("seeded from"),
                                    help_text=_("Seeding by a previous event's standings: that event."))
    # what the format reads beyond the common terms (a group's size, the bracket reset, an arena's window...):
    # each format states and checks its own, so a new format needs no migration
    format_options = models.JSONField(_("format settings"), default=dict, blank=True)
    starts_on = models.DateField(_("first round on"), null=True, blank=True)
    starts_at = models.DateTimeField(_("first round starts at"), null=True, blank=True)
    days_between_rounds = models.PositiveSmallIntegerField(_("days between rounds"), default=7)
    # entries: who may sign up, until when, how many, and whether the organiser approves each
    entries_open = models.BooleanField(_("open for entries"), default=False,
                                       help_text=_("People sign up themselves from its page or the API."))
    entries_close_at = models.DateTimeField(_("entries close at"), null=True, blank=True)
    capacity = models.PositiveSmallIntegerField(_("capacity"), null=True, blank=True,
                                                help_text=_("Empty: no limit. Past it, a waiting list."))
    approval = models.BooleanField(_("entries need approval"), default=False)
    outside_bots = models.BooleanField(_("outside bots may enter"), default=False)
    checkin_minutes = models.PositiveSmallIntegerField(
        _("check-in window (minutes)"), default=0,
        help_text=_("0: no check-in. Otherwise the minutes before the first round in which entrants check in; "
                    "who has not checked in when it closes is dropped."))
    no_show_minutes = models.PositiveSmallIntegerField(
        _("no-show after (minutes)"), null=True, blank=True,
        help_text=_("Empty: never. A seat not taken this long after its round starts is a forfeit."))
    no_shows_withdraw = models.PositiveSmallIntegerField(
        _("no-shows that withdraw a player"), default=2, help_text=_("0: never."))
    # when check-in closed (by the organiser or at the start time): afterwards nobody is dropped or moves up
    checkin_closed_at = models.DateTimeField(_("check-in closed"), null=True, blank=True, editable=False)
    same_club_rounds = models.PositiveSmallIntegerField(
        _("keep clubmates apart (rounds)"), default=0,
        help_text=_("In this many first rounds, players of one club are not paired together where it can be "
                    "avoided."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def round_date(self, number: int):
        """The date round ``number`` is planned for: the first date, then one every ``days_between_rounds``
        (None without a first date)."""
        if self.starts_on is None:
            return None
        return self.starts_on + timedelta(days=self.days_between_rounds * (number - 1))

    @property
    def game_label(self) -> str:
        return GAME_LABELS.get(self.game, self.game)

    @property
    def format_rules(self) -> TournamentFormat:
        """The format as one object (``league.formats``): it pairs the rounds, scores a bye, draws a
        bracket and plans the rounds."""
        return format_of(self.format)

    def clean(self) -> None:
        errors = {}
        if self.league_id and self.game and self.game != self.league.game:
            errors["game"] = _("A tournament plays its league's game (%(game)s).") % {
                "game": GAME_LABELS.get(self.league.game, self.league.game)}
        if self.season_id and self.league_id and self.season.league_id != self.league_id:
            errors["season"] = _("The season belongs to another league.")
        if self.game:
            game = registry.get(self.game)
            if not game.MIN_SEATS <= (self.seats_per_table or 0) <= game.MAX_SEATS:
                errors["seats_per_table"] = ngettext("%(game)s is played by %(min)s to %(max)s seat.",
                                                     "%(game)s is played by %(min)s to %(max)s seats.",
                                                     game.MAX_SEATS) % {
                    "game": GAME_LABELS.get(self.game, self.game), "min": game.MIN_SEATS, "max": game.MAX_SEATS}
            else:
                problem = options_problem(self.game, self.options, self.seats_per_table)
                if problem:
                    errors["options"] = problem
        if self.rounds is not None and self.rounds < 1:
            errors["rounds"] = _("At least one round.")
        if self.format:
            problem = self.format_rules.options_problem(self.format_options or {}, self.seats_per_table or 2) \
                if isinstance(self.format_options or {}, dict) else _("The format's settings are a JSON object.")
            if problem:
                errors["format_options"] = problem
        try:
            check_clock(self.clock)
        except ValueError as exc:
            errors["clock"] = str(exc)
        if errors:
            raise ValidationError(errors)


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants",
                                   verbose_name=_("tournament"))
    player = models.ForeignKey(PlayerProfile, on_delete=models.PROTECT, related_name="entries",
                               verbose_name=_("player"))
    seed = models.PositiveIntegerField(pgettext_lazy("seeding", "seed"), default=0)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    team = models.ForeignKey("Team", null=True, blank=True, on_delete=models.SET_NULL, related_name="members",
                             verbose_name=_("team"))
    no_shows = models.PositiveSmallIntegerField(_("no-shows"), default=0)
    paused = models.BooleanField(_("paused"), default=False,
                                 help_text=_("An arena's player who is not to be paired for now."))

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "seed", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entrant_unique_player")]

    def __str__(self) -> str:
        return f"{self.player.name} ({self.tournament.name})"


class Team(models.Model):
    """Entrants who play as one side (Karuselis partners, a club's team): the team's standings use their
    results, each member's own statistics still count."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams",
                                   verbose_name=_("tournament"))
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                             verbose_name=_("club"))
    seed = models.PositiveIntegerField(pgettext_lazy("seeding", "seed"), default=0)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["tournament", "seed", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name")]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A person's sign-up that is not (or no longer) in the field: waiting for approval, on the waiting list,
    refused (with the reason they see) or withdrawn before the start. An accepted sign-up is an ``Entrant``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        WAITING = "waiting", _("on the waiting list")
        REFUSED = "refused", _("refused")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations",
                                   verbose_name=_("tournament"))
    player = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="registrations",
                               verbose_name=_("player"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, db_index=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("signed up"), default=timezone.now)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    # a person on the waiting list who checked in: present when check-in closes, so they may move up then
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["tournament", "created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="registration_unique_player")]

    def __str__(self) -> str:
        return f"{self.player.name} ({self.tournament.name})"


class ForbiddenPair(models.Model):
    """Two players not to be seated together (family members, say), in one tournament or in every event of a
    club; honoured by every format that pairs, and reported on the draft when it cannot be."""

    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="forbidden_pairs",
                             verbose_name=_("club"))
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="forbidden_pairs", verbose_name=_("tournament"))
    first = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    second = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("other player"))
    reason = models.CharField(_("reason"), max_length=120, blank=True)

    class Meta:
        verbose_name = _("forbidden pairing")
        verbose_name_plural = _("forbidden pairings")

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"


class TournamentPreset(models.Model):
    """A named start for a new tournament's form: the built-in ones live in code
    (``league.rules.presets``); a club saves its own here."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="presets", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    values = models.JSONField(_("settings"), default=dict)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament preset")
        verbose_name_plural = _("tournament presets")
        ordering = ["club", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="preset_unique_name")]

    def __str__(self) -> str:
        return self.name


class Withdrawal(models.Model):
    """An entrant who left: not paired again; unplayed matches scored by the league's rule."""

    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="withdrawal",
                                   verbose_name=_("entrant"))
    round_number = models.PositiveSmallIntegerField(_("withdrew in round"), default=0,
                                                    help_text=_("0: before the first round."))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("recorded by"))
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")

    def __str__(self) -> str:
        return str(self.entrant)


class Reminder(models.Model):
    """An organiser reminded a person a round waits for (an e-mail, and a notice on their open pages);
    remembered so that a seat is reminded at most once every few minutes."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("player"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("sent by"))
    emailed = models.BooleanField(_("e-mailed"), default=False)
    sent_at = models.DateTimeField(_("sent"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("reminder")
        verbose_name_plural = _("reminders")
        ordering = ["-sent_at"]
        indexes = [models.Index(fields=["match", "seat", "sent_at"], name="reminder_seat_sent")]

    def __str__(self) -> str:
        return f"{self.match} · {self.seat}"


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", _("paired")
        RUNNING = "running", _("running")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set",
                                   verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(pgettext_lazy("a round of a tournament", "round"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PAIRED)
    scheduled_on = models.DateField(_("scheduled on"), null=True, blank=True)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True,
                                     help_text=_("Released and started by itself at this time."))
    # a format with stages names the round's ("groups", "playoffs", "winners", "losers", "final")
    stage = models.CharField(_("stage"), max_length=16, blank=True)
    paired_at = models.DateTimeField(_("paired"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("a round of a tournament", "round")
        verbose_name_plural = pgettext_lazy("a round of a tournament", "rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament.name} · {pgettext_lazy('a round of a tournament', 'round')} {self.number}"


class RoundChange(models.Model):
    """An organiser's change to a drafted round (two players swapped, one moved to another table): who made
    it and when, shown on the public round."""

    class Kind(models.TextChoices):
        SWAP = "swap", _("swapped")
        MOVE = "move", _("moved")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="changes",
                              verbose_name=pgettext_lazy("a round of a tournament", "round"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    details = models.JSONField(_("details"), default=dict)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("changed by"))
    at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("change to a draft")
        verbose_name_plural = _("changes to drafts")
        ordering = ["round", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.round} · {self.get_kind_display()}"


class Table(models.Model):
    class Kind(models.TextChoices):
        MATCH = "match", _("match")
        BYE = "bye", _("bye")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables",
                              verbose_name=pgettext_lazy("a round of a tournament", "round"))
    number = models.PositiveSmallIntegerField(_("table"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.MATCH)
    # where the table sits in its format: a group ("A"), a bracket ("W", "L", "GF"), a board of a team match
    stage = models.CharField(_("stage"), max_length=16, blank=True)
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="league_table",
                                 verbose_name=_("match"))

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} · {_('table')} {self.number}"


class TableSeat(models.Model):
    """An entrant at a table. ``place``/``points``/``game_points`` are the standings projection."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="table_seats",
                                verbose_name=_("entrant"))
    position = models.PositiveSmallIntegerField(_("position"), help_text=_("Seat order as paired."))
    match_seat = models.SmallIntegerField(_("match seat"), null=True, blank=True,
                                          help_text=_("The seat in the match; empty when not playing it."))
    forfeited = models.BooleanField(_("forfeited"), default=False)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    points = PointsField(_("points"), null=True, blank=True)
    game_points = models.IntegerField(_("game points"), null=True, blank=True)

    class Meta:
        verbose_name = _("table seat")
        verbose_name_plural = _("table seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="tableseat_unique_position"),
            models.UniqueConstraint(fields=["table", "entrant"], name="tableseat_unique_entrant"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.entrant.player.name}"


class Standing(models.Model):
    """Per entrant totals, folded from finished tables (see ``Folded``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings",
                                   verbose_name=_("tournament"))
    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="standing",
                                   verbose_name=_("entrant"))
    points = PointsField(_("match points"), default=0)
    game_points = models.IntegerField(_("game points"), default=0)
    played = models.PositiveIntegerField(_("played"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    byes = models.PositiveIntegerField(_("byes"), default=0)
    forfeits = models.PositiveIntegerField(_("forfeits"), default=0)

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")

    def __str__(self) -> str:
        return f"{self.entrant}: {self.points}"


class Folded(models.Model):
    """Which table a projection has folded: unique per projection, so a fold happens once."""

    class Projection(models.TextChoices):
        STANDINGS = "standings", _("standings")
        RATINGS = "ratings", _("ratings")

    projection = models.CharField(max_length=16, choices=Projection.choices)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="folds")
    folded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("folded table")
        verbose_name_plural = _("folded tables")
        constraints = [models.UniqueConstraint(fields=["projection", "table"], name="folded_once")]

    def __str__(self) -> str:
        return f"{self.projection} {self.table_id}"


class Rating(models.Model):
    """A player's openskill (Plackett–Luce) rating in one game."""

    player = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="ratings",
                               verbose_name=_("player"))
    game = models.CharField(_("game"), max_length=32, choices=game_choices)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["game", "-mu"]
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="rating_unique_game")]

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.2f}"

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown as the rating: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class RatingHistory(models.Model):
    player = models.ForeignKey(PlayerProfile, on_delete=models.CASCADE, related_name="rating_history",
                               verbose_name=_("player"))
    game = models.CharField(_("game"), max_length=32, choices=game_choices)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_changes",
                              verbose_name=_("table"))
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="+", verbose_name=_("match"))
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    played_at = models.DateTimeField(_("played"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating history")
        ordering = ["player", "game", "played_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["player", "match"], name="ratinghistory_once")]

    def __str__(self) -> str:
        return f"{self.player} {self.game} {self.match_id}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma
