"""Matches and events in the admin: nothing hidden is shown until the match has finished, to staff
with view permissions and to superusers alike."""
import html
import re

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from engine import registry
from games.models import Event, Match, Snapshot
from games.services import SeatSpec, bots_advance, match_abort, match_create

SEED = "known-seed"
FAST = {"target": 30}


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def viewer(db):
    """Staff allowed only to look at events and matches."""
    user = get_user_model().objects.create_user(username="viewer", password="pw", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=["view_event", "view_match"]))
    return _client(user)


@pytest.fixture
def superuser(db):
    return _client(get_user_model().objects.create_superuser(username="root", password="pw", email="r@example.org"))


@pytest.fixture
def running(people):
    """A running LIVOL match: a person against a greedy bot, dealt from a known seed."""
    return match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(bot="greedy")], seed=SEED,
                        options=FAST)


@pytest.fixture
def finished(db):
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="greedy")], seed=SEED,
                         options=FAST, wake_bots=False)
    while Match.objects.get(pk=match.pk).is_running:
        bots_advance(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def _deck(match) -> list[str]:
    return Event.objects.filter(match=match, type="round_dealt").order_by("seq").first().payload["deck"]


# the events that carry the secrets: the engine's opening (the seed) and the deal (the deck)
OPENING, DEAL = "match_started", "round_dealt"


def _text(response) -> str:
    """The page as text with the markup's quoting and spacing taken out, so a JSON list shows as A,B,C."""
    assert response.status_code == 200, response.status_code
    return re.sub(r"[\s\"']", "", html.unescape(response.content.decode()))


def _shows_deck(text: str, deck: list[str], run: int = 6) -> bool:
    """Whether any run of consecutive cards of the deck appears in the page."""
    return any(",".join(deck[i:i + run]) in text for i in range(len(deck) - run + 1))


def _event_page(client, match, which) -> str:
    """The admin page of an event, given its position or (for the secrets' events) its type."""
    event = Event.objects.filter(match=match, **({"type": which} if isinstance(which, str) else {"seq": which})
                                 ).order_by("seq").first()
    return _text(client.get(f"/admin/games/event/{event.pk}/change/"))


@pytest.mark.parametrize("who", ["viewer", "superuser"])
def test_the_seed_and_the_deck_of_a_running_match_stay_out_of_the_event_pages(request, who, running):
    # given
    client = request.getfixturevalue(who)
    deck = _deck(running)
    # when
    first, second = _event_page(client, running, OPENING), _event_page(client, running, DEAL)
    # then
    assert SEED not in first and SEED not in second
    assert not _shows_deck(first, deck) and not _shows_deck(second, deck)
    assert "round_dealt" in second and "dealer" in second  # the spectator's view of the deal is shown


def test_an_event_page_shows_the_payload_exactly_as_a_spectator_sees_it(viewer, running):
    # given
    game = registry.get("livol")
    for event in Event.objects.filter(match=running):
        # when
        page = _event_page(viewer, running, event.seq)
        # then
        spectator = game.redact(event.payload, None)
        assert spectator is not None
        for key in spectator:
            assert f"{key}:" in page
        for key in set(event.payload) - set(spectator):
            assert f"{key}:" not in page


def test_the_match_page_and_the_lists_of_a_running_match_show_no_secret(viewer, superuser, running, people):
    # given
    stacked = _deck(running)[::-1]
    stacked_match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1])],
                                 seed=SEED, options=FAST, deck=stacked)
    for client in (viewer, superuser):
        for match in (running, stacked_match):
            deck = _deck(match)
            events = Event.objects.filter(match=match)
            pages = [f"/admin/games/match/{match.pk}/change/", f"/admin/games/match/{match.pk}/history/",
                     "/admin/games/match/", "/admin/games/event/", f"/admin/games/event/?q={match.pk}",
                     "/admin/games/event/?type=round_dealt",
                     *[f"/admin/games/event/{e.pk}/history/" for e in events]]
            for url in pages:
                # when
                text = _text(client.get(url))
                # then
                assert SEED not in text, url
                assert not _shows_deck(text, deck), url
                assert not _shows_deck(text, stacked), url
        # a search for the seed (echoed in the search box) finds nothing
        assert client.get(f"/admin/games/event/?q={SEED}").context["cl"].result_count == 0


def test_no_list_lookup_reaches_the_seed_the_deck_or_a_payload(superuser, running):
    # given
    lookups = [f"/admin/games/match/?seed={SEED}", "/admin/games/match/?seed__startswith=k",
               "/admin/games/match/?stacked_deck__isnull=False", f"/admin/games/event/?payload__seed={SEED}",
               "/admin/games/event/?payload__deck__0=R5", f"/admin/games/event/?match__seed={SEED}",
               "/admin/games/event/?payload__icontains=seed", "/admin/games/event/?move__isnull=True"]
    for url in lookups:
        # when
        response = superuser.get(url)
        # then: refused (the changelist's "bad lookup" answer), never a filtered list
        assert response.status_code == 400, url


def test_an_aborted_match_reveals_its_seed_for_the_audit(superuser, running):
    # given
    match_abort(match_id=running.pk)
    # when
    pages = _event_page(superuser, running, OPENING) + _text(superuser.get(f"/admin/games/match/{running.pk}/change/"))
    # then: an abort ends the match; the secret is revealed as its last event, as at a normal end
    assert SEED in pages and _shows_deck(_event_page(superuser, running, DEAL), _deck(running))
    assert Event.objects.filter(match=running).order_by("-seq").first().type == "seed_revealed"


@pytest.mark.parametrize("who", ["viewer", "superuser"])
def test_after_the_end_the_seed_and_the_deck_are_shown(request, who, finished):
    # given
    client = request.getfixturevalue(who)
    # when
    first, second = _event_page(client, finished, OPENING), _event_page(client, finished, DEAL)
    match_page = _text(client.get(f"/admin/games/match/{finished.pk}/change/"))
    # then
    assert SEED in first and SEED in match_page
    assert _shows_deck(second, _deck(finished))


def test_a_finished_match_shows_its_stacked_deck(superuser, people):
    # given
    deck = list(_deck(match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="greedy")],
                                   seed="another", options=FAST, wake_bots=False)))[::-1]
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="greedy")], seed=SEED,
                         options=FAST, deck=deck, wake_bots=False)
    before = _text(superuser.get(f"/admin/games/match/{match.pk}/change/"))
    # when
    while Match.objects.get(pk=match.pk).is_running:
        bots_advance(match_id=match.pk)
    after = _text(superuser.get(f"/admin/games/match/{match.pk}/change/"))
    # then
    assert not _shows_deck(before, deck) and _shows_deck(after, deck)


def test_snapshots_are_not_in_the_admin():
    assert Snapshot not in admin.site._registry


def test_events_and_matches_cannot_be_added_changed_or_deleted_in_the_admin(superuser, running):
    # given
    event = Event.objects.filter(match=running, type=OPENING).first()
    # when
    listing = superuser.get("/admin/games/event/").content.decode()
    matches = superuser.get("/admin/games/match/").content.decode()
    # then
    assert "delete_selected" not in listing and "delete_selected" not in matches
    assert superuser.post(f"/admin/games/event/{event.pk}/change/", {}).status_code == 403
    assert superuser.post(f"/admin/games/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert superuser.post(f"/admin/games/match/{running.pk}/delete/", {"post": "yes"}).status_code == 403
    assert superuser.get("/admin/games/event/add/").status_code == 403
    assert superuser.get("/admin/games/apitoken/add/").status_code == 403
    assert Event.objects.filter(match=running).count() == running.last_seq
