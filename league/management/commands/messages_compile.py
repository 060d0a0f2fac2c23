"""``python manage.py messages_compile``: compile the translation catalogues (locale/*/LC_MESSAGES/django.po)
into the .mo files Django reads, with polib — pure Python, no GNU gettext needed (``make install`` and the
production image run it)."""
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the translation catalogues (.po → .mo) with polib, pure Python."

    def handle(self, *args, **options):
        compiled = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                catalogue = polib.pofile(str(po_path))
                catalogue.save_as_mofile(str(po_path.with_suffix(".mo")))
                compiled += 1
                self.stdout.write(f"{po_path}: {catalogue.percent_translated()}% translated", ending="\n")
        self.stdout.write(f"{compiled} catalogue(s) compiled")
