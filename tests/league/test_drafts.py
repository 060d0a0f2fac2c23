"""Drafted rounds: changes recorded and shown, refused once released, the release creating matches and
telling people only then, scheduled starts, forbidden pairings and clubmates kept apart, and who may change
a draft in the admin."""
from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.utils import timezone

from games import dispatch
from games.models import Match
from league import services, tasks
from league.models import Club, ForbiddenPair, Round, RoundChange, Table, TableSeat, Tournament
from league.selectors import drafts
from tests.league.conftest import make_tournament

PASSWORD = "pw-draft-rounds"


def seating(rnd: Round) -> dict[int, list[int]]:
    """Table number → entrant ids in seat order."""
    out: dict[int, list[int]] = {}
    for table_number, entrant_id in (TableSeat.objects.filter(table__round=rnd)
                                     .order_by("table__number", "position")
                                     .values_list("table__number", "entrant_id")):
        out.setdefault(table_number, []).append(entrant_id)
    return out


def drafted(league, **kwargs) -> Round:
    t = make_tournament(league, **kwargs)
    return services.round_pair(tournament_id=t.pk)


def people(django_user_model, names, club=None):
    users = [django_user_model.objects.create_user(username=n, password=PASSWORD) for n in names]
    if club is not None:
        club.members.add(*users)
    return [services.player_for_user(user=u) for u in users]


def test_a_swap_is_recorded_and_shown_on_the_public_round(client, league, django_user_model):
    # given a drafted round of four bots
    rnd = drafted(league, players=4)
    organiser = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    (a, b), (c, d) = seating(rnd).values()
    # when the organiser swaps the second seat of table 1 with the first of table 2
    change = services.draft_swap(round_id=rnd.pk, first_entrant_id=b, second_entrant_id=c, by=organiser)
    # then they have changed places, and the change says who, which tables, by whom
    assert seating(rnd) == {1: [a, c], 2: [b, d]}
    assert change.kind == RoundChange.Kind.SWAP and change.by == organiser
    assert [(p["entrant"], p["from"], p["to"]) for p in change.details["players"]] == [(b, 1, 2), (c, 2, 1)]
    page = client.get(f"/tournaments/{rnd.tournament_id}/").content.decode()
    assert "changed places" in page and "by olga" in page


def test_a_move_is_recorded_and_keeps_the_tables_within_the_games_sizes(league):
    # given five bots drafted at tables of up to three (a table of three and one of two)
    rnd = drafted(league, players=5, seats=3)
    tables = seating(rnd)
    assert sorted(len(t) for t in tables.values()) == [2, 3]
    big = next(n for n, t in tables.items() if len(t) == 3)
    small = next(n for n, t in tables.items() if len(t) == 2)
    # when a player of the table of two would join the full table, or leave it alone: refused
    with pytest.raises(services.DraftTableSize):
        services.draft_move(round_id=rnd.pk, entrant_id=tables[small][0], table_number=big)
    # and a player of the table of three moves to the table of two
    mover = tables[big][2]
    change = services.draft_move(round_id=rnd.pk, entrant_id=mover, table_number=small)
    # then both tables are in range and the move is recorded
    after = seating(rnd)
    assert len(after[big]) == 2 and after[small] == tables[small] + [mover]
    assert change.kind == RoundChange.Kind.MOVE
    assert change.details["players"] == [{"entrant": mover, "name": change.details["players"][0]["name"],
                                          "from": big, "to": small, "position": 2}]
    assert "moved from table" in drafts.round_draft(rnd)["changes"][0]["text"]


def test_a_change_is_refused_once_the_round_is_released(league):
    # given a released round
    rnd = drafted(league, players=4)
    services.round_release(round_id=rnd.pk)
    (a, _b), (c, _d) = seating(rnd).values()
    # when the organiser tries to swap or move: refused with a stable code, nothing changes
    with pytest.raises(services.DraftReleased) as refused:
        services.draft_swap(round_id=rnd.pk, first_entrant_id=a, second_entrant_id=c)
    assert refused.value.code == "draft_released"
    with pytest.raises(services.DraftReleased):
        services.draft_move(round_id=rnd.pk, entrant_id=a, table_number=2)
    assert not RoundChange.objects.exists()


def test_the_release_creates_the_matches_and_notifies_only_then(league, django_user_model, monkeypatch,
                                                              django_capture_on_commit_callbacks):
    # given a person and three bots, drafted
    notices = []
    monkeypatch.setattr("league.services.rounds.publish.notify_user",
                        lambda user_id, kind, **data: notices.append((user_id, kind)))
    (anna,) = people(django_user_model, ["anna"])
    t = services.tournament_create(league_id=league.pk, name="Club night", rounds=1, seeding="entry")
    services.entrant_add(tournament_id=t.pk, player_id=anna.pk)
    services.bots_add(tournament_id=t.pk, count=3, policy="greedy")
    with django_capture_on_commit_callbacks(execute=False):
        rnd = services.round_pair(tournament_id=t.pk)
    # then nothing is created and nobody is told while it is a draft
    assert Match.objects.count() == 0 and notices == []
    assert rnd.status == Round.Status.PAIRED
    # when it is released
    with django_capture_on_commit_callbacks(execute=False):
        services.round_release(round_id=rnd.pk)
    # then every table has its match and anna is told her round started
    assert Table.objects.filter(round=rnd, match__isnull=True).count() == 0
    assert (anna.user_id, "round_started") in notices and {u for u, _kind in notices} == {anna.user_id}
    assert services.round_start is services.round_release   # older callers still start rounds


def test_the_scheduled_sweep_releases_a_due_round_and_not_an_early_one(league):
    # given two drafted rounds: one due a minute ago, one in an hour
    now = timezone.now()
    due = drafted(league, players=4, auto_advance=False)
    early = drafted(league, players=4, auto_advance=False)
    Round.objects.filter(pk=due.pk).update(starts_at=now - timedelta(minutes=1))
    Round.objects.filter(pk=early.pk).update(starts_at=now + timedelta(hours=1))
    # when the periodic task runs
    released = tasks.release_due()
    # then only the due round is released, with its matches
    assert released == 1
    due.refresh_from_db(), early.refresh_from_db()
    assert due.status == Round.Status.RUNNING and early.status == Round.Status.PAIRED
    assert Table.objects.filter(round=due, match__isnull=False).exists()
    assert not Table.objects.filter(round=early, match__isnull=False).exists()


def test_the_first_round_starts_at_the_tournaments_start_time(client, league):
    # given a tournament whose first round starts at a set time
    starts = timezone.now() + timedelta(hours=2)
    t = make_tournament(league, players=4)
    Tournament.objects.filter(pk=t.pk).update(starts_at=starts)
    # when its first round is drafted
    rnd = services.round_pair(tournament_id=t.pk)
    # then it starts then, and the page says so
    assert rnd.starts_at == starts
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    local = timezone.localtime(starts, timezone.get_default_timezone())
    assert "Starts at" in page and f'datetime="{local:%Y-%m-%dT%H:%M:%S}' in page
    # and on the club's clock too (a club in Vilnius: an hour ahead of Riga in winter, two of UTC)
    Club.objects.filter(pk=league.club_id).update(time_zone="Europe/Vilnius")
    page = client.get(f"/tournaments/{t.pk}/", HTTP_COOKIE="cardleague_tz=UTC").content.decode()
    vilnius = timezone.localtime(starts, ZoneInfo("Europe/Vilnius"))
    assert "at the club:" in page and f"({vilnius.tzname()})" in page
    assert drafts.tournament_changes(t)[0]["club_time"] == vilnius.replace(tzinfo=None)


def test_a_first_round_drafted_after_the_start_time_waits_for_the_organiser(league):
    # given a tournament whose start time has passed
    t = make_tournament(league, players=4)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(minutes=5))
    # when its first round is drafted, the sweep leaves it for the organiser to review and release
    rnd = services.round_pair(tournament_id=t.pk)
    assert rnd.starts_at is None and services.rounds_release_due() == 0


def test_swiss_keeps_a_forbidden_pair_apart_when_it_can(client, league, django_user_model):
    # given four people in seed order; seeds 1 and 3 would meet, but they are family
    a, b, c, d = people(django_user_model, ["ana", "bert", "cita", "dan"])
    t = services.tournament_create(league_id=league.pk, name="Family night", rounds=2, seeding="entry")
    for p in (a, b, c, d):
        services.entrant_add(tournament_id=t.pk, player_id=p.pk)
    ForbiddenPair.objects.create(tournament=t, first=a, second=c, reason="siblings")
    # when the first round is drawn
    rnd = services.round_pair(tournament_id=t.pk)
    # then ana and cita are at different tables, and the draft has no forbidden flag
    by_player = {s.entrant.player_id: s.table_id for s in TableSeat.objects.filter(table__round=rnd)
                 .select_related("entrant")}
    assert by_player[a.pk] != by_player[c.pk]
    assert not [f for t_ in drafts.round_draft(rnd)["tables"] for f in t_["flags"] if f["code"] == "forbidden"]
    # and the tournament page says how Swiss keeps them apart
    assert "meet only when no other draw of the round avoids it" in client.get(f"/tournaments/{t.pk}/").content.decode()


def test_swiss_reports_a_forbidden_pair_it_cannot_avoid(league, django_user_model):
    # given only two players, and they are not to be seated together
    a, b = people(django_user_model, ["ana", "bert"])
    t = services.tournament_create(league_id=league.pk, name="Two", rounds=1, seeding="entry")
    for p in (a, b):
        services.entrant_add(tournament_id=t.pk, player_id=p.pk)
    ForbiddenPair.objects.create(club=league.club, first=a, second=b, reason="married")
    # when the round is drawn, they meet (nothing else is possible), and the draft flags it with the reason
    rnd = services.round_pair(tournament_id=t.pk)
    flags = [f for t_ in drafts.round_draft(rnd)["tables"] for f in t_["flags"]]
    assert [f["code"] for f in flags] == ["forbidden"]
    assert "married" in flags[0]["text"]


def test_clubmates_are_kept_apart_in_the_first_rounds(league, django_user_model):
    # given four people; seeds 1 and 3 are clubmates and the tournament keeps clubmates apart in round 1
    (ana,) = people(django_user_model, ["ana"], club=league.club)
    (bert,) = people(django_user_model, ["bert"])
    (cita,) = people(django_user_model, ["cita"], club=league.club)
    (dan,) = people(django_user_model, ["dan"])
    t = services.tournament_create(league_id=league.pk, name="Open night", rounds=2, seeding="entry")
    for p in (ana, bert, cita, dan):
        services.entrant_add(tournament_id=t.pk, player_id=p.pk)
    Tournament.objects.filter(pk=t.pk).update(same_club_rounds=1)
    # when the first round is drawn
    rnd = services.round_pair(tournament_id=t.pk)
    # then ana and cita are at different tables
    table_of = {s.entrant.player_id: s.table_id for s in TableSeat.objects.filter(table__round=rnd)
                .select_related("entrant")}
    assert table_of[ana.pk] != table_of[cita.pk]
    # and seated together by hand, the draft flags them as clubmates
    cita_entrant = t.entrants.get(player=cita).pk
    partner = next(s.entrant_id for s in TableSeat.objects.filter(table_id=table_of[ana.pk])
                   if s.entrant.player_id != ana.pk)
    services.draft_swap(round_id=rnd.pk, first_entrant_id=partner, second_entrant_id=cita_entrant)
    codes = [f["code"] for t_ in drafts.round_draft(rnd)["tables"] for f in t_["flags"]]
    assert "club" in codes


def test_a_repeat_meeting_is_flagged_with_how_often(league):
    # given a Swiss of four bots after its first round, and the second drafted
    t = make_tournament(league, players=4, rounds=3, auto_advance=False)
    first = services.round_pair(tournament_id=t.pk)
    with dispatch.work_here():
        services.round_release(round_id=first.pk)
        for table in first.tables.all():
            services.table_run(table_id=table.pk)
    second = Round.objects.get(tournament=t, number=2)
    old = seating(first)[1]
    # when the organiser seats the first table's pair together again
    now = seating(second)
    table_of = {e: n for n, seats in now.items() for e in seats}
    if table_of[old[0]] != table_of[old[1]]:
        other = next(e for e in now[table_of[old[0]]] if e != old[0])
        services.draft_swap(round_id=second.pk, first_entrant_id=other, second_entrant_id=old[1])
    # then the draft flags the repeat meeting, once before
    flags = [f["text"] for t_ in drafts.round_draft(second)["tables"] for f in t_["flags"] if f["code"] == "repeat"]
    assert any("have met once before" in text for text in flags)


def test_the_round_release_command_releases_the_latest_draft(league):
    rnd = drafted(league, players=4)
    call_command("round_release", str(rnd.tournament_id), "--round", "1", stdout=open("/dev/null", "w"))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RUNNING


def _staff(django_user_model, name, club, codenames):
    user = django_user_model.objects.create_user(username=name, password=PASSWORD, is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="league", codename__in=codenames))
    club.organisers.add(user)
    return user


def test_view_only_staff_see_a_draft_but_cannot_change_it(client, league, django_user_model):
    # given a drafted round and a member of staff who may only view tournaments
    rnd = drafted(league, players=4)
    viewer = _staff(django_user_model, "vera", league.club, ["view_tournament"])
    client.force_login(viewer)
    url = f"/admin/league/tournament/{rnd.tournament_id}/draft/"
    (a, _b), (c, _d) = seating(rnd).values()
    # when she opens the draft: she sees its tables, without the forms
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Table 1" in body and "draft-swap" not in body and "draft-release" not in body
    # and a swap or a release she posts is refused, nothing changes
    assert client.post(url, {"action": "swap", "round": "1", "swap-first": a, "swap-second": c}).status_code == 403
    assert client.post(url, {"action": "release", "round": "1"}).status_code == 403
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PAIRED and not RoundChange.objects.exists()


def test_an_organiser_swaps_and_releases_from_the_draft_page(client, league, django_user_model):
    # given a drafted round and an organiser who may change tournaments
    rnd = drafted(league, players=4)
    olga = _staff(django_user_model, "olga", league.club, ["view_tournament", "change_tournament"])
    client.force_login(olga)
    url = f"/admin/league/tournament/{rnd.tournament_id}/draft/"
    change_page = client.get(f"/admin/league/tournament/{rnd.tournament_id}/change/").content.decode()
    assert url in change_page   # linked from the tournament
    (a, b), (c, d) = seating(rnd).values()
    # when she swaps two players, then releases
    r = client.post(url, {"action": "swap", "round": "1", "swap-first": b, "swap-second": c}, follow=True)
    assert "changed places" in r.content.decode()
    client.post(url, {"action": "release", "round": "1"})
    # then the round runs with the changed tables, and the change names her
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RUNNING and seating(rnd) == {1: [a, c], 2: [b, d]}
    assert RoundChange.objects.get().by == olga


def test_a_knockout_keeps_a_forbidden_pair_apart_in_its_first_round(league, django_user_model):
    # given four people seeded by entry: seed 1 would meet seed 4, but they are family
    a, b, c, d = people(django_user_model, ["ana", "bert", "cita", "dan"])
    t = services.tournament_create(league_id=league.pk, name="Cup", format="knockout", seeding="entry")
    for p in (a, b, c, d):
        services.entrant_add(tournament_id=t.pk, player_id=p.pk)
    ForbiddenPair.objects.create(tournament=t, first=a, second=d, reason="siblings")
    # when the first round is drawn
    rnd = services.round_pair(tournament_id=t.pk)
    # then the top seeds still head their tables, and ana and dan are apart
    names = [[TableSeat.objects.get(table__round=rnd, entrant_id=e).entrant.player.name for e in seats]
             for seats in seating(rnd).values()]
    assert [n[0] for n in names] == ["ana", "bert"]
    assert all({"ana", "dan"} != set(n) for n in names)


def test_an_organiser_moves_a_player_from_the_draft_page(client, league, django_user_model):
    # given five bots drafted at tables of up to three, and an organiser
    rnd = drafted(league, players=5, seats=3)
    olga = _staff(django_user_model, "olga", league.club, ["view_tournament", "change_tournament"])
    client.force_login(olga)
    tables = seating(rnd)
    big = next(n for n, t in tables.items() if len(t) == 3)
    small = next(n for n, t in tables.items() if len(t) == 2)
    url = f"/admin/league/tournament/{rnd.tournament_id}/draft/"
    # when she moves a player of the full table to the other
    r = client.post(url, {"action": "move", "round": "1", "move-entrant": tables[big][0], "move-table": small},
                    follow=True)
    # then the page says so, and the move is recorded with her name
    assert "moved from table" in r.content.decode()
    assert RoundChange.objects.get().kind == RoundChange.Kind.MOVE and len(seating(rnd)[small]) == 3
