"""Entries: sign-ups up to the capacity then a waiting list, approval and refusal, the closing time, outside
bots, check-in and its close, no-shows. One test per rule."""
from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.models import Seat
from league import services
from league.models import Entrant, Registration, Round, TableSeat, Tournament, Withdrawal
from league.selectors import entries
from league.services import entries as entry_services


@pytest.fixture
def people(django_user_model):
    def make(*names):
        return [services.player_for_user(user=django_user_model.objects.create_user(username=n, password="pw"))
                for n in names]
    return make


def open_tournament(league, **terms) -> Tournament:
    t = services.tournament_create(league_id=league.pk, name="Club night", seeding=Tournament.Seeding.ENTRY,
                                   rounds=2)
    return services.entry_terms_set(tournament_id=t.pk, entries_open=True, **terms)


def status(t, player) -> str:
    return entries.entry_status(t, player).status


def test_capacity_then_waiting_list_in_order_of_signing_up(league, people):
    # given a tournament for two
    t = open_tournament(league, capacity=2)
    anna, janis, liga, ona = people("anna", "janis", "liga", "ona")
    # when four sign up
    answers = [services.entry_signup(tournament_id=t.pk, player_id=p.pk) for p in (anna, janis, liga, ona)]
    # then two are in, two wait in their order
    assert [a.status for a in answers] == ["entered", "entered", "waiting", "waiting"]
    assert [a.position for a in answers[2:]] == [1, 2]
    assert [r.player for r in entries.waiting_list(t)] == [liga, ona]
    assert entries.places_left(t) == 0


def test_withdrawing_before_the_start_moves_the_waiting_list_up(league, people):
    t = open_tournament(league, capacity=2)
    anna, janis, liga, ona = people("anna", "janis", "liga", "ona")
    for p in (anna, janis, liga, ona):
        services.entry_signup(tournament_id=t.pk, player_id=p.pk)
    # when an entrant withdraws
    services.entry_withdraw(tournament_id=t.pk, player_id=janis.pk)
    # then the first on the list is in, the second moves to first
    assert status(t, janis) == "withdrawn"
    assert status(t, liga) == "entered"
    assert entries.entry_status(t, ona).position == 1
    assert set(t.entrants.values_list("player__name", flat=True)) == {"anna", "liga"}


def test_withdrawn_person_may_sign_up_again_at_the_end_of_the_list(league, people):
    t = open_tournament(league, capacity=1)
    anna, janis = people("anna", "janis")
    services.entry_signup(tournament_id=t.pk, player_id=anna.pk)
    services.entry_withdraw(tournament_id=t.pk, player_id=anna.pk)
    services.entry_signup(tournament_id=t.pk, player_id=janis.pk)
    assert services.entry_signup(tournament_id=t.pk, player_id=anna.pk).status == "waiting"


def test_a_free_place_goes_to_the_waiting_list_not_to_a_newcomer(league, people):
    t = open_tournament(league, capacity=1, approval=True)
    anna, janis, liga = people("anna", "janis", "liga")
    for p in (anna, janis):
        services.entry_signup(tournament_id=t.pk, player_id=p.pk)
    first, second = Registration.objects.filter(tournament=t).order_by("created_at")
    services.entry_approve(registration_id=first.pk)
    services.entry_approve(registration_id=second.pk)
    assert status(t, janis) == "waiting"


def test_approval_puts_a_sign_up_in_the_field_or_on_the_waiting_list(league, people):
    t = open_tournament(league, capacity=1, approval=True)
    anna, janis = people("anna", "janis")
    # given two sign-ups waiting for approval
    assert services.entry_signup(tournament_id=t.pk, player_id=anna.pk).status == "pending"
    services.entry_signup(tournament_id=t.pk, player_id=janis.pk)
    assert t.entrants.count() == 0
    # when the organiser approves both
    for r in Registration.objects.filter(tournament=t).order_by("created_at"):
        services.entry_approve(registration_id=r.pk)
    # then the first is in, the second waits (the tournament is full)
    assert status(t, anna) == "entered" and status(t, janis) == "waiting"


def test_refusal_carries_a_reason_the_person_sees(league, people, client):
    t = open_tournament(league, approval=True)
    (anna,) = people("anna")
    services.entry_signup(tournament_id=t.pk, player_id=anna.pk)
    # when the organiser refuses with a reason
    services.entry_refuse(registration_id=Registration.objects.get(player=anna).pk,
                          reason="Club members only this week")
    # then the person sees it on the page, and cannot sign up again
    assert entries.entry_status(t, anna).reason == "Club members only this week"
    client.force_login(anna.user)
    assert "Club members only this week" in client.get(f"/tournaments/{t.pk}/").content.decode()
    with pytest.raises(services.EntryRefused) as refused:
        services.entry_signup(tournament_id=t.pk, player_id=anna.pk)
    assert "Club members only this week" in str(refused.value.message)


def test_only_a_pending_sign_up_is_approved(league, people):
    t = open_tournament(league)
    (anna,) = people("anna")
    services.entry_signup(tournament_id=t.pk, player_id=anna.pk)
    services.entry_withdraw(tournament_id=t.pk, player_id=anna.pk)
    with pytest.raises(services.NotPending):
        services.entry_approve(registration_id=Registration.objects.get(player=anna).pk)


def test_sign_ups_are_refused_after_the_closing_time(league, people):
    t = open_tournament(league, entries_close_at=timezone.now() - timedelta(minutes=1))
    (anna,) = people("anna")
    with pytest.raises(services.EntriesClosed):
        services.entry_signup(tournament_id=t.pk, player_id=anna.pk)


def test_a_tournament_not_open_for_entries_takes_no_sign_ups(league, people):
    t = services.tournament_create(league_id=league.pk, name="Invitational")
    (anna,) = people("anna")
    with pytest.raises(services.EntriesNotOpen):
        services.entry_signup(tournament_id=t.pk, player_id=anna.pk)


def test_signing_up_twice_is_refused(league, people):
    t = open_tournament(league)
    (anna,) = people("anna")
    services.entry_signup(tournament_id=t.pk, player_id=anna.pk)
    with pytest.raises(services.AlreadySignedUp):
        services.entry_signup(tournament_id=t.pk, player_id=anna.pk)


def test_outside_bot_signs_up_only_where_the_organiser_allows_them(league, django_user_model):
    owner = django_user_model.objects.create_user(username="anna", password="pw")
    bot_user, _key = services.bot_account_create(owner=owner, name="anna-bot")
    bot = bot_user.player_profile
    closed = open_tournament(league)
    with pytest.raises(services.OutsideBotsNotAllowed):
        services.entry_signup(tournament_id=closed.pk, player_id=bot.pk)
    allowed = open_tournament(league, outside_bots=True)
    assert services.entry_signup(tournament_id=allowed.pk, player_id=bot.pk).status == "entered"


def test_server_bots_do_not_sign_up_themselves(league):
    t = open_tournament(league)
    (bot,) = services.bots_ensure(count=1, policy="greedy")
    with pytest.raises(services.OutsideBotsNotAllowed):
        services.entry_signup(tournament_id=t.pk, player_id=bot.pk)


def checkin_tournament(league, **terms) -> Tournament:
    return open_tournament(league, starts_at=timezone.now() + timedelta(minutes=20), checkin_minutes=30, **terms)


def test_check_in_is_open_only_in_its_window(league, people):
    (anna,) = people("anna")
    soon = checkin_tournament(league)
    services.entry_signup(tournament_id=soon.pk, player_id=anna.pk)
    later = open_tournament(league, starts_at=timezone.now() + timedelta(hours=2), checkin_minutes=30)
    services.entry_signup(tournament_id=later.pk, player_id=anna.pk)
    # inside the window: checked in; before it: refused, saying when it opens
    assert services.entry_checkin(tournament_id=soon.pk, player_id=anna.pk).checked_in
    with pytest.raises(services.CheckinNotOpen) as early:
        services.entry_checkin(tournament_id=later.pk, player_id=anna.pk)
    assert "opens_at" in early.value.details
    # after it: closed
    with pytest.raises(services.CheckinClosed):
        services.entry_checkin(tournament_id=soon.pk, player_id=anna.pk, now=soon.starts_at + timedelta(seconds=1))
    with pytest.raises(services.AlreadyCheckedIn):
        services.entry_checkin(tournament_id=soon.pk, player_id=anna.pk)


def test_checkin_close_drops_who_did_not_check_in_and_promotes_who_waited_and_checked_in(league, people):
    t = checkin_tournament(league, capacity=2)
    anna, janis, liga, ona = people("anna", "janis", "liga", "ona")
    for p in (anna, janis, liga, ona):
        services.entry_signup(tournament_id=t.pk, player_id=p.pk)
    # anna checks in, janis does not; on the list ona checks in, liga (first on it) does not
    services.entry_checkin(tournament_id=t.pk, player_id=anna.pk)
    services.entry_checkin(tournament_id=t.pk, player_id=ona.pk)
    # when check-in closes
    result = services.checkin_close(tournament_id=t.pk)
    # then janis is dropped with the reason, ona (present) moves up, liga stays on the list
    assert result == {"dropped": ["janis"], "promoted": ["ona"]}
    assert Registration.objects.get(player=janis).status == Registration.Status.WITHDRAWN
    assert entries.entry_status(t, janis).reason == "did not check in"
    assert status(t, ona) == "entered" and entries.entry_status(t, ona).checked_in
    assert status(t, liga) == "waiting"
    # and after the close nobody moves up, nor signs up
    services.entry_withdraw(tournament_id=t.pk, player_id=anna.pk)
    assert status(t, liga) == "waiting"
    with pytest.raises(services.EntriesClosed):
        services.entry_signup(tournament_id=t.pk, player_id=people("mara")[0].pk)
    with pytest.raises(services.CheckinClosed):
        services.checkin_close(tournament_id=t.pk)


def test_server_bots_need_no_check_in(league, people):
    t = checkin_tournament(league)
    services.bots_add(tournament_id=t.pk, count=2, policy="greedy")
    services.checkin_close(tournament_id=t.pk)
    assert t.entrants.count() == 2


def test_the_sweep_closes_check_in_when_its_window_ends(league, people):
    t = checkin_tournament(league)
    (anna,) = people("anna")
    services.entry_signup(tournament_id=t.pk, player_id=anna.pk)
    assert services.entries_sweep() == 0
    # when the start time has come, the sweep closes it (once)
    assert services.entries_sweep(now=t.starts_at) == 1
    assert services.entries_due(tournament_id=t.pk, now=t.starts_at)["closed"] is True
    assert services.entries_due(tournament_id=t.pk, now=t.starts_at)["closed"] is False
    t.refresh_from_db()
    assert t.checkin_closed_at is not None and status(t, anna) == "withdrawn"


def test_checkin_close_command_is_the_services_twin(league, people):
    t = checkin_tournament(league)
    (anna,) = people("anna")
    services.entry_signup(tournament_id=t.pk, player_id=anna.pk)
    out = io.StringIO()
    call_command("checkin_close", str(t.pk), stdout=out)
    assert "dropped: anna" in out.getvalue()


def running_with_people(league, people, **terms):
    """Two people and two bots, a two-round Swiss with no-shows after 10 minutes, its first round started."""
    t = open_tournament(league, no_show_minutes=10, **terms)
    anna, janis = people("anna", "janis")
    for p in (anna, janis):
        services.entry_signup(tournament_id=t.pk, player_id=p.pk)
    services.bots_add(tournament_id=t.pk, count=2, policy="greedy")
    rnd = services.round_pair(tournament_id=t.pk)
    services.round_start(round_id=rnd.pk)
    return t, anna, janis


def test_a_seat_not_taken_in_time_is_a_no_show_forfeit(league, people):
    t, anna, janis = running_with_people(league, people, no_shows_withdraw=0)
    seat = TableSeat.objects.get(entrant__player=anna, table__round__number=1)
    assert Seat.objects.get(match=seat.table.match, index=seat.match_seat).status == Seat.Status.SEATED
    # within the minutes: nothing
    assert services.no_shows_forfeit(tournament_id=t.pk) == 0
    # when they have passed
    later = timezone.now() + timedelta(minutes=11)
    assert services.no_shows_forfeit(tournament_id=t.pk, now=later) == 2
    # then the seat was forfeited in the match and counted, once
    seat.table.match.refresh_from_db()
    assert "seat_forfeited" in seat.table.match.events.values_list("type", flat=True)
    assert Entrant.objects.get(player=anna).no_shows == 1
    assert services.no_shows_forfeit(tournament_id=t.pk, now=later) == 0
    out = io.StringIO()
    call_command("no_shows_forfeit", str(t.pk), stdout=out)
    assert "0 no-show seat(s) forfeited" in out.getvalue()


def test_two_no_shows_withdraw_the_player(league, people, django_capture_on_commit_callbacks):
    t, anna, janis = running_with_people(league, people, no_shows_withdraw=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.no_shows_forfeit(tournament_id=t.pk, now=timezone.now() + timedelta(minutes=11))
    t.refresh_from_db()
    round_2 = t.round_set.get(number=2)
    assert not Withdrawal.objects.filter(entrant__tournament=t).exists()
    if round_2.status == "paired":
        services.round_start(round_id=round_2.pk)
    services.no_shows_forfeit(tournament_id=t.pk, now=timezone.now() + timedelta(minutes=11))
    withdrawn = Withdrawal.objects.get(entrant__player=anna)
    assert withdrawn.round_number == 2 and "2 rounds" in withdrawn.reason


def test_withdrawing_once_running_uses_the_withdrawal_of_an_entrant(league, people):
    t, anna, janis = running_with_people(league, people)
    services.entry_withdraw(tournament_id=t.pk, player_id=anna.pk)
    assert Withdrawal.objects.filter(entrant__player=anna).exists()
    assert status(t, anna) == "withdrawn"


def test_entry_approve_command_approves_or_refuses_with_a_reason(league, people):
    t = open_tournament(league, approval=True)
    anna, janis = people("anna", "janis")
    for p in (anna, janis):
        services.entry_signup(tournament_id=t.pk, player_id=p.pk)
    out = io.StringIO()
    call_command("entry_approve", str(Registration.objects.get(player=anna).pk), stdout=out)
    call_command("entry_approve", str(Registration.objects.get(player=janis).pk), "--refuse", "--reason", "Full",
                 stdout=out)
    assert status(t, anna) == "entered"
    assert entries.entry_status(t, janis).reason == "Full"


def test_check_in_needs_a_start_time(league):
    t = services.tournament_create(league_id=league.pk, name="No time")
    with pytest.raises(services.InvalidTournament):
        entry_services.entry_terms_set(tournament_id=t.pk, checkin_minutes=30)


def test_a_tournament_taking_sign_ups_lists_its_field_once_on_its_page(league, people, client):
    # given a tournament open for entries with two people in and one on the waiting list
    t = open_tournament(league, capacity=2)
    anna, janis, ruta = people("anna", "janis", "ruta")
    for p in (anna, janis, ruta):
        services.entry_signup(tournament_id=t.pk, player_id=p.pk)
    # when anyone opens its page
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    # then the entries panel lists the field and the waiting list, and no second list of entrants follows
    assert 'id="entries"' in page
    assert page.count(">anna<") == 1 and page.count(">ruta<") == 1
    assert ">Entrants</h2>" not in page


def _scheduled(league, *, auto_advance: bool, bots: int) -> Tournament:
    t = services.tournament_create(league_id=league.pk, name="Scheduled", seeding=Tournament.Seeding.ENTRY,
                                   rounds=1, auto_advance=auto_advance)
    t = services.entry_terms_set(tournament_id=t.pk, starts_at=timezone.now() + timedelta(hours=1))
    services.bots_add(tournament_id=t.pk, count=bots, policy="greedy")
    return t


def test_the_first_round_is_paired_and_started_at_the_start_time_when_rounds_start_by_themselves(league):
    t = _scheduled(league, auto_advance=True, bots=4)
    # before its start time nothing is paired
    assert services.entries_due(tournament_id=t.pk, now=t.starts_at - timedelta(minutes=1))["paired"] is None
    assert not t.round_set.exists()
    # at its start time the sweep hands it on, and its first round is paired and released
    assert services.entries_sweep(now=t.starts_at) == 1
    assert services.entries_due(tournament_id=t.pk, now=t.starts_at)["paired"] == 1
    first = t.round_set.get(number=1)
    assert first.status in (Round.Status.RUNNING, Round.Status.CLOSED)
    assert Tournament.objects.get(pk=t.pk).status != Tournament.Status.DRAFT


def test_without_automatic_rounds_the_first_round_waits_as_a_draft_at_the_start_time(league):
    t = _scheduled(league, auto_advance=False, bots=4)
    assert services.entries_due(tournament_id=t.pk, now=t.starts_at)["paired"] == 1
    # the organiser reviews and releases it: nothing is played yet
    assert t.round_set.get(number=1).status == Round.Status.PAIRED
    # and a second run pairs nothing more
    assert services.entries_due(tournament_id=t.pk, now=t.starts_at)["paired"] is None


def test_a_field_too_small_at_the_start_time_keeps_the_tournament_taking_entries_and_says_why(league):
    t = _scheduled(league, auto_advance=True, bots=1)
    due = services.entries_due(tournament_id=t.pk, now=t.starts_at)
    assert due["paired"] is None and due["not_started"]
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.DRAFT and not t.round_set.exists()


def test_a_person_is_told_when_their_entry_is_approved_refused_or_moves_up(league, people, monkeypatch):
    told = []
    monkeypatch.setattr("league.services.entries.publish.notify_user",
                        lambda user_id, kind, **data: told.append((user_id, kind, data["status"], data["reason"])))
    # given a tournament of one place that asks for approval
    t = open_tournament(league, capacity=1, approval=True)
    anna, janis, ruta = people("anna", "janis", "ruta")
    for p in (anna, janis, ruta):
        services.entry_signup(tournament_id=t.pk, player_id=p.pk)
    pending = {r.player_id: r.pk for r in Registration.objects.filter(tournament=t)}
    # when the organiser approves two and refuses one
    services.entry_approve(registration_id=pending[anna.pk])
    services.entry_approve(registration_id=pending[janis.pk])
    services.entry_refuse(registration_id=pending[ruta.pk], reason="Members only tonight")
    # then each hears it on their account's stream, with the reason of a refusal
    assert told == [(anna.user_id, "entry_changed", "entered", ""), (janis.user_id, "entry_changed", "waiting", ""),
                    (ruta.user_id, "entry_changed", "refused", "Members only tonight")]
    # when anna withdraws, janis moves up and is told so
    told.clear()
    services.entry_withdraw(tournament_id=t.pk, player_id=anna.pk)
    assert told == [(janis.user_id, "entry_changed", "entered", "")]
