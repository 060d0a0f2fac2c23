"""League pages and the league API read through the same selectors."""
import pytest

from league import selectors, services
from league.models import PlayerProfile, Table
from tests.league.conftest import make_tournament


@pytest.fixture
def finished_knockout(league):
    return services.tournament_run(tournament_id=make_tournament(league, format="knockout", players=4).pk)


def test_the_tournament_page_shows_standings_results_with_replays_and_the_bracket(client, finished_knockout):
    t = finished_knockout
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    standings = selectors.standings(t)
    for row in standings["rows"]:
        assert row["name"] in page
    assert "Bracket" in page and "Winner" in page and "Semi-final" in page
    for table in Table.objects.filter(round__tournament=t, match__isnull=False):
        assert f"/matches/{table.match_id}/replay/" in page
    assert 'hx-trigger="every 3s"' not in page  # finished: no polling
    live = client.get(f"/tournaments/{t.pk}/live/").content.decode()
    assert "tournament-live" in live and "Standings" in live


def test_a_running_tournament_page_polls_its_progress(client, league):
    t = make_tournament(league, format="swiss", players=4, rounds=2)
    services.round_start(round_id=services.round_pair(tournament_id=t.pk).pk)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'hx-trigger="every 3s"' in page
    assert "Round 1 of 2: 0 of 2 matches finished" in page


def test_club_league_index_and_ratings_pages(client, finished_knockout, league):
    assert "Riga Card Club" in client.get("/leagues/").content.decode()
    assert "LIVOL league" in client.get("/clubs/riga/").content.decode()
    league_page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert finished_knockout.name in league_page and "Top ratings" in league_page
    ratings = client.get("/ratings/livol/").content.decode()
    assert "Greedy bot 01" in ratings
    assert client.get("/ratings/chess/").status_code == 404


def test_the_player_page_plots_the_rating_and_lists_recent_matches(client, finished_knockout):
    champion = PlayerProfile.objects.get(pk=selectors.standings(finished_knockout)["rows"][0]["player_id"])
    page = client.get(f"/players/{champion.pk}/").content.decode()
    assert "<svg" in page and "<polyline" in page
    assert page.count("<circle") == champion.ratings.get().matches + 1  # the start, then one per match
    assert finished_knockout.name in page and "/replay/" in page


def test_csv_downloads(client, finished_knockout):
    r = client.get(f"/tournaments/{finished_knockout.pk}/standings.csv")
    assert r["Content-Type"].startswith("text/csv") and b"position,player" in r.content
    r = client.get(f"/tournaments/{finished_knockout.pk}/results.csv")
    assert b"round,table,kind" in r.content


def test_the_league_api_serves_tournaments_standings_and_ratings(client, finished_knockout):
    t = finished_knockout
    listing = client.get("/api/league/tournaments").json()
    assert [x["id"] for x in listing] == [t.pk] and listing[0]["progress"]["percent"] == 100
    detail = client.get(f"/api/league/tournaments/{t.pk}").json()
    assert len(detail["rounds_played"]) == 2 and detail["rounds_played"][0]["tables"][0]["seats"]
    standings = client.get(f"/api/league/tournaments/{t.pk}/standings").json()
    expected = selectors.standings(t)
    assert [r["name"] for r in standings["rows"]] == [r["name"] for r in expected["rows"]]
    assert standings["rows"][0]["stage"] == "Winner"
    assert set(standings["rows"][0]["tie_breaks"]) == set(expected["order"])
    ratings = client.get("/api/league/ratings/livol").json()
    assert len(ratings) == 4 and ratings[0]["rating"] >= ratings[-1]["rating"]
    player = client.get(f"/api/league/players/{ratings[0]['player_id']}").json()
    assert player["ratings"][0]["game"] == "livol" and player["ratings"][0]["history"]
    missing = client.get("/api/league/tournaments/999999")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
