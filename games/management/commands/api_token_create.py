"""``python manage.py api_token_create USERNAME NAME [--scope play --scope challenge] [--bot --owner PERSON]``:
a bearer token for an outside program (every token reads; ``--scope`` adds what else it may do, all of them
when none is given); with ``--bot``, USERNAME is an outside bot account of PERSON (created if needed)."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.models import TOKEN_SCOPES
from games.services import api_token_create


class Command(BaseCommand):
    help = ("Create an API token for a user (the key is printed once and stored only as a hash); with --bot, "
            "for an outside bot account of --owner, created if it does not exist.")

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("name", help="a name for the token (where it is used)")
        parser.add_argument("--scope", action="append", choices=list(TOKEN_SCOPES), dest="scopes",
                            help="what the token may do beyond reading (repeat for more; none given: all): "
                                 + "; ".join(f"{k}: {v}" for k, v in TOKEN_SCOPES.items()))
        parser.add_argument("--bot", action="store_true", help="USERNAME is an outside bot account")
        parser.add_argument("--owner", help="the person who runs the outside bot (with --bot)")

    def handle(self, *args, username, name, bot, owner, scopes=None, **options):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if bot:
            from league import services
            from league.models import PlayerProfile

            person = User.objects.filter(username=owner).first() if owner else None
            if person is None:
                raise CommandError("--bot needs --owner, an existing person")
            if user is None:
                user, key = services.bot_account_create(owner=person, name=username)
                self.stdout.write(f"outside bot {username} created for {owner}; token: {key}")
                return
            if not PlayerProfile.objects.filter(user=user, is_bot_account=True, owner=person).exists():
                raise CommandError(f"{username} is not an outside bot of {owner}")
        if user is None:
            raise CommandError(f"no user {username!r}")
        key = api_token_create(user=user, name=name, scopes=scopes)
        self.stdout.write(f"token for {username} ({name}, may {', '.join(['read', *(scopes or TOKEN_SCOPES)])}): {key}")
