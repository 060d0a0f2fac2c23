"""The rules pages tell every rule of their game's spec, each at an anchor a refused move can link to.

The specs are ``../shared/rules/<game>.md`` (rule ids L1…, F1…, K1…, I1…, C1…), vendored verbatim in
``tests/fixtures/rules/`` so that these tests run in any checkout; where the originals exist beside the
checkout, the copies must still equal them. A rule is covered when its paragraph (or list item) carries
``id="rule-<id>"`` and names the id in ``data-rules``."""
from __future__ import annotations

import json
import re
from collections import Counter
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from engine import registry
from games.services import SeatSpec, match_create

GAMES = ["livol", "uno_flip", "karuselis", "iota", "cardavia"]
VENDORED = Path(__file__).resolve().parents[2] / "fixtures" / "rules"
ORIGINALS = Path(settings.BASE_DIR).resolve().parent / "shared" / "rules"
RULE_LINE = re.compile(r"^\s*- ([A-Z]\d+)\.", re.MULTILINE)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def spec_rules(game: str) -> list[str]:
    """The rule ids of a game's (vendored) spec, in order: "- L6. …" lines."""
    return RULE_LINE.findall((VENDORED / f"{game}.md").read_text(encoding="utf-8"))


class Anchors(HTMLParser):
    """Every ``id="rule-…"`` of a page with the ``data-rules`` of its element and of its ancestors, and
    every id named in a ``data-rules``."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, set[str]]] = []
        self.anchors: Counter = Counter()
        self.covered_at: dict[str, set[str]] = {}
        self.named: Counter = Counter()
        self.texts: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        told = set((attrs.get("data-rules") or "").split())
        self.named.update(told)
        around = set().union(told, *(rules for _tag, rules in self.stack))
        anchor = attrs.get("id") or ""
        if anchor.startswith("rule-"):
            self.anchors[anchor[5:]] += 1
            self.covered_at[anchor[5:]] = around
        if tag not in VOID:
            self.stack.append((tag, told))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        for _tag, rules in self.stack:
            for rule in rules:
                self.texts.setdefault(rule, []).append(data)


def anchors_of(html: str) -> Anchors:
    parser = Anchors()
    parser.feed(html)
    return parser


def rules_page(game: str, language: str = "en") -> str:
    response = Client().get(f"/rules/{game}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}"' in html
    return html


def told(html: str, rule: str) -> str:
    """The words of the element(s) that tell ``rule`` (its ``data-rules``), spaces collapsed."""
    return re.sub(r"\s+", " ", unescape(" ".join(anchors_of(html).texts.get(rule, [])))).strip()


# --------------------------------------------------------------------------
# The specs and their vendored copies
# --------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_vendored_spec_is_the_spec_beside_the_checkout(game):
    # given the vendored copy of the game's spec
    copy = VENDORED / f"{game}.md"
    # then it numbers its rules 1, 2, 3… without a gap (so the parse below finds them all)
    ids = spec_rules(game)
    assert ids and ids == [f"{ids[0][0]}{n}" for n in range(1, len(ids) + 1)], ids
    # and, where the spec itself lies next to the checkout, the copy is still the spec
    original = ORIGINALS / f"{game}.md"
    if original.exists():
        assert copy.read_bytes() == original.read_bytes(), \
            f"{copy} differs from {original}: copy the spec again (tests/fixtures/rules/README.md)"


# --------------------------------------------------------------------------
# Every rule on its page
# --------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "lv"])
@pytest.mark.parametrize("game", GAMES)
def test_every_rule_of_the_spec_is_told_on_the_games_rules_page(db, game, language):
    # given the game's spec and its rules page in the language
    rules = spec_rules(game)
    page = anchors_of(rules_page(game, language))
    # then each rule id is the anchor of exactly one element, and that element (or one around it) tells it
    missing = [rule for rule in rules if page.anchors[rule] == 0]
    assert not missing, f"the {game} page ({language}) has no paragraph for {missing}"
    assert all(page.anchors[rule] == 1 for rule in rules), page.anchors
    assert all(rule in page.covered_at[rule] for rule in rules), \
        {rule: page.covered_at[rule] for rule in rules if rule not in page.covered_at[rule]}
    # and the page names no rule that the spec does not have (a stale or mistyped id)
    assert set(page.anchors) <= set(rules) and set(page.named) <= set(rules), \
        (set(page.anchors) | set(page.named)) - set(rules)


# --------------------------------------------------------------------------
# Cardavia as its rulebook says it
# --------------------------------------------------------------------------

def test_cardavias_page_says_a_matador_from_the_stock_acts_on_the_asker_not_the_dealer(db):
    # given Cardavia's rules page
    html = rules_page("cardavia")
    dealer = told(html, "C7")
    # then a request passing the dealer's Horse or House goes to the stock as well
    assert "Horse or House" in dealer and "stock" in dealer
    # and a matador drawn from the stock acts on the player who asked, not on the dealer
    assert "on the player who asked" in dealer
    assert "acts on the dealer" not in html
    # and an ordinary card replaces the asker's card, which goes under the stock
    assert "under the stock" in dealer
    # and the matadors are not all said to refuse: the Cuckoo stops the deal
    assert "they refuse a swap when their holder is asked" not in html


def test_cardavias_page_has_the_chopped_out_player_and_the_skipped_deal(db):
    # given Cardavia's rules page
    html = rules_page("cardavia")
    # then a player brought to zero lives by a Dragoon or a Cat leaves at once, out of the settlement (C8)
    chopped = told(html, "C8")
    assert "Dragoon" in chopped and "Cat" in chopped and "at once" in chopped and "settlement" in chopped
    # and a deal with fewer than two players is skipped, nobody losing a life (C11)
    resting = told(html, "C11")
    assert "fewer than two" in resting and "skipped" in resting and "without any loss of life" in resting
    # and the player count names the original rulebook's four
    assert "(4 in the original rulebook)" in told(html, "C1")


# --------------------------------------------------------------------------
# LIVOL's and UNO FLIP's card names are their own
# --------------------------------------------------------------------------

def test_the_livol_and_uno_flip_pages_name_their_cards_in_their_own_context(db, monkeypatch):
    # given a catalogue that tells the two games' card names apart by their context
    from django.utils.translation import trans_real

    real = trans_real.pgettext

    def stub(context, message):
        if context in ("LIVOL card", "UNO FLIP card"):
            return f"[{context}] {message}"
        return real(context, message)

    monkeypatch.setattr(translation._trans, "pgettext", stub)
    # when each page is read
    livol, uno_flip = rules_page("livol"), rules_page("uno_flip")
    # then every card heading of the LIVOL page is LIVOL's word, every one of the UNO FLIP page UNO FLIP's
    for html, context in ((livol, "LIVOL card"), (uno_flip, "UNO FLIP card")):
        headings = [re.sub(r"<[^>]+>", "", dt).strip() for dt in re.findall(r"<dt[^>]*>(.*?)</dt>", html, re.DOTALL)]
        assert headings and all(h.startswith(f"[{context}] ") for h in headings), headings
        for name in ("Skip", "Reverse", "Wild"):
            assert f"[{context}] {name}" in headings, name


# --------------------------------------------------------------------------
# A refused move links to its rule
# --------------------------------------------------------------------------

def _red_deck() -> list[str]:
    """LIVOL for two: the person (seat 1, first to play) holds reds and the starter is red."""
    front = ["B0", "G0", "Y0", "Bskip", "Gskip", "Yskip", "Brev"] + ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
    front += ["R1", "R8", "R9", "R8", "R9", "R0"]
    rest = Counter(registry.get("livol").cards())
    rest.subtract(front)
    return front + sorted(rest.elements())


@pytest.mark.parametrize("language", ["en", "lv"])
def test_a_refused_moves_notice_links_to_its_rules_paragraph(people, language):
    # given anna's turn at LIVOL, holding a red card on a red starter
    anna = people[1]
    match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(user=anna)], deck=_red_deck(),
                         seed="rule-link", wake_bots=False)
    client = Client()
    client.force_login(anna)
    # when she tries to draw (refused: she holds a card she can play, rule L6)
    board = client.post(f"/matches/{match.pk}/move/?seat=1", {"move": json.dumps({"type": "draw"}),
                                                                "expected_seq": match.last_seq},
                        HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    notice = re.search(r'<p class="error"[^>]*>(.*?)</p>', board, re.DOTALL)
    assert notice is not None, board
    # then the notice's rule id is a link to the paragraph of L6 on LIVOL's rules page
    assert '<a href="/rules/livol/#rule-L6">L6</a>' in notice.group(1)
    assert 'id="rule-L6"' in rules_page("livol", language)
    # and it reads as the refusal's sentence with "(rule L6)", in the language, as the API says it
    from games.words import illegal_move_message

    with translation.override(language):
        sentence = str(illegal_move_message("playable_card_held", "L6"))
    assert re.sub(r"<[^>]+>", "", unescape(notice.group(1))).strip() == sentence
    assert sentence.endswith("L6)")
