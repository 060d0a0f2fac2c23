"""The play, board, move, replay, audit and rules pages, and the new-match form."""
import json
import re

import pytest
from django.test import Client

from games.models import Match
from games.services import SeatSpec, bots_advance, match_create
from tests.games.conftest import first_actor


@pytest.fixture
def signed_in(people):
    c = Client()
    c.force_login(people[0])
    return c


def test_a_player_starts_a_match_against_bots_from_the_home_page(signed_in, people):
    response = signed_in.post("/matches/new/", {"game": "livol", "livol-seats": 3, "livol-variant": "winner_scores",
                                                "bot": "random"})
    assert response.status_code == 302
    match = Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert [s.user_id for s in match.seats.order_by("index")] == [people[0].pk, None, None]
    assert list(match.seats.exclude(bot="").values_list("bot", flat=True)) == ["random", "random"]


def test_a_player_can_seat_other_people_and_bots_fill_the_rest(signed_in, people):
    response = signed_in.post("/matches/new/", {"game": "livol", "livol-seats": 4, "livol-variant": "winner_scores",
                                                "bot": "greedy",
                                                "people": f"{people[1].username}, {people[2].username}"})
    assert response.status_code == 302
    match = Match.objects.latest("created_at")
    assert [s.user_id for s in match.seats.order_by("index")] == [p.pk for p in people] + [None]
    assert signed_in.post("/matches/new/", {"game": "livol", "livol-seats": 3, "livol-variant": "winner_scores",
                                            "bot": "greedy", "people": "nobody-here"}).status_code == 400


def test_the_new_match_form_refuses_a_seat_count_outside_the_game(signed_in):
    response = signed_in.post("/matches/new/", {"game": "cardavia", "cardavia-seats": 2, "cardavia-lives": 3,
                                                "bot": "random"})
    assert response.status_code == 400
    assert b"cardavia-seats" in response.content


def test_the_play_page_shows_the_seats_hand_and_its_legal_moves(livol_match, people):
    seat, legal = first_actor(livol_match)
    c = Client()
    c.force_login(people[seat])
    page = c.get(f"/matches/{livol_match.pk}/")
    assert page.status_code == 200
    assert page.context["seat"] == seat
    assert [m["move"] for m in page.context["legal"]] == legal
    assert b'hx-post="/matches/' in page.content


def test_a_move_posted_from_the_page_is_recorded_and_the_board_comes_back(livol_match, people):
    seat, legal = first_actor(livol_match)
    c = Client()
    c.force_login(people[seat])
    response = c.post(f"/matches/{livol_match.pk}/move/?seat={seat}",
                      {"move": json.dumps(legal[0]), "expected_seq": livol_match.last_seq}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    livol_match.refresh_from_db()
    assert response.context["seq"] == livol_match.last_seq > 0
    assert response.context.get("error") is None


def test_an_illegal_move_from_the_page_shows_its_code_and_records_nothing(livol_match, people):
    seat, _ = first_actor(livol_match)
    c = Client()
    c.force_login(people[1 - seat])
    before = livol_match.last_seq
    response = c.post(f"/matches/{livol_match.pk}/move/", {"move": '{"type":"draw"}', "expected_seq": before},
                      HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.context["error"]["code"] == "not_your_turn"
    livol_match.refresh_from_db()
    assert livol_match.last_seq == before
    # without htmx the status carries the error
    response = c.post(f"/matches/{livol_match.pk}/move/", {"move": "nonsense", "expected_seq": before})
    assert response.status_code == 400


def test_a_stranger_cannot_post_a_move(livol_match, people):
    c = Client()
    c.force_login(people[2])
    response = c.post(f"/matches/{livol_match.pk}/move/", {"move": '{"type":"draw"}'})
    assert response.status_code == 403


def test_polling_answers_204_when_nothing_changed(livol_match, people):
    c = Client()
    c.force_login(people[0])
    assert c.get(f"/matches/{livol_match.pk}/board/?since={livol_match.last_seq}").status_code == 204
    assert c.get(f"/matches/{livol_match.pk}/board/?since=0").status_code == 200


def test_the_replay_page_steps_through_a_finished_match(people, signed_in):
    match = match_create(game="livol", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")],
                         seed="replay", options={"target": 40})
    bots_advance(match_id=match.pk, budget=100000)
    first = signed_in.get(f"/matches/{match.pk}/replay/")
    assert first.status_code == 200 and first.context["step"] == 0
    last_step = first.context["last_step"]
    assert last_step > 5
    # each step shows every hand (the match is over) and the move that led there
    step3 = signed_in.get(f"/matches/{match.pk}/replay/?step=3", HTTP_HX_REQUEST="true")
    assert step3.context["position"]["move"] is not None
    assert all(h is not None for h in step3.context["hands"])
    last = signed_in.get(f"/matches/{match.pk}/replay/?step={last_step}")
    assert last.context["view"]["over"] is True
    audit = signed_in.get(f"/matches/{match.pk}/audit/")
    assert audit.status_code == 200 and audit.context["report"].ok


def test_an_unknown_match_page_is_404(signed_in):
    assert signed_in.get("/matches/987654/").status_code == 404


# --------------------------------------------------------------------------
# The new-match form: each game its own seats and options
# --------------------------------------------------------------------------

@pytest.mark.parametrize("post,game,options", [
    ({"game": "iota", "iota-seats": 2, "iota-variant": "short"}, "iota", {"variant": "short"}),
    ({"game": "karuselis", "karuselis-seats": 2, "karuselis-deck": "small"}, "karuselis", {"deck": "small"}),
    ({"game": "karuselis", "karuselis-seats": 3, "karuselis-deck": "no_broom", "karuselis-target": 45},
     "karuselis", {"deck": "no_broom", "target": 45}),
    ({"game": "cardavia", "cardavia-seats": 4, "cardavia-lives": 1}, "cardavia", {"lives": 1}),
    ({"game": "livol", "livol-seats": 2, "livol-variant": "own_hand", "livol-target": 200}, "livol",
     {"variant": "own_hand", "target": 200}),
    ({"game": "uno_flip", "uno_flip-seats": 5, "uno_flip-target": 100}, "uno_flip", {"target": 100}),
])
def test_the_new_match_form_gives_each_game_its_own_options(signed_in, post, game, options):
    # given the fields of the chosen game only (as a browser without JavaScript sends every game's)
    noise = {"livol-target": "7", "karuselis-deck": "full", "cardavia-lives": "9", "iota-variant": "kids"}
    data = {**noise, **post, "bot": "random"}
    # when the form is posted
    response = signed_in.post("/matches/new/", data)
    # then the match has that game's options and seats, and nothing of the other games
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.latest("created_at")
    assert match.game == game and match.options == options
    assert match.seats.count() == post[f"{game}-seats"]


def test_the_new_match_form_refuses_what_the_engine_refuses(signed_in):
    assert signed_in.post("/matches/new/", {"game": "cardavia", "cardavia-seats": 4, "cardavia-lives": 0,
                                            "bot": "random"}).status_code == 400
    assert signed_in.post("/matches/new/", {"game": "iota", "iota-seats": 2, "iota-variant": "huge",
                                            "bot": "random"}).status_code == 400
    assert signed_in.post("/matches/new/", {"game": "uno_flip", "uno_flip-seats": 11,
                                            "bot": "random"}).status_code == 400
    assert signed_in.post("/matches/new/", {"game": "chess", "bot": "random"}).status_code == 400


def test_the_home_page_offers_every_game_with_its_rules_and_no_target_for_iota(signed_in):
    page = signed_in.get("/").content.decode()
    for game in ("livol", "uno_flip", "karuselis", "iota", "cardavia"):
        assert f'id="game-{game}"' in page and f'href="/rules/{game}/"' in page
        assert f'name="{game}-seats"' in page
    assert 'name="iota-target"' not in page and 'name="iota-variant"' in page
    assert 'name="karuselis-deck"' in page and 'name="cardavia-lives"' in page and 'name="livol-variant"' in page


# --------------------------------------------------------------------------
# The play page: the log, the turn, the positions played back
# --------------------------------------------------------------------------

def test_the_play_page_shows_the_log_the_turn_and_the_title(livol_match, people):
    seat, _ = first_actor(livol_match)
    c = Client()
    c.force_login(people[seat])
    page = c.get(f"/matches/{livol_match.pk}/")
    html = page.content.decode()
    assert "<title>(your turn) LIVOL #" in html
    assert 'class="move-log"' in html and "Round 1" in html and "The first card is" in html
    assert "Your turn" in html
    # every card button announces the card by name, not by its code
    labels = re.findall(r'<button[^>]*class="move card[^"]*"[^>]*aria-label="([^"]+)"', html)
    assert labels and all(label.startswith("Play ") and not re.search(r"\b[RYGB]\d\b", label) for label in labels)
    other = Client()
    other.force_login(people[1 - seat])
    waiting = other.get(f"/matches/{livol_match.pk}/").content.decode()
    name = people[seat].username
    assert f"Waiting for {name}" in waiting and "(your turn)" not in waiting.split("</title>")[0]


def test_the_board_since_a_position_brings_the_positions_after_each_move(people, signed_in):
    # given a match watched since its deal, where the bots have moved four times since
    match = match_create(game="livol", seats=[SeatSpec(bot="random")] * 3, seed="frames", wake_bots=False)
    since = match.last_seq
    bots_advance(match_id=match.pk, budget=4)
    match.refresh_from_db()
    response = signed_in.get(f"/matches/{match.pk}/board/?since={since}")
    assert response.status_code == 200
    frames = response.context["frames"]
    assert len(frames) == response.content.decode().count('<template class="frame"') == 3
    assert [f["seq"] for f in frames] == sorted(f["seq"] for f in frames)
    assert all(since < f["seq"] < match.last_seq for f in frames)
    assert signed_in.get(f"/matches/{match.pk}/board/?since={match.last_seq}").status_code == 204


def test_a_refused_move_is_explained_in_words(livol_match, people):
    seat, _ = first_actor(livol_match)
    c = Client()
    c.force_login(people[1 - seat])
    response = c.post(f"/matches/{livol_match.pk}/move/", {"move": '{"type":"draw"}',
                                                            "expected_seq": livol_match.last_seq},
                      HTTP_HX_REQUEST="true")
    assert response.context["error"]["message"].startswith("It is not your turn.")


def test_replay_labels_and_log_are_in_words(people, signed_in):
    match = match_create(game="iota", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], seed="replay-words")
    bots_advance(match_id=match.pk, budget=100000)
    step = signed_in.get(f"/matches/{match.pk}/replay/?step=1")
    html = step.content.decode()
    assert re.search(r"(Play|Pass)", step.context["move_label"])
    assert not re.search(r"\b[RYGB][1-4][CSTX]\b", step.context["move_label"])
    assert 'class="move-log"' in html and f'href="/matches/{match.pk}/audit/"' in html
    assert 'data-replay-key="ArrowRight"' in html and 'data-replay-key="Home"' in html


# --------------------------------------------------------------------------
# Rules, favicon, the Content-Security-Policy
# --------------------------------------------------------------------------

@pytest.mark.parametrize("game,first", [("livol", "lv"), ("karuselis", "lv"), ("uno_flip", "lt"), ("iota", "ru"),
                                        ("cardavia", "uk")])
def test_each_game_has_a_rules_page_with_its_rulebooks_languages_first(client, game, first):
    page = client.get(f"/rules/{game}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'<input type="hidden" name="next" value="/rules/{game}/">' in html
    assert 'action="/i18n/setlang/"' in html
    languages = re.findall(r'name="language" value="(\w+)"[^>]*class="lang', html)
    assert languages[0] == first and sorted(languages) == ["en", "lt", "lv", "ru", "uk"]
    for section in ("aim", "cards", "end"):
        assert f'id="{section}"' in html
    assert client.get("/rules/chess/").status_code == 404


def test_the_rules_show_their_worked_examples(client):
    assert "Fool" in client.get("/rules/cardavia/").content.decode()
    assert "Dragoon" in client.get("/rules/cardavia/").content.decode()
    assert "(10 + 5) × 2 = 30" in client.get("/rules/iota/").content.decode()
    assert "a build of 9" in client.get("/rules/karuselis/").content.decode()
    assert "challenges" in client.get("/rules/livol/").content.decode()
    assert "Purple 6" in client.get("/rules/uno_flip/").content.decode()


def test_the_favicon_is_linked_and_answered(client):
    assert '<link rel="icon" href="/static/favicon.svg"' in client.get("/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"


INLINE = [re.compile(p, re.IGNORECASE) for p in (r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>",
                                         r"\son[a-z]+=", r"hx-on", r"javascript:", r"\bjs:")]


def test_no_page_has_an_inline_script_or_handler(people, signed_in, client):
    # given a page of every kind
    urls = ["/", "/rules/livol/", "/rules/iota/"]
    for game, seats in [("livol", 3), ("uno_flip", 3), ("karuselis", 2), ("iota", 2), ("cardavia", 4)]:
        match = match_create(game=game, seats=[SeatSpec(user=people[0])] + [SeatSpec(bot="random")] * (seats - 1),
                             seed=f"csp-{game}", wake_bots=False)
        bots_advance(match_id=match.pk, budget=5)
        urls += [f"/matches/{match.pk}/", f"/matches/{match.pk}/board/?since=0", f"/matches/{match.pk}/audit/"]
    done = match_create(game="livol", seats=[SeatSpec(bot="random")] * 2, seed="csp-replay", options={"target": 30})
    bots_advance(match_id=done.pk, budget=100000)
    urls.append(f"/matches/{done.pk}/replay/?step=4")
    for url in urls:
        response = signed_in.get(url)
        html = response.content.decode()
        # then no script runs from the page itself (only <script src> and json_script data)
        for pattern in INLINE:
            assert not pattern.search(html), f"{url}: {pattern.pattern} in {pattern.search(html).group(0)!r}"
        assert "'unsafe-inline'" not in response.get("Content-Security-Policy", "").split("script-src")[1].split(";")[0]
    assert '"allowEval": false' in signed_in.get("/").content.decode()
    assert client.get("/accounts/login/").status_code == 200


def test_older_rounds_of_the_log_load_their_lines_when_opened(people, signed_in):
    # given a match past its fourth round
    match = match_create(game="livol", seats=[SeatSpec(bot="random")] * 3, seed="long-log",
                         options={"target": 2000}, wake_bots=False)
    bots_advance(match_id=match.pk, budget=900)
    match.refresh_from_db()
    page = signed_in.get(f"/matches/{match.pk}/")
    rounds = page.context["log"]["rounds"]
    assert len(rounds) > 3
    # then the newest rounds are there line by line, the older ones with their table and a link
    assert all(r["lines"] for r in rounds[:3]) and all(r["lazy"] and not r["lines"] for r in rounds[3:])
    oldest = rounds[-1]
    assert oldest["summary"] and f'round={oldest["index"]}' in page.content.decode()
    lines = signed_in.get(f"/matches/{match.pk}/log/?round={oldest['index']}")
    assert lines.status_code == 200 and lines.content.decode().count("<li ") == oldest["count"] > 0
    assert signed_in.get(f"/matches/{match.pk}/log/?round=999").status_code == 404
    assert signed_in.get(f"/matches/{match.pk}/log/?round=x").status_code == 404


@pytest.mark.usefixtures("fresh_rate_counters")
def test_the_new_match_form_refuses_the_creators_own_name_and_a_name_twice(people):
    client = Client()
    client.force_login(people[0])
    for names in ("player0", "player1, player1"):
        response = client.post("/matches/new/", {"game": "livol", "seats": 3, "bot": "greedy", "people": names})
        assert response.status_code == 400, names
    assert not Match.objects.exists()
