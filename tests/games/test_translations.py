"""The site in the clubs' languages: every catalogue complete, placeholders kept, the plural forms of
each language, no string missing from the catalogues, the games' own words from their rulebooks, and
the language chosen by the browser, the switcher or the person's profile."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.utils import translation

from tests.conftest import need

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["lv", "lt", "ru", "uk"]
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{[a-z_]+\}")
PLURALS = {
    "lv": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);",
    "lt": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "uk": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    po = catalogue(language)
    assert po.untranslated_entries() == [] and po.fuzzy_entries() == []
    assert not [e.msgid for e in po if e.msgid_plural and not all(e.msgstr_plural.values())]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_its_placeholders(language):
    wrong = []
    for entry in catalogue(language):
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            # a plural form may leave out the number (Latvian's "one" is often a word), never add one
            got = sorted(PLACEHOLDER.findall(text))
            if got != wanted and not (entry.msgid_plural and set(got) <= set(wanted + PLACEHOLDER.findall(
                    entry.msgid_plural))):
                wrong.append((entry.msgid[:60], text[:60]))
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_its_own_plural_forms(language):
    assert catalogue(language).metadata["Plural-Forms"] == PLURALS[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_keeps_a_glossary_of_the_games_words(language):
    text = (ROOT / "locale" / language / "GLOSSARY.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|") and "---" not in line]
    assert len(rows) > 60
    assert "seeds/" in text


def test_no_string_of_the_site_is_missing_from_the_catalogues(tmp_path):
    """``makemessages`` over a copy of the catalogues adds nothing: every marked string is in them."""
    need(shutil.which("xgettext") is not None, "makemessages needs GNU gettext's xgettext")
    copy = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", copy)
    env = dict(os.environ, CARDLEAGUE_LOCALE_DIR=str(copy), DEBUG="1", DJANGO_SETTINGS_MODULE="league.settings",
               CARDLEAGUE_VAR=str(tmp_path / "var"))
    args = ["makemessages", "-l", "lv", "-l", "lt", "-l", "ru", "-l", "uk", "--no-obsolete"]
    for ignored in (".venv/*", "var/*", "staticfiles/*", "tests/*", "clients/*"):
        args += ["--ignore", ignored]
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    for language in LANGUAGES:
        ours = {(e.msgctxt, e.msgid) for e in catalogue(language)}
        theirs = {(e.msgctxt, e.msgid) for e in polib.pofile(str(copy / language / "LC_MESSAGES" / "django.po"))}
        assert theirs - ours == set(), f"{language}: strings not in the catalogue: {sorted(theirs - ours)[:5]}"


# -- the games' own words ---------------------------------------------------------------------------------

def test_the_latvian_site_says_slota_for_the_broom_as_the_karuselis_rulebook_does():
    from games.words import card_name

    with translation.override("lv"):
        assert "slot" in card_name("karuselis", "BR").lower()


def test_the_ukrainian_site_names_cardavias_cards_as_its_rulebook_does():
    from games.words import card_name

    with translation.override("uk"):
        assert card_name("cardavia", "CUCKOO") == "Зозуля"
        assert card_name("cardavia", "CAT") == "Кіт"


# -- choosing the language ------------------------------------------------------------------------------

def test_the_browsers_language_comes_first(db):
    response = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9,en;q=0.5")
    assert response.status_code == 200 and '<html lang="ru">' in response.content.decode()


def test_the_switcher_remembers_the_choice_in_the_cookie_and_the_profile(django_user_model):
    from league.models import PlayerProfile

    user = django_user_model.objects.create_user(username="liga", password="pw-liga-12345")
    client = Client()
    client.force_login(user)
    response = client.post("/i18n/setlang/", {"language": "lv", "next": "/"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "lv"
    assert PlayerProfile.objects.get(user=user).language == "lv"
    # on another device (no cookie), the person's choice wins over the browser's
    other = Client()
    other.force_login(user)
    page = other.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<html lang="lv">' in page


def test_urls_stay_the_same_in_every_language(db):
    for language in LANGUAGES:
        assert Client().get("/leagues/", HTTP_ACCEPT_LANGUAGE=language).status_code == 200
