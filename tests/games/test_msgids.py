"""One meaning per msgid, and plural forms wherever a number meets a noun.

A translator translates a msgid once: if the same English word means two things (an entrant's seeding
number and a match's secret seed; LIVOL's "Skip" card and UNO FLIP's), one of the two places gets the
other's words. So a msgid without a context may not be used in the own files of two different games,
and the words known to mean different things in different parts of the site always carry a context.
And a number beside a counted noun takes the language's plural forms (ngettext or
``{% blocktranslate count %}``), never one fixed form.

Run as a script (``.venv/bin/python -m tests.games.test_msgids``) it prints every msgid used in more
than one file, with where and how each language translates it, for a review by hand.
"""
from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["lv", "lt", "ru", "uk"]
#: The registered games (a game's own files are named by its name: its words, board, cards, rules page, script).
GAMES = tuple(registry.names())
SOURCES = [("games", "*.py"), ("league", "*.py"), ("templates", "*.html"), ("templates", "*.txt"),
           ("static", "*.js")]
SINGULAR, PLURAL = {"gettext", "gettext_lazy", "gettext_noop", "_"}, {"ngettext", "ngettext_lazy"}
CONTEXT, CONTEXT_PLURAL = {"pgettext", "pgettext_lazy"}, {"npgettext", "npgettext_lazy"}


@dataclass(frozen=True)
class Use:
    """One marked string in the source: its context, msgid and plural msgid, and where it is."""
    context: str | None
    msgid: str
    plural: str | None
    path: str
    line: int


def _use(name: str, args: list, path: str, line: int) -> Use | None:
    """The Use of a call ``name(*args)``, args being the literal strings (None where not a literal)."""
    arity = {**dict.fromkeys(SINGULAR, 1), **dict.fromkeys(PLURAL, 2), **dict.fromkeys(CONTEXT, 2),
             **dict.fromkeys(CONTEXT_PLURAL, 3)}[name]
    if len(args) < arity or not all(isinstance(a, str) for a in args[:arity]):
        return None
    if name in CONTEXT or name in CONTEXT_PLURAL:
        return Use(args[0], args[1], args[2] if name in CONTEXT_PLURAL else None, path, line)
    return Use(None, args[0], args[1] if name in PLURAL else None, path, line)


def _relative(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def python_uses(path: Path) -> list[Use]:
    """The marked strings of a Python file (the gettext family, called by name or as ``_``)."""
    uses, relative = [], _relative(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if name not in SINGULAR | PLURAL | CONTEXT | CONTEXT_PLURAL:
            continue
        args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
        use = _use(name, args, relative, node.lineno)
        if use:
            uses.append(use)
    return uses


def template_uses(path: Path) -> list[Use]:
    """The marked strings of a template, as ``makemessages`` sees them (Django's ``templatize``)."""
    from django.utils.translation.template import templatize

    code, relative = templatize(path.read_text(encoding="utf-8"), origin=str(path)), _relative(path)
    return _calls_in_code(code, relative)


_JS_CALL = re.compile(r"""\b(n?p?gettext)\(\s*((?:"[^"\\]*"|'[^'\\]*')(?:\s*,\s*(?:"[^"\\]*"|'[^'\\]*'))*)""")
_JS_STRING = re.compile(r""""([^"\\]*)"|'([^'\\]*)'""")


def script_uses(path: Path) -> list[Use]:
    """The marked strings of a JavaScript file (``gettext("…")`` of Django's JavaScript catalogue)."""
    code, uses = path.read_text(encoding="utf-8"), []
    for call in _JS_CALL.finditer(code):
        args = [a or b for a, b in _JS_STRING.findall(call.group(2))]
        use = _use(call.group(1), args, str(path.relative_to(ROOT)), code.count("\n", 0, call.start()) + 1)
        if use:
            uses.append(use)
    return uses


def _calls_in_code(code: str, relative: str) -> list[Use]:
    """Calls of the gettext family found token by token (the code around them need not be Python)."""
    names = SINGULAR | PLURAL | CONTEXT | CONTEXT_PLURAL
    code = "\n".join(line.lstrip() for line in code.splitlines())  # the indentation is the template's
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(code).readline)
              if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]
    uses = []
    for i, token in enumerate(tokens[:-1]):
        if token.type != tokenize.NAME or token.string not in names or tokens[i + 1].string != "(":
            continue
        depth, args, current = 0, [], []
        for t in tokens[i + 1:]:
            if t.string in "([{" and t.type == tokenize.OP:
                depth += 1
                if depth == 1:
                    continue
            if t.string in ")]}" and t.type == tokenize.OP:
                depth -= 1
                if depth == 0:
                    args.append(current)
                    break
            if depth == 1 and t.string == "," and t.type == tokenize.OP:
                args.append(current)
                current = []
                continue
            current.append(t)
        values = []
        for arg in args:
            if arg and all(t.type == tokenize.STRING for t in arg):
                values.append("".join(ast.literal_eval(t.string) for t in arg))
            else:
                values.append(None)
        use = _use(token.string, values, relative, token.start[0])
        if use:
            uses.append(use)
    return uses


@functools.cache
def source_uses() -> tuple[Use, ...]:
    """Every marked string of the site's source (not the tests)."""
    import django
    from django.apps import apps

    if not apps.ready:
        django.setup()
    uses = []
    for folder, pattern in SOURCES:
        for path in sorted((ROOT / folder).rglob(pattern)):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            reader = {".py": python_uses, ".js": script_uses}.get(path.suffix, template_uses)
            uses += reader(path)
    return tuple(uses)


def game_of(path: str) -> str | None:
    """The game whose own file this is: its words, board, cards, rules page and script, else None."""
    for game in GAMES:
        if (path == f"games/words/{game}.py" or path == f"templates/games/play/{game}.html"
                or path.startswith(f"templates/games/cards/{game}") or path == f"templates/rules/{game}.html"
                or path.startswith(f"static/games/{game}.")):
            return game
    return None


def report() -> None:
    """Every msgid used in more than one file, with its places and translations: to review by hand."""
    catalogues = {lang: {(e.msgctxt, e.msgid): e for e in polib.pofile(
        str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))} for lang in LANGUAGES}
    places = defaultdict(list)
    for use in source_uses():
        places[(use.context, use.msgid)].append(use)
    for (context, msgid), uses in sorted(places.items(), key=lambda kv: (-len({u.path for u in kv[1]}), kv[0][1])):
        if len({u.path for u in uses}) < 2:
            continue
        games = sorted({game_of(u.path) or "-" for u in uses})
        print(f"\n{msgid!r}" + (f" [{context}]" if context else "") + f"  games: {','.join(games)}")
        for use in uses:
            print(f"    {use.path}:{use.line}")
        for lang in LANGUAGES:
            entry = catalogues[lang].get((context, msgid))
            text = (entry.msgstr or " | ".join(entry.msgstr_plural.values())) if entry else "?"
            print(f"    {lang}: {text}")


# -- one meaning per msgid ---------------------------------------------------------------------------------

#: Words the own files of several games share because they mean the same in every game (and every
#: language says them the same way for every game). Anything else used by two games needs a context.
SAME_IN_EVERY_GAME = {
    # the section headings every rules page has: they name no game's term
    "The aim": "a rules page's heading",
    "The cards": "a rules page's heading",
    "A turn": "a rules page's heading",
    "Scoring": "a rules page's heading",
    "The end": "a rules page's heading",
    "Example": "the label of a worked example on a rules page",
    "Special cards": "LIVOL's and UNO FLIP's heading over their action cards; names no card",
    # the board's frame around the seats: the same in every game
    "Players": "the board's list of seats",
    "Table": "the board's table (the middle of it)",
    "you": "the tag on the reader's own seat",
    "to play": "the tag on the seat whose turn it is",
    "dealer": "the tag on the dealer's seat: every rulebook, in every language, says dealer the same way",
    "Your hand": "the heading over the reader's own cards",
    "no cards": "a seat (or a shown hand) without cards",
    "%(n)s card": "a seat's count of cards",
    "%(n)s point": "a seat's score",
    "Round %(round)s": "the round of the match now on the board (not a tournament's round: that is 'Round %(n)s')",
    "To %(target)s point": "the target of the match, in points",
    # LIVOL and UNO FLIP: the colour in force and the direction of play
    "Colour": "the colour in force",
    "to be named": "the colour in force, not named yet",
    "%(card)s: choose a colour": "the colour picker of a Wild",
    "clockwise": "the direction of play",
    "counterclockwise": "the direction of play",
}

#: Words that mean different things in different parts of the site: never without a context.
TWO_MEANINGS = {
    "seed": "a match's secret random seed (the audit) and an entrant's seeding number (a tournament)",
    "round": "a round of a match (a deal) and a round of a tournament",
    "rounds": "the rounds of a match and the rounds of a tournament",
}


def test_no_msgid_without_a_context_is_used_by_two_games():
    """LIVOL's "Skip" is not UNO FLIP's: each game's words get the game's own context."""
    # given every marked string of the site and the game whose own file uses it
    games = defaultdict(set)
    for use in source_uses():
        if use.context is None and game_of(use.path):
            games[use.msgid].add(game_of(use.path))
    # then a msgid without a context belongs to one game, or means the same in every game
    shared = {msgid: sorted(g) for msgid, g in games.items() if len(g) > 1 and msgid not in SAME_IN_EVERY_GAME}
    assert shared == {}


def test_the_allow_list_of_shared_words_lists_only_words_in_use():
    shared = {use.msgid for use in source_uses() if use.context is None and game_of(use.path)}
    assert set(SAME_IN_EVERY_GAME) - shared == set()


def test_a_word_with_two_meanings_always_carries_a_context():
    """"seed", "round": the match's secret or an entrant's seeding number; a deal or a tournament's round."""
    bare = sorted(f"{use.path}:{use.line} {use.msgid!r}" for use in source_uses()
                  if use.context is None and use.msgid.lower() in TWO_MEANINGS)
    assert bare == []


def test_the_match_admin_and_the_entrant_say_seed_each_in_its_own_words(tmp_path, settings):
    """The match's secret seed and an entrant's seeding number are two msgids: a catalogue translates them
    apart (a stub catalogue here: the clubs' catalogues get their words from the translators)."""
    from django.contrib import admin
    from django.contrib.admin.utils import label_for_field
    from django.utils import translation

    from games.models import Match
    from league.models import Entrant

    # given a catalogue that says the two "seed"s in two ways
    stub = polib.POFile()
    stub.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "lv",
                     "Plural-Forms": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);"}
    stub.append(polib.POEntry(msgctxt="match secret", msgid="seed", msgstr="SECRET-SEED"))
    stub.append(polib.POEntry(msgctxt="seeding", msgid="seed", msgstr="SEEDING-NUMBER"))
    (tmp_path / "lv" / "LC_MESSAGES").mkdir(parents=True)
    stub.save_as_mofile(str(tmp_path / "lv" / "LC_MESSAGES" / "django.mo"))
    settings.LOCALE_PATHS = [tmp_path, *settings.LOCALE_PATHS]
    # when the admin labels the match's revealed seed and the entrant's seed
    with translation.override("lv"):
        match_label = str(label_for_field("revealed_seed", Match, admin.site._registry[Match]))
        entrant_label = str(label_for_field("seed", Entrant, admin.site._registry[Entrant]))
    # then each reads its own words
    assert (match_label, entrant_label) == ("SECRET-SEED", "SEEDING-NUMBER")


# -- plural forms where a number meets a noun -----------------------------------------------------------------

COUNTED = ["points", "cards", "lives", "seats", "rounds", "matches", "entrants", "events", "moves", "minutes", "seconds", "days", "hours", "weeks", "months", "years", "tables", "players", "bots", "tokens", "turns", "timeouts", "games", "people", "wins", "losses", "draws", "byes", "forfeits", "deals", "tricks", "lines", "attempts", "members", "invitations", "tournaments", "leagues", "clubs", "entries", "results", "steps"]
#: Placeholders that hold a name, never a number: "%(player)s deals", "%(player)s wins" are verbs.
NAMES = "player|players|name|names|who|owner|user|side|other|tournament|game|club|card"
NUMBER_AND_NOUN = re.compile(r"%\((?!(?:" + NAMES + r")\))\w+\)[sd]\s+(?:of\s+%\(\w+\)[sd]\s+)?(?:"
                             + "|".join(COUNTED) + r")\b")
#: A number beside a plural noun that is not a count.
NOT_A_COUNT = {
    "two seats: %(w)s/%(d)s/%(l)s points": "three values (a win, a draw, a loss), possibly fractional",
}


def _counted_without_plural(entries) -> list[str]:
    return sorted({msgid for msgid, plural in entries
                   if not plural and NUMBER_AND_NOUN.search(msgid) and msgid not in NOT_A_COUNT})


def test_a_number_beside_a_counted_noun_takes_the_plural_forms_in_the_source():
    """"%(n)s entrants", "to %(target)d points": ngettext / {% blocktranslate count %}, never one fixed form."""
    assert _counted_without_plural((use.msgid, use.plural) for use in source_uses()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_number_beside_a_counted_noun_takes_the_plural_forms_in_the_catalogues(language):
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    assert _counted_without_plural((e.msgid, e.msgid_plural) for e in po if not e.obsolete) == []


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")
    report()
