"""A refused move's notice on the board, its rule's id a link to that rule's paragraph on the game's
rules page (``/rules/<game>/#rule-L6``; every rule id of a spec is an anchor there)."""
from __future__ import annotations

import re

from django import template
from django.urls import reverse

from games.words import GAMES, illegal_move_message

register = template.Library()

RULE_ID = re.compile(r"[A-Z][0-9]{1,3}")


@register.filter
def rule_linked(error: dict, game: str) -> str:
    """The notice of ``error`` (``games.errors.http_error``'s body): an illegal move's sentence with
    "(rule L6)" linked to the rule; any other error, its message as it is."""
    rule = error.get("rule")
    if not rule or game not in GAMES or not RULE_ID.fullmatch(rule):
        return error["message"]
    return illegal_move_message(error["code"], rule, href=f"{reverse('rules', args=[game])}#rule-{rule}", game=game)
