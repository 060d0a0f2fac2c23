"""Signal receivers of the league: the bridge from finished matches to standings."""
from __future__ import annotations

import logging

log = logging.getLogger("league")


def on_match_finished(sender, match_id: int, **kwargs) -> None:
    """A match ended (sent on commit): fold its table and close the round when it was the last.

    A failure must not undo the mover's own commit, so it is logged and retried as a task
    (``league.match_record``); ``tournament_sweep`` is the organiser's last resort.
    """
    from league import services

    try:
        services.match_result_record(match_id=match_id)
    except Exception:
        log.exception("recording the result of match %s failed; retrying in the background", match_id)
        try:
            from league.tasks import match_record

            match_record.apply_async((match_id,), countdown=5)
        except Exception:
            log.exception("could not enqueue the retry for match %s", match_id)


def on_turn_waiting(sender, match_id: int, seat: int, **kwargs) -> None:
    """A correspondence turn began (sent on commit): e-mail the person, in the background."""
    try:
        from league.tasks import notify_turn

        notify_turn.delay(match_id, seat)
    except Exception:
        log.exception("could not enqueue the turn e-mail for match %s seat %s", match_id, seat)
