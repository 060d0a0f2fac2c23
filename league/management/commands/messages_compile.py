"""``python manage.py messages_compile``: compile the translation catalogues into the .mo files Django reads,
with polib — pure Python, no GNU gettext needed (``make install`` and the production image run it).

Every folder of ``settings.LOCALE_PATHS``: the site's own catalogues (locale/<lang>/LC_MESSAGES/django.po, written
by makemessages) and the third-party words (locale/thirdparty/<lang>/LC_MESSAGES/django.po and djangojs.po, for
Django's admin, its JavaScript and django-axes)."""
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the translation catalogues (.po → .mo) of every LOCALE_PATHS folder with polib, pure Python."

    def handle(self, *args, **options):
        compiled = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                catalogue = polib.pofile(str(po_path))
                catalogue.save_as_mofile(str(po_path.with_suffix(".mo")))
                compiled += 1
                self.stdout.write(f"{po_path}: {catalogue.percent_translated()}% translated", ending="\n")
        self.stdout.write(f"{compiled} catalogue(s) compiled")
