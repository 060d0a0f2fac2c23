"""Challenges the challenger manages: withdrawing a challenge nobody has answered yet."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.errors import InvitationClosed, SeatForbidden
from games.models import MATCH_ABORTED, Match
from games.services.matches import _end


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
    _end(match, Match.Status.ABORTED, {"type": MATCH_ABORTED, "reason": "withdrawn", "by": user.get_username()})
    return match
