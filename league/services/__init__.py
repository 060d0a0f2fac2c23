"""League services: the only writers of clubs, tournaments, rounds, tables and projections, by concern:

- ``clubs``: clubs, players, leagues, seasons; ``tournaments``: tournaments and entrants; ``entries``:
  sign-ups, the waiting list, approval, check-in and no-shows;
- ``rounds``: pairing, starting, running and recording tables, closing rounds; ``scoring``: points
  from a table's outcome (pure); ``projections``: standings and ratings; ``running``: the sweepers
  and ``tournament_run`` (in this process, through ``games.dispatch.work_here``); ``errors``.

The life of a round:
1. ``round_pair`` (tournament row locked) builds the next round's tables with
   the tournament's format (``league.formats``) from what the closed rounds recorded.
2. ``round_start`` creates each table's match (``table_match_create``: once,
   under the table's row lock) and enqueues one ``league.table_play`` task per
   match on commit.
3. ``table_run`` (the task's body) lets the bots play (``games.services.bots_advance``)
   until no bot is to act; a person's moves come through the match page.
4. When a match ends, ``games`` sends ``match_finished`` on commit and the
   receiver calls ``match_result_record`` → ``table_record``: fold the table
   into the standings and the ratings (each remembered in ``Folded``), then
   ``round_close``: with the round row locked, if every table is folded, close
   it and pair the next round — exactly once, whoever gets there first.
"""
from league.rules.scoring import Rules, SeatIn, SeatScore, table_scores
from league.services.arena import arena_join, entrant_pause, tournament_pause
from league.services.clubs import (
                                    bots_ensure,
                                    club_create,
                                    league_create,
                                    player_bot_create,
                                    player_for_user,
                                    season_create,
)
from league.services.drafts import (
                                    DraftReleased,
                                    DraftSamePlace,
                                    DraftTableSize,
                                    NotInDraft,
                                    draft_move,
                                    draft_swap,
                                    rounds_release_due,
)
from league.services.entries import (
                                    checkin_close,
                                    entries_due,
                                    entries_sweep,
                                    entry_approve,
                                    entry_checkin,
                                    entry_refuse,
                                    entry_signup,
                                    entry_terms_set,
                                    entry_withdraw,
                                    no_shows_forfeit,
)
from league.services.errors import (
                                    AlreadyCheckedIn,
                                    AlreadyEntered,
                                    AlreadySignedUp,
                                    AlreadyWithdrawn,
                                    CheckinClosed,
                                    CheckinNotOpen,
                                    EntriesClosed,
                                    EntriesNotOpen,
                                    EntryRefused,
                                    InvalidTournament,
                                    LeagueError,
                                    NoSuchBotLevel,
                                    NotContinuous,
                                    NotEnoughPlayers,
                                    NotEntered,
                                    NothingToRemind,
                                    NotPending,
                                    NotSignedUp,
                                    NotTakingEntries,
                                    OutsideBotsNotAllowed,
                                    OwnBotEntered,
                                    RemindedRecently,
                                    RoundNotClosed,
                                    TournamentFinished,
                                    WaitingForPeople,
)
from league.services.notifications import REMIND_EVERY, reminder_mail, round_notify, seat_remind, turn_notify
from league.services.people import (
                                    InviteUnusable,
                                    NameTaken,
                                    NotYourBot,
                                    NotYourToken,
                                    TooManyBots,
                                    TooManyTokens,
                                    api_token_revoke,
                                    bot_account_create,
                                    bot_token_create,
                                    club_invite_create,
                                    club_join,
                                    person_signup,
                                    personal_token_create,
                                    profile_update,
)
from league.services.projections import projections_rebuild, rating_apply, standings_apply
from league.services.rounds import (
                                    match_result_record,
                                    round_close,
                                    round_extend,
                                    round_pair,
                                    round_release,
                                    round_start,
                                    table_match_create,
                                    table_record,
                                    table_run,
)
from league.services.running import tournament_run, tournament_sweep, tournaments_sweep
from league.services.teams import team_create, team_members_set
from league.services.tournaments import (
                                    LEAGUE_CLOCK,
                                    bots_add,
                                    entrant_add,
                                    entrant_remove,
                                    entrant_withdraw,
                                    tournament_create,
)

__all__ = [
    "TooManyTokens", "personal_token_create", "InviteUnusable", "NameTaken", "NotYourBot", "NotYourToken", "TooManyBots", "api_token_revoke", "bot_account_create", "bot_token_create", "club_invite_create", "club_join", "person_signup", "profile_update",
    "round_notify", "turn_notify", "REMIND_EVERY", "reminder_mail", "seat_remind", "NothingToRemind",
    "RemindedRecently", "LEAGUE_CLOCK",
    "LeagueError", "InvalidTournament", "NotTakingEntries", "AlreadyEntered", "OwnBotEntered", "NoSuchBotLevel",
    "RoundNotClosed",
    "TournamentFinished", "NotEnoughPlayers", "AlreadyWithdrawn", "WaitingForPeople",
    "club_create", "league_create", "season_create", "player_for_user", "player_bot_create", "bots_ensure",
    "tournament_create", "entrant_add", "entrant_remove", "bots_add", "entrant_withdraw", "Rules",
    "SeatScore", "SeatIn", "table_scores", "round_pair", "round_start",
    "table_match_create", "table_run", "match_result_record", "table_record", "round_close", "standings_apply",
    "rating_apply", "projections_rebuild", "tournament_sweep", "tournaments_sweep", "tournament_run",
    "round_release", "draft_swap", "draft_move", "rounds_release_due", "DraftReleased", "DraftSamePlace",
    "DraftTableSize", "NotInDraft",
    "entry_signup", "entry_withdraw", "entry_approve", "entry_refuse", "entry_checkin", "checkin_close",
    "no_shows_forfeit", "entries_due", "entries_sweep", "entry_terms_set",
    "EntriesNotOpen", "EntriesClosed", "AlreadySignedUp", "NotSignedUp", "EntryRefused", "OutsideBotsNotAllowed",
    "NotPending", "CheckinNotOpen", "CheckinClosed", "AlreadyCheckedIn",
    "arena_join", "entrant_pause", "tournament_pause", "team_create", "team_members_set", "round_extend",
    "NotContinuous", "NotEntered",
]
