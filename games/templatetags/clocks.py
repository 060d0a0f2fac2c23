"""``{% load clocks %}``: deadlines and ages as the site says them, in every language."""
from __future__ import annotations

from django import template
from django.utils import timezone

from games.words.terms import duration_words
from games.words.terms import time_left as countdown

register = template.Library()


@register.filter
def time_left(deadline) -> str:
    """The time left until ``deadline`` in the countdown's own words ("0:45", "23 hours, 54 minutes"):
    the same text the script then keeps up to date, never "0 minutes" while time remains."""
    if deadline is None:
        return ""
    return countdown((deadline - timezone.now()).total_seconds())


@register.filter
def age(moment) -> str:
    """How long ago ``moment`` was, in its largest unit ("3 days", "5 minutes"; at least "1 minute")."""
    if moment is None:
        return ""
    return duration_words((timezone.now() - moment).total_seconds(), parts=1)
