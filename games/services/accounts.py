"""API tokens: the keys outside programs (and people's own scripts) use instead of a session."""
from __future__ import annotations

import hashlib
import secrets

from django.db import transaction

from games.models import TOKEN_SCOPES, ApiToken

TOKEN_PREFIX = "cl_"
"""Every new key starts with this: a key never begins with ``-`` (URL-safe base64 may, one key in 64, and
a command line such as ``cardleague_client.py --token KEY`` then takes it for an option), and a secret
scanner or a person can tell a cardleague key in a leaked file. Keys made before it still work."""


@transaction.atomic
def api_token_create(*, user, name: str, scopes: list[str] | None = None) -> str:
    """A new bearer token for ``user`` with ``scopes`` (``games.models.TOKEN_SCOPES``; None: all of them;
    every token reads); the key is returned once and stored only as its SHA-256. ``ValueError`` for an
    unknown scope."""
    scopes = list(TOKEN_SCOPES) if scopes is None else sorted(set(scopes))
    unknown = [s for s in scopes if s not in TOKEN_SCOPES]
    if unknown:
        raise ValueError(f"unknown scope(s) {', '.join(unknown)}; known: {', '.join(TOKEN_SCOPES)}")
    key = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name=name[:80], scopes=scopes,
                            key_hash=hashlib.sha256(key.encode()).hexdigest())
    return key


@transaction.atomic
def api_token_revoke(*, user, token_id: int) -> bool:
    """Delete one of ``user``'s tokens (or of their outside bots'); True if it existed."""
    return ApiToken.objects.filter(pk=token_id, user=user).delete()[0] > 0
