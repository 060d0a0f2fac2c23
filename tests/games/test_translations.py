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


def test_makemessages_finds_no_string_missing_from_the_catalogues(tmp_path):
    """``makemessages`` over a copy of the site adds nothing: every marked string is in the catalogues.

    It runs in a copy of the whole tree: in the checkout itself makemessages writes to the checkout's
    ``locale/`` (it adopts every folder named ``locale`` it walks past), whatever LOCALE_PATHS says."""
    need(shutil.which("xgettext") is not None, "makemessages needs GNU gettext's xgettext")
    copy = tmp_path / "site"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", ".venv", "var", "staticfiles", "tests", "clients", "node_modules", "__pycache__", "*.mo", ".*cache*",
        ".hypothesis", ".env"))
    env = dict(os.environ, DEBUG="1", DJANGO_SETTINGS_MODULE="cardleague.settings", CARDLEAGUE_VAR=str(tmp_path / "var"))
    env.pop("CARDLEAGUE_LOCALE_DIR", None)
    args = ["makemessages", "-l", "lv", "-l", "lt", "-l", "ru", "-l", "uk", "--no-obsolete"]
    for ignored in (".venv/*", "var/*", "staticfiles/*", "tests/*", "clients/*"):
        args += ["--ignore", ignored]
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    for language in LANGUAGES:
        ours = {(e.msgctxt, e.msgid) for e in catalogue(language)}
        theirs = {(e.msgctxt, e.msgid) for e in polib.pofile(str(copy / "locale" / language / "LC_MESSAGES" /
                                                                  "django.po"))}
        missing = sorted(theirs - ours, key=str)
        assert missing == [], f"{language}: strings not in the catalogue: {missing[:5]}"


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


# -- the admin's third-party words: Django's own and django-axes's, in every language -------------------------

THIRD_PARTY = ROOT / "locale" / "thirdparty"
DOMAINS = ["django", "djangojs"]
ANY_PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdr]|%[sd]|\{[a-z_]*\}")
THIRD_PARTY_FILES = sorted(THIRD_PARTY.glob("*/LC_MESSAGES/*.po"))


def language_and_domain(path: Path) -> tuple[str, str]:
    return path.parents[1].name, path.stem


def plural_forms_for(language: str, domain: str) -> str:
    """Ours (as locale/) for Python; for JavaScript Django's own: its catalogue has one formula, the admin's."""
    if domain == "django":
        return PLURALS[language]
    import django

    admin = Path(django.__file__).parent / "contrib" / "admin" / "locale" / language / "LC_MESSAGES" / "djangojs.po"
    return re.sub(r"\s+", " ", polib.pofile(str(admin)).metadata["Plural-Forms"])


def installed_locale_dirs() -> list[Path]:
    """Django's own catalogues and every installed app's (the site's apps have none: theirs is locale/)."""
    import django
    from django.apps import apps

    return [Path(django.__file__).parent / "conf" / "locale"] + [
        Path(config.path) / "locale" for config in apps.get_app_configs() if (Path(config.path) / "locale").is_dir()]


def third_party_msgids(domain: str) -> dict[tuple, tuple]:
    """(context, msgid) → (where, plural) of every string Django and the installed apps mark: their English
    catalogue's, or (django-axes has none) the strings their code marks."""
    from tests.games.test_msgids import python_uses, template_uses

    found = {}
    for locale_dir in installed_locale_dirs():
        english = locale_dir / "en" / "LC_MESSAGES" / f"{domain}.po"
        if english.exists():
            for e in polib.pofile(str(english)):
                if e.msgid and not e.obsolete:
                    found.setdefault((e.msgctxt, e.msgid), (locale_dir.parent.name, e.msgid_plural or None))
        elif domain == "django":
            package = locale_dir.parent
            uses = [u for path in sorted(package.rglob("*.py")) if not {"migrations", "tests"} & set(path.parts)
                    for u in python_uses(path)]
            uses += [u for path in sorted(package.rglob("*.html")) for u in template_uses(path)]
            for u in uses:
                found.setdefault((u.context, u.msgid), (package.name, u.plural))
    return found


def translated_keys(language: str, domain: str, ours: bool = True) -> set[tuple]:
    """(context, msgid) of what a reader of ``language`` sees translated: Django's and the apps' catalogues,
    and (``ours``) the site's catalogue and the third-party one."""
    paths = [d / language / "LC_MESSAGES" / f"{domain}.po" for d in installed_locale_dirs()]
    if ours:
        paths += [ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po",
                  THIRD_PARTY / language / "LC_MESSAGES" / f"{domain}.po"]
    keys = set()
    for path in paths:
        if path.exists():
            keys |= {(e.msgctxt, e.msgid) for e in polib.pofile(str(path)) if e.translated() and not e.obsolete}
    return keys


def missing_third_party(language: str, domain: str) -> list[tuple]:
    """The third-party strings a reader of ``language`` would see in English."""
    translated = translated_keys(language, domain)
    return sorted(((where, ctx or "", msgid) for (ctx, msgid), (where, _plural) in third_party_msgids(domain).items()
                   if (ctx, msgid) not in translated), key=str)


@pytest.fixture(scope="module")
def third_party_compiled():
    """The third-party catalogues compiled, and Django's translation caches reloaded if they were not."""
    stale = [po for po in THIRD_PARTY.glob("*/LC_MESSAGES/*.po")
             if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime]
    if stale:
        from django.core.management import call_command
        from django.utils.translation import trans_real

        call_command("messages_compile", verbosity=0)
        trans_real._translations = {}
        trans_real._default = None


def test_the_third_party_catalogue_is_read_after_ours_and_before_the_apps():
    """LOCALE_PATHS: the site's own catalogue wins, the third-party one fills what Django and the apps lack."""
    from django.conf import settings

    assert [Path(p).resolve() for p in settings.LOCALE_PATHS] == [ROOT / "locale", THIRD_PARTY]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_no_admin_or_django_string_is_english_in_any_language(language, domain):
    """Every string Django, its admin and django-axes mark is translated by them, by us or by the
    third-party catalogue (locale/thirdparty/, which makemessages never rewrites)."""
    assert missing_third_party(language, domain) == []


@pytest.mark.parametrize("path", THIRD_PARTY_FILES, ids=lambda p: "/".join(language_and_domain(p)))
def test_the_third_party_catalogue_is_complete_keeps_placeholders_and_plurals(path):
    language, domain = language_and_domain(path)
    po = polib.pofile(str(path))
    plural_forms = plural_forms_for(language, domain)
    assert po.metadata["Plural-Forms"] == plural_forms
    assert po.untranslated_entries() == [] and po.fuzzy_entries() == []
    forms = int(re.search(r"nplurals=(\d)", plural_forms).group(1))
    wrong = []
    for entry in po:
        wanted = sorted(set(ANY_PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or ""))))
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if entry.msgid_plural and len(texts) != forms:
            wrong.append((entry.msgid[:50], f"needs {forms} plural forms"))
        for text in texts:
            got = sorted(set(ANY_PLACEHOLDER.findall(text)))
            if got != wanted and not (entry.msgid_plural and set(got) <= set(wanted)):
                wrong.append((entry.msgid[:50], text[:50]))
    assert wrong == []


@pytest.mark.parametrize("path", THIRD_PARTY_FILES, ids=lambda p: "/".join(language_and_domain(p)))
def test_the_third_party_catalogue_overrides_an_apps_translation_only_saying_why(path):
    """An entry the app translates too replaces the app's words: only with a comment saying why; and every
    entry is a string Django or an app marks."""
    language, domain = language_and_domain(path)
    needed = third_party_msgids(domain)
    theirs = translated_keys(language, domain, ours=False)
    unexplained = [e.msgid for e in polib.pofile(str(path))
                   if (e.msgctxt, e.msgid) not in needed
                   or ((e.msgctxt, e.msgid) in theirs and "overrides:" not in (e.tcomment or ""))]
    assert unexplained == []


ENGLISH_IN_THE_ADMIN = {
    # the index: django-axes's section and Django's own page chrome
    "/admin/": ["Access attempts", "Access failures", "Access logs", "Skip to main content",
                "Toggle theme (current theme: auto)"],
    # django-axes's list of attempts: its columns, filter, action and Django's "Show counts"
    "/admin/axes/accessattempt/": ["Attempt Time", "IP Address", "Locked Out", "Clean up expired attempts",
                                   "Show counts", "Failed Logins"],
}


@pytest.fixture
def superuser_client(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser(username="root", password="pw-root-12345",
                                                                  email="root@example.org"))
    return client


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_admin_index_and_the_lockout_section_speak_the_readers_language(language, superuser_client,
                                                                             third_party_compiled):
    # given a superuser reading the admin in one of the clubs' languages
    for url, english in ENGLISH_IN_THE_ADMIN.items():
        # when they open the admin's index and django-axes's list of access attempts
        response = superuser_client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        page = response.content.decode()
        # then none of the third-party labels is left in English
        assert response.status_code == 200 and f'<html lang="{language}"' in page
        assert [label for label in english if label in page] == [], url


@pytest.mark.parametrize("language", ["lt", "uk"])
def test_djangos_time_units_are_words_of_the_language(language, third_party_compiled):
    """Django's ``timesince`` (the admin's "who the round waits for … (5 minutes)") has its units."""
    import datetime

    from django.utils import timezone
    from django.utils.timesince import timesince

    # given a moment five minutes ago
    then = timezone.now() - datetime.timedelta(minutes=5, seconds=3)
    # when Django says how long ago it was
    with translation.override(language):
        words = timesince(then)
    # then the unit is the language's
    assert words.startswith("5") and "minute" not in words


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_leagues_tie_break_help_text_is_in_the_readers_language(language, superuser_client):
    """The League form's help for the tie-break order is formatted per request, in the reader's language."""
    # given the English help and its translation in this language
    english = "Comma-separated, first decides first"
    translated = next(e.msgstr for e in catalogue(language) if e.msgid.startswith(english))
    # when a superuser opens the form of a new league
    page = superuser_client.get("/admin/league/league/add/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    # then the help says it in their language, the keys as they are
    assert translated.split("%(keys)s")[0].strip() in page and english not in page
    assert "match_points, game_points, head_to_head" in page


def test_messages_compile_compiles_the_third_party_catalogues():
    from django.core.management import call_command

    # when the catalogues are compiled
    call_command("messages_compile", verbosity=0)
    # then every third-party catalogue has its fresh .mo beside it
    assert THIRD_PARTY_FILES and all(
        path.with_suffix(".mo").exists() and path.with_suffix(".mo").stat().st_mtime >= path.stat().st_mtime
        for path in THIRD_PARTY_FILES)
