"""League pages and the league API read through the same selectors."""
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
from django.utils import formats, timezone

from league import services
from league.models import PlayerProfile, RatingHistory, Round, Table, Tournament
from league.rules import charts
from league.selectors import rounds, standings
from tests.league.conftest import make_tournament


@pytest.fixture
def finished_knockout(league):
    return services.tournament_run(tournament_id=make_tournament(league, format="knockout", players=4).pk)


def test_the_tournament_page_shows_standings_results_with_replays_and_the_bracket(client, finished_knockout):
    t = finished_knockout
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    table = standings.standings(t)
    for row in table["rows"]:
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
    champion = PlayerProfile.objects.get(pk=standings.standings(finished_knockout)["rows"][0]["player_id"])
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
    api_table = client.get(f"/api/league/tournaments/{t.pk}/standings").json()
    expected = standings.standings(t)
    assert [r["name"] for r in api_table["rows"]] == [r["name"] for r in expected["rows"]]
    assert api_table["rows"][0]["stage"] == "Winner"
    assert set(api_table["rows"][0]["tie_breaks"]) == set(expected["order"])
    ratings = client.get("/api/league/ratings/livol").json()
    assert len(ratings) == 4 and ratings[0]["rating"] >= ratings[-1]["rating"]
    player = client.get(f"/api/league/players/{ratings[0]['player_id']}").json()
    assert player["ratings"][0]["game"] == "livol" and player["ratings"][0]["history"]
    missing = client.get("/api/league/tournaments/999999")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


# ---------------------------------------------------------------------------
# At a glance: the bracket, round dates, the rating chart, the tie-break legend
# ---------------------------------------------------------------------------

class _Collect(HTMLParser):
    """Elements of a page by class: each with its attributes, the data-entrant ids and the text inside."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "line", "circle", "polyline", "path", "rect"}

    def __init__(self, cls: str):
        super().__init__()
        self.cls, self.found, self.open = cls, [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.cls in (attrs.get("class") or "").split():
            element = {"tag": tag, "attrs": attrs, "classes": attrs["class"].split(), "entrants": [], "text": "",
                       "depth": 0}
            self.found.append(element)
            self.open.append(element)
        for element in self.open:
            if "data-entrant" in attrs:
                element["entrants"].append(int(attrs["data-entrant"]))
        if tag not in self.VOID:
            for element in self.open:
                element["depth"] += 1

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        for element in list(self.open):
            element["depth"] -= 1
            if element["depth"] == 0:
                self.open.remove(element)

    def handle_data(self, data):
        for element in self.open:
            element["text"] += data + " "


def elements(page: str, cls: str) -> list[dict]:
    parser = _Collect(cls)
    parser.feed(page)
    return parser.found


class _Stop(Exception):
    pass


def _stop(_round):
    raise _Stop()


def first_round_played(league, players: int = 8, **kwargs) -> Tournament:
    """A knockout whose first round is over and whose second is paired, not started."""
    t = make_tournament(league, format="knockout", players=players, auto_advance=False, **kwargs)
    with pytest.raises(_Stop):
        services.tournament_run(tournament_id=t.pk, on_round=_stop)
    if t.round_set.count() == 1:
        services.round_pair(tournament_id=t.pk)
    t.refresh_from_db()
    return t


def main_of(page: str) -> str:
    return page[page.index("<main"):page.index("</main>")]


def local(moment, fmt: str) -> str:
    return formats.date_format(timezone.localtime(moment), fmt)


@pytest.mark.parametrize("players,seats", [(4, 2), (6, 2), (9, 3)])
def test_the_bracket_joins_each_table_to_the_one_its_winner_plays_next(client, league, players, seats):
    # given a finished knockout (with byes for 6 players, three seats a table for 9)
    t = services.tournament_run(tournament_id=make_tournament(league, format="knockout", players=players,
                                                              seats=seats).pk)
    # when the selector lays out the bracket
    bracket = rounds.tournament_bracket(t)
    # then each column has seats^(rounds left) slots, in groups of ``seats`` that feed one slot of the next
    assert len(bracket) == t.rounds
    for number, col in enumerate(bracket, start=1):
        slots = [s for g in col["groups"] for s in g]
        assert len(slots) == seats ** (t.rounds - number)
        assert all(len(g) == seats for g in col["groups"]) or number == t.rounds
    # and every winner plays in the slot its table feeds
    for col, following in zip(bracket, bracket[1:]):
        next_slots = {s["number"]: s for g in following["groups"] for s in g}
        for slot in (s for g in col["groups"] for s in g if s["table"]):
            assert slot["decided"] and slot["winner"] is not None
            assert slot["winner"] in [s["entrant_id"] for s in next_slots[slot["next"]]["seats"]]
    champion = rounds.bracket_champion(bracket)
    assert champion["entrant_id"] == standings.standings(t)["rows"][0]["entrant_id"]

    # when the page draws it
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    drawn = {(s["attrs"]["data-round"], s["attrs"]["data-table"]): s
             for s in elements(page, "lg-bracket-slot") if "data-table" in s["attrs"]}
    # then every table of a round but the last has a line out to the table it feeds, whose line comes in
    assert f'--seats: {seats}' in page
    for col in bracket:
        for slot in (s for g in col["groups"] for s in g if s["table"]):
            element = drawn[(str(col["number"]), str(slot["number"]))]
            assert "has-next" in element["classes"]
            assert ("has-prev" in element["classes"]) == (col["number"] > 1)
            assert slot["winner"] in element["entrants"]
            if col["number"] < t.rounds:
                following = drawn[(str(col["number"] + 1), element["attrs"]["data-next"])]
                assert slot["winner"] in following["entrants"]  # the winner advances
                assert "has-prev" in following["classes"]
    # a vertical joins each group of tables that feed one table
    groups = elements(page, "lg-bracket-group")
    assert sum("joined" in g["classes"] for g in groups) == sum(len(c["groups"]) for c in bracket[:-1])
    winners = elements(page, "winner")
    assert all(w["entrants"] for w in winners)
    champion_slot = next(s for s in elements(page, "lg-bracket-slot") if s["attrs"]["data-round"] == "winner")
    assert champion_slot["entrants"] == [champion["entrant_id"]] and "has-prev" in champion_slot["classes"]


def test_a_running_bracket_shows_who_is_waiting_for_the_next_round(client, league):
    # given a knockout of 8 whose first round is over and whose second is paired, not started
    t = first_round_played(league)
    assert t.status == Tournament.Status.RUNNING and t.round_set.count() == 2
    # when the page is drawn
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    bracket = rounds.tournament_bracket(t)
    # then the semi-finals show their pairs, the final two players to be decided, and the champion nobody yet
    assert [c["label"] for c in bracket] == ["Quarter-final", "Semi-final", "Final"]
    assert [c["paired"] for c in bracket] == [True, True, False]
    final = bracket[2]["groups"][0][0]
    assert final["live"] and final["waiting"] == [None, None]
    assert page.count("to be decided") == 2 + 1
    assert 'hx-trigger="every 3s"' in page  # still polled, as before

    # given the first semi-final decided (the second still to play)
    played = rounds.tournament_rounds(t)
    first = next(tb for tb in played[1]["tables"] if tb["number"] == 1)
    first["decided"] = True
    first["seats"][0]["place"], first["seats"][1]["place"] = 2, 1
    # then its winner already waits in the final
    final = rounds.tournament_bracket(t, played)[2]["groups"][0][0]
    assert [w and w["entrant_id"] for w in final["waiting"]] == [first["seats"][1]["entrant_id"], None]


def test_rounds_show_when_they_were_played(client, league):
    # given a finished Swiss; its first round started one evening and closed the next morning
    t = services.tournament_run(tournament_id=make_tournament(league, format="swiss", players=4, rounds=2).pk)
    first, second = Round.objects.filter(tournament=t).order_by("number")
    evening = datetime(2025, 3, 4, 17, 30, tzinfo=UTC)
    Round.objects.filter(pk=first.pk).update(started_at=evening, closed_at=evening + timedelta(hours=15),
                                             scheduled_on=evening.date() - timedelta(days=1))
    first.refresh_from_db()
    second.refresh_from_db()
    # when the tournament page is shown
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    # then each round says when it was played, as it happened
    assert (f"played {local(first.started_at, 'DATETIME_FORMAT')} – {local(first.closed_at, 'DATETIME_FORMAT')}"
            in page)
    assert f"scheduled for {formats.date_format(first.scheduled_on, 'DATE_FORMAT')}" in page
    # (a round that closed the day it started gives the close as a time)
    assert f"played {local(second.started_at, 'DATETIME_FORMAT')} – {local(second.closed_at, 'TIME_FORMAT')}" in page
    assert f'datetime="{timezone.localtime(first.started_at).isoformat()}"' in page
    played = rounds.tournament_rounds(t)
    assert played[0]["started_at"] == first.started_at and played[0]["same_day"] is False
    assert played[1]["same_day"] is True


def test_a_running_round_says_when_it_started_and_a_knockout_column_when_it_is_planned(client, league):
    t = first_round_played(league, starts_on=timezone.localdate() - timedelta(days=1))
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    first = Round.objects.get(tournament=t, number=1)
    # round 1 was played today, not on the planned day: both are shown
    assert f"played {local(first.started_at, 'DATETIME_FORMAT')}" in page
    assert f"scheduled for {formats.date_format(first.scheduled_on, 'DATE_FORMAT')}" in page
    # the final is not paired yet: the bracket gives its planned date
    final_day = t.starts_on + timedelta(days=2 * t.days_between_rounds)
    head = next(c for c in elements(page, "lg-bracket-col") if c["attrs"].get("data-round") == "3")
    assert f"scheduled for {formats.date_format(final_day, 'DATE_FORMAT')}" in " ".join(head["text"].split())


def test_the_rating_chart_has_dates_on_the_x_axis_and_the_rating_on_the_y_axis(client, finished_knockout):
    champion = PlayerProfile.objects.get(pk=standings.standings(finished_knockout)["rows"][0]["player_id"])
    page = client.get(f"/players/{champion.pk}/").content.decode()
    svg = page[page.index("<svg"):page.index("</svg>")]
    # the axes are titled: the rating up, the time along (all played today: the day is in the title)
    played = RatingHistory.objects.filter(player=champion).order_by("played_at")
    assert ">Rating</text>" in svg and 'rotate(-90)' in svg
    assert f"Time played on {local(played.first().played_at, 'DATE_FORMAT')}" in svg
    ticks = [t for t in elements(svg, "ticks") if t["tag"] == "g"]
    x_labels = [t for t in ticks if "x" in t["classes"]][0]["text"]
    y_labels = [t for t in ticks if "y" in t["classes"]][0]["text"]
    assert x_labels.strip() and any(c.isdigit() for c in x_labels)
    assert len(y_labels.split()) >= 2
    assert page.count("<circle") == champion.ratings.get().matches + 1

    # given the same matches spread over five weeks
    for i, h in enumerate(played):
        RatingHistory.objects.filter(pk=h.pk).update(played_at=datetime(2025, 5, 1, 18, tzinfo=UTC)
                                                     + timedelta(days=17 * i))
    page = client.get(f"/players/{champion.pk}/").content.decode()
    svg = page[page.index("<svg"):page.index("</svg>")]
    # then the x axis is dated by day
    assert ">Date played</text>" in svg
    x_labels = [t for t in elements(svg, "ticks") if t["tag"] == "g" and "x" in t["classes"]][0]["text"]
    assert "May" in x_labels or "June" in x_labels
    assert "Rating after each match" in page  # the numbers behind the line, as a table


def test_chart_ticks_are_round_and_in_local_time():
    # values: round steps that cover the range
    assert charts.value_ticks(-1.3, 7.9) == [-2.5, 0, 2.5, 5, 7.5, 10]
    assert charts.value_ticks(3, 3) == [2, 2.5, 3, 3.5, 4]
    # moments: midnights, Mondays, first days of months, in the site's time zone
    tz = timezone.get_current_timezone()
    days, fmt = charts.date_ticks(datetime(2025, 5, 1, 18, tzinfo=tz), datetime(2025, 5, 4, 9, tzinfo=tz))
    assert [d.day for d in days] == [2, 3, 4] and {(d.hour, d.minute) for d in days} == {(0, 0)}
    assert fmt == "MONTH_DAY_FORMAT"
    weeks, _ = charts.date_ticks(datetime(2025, 5, 1, tzinfo=tz), datetime(2025, 6, 10, tzinfo=tz))
    assert weeks and all(d.weekday() == 0 for d in weeks)
    months, fmt = charts.date_ticks(datetime(2024, 11, 20, tzinfo=tz), datetime(2025, 6, 10, tzinfo=tz))
    assert all(d.day == 1 for d in months) and fmt == "YEAR_MONTH_FORMAT"
    minutes, fmt = charts.date_ticks(datetime(2025, 5, 1, 18, 1, tzinfo=tz),
                                        datetime(2025, 5, 1, 18, 44, tzinfo=tz))
    assert all(m.minute % 5 == 0 for m in minutes) and fmt == "TIME_FORMAT"


def test_the_standings_explain_every_tie_break_column(client, league):
    # given a league that breaks ties by every criterion
    league.tie_breaks = ["match_points", "head_to_head", "buchholz", "median_buchholz", "sonneborn_berger",
                         "game_points", "wins"]
    league.save()
    t = services.tournament_run(tournament_id=make_tournament(league, format="swiss", players=4, rounds=2).pk)
    # when the tournament page is shown
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    columns = standings.standings(t)["columns"]
    # then each column header has a title with the criterion's name and what it counts
    headers = {h["attrs"]["data-tie-break"]: h for h in elements(page, "num") if "data-tie-break" in h["attrs"]}
    assert list(headers) == league.tie_breaks
    for c in columns:
        assert f'<abbr title="{c["label"]}: {c["help"]}">{c["short"]}</abbr>'.replace("'", "&#x27;") in page
    # and a legend under the table gives one line per column, in the order ties are broken
    assert "Ties are broken column by column, in this order" in page
    (legend,) = elements(page, "lg-tie-breaks")
    text = " ".join(legend["text"].split())
    for c in columns:
        assert c["help"] in text and c["short"] in text
    order = [page.index(f'<li data-tie-break="{k}">') for k in league.tie_breaks]
    assert order == sorted(order)
    helps = {c["key"]: c["help"] for c in columns}
    assert helps["match_points"] == "points for results: 3 for a win, 1 for a draw, 0 for a loss"
    assert "Buchholz" in helps["median_buchholz"] and "opponent" in helps["buchholz"]
    assert "Sonneborn–Berger" in page


def test_league_pages_need_no_inline_script(client, finished_knockout, league):
    # the site's Content-Security-Policy allows scripts from files only
    champion = standings.standings(finished_knockout)["rows"][0]["player_id"]
    for url in ["/leagues/", "/clubs/riga/", f"/leagues/{league.pk}/", f"/tournaments/{finished_knockout.pk}/",
                f"/players/{champion}/", "/ratings/livol/"]:
        page = client.get(url).content.decode()
        assert 'src="/static/league/league.js"' in page
        main = main_of(page)
        assert "<script" not in main
        assert not any(f" on{event}=" in main for event in ("click", "change", "load", "submit", "input", "error"))
        assert "javascript:" not in main
