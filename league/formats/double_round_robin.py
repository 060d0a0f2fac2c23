"""Double round robin: the round robin's schedule played twice (``league.formats.round_robin``)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from league.formats.round_robin import RoundRobin


class DoubleRoundRobin(RoundRobin):
    name = "double_round_robin"
    label = _("Double round robin")
    description = _("Everybody plays everybody twice, on a schedule fixed at the start; the standings decide.")
    double = True


FORMAT = DoubleRoundRobin()
