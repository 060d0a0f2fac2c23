"""The only writers of matches and events (HackSoft style: services write), by concern:

- ``matches``: open a match (seats, invitations, the commitment), seats joining, declining, the
  organiser's abort, award and forfeit of a seat;
- ``moves``: a move (validate with the engine, then record it), resigning;
- ``bots``: the bots' choices and their runs, waking bots left waiting;
- ``clocks``: the timeouts the sweeper records;
- ``challenges``: withdrawing a challenge, declining them all; ``limits``: what one account may start
  and hold; ``accounts``: API tokens;

and the two floors under them, which call nothing above:

- ``opening``: the seats' random values, the engine's seed, the bots' key, the start (or the wait);
- ``recording``: appending a move or a bots' stretch and settling what follows (stand-ins, deadlines,
  the end), the end of a match, and the signals ``match_finished`` and ``turn_waiting``.

Every write: lock the match row, fold the state, let the engine decide, append events with
chained hashes, move the match's position, and on commit wake the bots and announce changes.
"""
from games.services.accounts import api_token_create, api_token_revoke
from games.services.bots import bot_choice, bots_advance, stalled_bots_wake
from games.services.clocks import check_clock, clocks_run, seat_timeouts_record
from games.services.matches import (
                                    SeatSpec,
                                    challenge_create,
                                    match_abort,
                                    match_award,
                                    match_create,
                                    seat_decline,
                                    seat_forfeit,
                                    seat_join,
)
from games.services.moves import match_resign, move_submit
from games.services.recording import match_finished, turn_waiting

__all__ = [
    "api_token_create", "api_token_revoke", "SeatSpec", "challenge_create", "bot_choice", "bots_advance", "check_clock", "clocks_run", "match_abort", "match_award",
    "match_create", "match_finished", "match_resign", "move_submit", "seat_decline", "seat_forfeit", "seat_join",
    "seat_timeouts_record", "stalled_bots_wake", "turn_waiting",
]
