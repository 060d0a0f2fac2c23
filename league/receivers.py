"""How the league plugs into games (``plug_in``, called by ``league.apps`` once the apps are loaded):
the signal receivers that bridge finished matches to standings and correspondence turns to e-mails,
and the hooks games asks without importing the league (where a match belongs, home-page sections,
which accounts are outside bots, who may challenge whom)."""
from __future__ import annotations

import logging

from games import dispatch
from games.selectors import hooks as games_hooks
from games.services.recording import match_finished, turn_waiting
from league.models import PlayerProfile
from league.selectors import hooks as league_hooks
from league.services import rounds
from league.services.challenge_rules import challenge_gate

log = logging.getLogger("league")


def on_match_finished(sender, match_id: int, **kwargs) -> None:
    """A match ended (sent on commit): fold its table and close the round when it was the last.

    A failure must not undo the mover's own commit, so it is logged and retried as a task
    (``league.match_record``); ``tournament_sweep`` is the organiser's last resort.
    """
    try:
        rounds.match_result_record(match_id=match_id)
    except Exception:
        log.exception("recording the result of match %s failed; retrying in the background", match_id)
        try:
            dispatch.send("league.match_record", (match_id,), countdown=5)
        except Exception:
            log.exception("could not enqueue the retry for match %s", match_id)


def on_turn_waiting(sender, match_id: int, seat: int, **kwargs) -> None:
    """A correspondence turn began (sent on commit): e-mail the person, in the background."""
    try:
        dispatch.send("league.notify_turn", (match_id, seat))
    except Exception:
        log.exception("could not enqueue the turn e-mail for match %s seat %s", match_id, seat)


def outside_bots(user_ids) -> set:
    """The accounts among ``user_ids`` that are outside bots (played by a program through the API):
    the games show them as bots on an invitation (games do not import the league)."""
    return set(PlayerProfile.objects.filter(user_id__in=user_ids, is_bot_account=True)
               .values_list("user_id", flat=True))


def plug_in() -> None:
    """Connect the receivers and add the league's hooks to games' lists (once, however often called)."""
    match_finished.connect(on_match_finished, dispatch_uid="league.match_finished")
    turn_waiting.connect(on_turn_waiting, dispatch_uid="league.turn_waiting")
    for plugged, hook in ((games_hooks.MATCH_CONTEXT, league_hooks.match_context),
                          (games_hooks.HOME_SECTIONS, league_hooks.home_sections),
                          (games_hooks.BOT_ACCOUNTS, outside_bots), (games_hooks.CHALLENGE_GATES, challenge_gate)):
        if hook not in plugged:
            plugged.append(hook)
