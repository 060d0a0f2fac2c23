"""The only writers of matches and events (HackSoft style: services write), by concern:

- ``matches``: open a match (seats, invitations, the commitment), seats joining with their
  randomness, declining, the start, the organiser's abort, award and forfeit of a seat;
- ``moves``: a move (validate with the engine, append, clocks, stand-ins, the end), resigning;
- ``bots``: the bots' choices and their runs, waking bots left waiting;
- ``clocks``: deadlines and the timeouts the sweeper records.

Every write: lock the match row, fold the state, let the engine decide, append events with
chained hashes, move the match's position, and on commit wake the bots and announce changes.
"""
from games.services.accounts import api_token_create, api_token_revoke
from games.services.bots import bot_choice, bots_advance, stalled_bots_wake
from games.services.clocks import check_clock, clocks_run, seat_timeouts_record
from games.services.matches import (SeatSpec, challenge_create, match_abort, match_award, match_create, match_finished,
                                    seat_decline, seat_forfeit, seat_join, turn_waiting)
from games.services.moves import match_resign, move_submit

__all__ = [
    "api_token_create", "api_token_revoke", "SeatSpec", "challenge_create", "bot_choice", "bots_advance", "check_clock", "clocks_run", "match_abort", "match_award",
    "match_create", "match_finished", "match_resign", "move_submit", "seat_decline", "seat_forfeit", "seat_join",
    "seat_timeouts_record", "stalled_bots_wake", "turn_waiting",
]
