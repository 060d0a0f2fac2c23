"""The reference client does not accept everything by default: an invitation is declined,
with a reason, while it already plays ``--max-matches`` matches (default 4); tournament seats are
always taken."""
from __future__ import annotations

import importlib.util
import secrets
import sys
from pathlib import Path

import pytest

from games.services import api_token_create

ROOT = Path(__file__).resolve().parents[2]


def client_module():
    spec = importlib.util.spec_from_file_location("cardleague_client", ROOT / "clients" / "python" /
                                                  "cardleague_client.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class Alive:
    def is_alive(self) -> bool:
        return True


def bot_with(matches: int, argv: list[str]):
    module = client_module()
    bot = module.Bot(module.parse_args(["--url", "http://x", "--token", "t", *argv]), policy=None)
    bot.players = {100 + i: Alive() for i in range(matches)}
    calls = []
    bot.request = lambda api, method, path, body=None: calls.append((method, path, body)) or True
    bot.join = lambda api, match_id, seat: calls.append(("JOIN", match_id, seat))
    return bot, calls


def test_the_client_accepts_at_most_four_matches_at_once_by_default():
    bot, calls = bot_with(4, [])
    bot.on_news(None, "invited", {"match": 7, "seat": 1, "by": "stranger", "game": "livol"})
    assert calls == [("POST", "/api/matches/7/decline", {"reason": "busy: already playing 4 matches"})]


def test_the_client_accepts_while_it_has_room():
    bot, calls = bot_with(1, ["--max-matches", "2"])
    bot.on_news(None, "invited", {"match": 8, "seat": 1, "by": "friend", "game": "iota"})
    assert calls == [("JOIN", 8, 1)]


def test_a_tournament_seat_is_taken_however_busy_the_client_is():
    bot, calls = bot_with(9, [])
    bot.on_news(None, "seated", {"match": 9, "seat": 0, "game": "livol"})
    assert calls == [("JOIN", 9, 0)]


@pytest.mark.django_db
def test_a_new_token_goes_on_the_clients_command_line_even_when_its_random_part_starts_with_a_dash(
        django_user_model, monkeypatch):
    """URL-safe base64 starts with ``-`` one time in 64, and ``--token -x...`` then reads as a missing value
    (a CI run's client died so): new keys carry a prefix, so the documented command line always works."""
    user = django_user_model.objects.create_user(username="dash", password="pw-dash-1234")
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: "-" + "A" * 42)
    key = api_token_create(user=user, name="dash")
    args = client_module().parse_args(["--url", "http://x", "--token", key])
    assert args.token == key
