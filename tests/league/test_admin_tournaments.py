"""The organiser's first tournament: what a new organiser meets in the admin and on the public
tournament page.

- a tournament added in the admin, its form left as it comes, plays its league's match options;
- the League and Tournament forms have the clock and the timeout rule (a tournament starts from its league's),
  so a person who never takes a seat no longer stalls a round;
- the admin and the public page say who a round waits for and since when; an organiser reminds, forfeits
  the seat or awards the match from there, a view-only staff account does none of it;
- the public page says the options and the clock in words, and links each reader to play, take their seat,
  watch or replay;
- top ratings show the rating people read with a legend; a round started early says nothing of a schedule.
"""
from __future__ import annotations

import html
import re
from datetime import timedelta
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from engine.verify import verify_record
from games import services as games
from games.errors import MatchError
from games.models import Event, Match, Seat
from games.records import match_record, match_verify
from league import services
from league.models import League, Reminder, Round, Table, Tournament
from league.selectors import players, rounds
from tests.league.conftest import inline_forms

PASSWORD = "pw-first-hour"


# -- helpers -----------------------------------------------------------------------------------------------

@pytest.fixture
def organiser(django_user_model, client):
    user = django_user_model.objects.create_superuser(username="organiser", password=PASSWORD,
                                                      email="organiser@example.org")
    client.force_login(user)
    return user


@pytest.fixture
def club(db):
    return services.club_create(name="First Hour Club", slug="first-hour")


@pytest.fixture
def league(club):
    """A league as the usability test set one up: LIVOL to 100 points."""
    return services.league_create(club_id=club.pk, name="LIVOL to 100", game="livol", options={"target": 100})


@pytest.fixture
def anna(django_user_model):
    user = django_user_model.objects.create_user(username="anna", password=PASSWORD, email="anna@example.org")
    services.player_for_user(user=user)
    return user


class _FormValues(HTMLParser):
    """The values a browser would send for a form as it is rendered (text inputs, text areas, the selected
    option of each select, checked boxes)."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, str] = {}
        self._textarea = self._select = None
        self._first_option: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type", "text") in ("text", "number", "hidden", "date"):
            self.values[name] = a.get("value") or ""
        elif tag == "input" and name and a.get("type") == "checkbox" and "checked" in a:
            self.values[name] = a.get("value") or "on"
        elif tag == "textarea" and name:
            self._textarea, self.values[name] = name, ""
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            self._first_option.setdefault(self._select, a.get("value", ""))
            if "selected" in a:
                self.values[self._select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        elif tag == "select" and self._select:
            self.values.setdefault(self._select, self._first_option.get(self._select, ""))
            self._select = None

    def handle_data(self, data):
        if self._textarea:
            self.values[self._textarea] += data


def form_as_rendered(page: str) -> dict[str, str]:
    parser = _FormValues()
    parser.feed(page)
    return {k: html.unescape(v).strip() for k, v in parser.values.items() if not k.startswith("entrants-")}


def add_tournament_as_the_form_comes(client, league: League, **choices) -> Tournament:
    """An organiser opens "Add tournament", chooses the league, names it, and saves the rest as rendered."""
    page = client.get("/admin/league/tournament/add/").content.decode()
    data = form_as_rendered(page)
    data.update({"league": str(league.pk), "name": "Tuesday Swiss", "format": "swiss", "rounds": "1",
                 "auto_advance": "on", **choices, **inline_forms("entrants", []), **inline_forms("teams", [])})
    data.pop("_save", None)
    r = client.post("/admin/league/tournament/add/", data)
    assert r.status_code == 302, r.context["adminform"].form.errors if r.status_code == 200 else r
    return Tournament.objects.get(name="Tuesday Swiss")


def round_scores(match: Match) -> list[list[int]]:
    return [e.payload["scores"] for e in Event.objects.filter(match=match, type="round_scored").order_by("seq")]


def _text(page: str) -> str:
    """A page's visible text (no tags, no attributes), its white space collapsed."""
    class Text(HTMLParser):
        def __init__(self):
            super().__init__()
            self.parts, self.skip = [], 0

        def handle_starttag(self, tag, attrs):
            self.skip += tag in ("script", "style")

        def handle_endtag(self, tag):
            self.skip -= tag in ("script", "style")

        def handle_data(self, data):
            if not self.skip:
                self.parts.append(data)

    parser = Text()
    parser.feed(page)
    return " ".join(" ".join(parser.parts).split())


def _staff(django_user_model, name: str, club, codenames_like) -> object:
    user = django_user_model.objects.create_user(username=name, password=PASSWORD, is_staff=True)
    perms = Permission.objects.filter(content_type__app_label__in=["league", "games"])
    user.user_permissions.set([p for p in perms if p.codename.startswith(tuple(codenames_like))])
    club.organisers.add(user)
    return user


def seated_round(league: League, person, *, clock=services.LEAGUE_CLOCK, bots: int = 3, seats: int = 2,
                 capture=None) -> Tournament:
    """A one-round Swiss of ``person`` and bots, paired and started (the bots' tables played)."""
    t = services.tournament_create(league_id=league.pk, name="Club night", rounds=1, seeding="entry", clock=clock,
                                   seats_per_table=seats)
    services.entrant_add(tournament_id=t.pk, player_id=services.player_for_user(user=person).pk)
    services.bots_add(tournament_id=t.pk, count=bots, policy="greedy")
    with capture(execute=True):
        services.round_start(round_id=services.round_pair(tournament_id=t.pk).pk)
    t.refresh_from_db()
    return t


def persons_match(tournament: Tournament, person) -> Match:
    return Match.objects.get(league_table__round__tournament=tournament, seats__user=person)


# -- 1. a tournament plays its league's match options -----------------------------------------------------------

def test_a_tournament_added_in_the_admin_as_the_form_comes_plays_its_leagues_match_options(client, organiser,
                                                                                         league):
    # given the add form as a new organiser sees it (nothing typed in "Match options")
    # when they choose the league, name the tournament and save
    tournament = add_tournament_as_the_form_comes(client, league)
    # then the tournament plays the league's options
    assert tournament.options == {"target": 100}
    # and a real round of bots plays them: every match starts with target 100 and ends when a seat reaches 100
    services.bots_add(tournament_id=tournament.pk, count=4, policy="greedy")
    services.tournament_run(tournament_id=tournament.pk)
    matches = list(Match.objects.filter(league_table__round__tournament=tournament))
    assert len(matches) == 2
    for match in matches:
        started = Event.objects.get(match=match, type="match_started").payload
        assert started["options"]["target"] == 100
        scores = round_scores(match)
        assert max(scores[-1]) >= 100 and all(max(s) < 100 for s in scores[:-1])
        assert match.status == Match.Status.FINISHED


def test_the_add_form_shows_the_leagues_options_when_a_league_is_asked_for(client, organiser, league):
    # when the add page is opened for a league (?league=)
    page = client.get(f"/admin/league/tournament/add/?league={league.pk}").content.decode()
    # then the options field holds the league's options and says them in words
    assert form_as_rendered(page)["options"] == '{"target": 100}'
    assert "to 100 points" in page
    # and each league of the list carries its terms for the page's script
    assert 'data-options="{&quot;target&quot;: 100}"' in page and 'data-clock-words="no clock"' in page


def test_a_draft_saved_with_empty_options_takes_its_leagues_after_the_migration(league):
    # given a draft saved by the old add form ({}), and a running tournament that played {} already
    import importlib

    from django.apps import apps

    draft = services.tournament_create(league_id=league.pk, name="Saved with {}", options={})
    running = services.tournament_create(league_id=league.pk, name="Running with {}", options={})
    Tournament.objects.filter(pk=running.pk).update(status=Tournament.Status.RUNNING)
    League.objects.filter(pk=league.pk).update(clock={"move_days": 2}, timeout_rule="forfeit")
    migration = importlib.import_module("league.migrations.0006_first_hour")
    # when the migration's data step runs
    migration.tournaments_take_their_leagues_terms(apps, None)
    # then the draft plays the league's options; the running one keeps what it played; both take the clock
    draft.refresh_from_db()
    running.refresh_from_db()
    assert draft.options == {"target": 100} and running.options == {}
    assert (draft.clock, draft.timeout_rule) == ({"move_days": 2}, "forfeit") == (running.clock, running.timeout_rule)


# -- 2. clocks in the admin ----------------------------------------------------------------------------------------

def test_the_league_and_tournament_forms_have_the_clock_and_the_timeout_rule(client, organiser, club, anna,
                                                                             django_capture_on_commit_callbacks):
    # given the League add form
    page = client.get("/admin/league/league/add/")
    form = page.context["adminform"].form
    # then it offers the clocks clubs use, no clock, another clock, and the timeout rule
    offered = {key for key, _label in form.fields["clock_choice"].choices
               if not isinstance(_label, (list, tuple))} | {key for _g, group in form.fields["clock_choice"].choices
                                                           if isinstance(group, (list, tuple))
                                                           for key, _label in group}
    assert {"", "live-15", "live-30-bank", "live-60", "days-1", "days-3", "custom"} <= offered
    assert "timeout_rule" in form.fields and "Clock" in page.content.decode()
    # when an organiser saves a league with two days a move and the forfeit rule
    data = form_as_rendered(page.content.decode())
    data.update({"club": str(club.pk), "name": "Correspondence LIVOL", "game": "livol", "options": '{"target": 100}',
                 "clock_choice": "days-2", "timeout_rule": "forfeit"})
    r = client.post("/admin/league/league/add/", data)
    assert r.status_code == 302, r.context["adminform"].form.errors if r.status_code == 200 else r
    league = League.objects.get(name="Correspondence LIVOL")
    assert (league.clock, league.timeout_rule) == ({"move_days": 2}, "forfeit")
    # and another clock typed as JSON is checked
    data.update({"clock_choice": "custom", "clock": '{"move_seconds": 1}'})
    r = client.post(f"/admin/league/league/{league.pk}/change/", data)
    assert r.status_code == 200 and "clock" in r.context["adminform"].form.errors
    data.update({"clock": '{"move_seconds": 20, "join_seconds": 60}'})
    assert client.post(f"/admin/league/league/{league.pk}/change/", data).status_code == 302
    league.refresh_from_db()
    assert league.clock == {"move_seconds": 20, "join_seconds": 60}
    League.objects.filter(pk=league.pk).update(clock={"move_days": 2})
    # given the Tournament add form: "the league's clock" and "as the league says" come first, chosen
    add = client.get("/admin/league/tournament/add/").context["adminform"].form
    assert add.fields["clock_choice"].choices[0][0] == "league" and add.initial["clock_choice"] == "league"
    assert add.fields["timeout_rule"].choices[0][0] == "" and add.initial["timeout_rule"] == ""
    # when a tournament is added as the form comes
    tournament = add_tournament_as_the_form_comes(client, league)
    # then it has the league's clock and rule, and its matches have them
    assert (tournament.clock, tournament.timeout_rule) == ({"move_days": 2}, "forfeit")
    services.entrant_add(tournament_id=tournament.pk, player_id=anna.player_profile.pk)
    services.bots_add(tournament_id=tournament.pk, count=1, policy="greedy")
    with django_capture_on_commit_callbacks(execute=True):
        services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)
    match = persons_match(tournament, anna)
    assert (match.clock, match.timeout_rule) == ({"move_days": 2}, "forfeit")
    assert Seat.objects.get(match=match, user=anna).deadline is not None  # the seat is to be taken in time


def test_a_running_tournaments_clock_may_change_and_applies_to_the_next_matches(client, organiser, league, anna,
                                                                               django_capture_on_commit_callbacks):
    # given a running tournament without a clock
    t = seated_round(league, anna, clock=None, capture=django_capture_on_commit_callbacks)
    assert t.status == Tournament.Status.RUNNING and persons_match(t, anna).clock is None
    page = client.get(f"/admin/league/tournament/{t.pk}/change/")
    form = page.context["adminform"].form
    assert {"clock_choice", "clock", "timeout_rule"} <= set(form.fields) and "options" not in form.fields
    # when the organiser gives it 30 seconds a move
    data = form_as_rendered(page.content.decode())
    data.update({"clock_choice": "live-30", **inline_forms("entrants", []), **inline_forms("teams", [])})
    r = client.post(f"/admin/league/tournament/{t.pk}/change/", data)
    assert r.status_code == 302, r.context["adminform"].form.errors if r.status_code == 200 else r
    t.refresh_from_db()
    assert t.clock == {"move_seconds": 30}
    # then a match created from then on has it (the match already created keeps its own)
    first = persons_match(t, anna)
    table = Table.objects.get(round__tournament=t, match=first)
    other = Round.objects.create(tournament=t, number=2, status=Round.Status.RUNNING)
    fresh = Table.objects.create(round=other, number=1)
    for position, seat in enumerate(table.seats.all()):
        fresh.seats.create(entrant=seat.entrant, position=position)
    assert services.table_match_create(table_id=fresh.pk).clock == {"move_seconds": 30}
    first.refresh_from_db()
    assert first.clock is None


def test_a_seated_person_who_never_comes_does_not_stall_a_swiss_made_in_the_admin(client, organiser, club, anna,
                                                                                   django_capture_on_commit_callbacks):
    # given a league with 15 seconds a move and a Swiss of anna and three bots, both made in the admin
    page = client.get("/admin/league/league/add/").content.decode()
    data = form_as_rendered(page)
    data.update({"club": str(club.pk), "name": "Blitz", "game": "livol", "options": '{"target": 30}',
                 "clock_choice": "live-15"})
    assert client.post("/admin/league/league/add/", data).status_code == 302
    league = League.objects.get(name="Blitz")
    tournament = add_tournament_as_the_form_comes(client, league)
    services.entrant_add(tournament_id=tournament.pk, player_id=anna.player_profile.pk)
    services.bots_add(tournament_id=tournament.pk, count=3, policy="greedy")
    with django_capture_on_commit_callbacks(execute=True):
        services.round_start(round_id=services.round_pair(tournament_id=tournament.pk).pk)
    match = persons_match(tournament, anna)
    assert match.is_waiting and Round.objects.get(tournament=tournament).status == Round.Status.RUNNING
    # when anna never takes her seat and the join time (five moves' time) passes
    seat = match.seats.get(user=anna)
    assert timedelta(seconds=70) < seat.deadline - match.created_at <= timedelta(seconds=76)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        recorded = games.clocks_run()
    # then the clocks record it, her seat resigns, and the round (the whole one-round Swiss) finishes
    assert recorded == 1
    match.refresh_from_db()
    seat = match.seats.get(user=anna)
    assert match.status == Match.Status.FINISHED and match.result["ranking"][-1] == [seat.index]
    assert Event.objects.get(match=match, type="seat_timed_out").payload["phase"] == "join"
    assert Round.objects.get(tournament=tournament).status == Round.Status.CLOSED
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert match_verify(match).ok


# -- 3. who a round waits for, and acting on it ---------------------------------------------------------------

def test_the_admin_and_the_public_page_say_who_the_round_waits_for_and_since_when(
        client, organiser, league, anna, django_capture_on_commit_callbacks):
    # given a round where anna's match waits for her to take her seat (a clock of a day a move)
    t = seated_round(league, anna, clock={"move_days": 1}, capture=django_capture_on_commit_callbacks)
    match = persons_match(t, anna)
    since = timezone.localtime(match.created_at).strftime("%Y")
    # when the organiser opens the tournament in the admin, and anyone the public page
    admin_page = _text(client.get(f"/admin/league/tournament/{t.pk}/change/").content.decode())
    public_page = _text(client.get(f"/tournaments/{t.pk}/").content.decode())
    # then both name her, what the round waits for, since when and the deadline
    for page in (admin_page, public_page):
        assert "Round 1 waits for" in page
        assert re.search(r"Table \d anna to take the seat since .*" + since, page), page
        assert "deadline" in page
    # and once she has taken the seat and the bot has moved, it waits for her move, since her turn started
    with django_capture_on_commit_callbacks(execute=True):
        games.seat_join(match_id=match.pk, user=anna, entropy="cd" * 16)
    waiting = rounds.round_waiting(t)
    assert [(w["name"], w["kind"]) for w in waiting] == [("anna", "move")]
    seat = Seat.objects.get(match=match, user=anna)
    assert waiting[0]["since"] == seat.turn_started_at and waiting[0]["deadline"] == seat.deadline
    assert "anna to move since" in _text(client.get(f"/tournaments/{t.pk}/").content.decode())


def test_an_organiser_reminds_the_person_a_round_waits_for(client, organiser, league, anna, monkeypatch,
                                                           django_capture_on_commit_callbacks):
    # given a round waiting for anna, and the account stream's notices
    notices = []
    monkeypatch.setattr("league.services.notifications.publish.notify_user",
                        lambda user_id, kind, **data: notices.append((user_id, kind, data)))
    t = seated_round(league, anna, clock={"move_days": 1}, capture=django_capture_on_commit_callbacks)
    match = persons_match(t, anna)
    seat = match.seats.get(user=anna).index
    url = f"/admin/league/tournament/{t.pk}/waiting/{match.pk}/{seat}/remind/"
    panel = client.get(f"/admin/league/tournament/{t.pk}/change/").content.decode()
    assert url in panel and f"/admin/games/match/{match.pk}/award/" in panel
    mail.outbox.clear()
    # when the organiser reminds her (a confirmation page, then the button)
    assert "Send the reminder" in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(url, follow=True)
    # then she gets an e-mail with the link and a notice on her open pages, and the panel says so
    assert "Reminder sent to anna, by e-mail" in r.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["anna@example.org"]
    assert f"/matches/{match.pk}/" in mail.outbox[0].body and "Take your seat" in mail.outbox[0].body
    deadline = match.seats.get(user=anna).deadline.isoformat()
    assert [n for n in notices if n[1] == "reminder"] == [
        (anna.pk, "reminder", {"match": match.pk, "game": "livol", "seat": seat, "take_seat": True,
                               "deadline": deadline})]
    assert "reminded" in _text(client.get(f"/admin/league/tournament/{t.pk}/change/").content.decode())
    # and a second reminder within minutes is refused
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(url, follow=True)
    assert "reminded a few minutes ago" in r.content.decode()
    assert len(mail.outbox) == 1 and Reminder.objects.count() == 1


def _forfeit(client, t: Tournament, match: Match, seat: int, capture):
    with capture(execute=True):
        return client.post(f"/admin/league/tournament/{t.pk}/waiting/{match.pk}/{seat}/forfeit/", follow=True)


def _verified(match: Match) -> None:
    assert match_verify(match).ok
    report = verify_record(match_record(match))
    assert report.ok, report.problems


def test_an_organiser_forfeits_the_seat_of_a_person_who_does_not_come_and_the_round_closes(
        client, organiser, league, anna, django_capture_on_commit_callbacks):
    # given a round (no clock) waiting for anna to take her seat
    t = seated_round(league, anna, clock=None, capture=django_capture_on_commit_callbacks)
    match = persons_match(t, anna)
    seat = match.seats.get(user=anna).index
    assert "Forfeit the seat" in client.get(
        f"/admin/league/tournament/{t.pk}/waiting/{match.pk}/{seat}/forfeit/").content.decode()
    # when the organiser forfeits her seat
    r = _forfeit(client, t, match, seat, django_capture_on_commit_callbacks)
    # then the forfeit is recorded, her seat resigns at the start, the match ends and the round closes
    assert "Forfeited: anna&#x27;s seat resigned" in r.content.decode()
    match.refresh_from_db()
    types = list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))
    forfeited = types.index("seat_forfeited")
    assert types.index("match_started") > forfeited
    assert types[types.index("match_started"):].count("seat_resigned") == 1
    resigned = Event.objects.get(match=match, type="seat_resigned")
    assert resigned.seat == seat and resigned.move == {"type": "resign"}
    assert match.status == Match.Status.FINISHED and match.result["ranking"][-1] == [seat]
    assert Round.objects.get(tournament=t).status == Round.Status.CLOSED
    _verified(match)


def test_an_organiser_forfeits_the_seat_of_a_person_who_does_not_move(client, organiser, league, anna,
                                                                      django_capture_on_commit_callbacks):
    # given anna at the table, her turn
    t = seated_round(league, anna, clock=None, capture=django_capture_on_commit_callbacks)
    match = persons_match(t, anna)
    with django_capture_on_commit_callbacks(execute=True):
        games.seat_join(match_id=match.pk, user=anna, entropy="ef" * 16)
    seat = match.seats.get(user=anna).index
    assert [w["kind"] for w in rounds.round_waiting(t)] == ["move"]
    # when the organiser forfeits her seat
    _forfeit(client, t, match, seat, django_capture_on_commit_callbacks)
    # then seat_forfeited is followed at once by her resignation, and the round closes
    events = list(Event.objects.filter(match=match).order_by("seq"))
    at = next(i for i, e in enumerate(events) if e.type == "seat_forfeited")
    assert events[at].payload == {"type": "seat_forfeited", "seat": seat, "by": "organiser"}
    assert events[at + 1].type == "seat_resigned" and events[at + 1].move == {"type": "resign"}
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Round.objects.get(tournament=t).status == Round.Status.CLOSED
    _verified(match)


def test_a_forfeited_seat_is_played_on_by_a_bot_where_the_match_goes_on(db, django_user_model):
    # given a three-seat match of two people and a bot, running
    people = [django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("anna", "janis")]
    match = games.match_create(game="livol", seats=[games.SeatSpec(user=people[0]), games.SeatSpec(user=people[1]),
                                                    games.SeatSpec(bot="greedy")], options={"target": 30})
    # when the organiser forfeits janis's seat
    games.seat_forfeit(match_id=match.pk, seat=1)
    # then he resigned, a bot plays his seat on for the others, and the record verifies
    match.refresh_from_db()
    assert match.is_running and Seat.objects.get(match=match, index=1).stand_in
    types = list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))
    at = types.index("seat_forfeited")
    assert types[at + 1] == "seat_resigned" and "bot_took_seat" in types[at:]
    assert match_verify(match).ok
    # and a seat played by a bot cannot be forfeited again
    with pytest.raises(MatchError):
        games.seat_forfeit(match_id=match.pk, seat=1)


def test_a_seat_forfeited_while_another_person_is_still_to_come_resigns_when_the_match_starts(db,
                                                                                              django_user_model):
    # given a tournament-style match of two people, neither at the table yet
    people = [django_user_model.objects.create_user(username=n, password=PASSWORD) for n in ("anna", "janis")]
    match = games.match_create(game="livol", seats=[games.SeatSpec(user=people[0], seated=True),
                                                    games.SeatSpec(user=people[1], seated=True)],
                               options={"target": 30})
    # when the organiser forfeits anna's seat, then janis takes his
    games.seat_forfeit(match_id=match.pk, seat=0)
    assert Match.objects.get(pk=match.pk).is_waiting
    games.seat_join(match_id=match.pk, user=people[1], entropy="ab" * 16)
    # then the match starts and anna's seat resigns at once: janis wins, and the record verifies
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"] == [[1], [0]]
    _verified(match)


def test_a_view_only_staff_account_sees_who_a_round_waits_for_but_cannot_act(
        client, django_user_model, league, anna, django_capture_on_commit_callbacks):
    # given a round waiting for anna, and a staff account of the club with view permissions only
    t = seated_round(league, anna, clock={"move_days": 1}, capture=django_capture_on_commit_callbacks)
    match = persons_match(t, anna)
    seat = match.seats.get(user=anna).index
    client.force_login(_staff(django_user_model, "viewer", league.club, ["view_"]))
    # when they open the tournament
    page = client.get(f"/admin/league/tournament/{t.pk}/change/").content.decode()
    # then they see whom the round waits for, but no action
    assert "anna" in page and "to take the seat" in page
    for action in ("remind", "forfeit"):
        url = f"/admin/league/tournament/{t.pk}/waiting/{match.pk}/{seat}/{action}/"
        assert url not in page
        assert client.get(url).status_code == 403
        assert client.post(url).status_code == 403
    assert f"/admin/games/match/{match.pk}/award/" not in page
    assert client.post(f"/admin/games/match/{match.pk}/award/", {"ranking": "1; 0"}).status_code == 403
    # and nothing happened
    match.refresh_from_db()
    assert match.is_waiting and not Reminder.objects.exists()
    assert not Event.objects.filter(match=match, type="seat_forfeited").exists()


def test_an_organiser_awards_the_match_from_the_waiting_panel(client, organiser, league, anna,
                                                              django_capture_on_commit_callbacks):
    # given a round waiting for anna
    t = seated_round(league, anna, clock=None, capture=django_capture_on_commit_callbacks)
    match = persons_match(t, anna)
    award = f"/admin/games/match/{match.pk}/award/"
    assert award in client.get(f"/admin/league/tournament/{t.pk}/change/").content.decode()
    other = match.seats.exclude(user=anna).get().index
    # when the organiser awards it to her opponent
    with django_capture_on_commit_callbacks(execute=True):
        client.post(award, {"ranking": f"{other}; {1 - other}", "reason": "did not come"})
    # then the match and the round are decided
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["awarded"]
    assert Round.objects.get(tournament=t).status == Round.Status.CLOSED


# -- 4, 5. the public tournament page -------------------------------------------------------------------------------

def test_the_public_page_says_the_terms_in_words_and_links_each_reader_as_they_play(
        client, league, anna, django_user_model, django_capture_on_commit_callbacks):
    # given a round of anna (seated, not at the table yet) and bots, under a day a move
    t = seated_round(league, anna, clock={"move_days": 1}, capture=django_capture_on_commit_callbacks)
    match = persons_match(t, anna)

    def link(reader) -> tuple[str, str]:
        client.logout()
        if reader is not None:
            client.force_login(reader)
        page = client.get(f"/tournaments/{t.pk}/").content.decode()
        found = re.search(r'<a href="([^"]+)" class="lg-link-(\w+)">([^<]+)</a>',
                          page[page.index(f"/matches/{match.pk}/") - 40:])
        return found.group(2), found.group(3)

    # when people read the public page
    page = _text(client.get(f"/tournaments/{t.pk}/").content.decode())
    # then the options and the clock are in words, never as keys
    assert "to 100 points" in page and "1 day a move" in page and "target =" not in page
    # and the link of the match still to play is anna's way in, and others watch
    assert link(anna) == ("take_seat", "take your seat")
    assert 'class="lg-link-take_seat">take your seat<' in client.get(
        f"/players/{anna.player_profile.pk}/").content.decode()  # her player page too
    assert link(None) == ("watch", "watch")
    assert link(django_user_model.objects.create_user(username="ruta", password=PASSWORD)) == ("watch", "watch")
    with django_capture_on_commit_callbacks(execute=True):
        games.seat_join(match_id=match.pk, user=anna, entropy="12" * 16)
    assert link(anna) == ("play", "play")
    # and a finished match is replayed
    games.match_award(match_id=match.pk, ranking=[[0], [1]])
    assert link(anna) == ("replay", "replay") and link(None) == ("replay", "replay")


def test_the_progress_bar_has_a_name(client, league):
    # given a running tournament of bots
    t = services.tournament_create(league_id=league.pk, name="Bots", rounds=2)
    services.bots_add(tournament_id=t.pk, count=4, policy="greedy")
    services.round_pair(tournament_id=t.pk)
    # when its page is drawn
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    # then the progress bar has an accessible name
    bar = re.search(r'<div class="lg-bar" role="progressbar"[^>]*>', page).group(0)
    assert 'aria-label="Progress of the tournament"' in bar


# -- 6. ratings, and a round started early -------------------------------------------------------------------------

def test_top_ratings_show_the_rating_people_read_with_a_legend_and_no_mu_or_sigma(client, league):
    # given a finished bot Swiss (some ratings below 0 after early losses)
    t = services.tournament_create(league_id=league.pk, name="Bots", rounds=2, options={"target": 30},
                                   seeding="entry")
    services.bots_add(tournament_id=t.pk, count=4, policy="greedy")
    services.tournament_run(tournament_id=t.pk)
    top = players.ratings_for_game("livol")[0]
    # when the league page is read
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    text = _text(page)
    # then it shows the rating people read, one decimal, with a legend, and μ/σ at most in a title
    assert f"{top['rating']:.1f}" in text
    assert "a cautious estimate of a player's strength" in text and "starts at 0" in text and "below 0" in text
    assert "μ" not in text and "σ" not in text
    assert ">μ<" not in page and ">σ<" not in page
    # and the player page says it the same way
    player = _text(client.get(f"/players/{top['player_id']}/").content.decode())
    assert f"{top['rating']:.1f}" in player and "a cautious estimate" in player and "μ" not in player


def test_a_round_started_automatically_says_nothing_of_a_schedule_still_ahead(client, league):
    # given a bot Swiss planned a week apart from today, whose second round started as soon as the first ended
    t = services.tournament_create(league_id=league.pk, name="Weekly", rounds=2, options={"target": 30},
                                   seeding="entry", starts_on=timezone.localdate(), days_between_rounds=7)
    services.bots_add(tournament_id=t.pk, count=4, policy="greedy")
    services.tournament_run(tournament_id=t.pk)
    second = Round.objects.get(tournament=t, number=2)
    assert second.scheduled_on == timezone.localdate() + timedelta(days=7) and second.started_at is not None
    # when the tournament page is read
    page = _text(client.get(f"/tournaments/{t.pk}/").content.decode())
    # then each round says when it was played, and nothing of a schedule
    assert page.count("played ") >= 2 and "scheduled for" not in page
    # (a round not started yet still says when it is scheduled)
    assert rounds.round_dates(Round(scheduled_on=second.scheduled_on))["show_scheduled"]


# -- the command twins ----------------------------------------------------------------------------------------------

def test_the_league_and_tournament_commands_take_a_clock_and_a_timeout_rule(club):
    def run(*args) -> str:
        out = StringIO()
        call_command(*args, stdout=out)
        return out.getvalue()

    # when a league is created with a clock and a rule, and tournaments from it
    run("league_create", "--club", club.slug, "--name", "Blitz", "--game", "livol", "--clock",
        '{"move_seconds": 30, "bank_seconds": 300}', "--timeout-rule", "forfeit")
    league = League.objects.get(name="Blitz")
    run("tournament_create", "--league", str(league.pk), "--name", "Same")
    run("tournament_create", "--league", str(league.pk), "--name", "Slow", "--clock", '{"move_days": 1}',
        "--timeout-rule", "bot")
    run("tournament_create", "--league", str(league.pk), "--name", "Free", "--clock", "null")
    # then each has the clock asked for, the league's by default
    assert (league.clock, league.timeout_rule) == ({"move_seconds": 30, "bank_seconds": 300}, "forfeit")
    got = {t.name: (t.clock, t.timeout_rule) for t in Tournament.objects.filter(league=league)}
    assert got == {"Same": ({"move_seconds": 30, "bank_seconds": 300}, "forfeit"),
                   "Slow": ({"move_days": 1}, "bot"), "Free": (None, "forfeit")}
    # and tournament_show says what its matches play
    assert "clock: 1 day a move" in run("tournament_show", "--tournament", str(Tournament.objects.get(name="Slow").pk))


def test_remind_and_forfeit_have_command_twins(league, anna, django_capture_on_commit_callbacks):
    # given a round waiting for anna, listed by tournament_show
    t = seated_round(league, anna, clock={"move_days": 1}, capture=django_capture_on_commit_callbacks)
    match = persons_match(t, anna)
    seat = match.seats.get(user=anna).index
    out = StringIO()
    call_command("tournament_show", "--tournament", str(t.pk), stdout=out)
    assert f"waiting for anna (match {match.pk}, seat {seat}" in out.getvalue()
    # when the organiser reminds her, then forfeits her seat, from the command line
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seat_remind", "--match", str(match.pk), "--seat", str(seat), stdout=out)
        call_command("seat_forfeit", "--match", str(match.pk), "--seat", str(seat), stdout=out)
    # then both are done, as in the admin
    assert "reminded anna by e-mail" in out.getvalue() and "forfeited; the match is finished" in out.getvalue()
    assert Reminder.objects.filter(match=match, seat=seat).exists()
    assert Round.objects.get(tournament=t).status == Round.Status.CLOSED
