"""``python manage.py demo_data``: demo people and a bot match to replay; prints the logins.

Safe to run again: it only adds what is missing.
"""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from league.demo import demo_extras

DEMO_PASSWORD = "cardleague-demo"
PEOPLE = [("organiser", True), ("anna", False), ("janis", False), ("ruta", False)]


class Command(BaseCommand):
    help = "Create demo people (printed logins) and a finished bot match to replay."

    def handle(self, *args, **options):
        User = get_user_model()
        with transaction.atomic():
            for username, staff in PEOPLE:
                user, created = User.objects.get_or_create(username=username)
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.is_staff = user.is_superuser = staff
                    user.save()
        notes = demo_extras()
        self.stdout.write("")
        self.stdout.write("Demo logins (password for all: %s):" % DEMO_PASSWORD)
        for username, staff in PEOPLE:
            self.stdout.write(f"  {username:<10} {'organiser: admin, clubs, tournaments' if staff else 'player'}")
        for line in notes:
            self.stdout.write(line)
