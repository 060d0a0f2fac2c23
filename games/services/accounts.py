"""API tokens: the keys outside programs (and people's own scripts) use instead of a session."""
from __future__ import annotations

import hashlib
import secrets

from django.db import transaction

from games.models import ApiToken


@transaction.atomic
def api_token_create(*, user, name: str) -> str:
    """A new bearer token for ``user``; the key is returned once and stored only as its SHA-256."""
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name=name[:80], key_hash=hashlib.sha256(key.encode()).hexdigest())
    return key


@transaction.atomic
def api_token_revoke(*, user, token_id: int) -> bool:
    """Delete one of ``user``'s tokens (or of their outside bots'); True if it existed."""
    return ApiToken.objects.filter(pk=token_id, user=user).delete()[0] > 0
