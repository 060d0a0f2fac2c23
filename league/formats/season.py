"""A league season: a double round robin played as fixtures, one round a week by default (the
tournament's ``days_between_rounds``), home and away."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from league.formats.double_round_robin import DoubleRoundRobin


class Season(DoubleRoundRobin):
    name = "league"
    label = _("League season (weekly fixtures, home and away)")
    description = _("A season of fixtures: everybody plays everybody twice, home and away, one round a week or as "
                    "often as the organiser sets; the standings decide.")


FORMAT = Season()
