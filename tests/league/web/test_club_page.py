"""A club's page: members, coming events (joined from there), a leaderboard per game with the rating's
uncertainty, each member's statistics, and a member's head-to-head against clubmates."""
from __future__ import annotations

from django.test import Client

from league import services
from league.models import PlayerProfile, Rating, Table, TableSeat, Tournament
from tests.league.conftest import make_tournament


def _text(page: bytes) -> str:
    return " ".join(page.decode().split())


def _club_round_robin(club, league):
    tournament = make_tournament(league, format="round_robin", players=4)
    bots = PlayerProfile.objects.filter(entries__tournament=tournament)
    bots.update(club=club)
    services.tournament_run(tournament_id=tournament.pk)
    return tournament, list(bots.order_by("name"))


def test_the_club_page_lists_members_events_leaderboard_and_statistics(club, league, django_user_model):
    # given a club whose four bots played a round robin, a member who has not played, and an event taking entries
    _, bots = _club_round_robin(club, league)
    member = django_user_model.objects.create_user(username="ilze", password="pw-ilze-12345")
    club.members.add(member)
    services.player_for_user(user=member)
    cup = services.tournament_create(league_id=league.pk, name="Winter cup", format="knockout")
    Tournament.objects.filter(pk=cup.pk).update(entries_open=True)
    # when the club's page is read
    page = _text(Client().get(f"/clubs/{club.slug}/").content)
    # then the coming event is there with its join link
    assert "Winter cup" in page and f'href="/tournaments/{cup.pk}/#entries">Join</a>' in page
    # and the club's events are offered as a calendar feed
    assert f'href="/clubs/{club.slug}/calendar.ics"' in page
    # and the leaderboard gives each bot's rating, its uncertainty and its matches
    for bot in bots:
        rating = Rating.objects.get(player=bot, game="livol")
        assert f"{rating.sigma:.1f}" in page and bot.name in page
    # and the statistics count each bot's three matches and its first places, and list the member with none
    for bot in bots:
        firsts = TableSeat.objects.filter(entrant__player=bot, place=1, table__kind=Table.Kind.MATCH).count()
        assert f'{bot.name}</a></td><td class="num">3</td><td class="num">{firsts}</td>' in page
    assert 'ilze</a></td><td class="num">0</td><td class="num">0</td><td class="num">–</td>' in page


def test_a_members_head_to_head_counts_each_meeting_with_a_clubmate(club, league):
    # given four club bots who each met the others once
    _, bots = _club_round_robin(club, league)
    first = bots[0]
    # when the first bot's page at the club is read
    response = Client().get(f"/clubs/{club.slug}/players/{first.pk}/")
    assert response.status_code == 200
    page = _text(response.content)
    # then each clubmate was met once, finishing above, level or below as the tables say
    for other in bots[1:]:
        table = Table.objects.filter(seats__entrant__player=first).get(seats__entrant__player=other)
        mine, theirs = (table.seats.get(entrant__player=p).place for p in (first, other))
        cells = [int(mine < theirs), int(mine == theirs), int(mine > theirs)]
        assert (f'{other.name}</a></td><td class="num">1</td>'
                + "".join(f'<td class="num">{c}</td>' for c in cells)) in page
    # and someone outside the club has no page there
    outsider = services.player_bot_create(name="Outsider bot", policy="greedy")
    assert Client().get(f"/clubs/{club.slug}/players/{outsider.pk}/").status_code == 404
