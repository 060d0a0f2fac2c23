"""What other apps plug into the read side of matches (the league, in its ``ready``): games does not
import them, it calls what they add here.

- ``MATCH_CONTEXT``: ``(match) -> dict | None`` says where a match belongs (tournament, round, table,
  with links);
- ``HOME_SECTIONS``: ``(user) -> list[dict]`` adds home-page sections for a person (their tournaments'
  current round);
- ``BOT_ACCOUNTS``: ``(user_ids) -> set`` says which of these accounts are outside bots (programs playing
  through the API: people to the games, bots to the people who meet them);
- ``CHALLENGE_GATES``: ``(challenger, invited) -> message | None`` refuses a challenge (its words) or lets it
  through (``games.services.limits``).
"""
from __future__ import annotations

MATCH_CONTEXT: list = []
HOME_SECTIONS: list = []
BOT_ACCOUNTS: list = []
CHALLENGE_GATES: list = []
