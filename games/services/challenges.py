"""Challenges as a whole: the challenger withdrawing one nobody has answered yet, the invited declining
all of them at once."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.errors import InvitationClosed, SeatForbidden
from games.models import MATCH_ABORTED, Match, Seat
from games.selectors.hooks import CHALLENGE_GATES
from games.services.matches import seat_decline
from games.services.recording import record_end


def challenges_decline_all(*, user, reason: str = "", refused: bool = False) -> list[int]:
    """Decline every challenge waiting for ``user`` at once (a flood of them, say); each is declined as
    one decline would be, with ``reason``. ``refused``: only those whose challenger the account's rules
    now refuse (``limits.CHALLENGE_GATES``). Returns the matches declined."""
    waiting = list(Seat.objects.filter(user=user, status=Seat.Status.INVITED, match__status=Match.Status.WAITING)
                   .select_related("match__created_by").order_by("match_id")[:1000])
    declined = []
    for seat in waiting:
        challenger = seat.match.created_by
        if refused and (challenger is None or not any(gate(challenger, user) for gate in CHALLENGE_GATES)):
            continue
        try:
            seat_decline(match_id=seat.match_id, user=user, reason=reason)
        except InvitationClosed:
            continue  # answered meanwhile
        declined.append(seat.match_id)
    return declined


@transaction.atomic
def challenge_withdraw(*, match_id: int, user) -> Match:
    """The challenger takes a challenge back before it starts: the match ends (``aborted``, reason
    ``withdrawn``, as the offline verifier expects of a stop that is not a decline), recorded as an
    appended event (nothing recorded before it changes), so it leaves the invited people's waiting lists."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if not getattr(user, "is_authenticated", False) or match.created_by_id != user.pk:
        raise SeatForbidden(_("Only the challenger can withdraw a challenge."))
    if not match.is_waiting:
        raise InvitationClosed()
    record_end(match, Match.Status.ABORTED, {"type": MATCH_ABORTED, "reason": "withdrawn", "by": user.get_username()})
    return match
