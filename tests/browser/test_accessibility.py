"""Accessibility, measured with axe-core (WCAG 2.1 A and AA, and axe's best practices) in Debian's
Chromium: every page people use — signed out, signed in, the five boards with a move to make, a
waiting invitation, replay, audit, the rules pages and the league pages — at a desktop's width and
a 390-px phone's, with no serious or critical violation.

axe-core comes bundled with ``axe-playwright-python`` (the test extra); it is injected by the test
driver, so the pages' Content-Security-Policy stays as it is.
"""
from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Match
from games.services import SeatSpec, match_create
from league.models import League, PlayerProfile, Tournament

PASSWORD = "cardleague-demo"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
#: The rule sets the usability review measured with (axe's experimental rules too: the one that checks a
#: control's name contains its visible text, ``label-content-name-mismatch``, is one of them).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice", "experimental"]
#: Every id an attribute refers to, that is missing from the page (axe passes a reference list
#: with one good id; people's screen readers then read nothing for the rest).
BROKEN_REFERENCES = """() => {
  const out = [];
  for (const attr of ["aria-describedby", "aria-labelledby", "aria-controls", "aria-owns", "for"]) {
    for (const el of document.querySelectorAll(`[${attr}]`)) {
      for (const id of el.getAttribute(attr).split(/\\s+/).filter(Boolean)) {
        if (!document.getElementById(id)) out.push(`${el.tagName.toLowerCase()}[${attr}=${id}]`);
      }
    }
  }
  return out;
}"""
#: Seats of each game's match against bots (anna holds seat 1: with seat 0 dealing, she acts first).
SEATS = {"livol": 3, "uno_flip": 3, "karuselis": 2, "iota": 2, "cardavia": 3}


@pytest.fixture
def pages(transactional_db, django_user_model):
    """The demo club (a league, a finished bot Swiss, a tournament taking entries), a match of every game
    where anna is at the table, an invitation waiting for anna, and a finished match to replay."""
    call_command("demo_data", stdout=open("/dev/null", "w"))
    users = {u.username: u for u in django_user_model.objects.all()}
    anna, janis = users["anna"], users["janis"]
    boards = {}
    for game, seats in SEATS.items():
        specs = [SeatSpec(bot="greedy")] * seats
        specs[1] = SeatSpec(user=anna)
        boards[game] = match_create(game=game, seats=specs, seed=f"axe-{game}")
    invitation = match_create(game="livol", seats=[SeatSpec(user=janis), SeatSpec(user=anna, invite=True),
                                                   SeatSpec(bot="greedy")], created_by=janis,
                              clock={"move_days": 1})
    finished = Match.objects.filter(status=Match.Status.FINISHED).order_by("pk").first()
    league = League.objects.order_by("pk").first()
    tournament = Tournament.objects.filter(status=Tournament.Status.FINISHED).order_by("pk").first()
    player = PlayerProfile.objects.filter(entries__tournament=tournament).order_by("pk").first()
    public = {"login": "/accounts/login/", "signup": "/accounts/signup/", "leagues": "/leagues/",
              "league": f"/leagues/{league.pk}/", "club": "/clubs/riga/",
              "tournament": f"/tournaments/{tournament.pk}/", "player": f"/players/{player.pk}/",
              "ratings": "/ratings/livol/",
              **{f"rules-{g}": f"/rules/{g}/" for g in SEATS}}
    signed_in = {"home": "/", "settings": "/accounts/settings/", "invitation": f"/matches/{invitation.pk}/",
                 "replay": f"/matches/{finished.pk}/replay/", "audit": f"/matches/{finished.pk}/audit/",
                 **{f"play-{g}": f"/matches/{m.pk}/" for g, m in boards.items()}}
    return {"public": public, "signed_in": signed_in}


def _serious(results: dict) -> list[str]:
    """Each serious or critical violation as one line: the rule, its impact and the nodes it hit."""
    out = []
    for violation in results.get("violations", []):
        if violation.get("impact") not in ("serious", "critical"):
            continue
        targets = [" ".join(map(str, node.get("target", []))) for node in violation.get("nodes", [])]
        out.append(f"{violation['id']} ({violation['impact']}, {len(targets)} nodes): {'; '.join(targets[:6])}")
    return out


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_people_use_has_no_serious_or_critical_axe_violation_nor_a_broken_reference(live_server, browser, pages):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    page = browser.page
    found: dict[str, list[str]] = {}

    def check(name: str, path: str) -> None:
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            # given a page people use, at this width
            page.set_viewport_size(viewport)
            page.goto(live_server.url + path)
            page.wait_for_load_state("load")
            # when axe-core checks it against WCAG 2.1 A/AA and its best practices
            results = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS},
                                             "resultTypes": ["violations"]}).response
            problems = _serious(results)
            broken = page.evaluate(BROKEN_REFERENCES)
            if broken:
                problems.append(f"references to missing ids: {', '.join(broken[:6])}")
            if problems:
                found[f"{name} ({size}) {path}"] = problems

    for name, path in pages["public"].items():
        check(name, path)
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "anna")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    for name, path in pages["signed_in"].items():
        check(name, path)
    # then none has a serious or critical violation
    assert found == {}, "axe-core found:\n" + "\n".join(f"{page}: {p}" for page, ps in found.items() for p in ps)
