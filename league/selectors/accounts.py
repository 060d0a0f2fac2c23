"""A person's accounts for the API: their own tokens, and their outside bots with theirs."""
from __future__ import annotations

from games.models import TOKEN_SCOPES, ApiToken
from league.models import PlayerProfile


def bot_accounts(user) -> list[dict]:
    """A person's outside bots, with their tokens' names and last use."""
    out = []
    for profile in PlayerProfile.objects.filter(owner=user, is_bot_account=True).select_related("user"):
        tokens = list(ApiToken.objects.filter(user=profile.user).order_by("-created_at")
                      .values("id", "name", "created_at", "last_used_at"))
        out.append({"name": profile.name, "user_id": profile.user_id, "player_id": profile.pk, "tokens": tokens})
    return out


def personal_tokens(user) -> list[dict]:
    """A person's own API tokens (not their outside bots'), newest first, with their scopes' words."""
    rows = list(ApiToken.objects.filter(user=user).order_by("-created_at")
                .values("id", "name", "scopes", "created_at", "last_used_at"))
    for row in rows:
        row["scope_words"] = [TOKEN_SCOPES[s] for s in row["scopes"] or () if s in TOKEN_SCOPES]
    return rows
