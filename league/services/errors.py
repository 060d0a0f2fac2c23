"""Errors of the league's services, each with a stable code (one ``DomainError`` base with the games')."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import DomainError


class LeagueError(DomainError):
    """A refused league operation, with a stable code."""
    code = "league_error"


class InvalidTournament(LeagueError):
    code = "invalid_tournament"


class NotTakingEntries(LeagueError):
    code = "not_taking_entries"
    status = 409
    message = _("The tournament has started: entries are closed.")


class AlreadyEntered(LeagueError):
    code = "already_entered"
    status = 409
    message = _("That player has already entered.")


class RoundNotClosed(LeagueError):
    code = "round_not_closed"
    status = 409
    message = _("The current round has not finished yet.")


class TournamentFinished(LeagueError):
    code = "tournament_finished"
    status = 409
    message = _("The tournament has finished.")


class NotEnoughPlayers(LeagueError):
    code = "not_enough_players"
    status = 409
    message = _("Not enough players to pair a round.")


class AlreadyWithdrawn(LeagueError):
    code = "already_withdrawn"
    status = 409
    message = _("That entrant has already withdrawn.")


class WaitingForPeople(LeagueError):
    code = "waiting_for_people"
    status = 409
    message = _("The round is waiting for people to play their matches.")


class NothingToRemind(LeagueError):
    code = "nothing_to_remind"
    status = 409
    message = _("Nobody at that seat is waited for: the match has ended, or a bot plays the seat.")


class RemindedRecently(LeagueError):
    code = "reminded_recently"
    status = 429
    message = _("That seat was reminded a few minutes ago: give the person a little time.")


class SeededWithPeople(LeagueError):
    code = "seeded_with_people"
    status = 409
    message = _("Only a tournament of the server's bots can run from a seed: whoever knows the seed knows "
                "every deal in advance.")


class NoSuchBotLevel(LeagueError):
    code = "no_such_bot_level"
    status = 409
    message = _("The tournament's game has no bots of that level: a bot plays only the levels its game has.")


class OwnBotEntered(LeagueError):
    code = "own_bot_entered"
    status = 409
    message = _("A person and their own outside bot cannot both enter one tournament: one person would hold "
                "two hands at a table.")


class EntriesNotOpen(LeagueError):
    code = "entries_not_open"
    status = 409
    message = _("This tournament does not take sign-ups: the organiser enters its players.")


class EntriesClosed(LeagueError):
    code = "entries_closed"
    status = 409
    message = _("Entries have closed.")


class AlreadySignedUp(LeagueError):
    code = "already_signed_up"
    status = 409
    message = _("You have already signed up: your status is on the tournament's page.")


class NotSignedUp(LeagueError):
    code = "not_signed_up"
    status = 409
    message = _("You have not signed up for this tournament.")


class EntryRefused(LeagueError):
    code = "entry_refused"
    status = 403
    message = _("The organiser refused your entry.")


class OutsideBotsNotAllowed(LeagueError):
    code = "outside_bots_not_allowed"
    status = 403
    message = _("This tournament takes no outside bots; the organiser adds the server's bots.")


class NotPending(LeagueError):
    code = "not_pending"
    status = 409
    message = _("That sign-up is not waiting for approval.")


class CheckinNotOpen(LeagueError):
    code = "checkin_not_open"
    status = 409
    message = _("Check-in is not open now.")


class CheckinClosed(LeagueError):
    code = "checkin_closed"
    status = 409
    message = _("Check-in has closed.")


class AlreadyCheckedIn(LeagueError):
    code = "already_checked_in"
    status = 409
    message = _("You have already checked in.")


class NotContinuous(LeagueError):
    code = "not_continuous"
    status = 409
    message = _("Only an arena lets its players pause, come back and join while it runs.")


class NotEntered(LeagueError):
    code = "not_entered"
    status = 404
    message = _("You have not entered this tournament.")
