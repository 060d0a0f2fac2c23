"""The first hour of a player, on the home page: what waits for you comes
before the new-match form and is kept live (a small partial that answers 204 while nothing changed);
the "your turn" list says who you play and how long ago, and folds matches idle for weeks; an
invitation says what you accept (game, options, seats and who holds them, bots, the clock), and so
does the play page's table panel; the form's help texts are where its aria-describedby points."""
from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from html.parser import HTMLParser

from django.test import Client
from django.utils import timezone

from engine import registry
from games import store
from games.models import Match
from games.services import SeatSpec, bots_advance, match_create


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def words(html: str) -> str:
    """The text of a piece of HTML, tags dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html))).strip()


def invitation_of(page: str, match) -> str:
    start = page.index(f'data-invitation="{match.pk}"')
    return page[start:page.index("</li>\n    ", page.index('class="invitation-actions"', start))]


def turn_match(person, *, seed: str, bot: str = "greedy", clock=None):
    """A LIVOL match of a bot and ``person`` (seat 1), played by the bot until it is the person's turn."""
    match = match_create(game="livol", seats=[SeatSpec(bot=bot), SeatSpec(user=person)], seed=seed, clock=clock)
    bots_advance(match_id=match.pk)
    match.refresh_from_db()
    assert registry.get("livol").view(store.load_state(match), None)["turn"] == 1
    return match


# -- what waits for you comes first ----------------------------------------------------------------------

def test_the_waits_with_an_invitations_accept_button_come_before_the_new_match_form(people):
    # given anna invites janis
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         created_by=people[0])
    # when janis opens his home page
    page = signed_in(people[1]).get("/").content.decode()
    # then his invitation, with its Accept button, comes before the new-match form
    accept = page.index(f'action="/matches/{match.pk}/join/"')
    assert "Accept" in page[accept:accept + 400]
    assert accept < page.index('id="new-match"')
    assert page.index("What waits for you") < page.index('id="new-match"')


def test_a_page_with_nothing_waiting_says_so_in_one_line_and_the_form_follows(people):
    page = signed_in(people[2]).get("/").content.decode()
    nothing = page.index("Nothing waits for you now")
    assert nothing < page.index('id="new-match"')
    assert "<h2" not in page[page.index('id="waits-body"'):nothing]


# -- an invitation says what you accept ------------------------------------------------------------------

def test_the_inviter_sees_her_match_waiting_for_the_invited_person(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         created_by=people[0])
    page = signed_in(people[0]).get("/").content.decode()
    waits = words(page[page.index('id="waits-body"'):page.index('id="new-match"')])
    assert f"LIVOL #{match.pk} · Waiting for player1" in waits and "Nothing waits" not in waits


def test_an_invitation_says_the_game_its_target_the_seats_and_holders_the_bots_and_a_correspondence_clock(people):
    from league.services import bot_account_create

    anna, janis = people[0], people[1]
    annabot, _ = bot_account_create(owner=anna, name="annabot")
    # given anna invites janis and her outside bot to a LIVOL to 100 with a server bot, one day a move
    match = match_create(game="livol", seats=[SeatSpec(user=anna), SeatSpec(user=janis, invite=True),
                                              SeatSpec(user=annabot, invite=True), SeatSpec(bot="greedy")],
                         options={"target": 100}, clock={"move_days": 1}, created_by=anna)
    # when janis opens his home page
    page = signed_in(janis).get("/").content.decode()
    invitation = invitation_of(page, match)
    text = words(invitation)
    # then it names the game (linked to its rules) and its target in words
    assert 'href="/rules/livol/"' in invitation and "Rules of LIVOL" in text
    assert "to 100 points" in text and "the round's winner scores the others' cards" in text
    # the seats and who holds them: the inviter at the table, you, the bots marked as bots
    assert "player0 invites you" in text
    assert "1. player0 (at the table)" in text
    assert "2. you" in text
    assert "3. annabot bot (invited, has not answered yet)" in text
    assert "4. greedy bot 3 bot" in text
    # the clock in words with its kind, set apart from a live clock or none
    assert 'class="clock-kind correspondence">Correspondence: 1 day a move<' in invitation
    # and never the old repetition
    assert "from player0" not in words(page) and "with player0" not in words(page)


def test_a_live_clock_and_no_clock_read_differently_from_correspondence(people):
    live = match_create(game="uno_flip", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                        clock={"move_seconds": 30, "bank_seconds": 300}, created_by=people[0])
    none = match_create(game="iota", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                        options={"variant": "short"}, created_by=people[0])
    page = signed_in(people[1]).get("/").content.decode()
    assert "Live clock: 30 seconds a move, a 5-minute bank" in words(invitation_of(page, live))
    assert "to 500 points" in words(invitation_of(page, live))
    assert "No clock" in words(invitation_of(page, none))
    assert "short: 32 cards and both wilds" in words(invitation_of(page, none))


def test_a_tournament_seat_says_where_it_belongs(people, monkeypatch):
    from games.selectors import hooks

    match = match_create(game="livol", seats=[SeatSpec(user=people[0], seated=True), SeatSpec(bot="greedy")])
    monkeypatch.setattr(hooks, "MATCH_CONTEXT", [lambda m: {"tournament": "Autumn Swiss", "round": 2, "table": 3,
                                                            "tournament_url": "/tournaments/9/"}
                                                 if m.pk == match.pk else None])
    text = words(invitation_of(signed_in(people[0]).get("/").content.decode(), match))
    assert "Autumn Swiss, round 2, table 3" in text and "Take my seat" in text


def test_the_table_panel_says_the_same_terms_to_an_invited_person(people):
    from league.services import bot_account_create

    annabot, _ = bot_account_create(owner=people[0], name="annabot")
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True),
                                              SeatSpec(user=annabot, invite=True)],
                         options={"target": 100}, clock={"move_days": 1}, created_by=people[0])
    page = signed_in(people[1]).get(f"/matches/{match.pk}/").content.decode()
    panel = words(page[page.index('class="table-panel"'):page.index("</section>", page.index('class="table-panel"'))])
    assert "Terms: to 100 points · the round's winner scores the others' cards" in panel
    assert "Correspondence: 1 day a move" in panel
    assert "annabot bot" in panel and "Accept and take my seat" in panel


def test_the_apis_invitations_carry_the_terms_too(people):
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         options={"target": 100}, clock={"move_days": 1}, created_by=people[0])
    invitation, = signed_in(people[1]).get("/api/invitations").json()
    assert invitation["match"] == match.pk and invitation["options"]["target"] == 100
    assert invitation["options"]["variant"] == "winner_scores"  # as the match plays them
    assert invitation["clock"] == {"move_days": 1} and invitation["timeout_rule"] == "bot"


# -- your turn: opponents, age, newest first, old ones folded ---------------------------------------------

def test_the_your_turn_list_shows_opponents_and_age_newest_first_and_folds_matches_idle_for_weeks(people):
    person = people[0]
    # given three matches where it is the person's turn: one idle for three weeks, two recent
    idle = turn_match(person, seed="idle", bot="random")
    older = turn_match(person, seed="older")
    newer = turn_match(person, seed="newer", bot="search-easy")
    Match.objects.filter(pk=idle.pk).update(moved_at=timezone.now() - timedelta(days=21))
    Match.objects.filter(pk=older.pk).update(moved_at=timezone.now() - timedelta(days=3, hours=1))
    # when the person opens the home page
    page = signed_in(person).get("/").content.decode()
    turns = page[page.index("<h2>Your turn</h2>"):page.index('id="new-match"')]
    # then each entry says whom it is against and how long ago the last move was, the newest first
    listed = turns[:turns.index("<details")]
    assert listed.index(f"/matches/{newer.pk}/") < listed.index(f"/matches/{older.pk}/")
    assert "against search-easy bot 0 bot" in words(listed)
    assert "last move 3 days ago" in words(listed)
    # and the match idle for weeks is folded away under "older"
    assert f"/matches/{idle.pk}/" not in listed
    folded = turns[turns.index("<details"):turns.index("</details>")]
    assert f"/matches/{idle.pk}/" in folded and "1 older match" in words(folded)
    assert "last move 21 days ago" in words(folded)


def test_a_match_with_a_clock_is_never_folded_however_old(people):
    match = turn_match(people[0], seed="clocked", clock={"move_days": 3})
    Match.objects.filter(pk=match.pk).update(moved_at=timezone.now() - timedelta(days=20))
    page = signed_in(people[0]).get("/").content.decode()
    assert "<details" not in page[page.index("<h2>Your turn</h2>"):page.index('id="new-match"')]


# -- the live part: a small partial, 204 while nothing changed --------------------------------------------

def test_the_waits_partial_answers_204_while_nothing_changed_and_the_new_invitation_when_one_came(people):
    client = signed_in(people[1])
    # given the home page's block as it is now
    first = client.get("/waits/")
    assert first.status_code == 200
    version = re.search(r'data-waits-version="([^"]+)"', first.content.decode()).group(1)
    assert 'id="new-match"' not in first.content.decode()  # the block alone, not the page
    # when nothing changed, then a poll costs a 204
    assert client.get(f"/waits/?v={version}").status_code == 204
    # when an invitation comes
    match = match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                         created_by=people[0])
    again = client.get(f"/waits/?v={version}")
    # then the poll brings the block with it, and its new version
    assert again.status_code == 200
    body = again.content.decode()
    assert f'action="/matches/{match.pk}/join/"' in body and "player0 invites you" in words(body)
    assert f'data-waits-version="{version}"' not in body


def test_the_waits_partial_refuses_a_stranger_without_a_redirect(db):
    assert Client().get("/waits/").status_code == 401


def test_the_home_page_follows_the_account_stream_only_where_the_server_has_streams(people):
    page = signed_in(people[0]).get("/").content.decode()
    # the test client is not an ASGI server: no stream, a poll of the block instead (never both)
    assert 'data-poll-every="10000"' in page and "data-waits-stream" not in page
    assert 'data-waits-url="/waits/"' in page and "js/waits.js" in page


# -- accessibility: describedby targets exist, headings in order -------------------------------------------

class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.described: list[str] = []
        self.headings: list[int] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if attrs.get("aria-describedby"):
            self.described.extend(attrs["aria-describedby"].split())
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))


def test_the_home_forms_described_by_ids_exist_and_the_headings_are_in_order(people):
    match_create(game="livol", seats=[SeatSpec(user=people[0]), SeatSpec(user=people[1], invite=True)],
                 created_by=people[0])
    turn_match(people[1], seed="headings")
    for user in (people[1], people[2]):
        parser = _Ids()
        parser.feed(signed_in(user).get("/").content.decode())
        # every aria-describedby names an element of the page (the help texts of the new-match form)
        assert parser.described and [i for i in parser.described if i not in parser.ids] == []
        # one h1 first, and no level skipped on the way down
        assert parser.headings[0] == 1 and parser.headings.count(1) == 1
        assert all(b - a <= 1 for a, b in zip(parser.headings, parser.headings[1:]))
