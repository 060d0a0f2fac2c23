import pytest
from django.contrib.auth import get_user_model

from games.models import Event
from games.services import SeatSpec, match_create


@pytest.fixture
def people(db):
    User = get_user_model()
    return [User.objects.create_user(username=f"player{i}", password="pw") for i in range(3)]


@pytest.fixture
def livol_match(people):
    """A LIVOL match: seat 0 and seat 1 held by people, no bots."""
    return match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])], seed="store-test")


def first_actor(match):
    from engine import registry
    from games import store

    state = store.load_state(match)
    game = registry.get(match.game)
    seat = game.view(state, None)["turn"]
    return seat, game.legal_moves(state, seat)


def recorded_events(match) -> list[tuple[int, str]]:
    """The match's events as (seq, hash): what a refused request must leave as it found it."""
    return list(Event.objects.filter(match=match).order_by("seq").values_list("seq", "hash"))
