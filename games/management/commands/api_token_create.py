"""``python manage.py api_token_create USERNAME NAME``: a bearer token for an outside bot client."""
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.models import ApiToken


class Command(BaseCommand):
    help = "Create an API token for a user; the key is printed once and stored only as a hash."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("name")

    def handle(self, *args, username, name, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        key = secrets.token_urlsafe(32)
        ApiToken.objects.create(user=user, name=name, key_hash=hashlib.sha256(key.encode()).hexdigest())
        self.stdout.write(f"token for {username} ({name}): {key}")
