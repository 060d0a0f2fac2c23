"""``python manage.py api_token_create USERNAME NAME [--scope play --scope challenge]``: a bearer token for a
person's own program (every token reads; ``--scope`` adds what else it may do, all of them when none is
given). An outside bot's token: ``manage.py bot_token_create`` (the league's)."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.models import TOKEN_SCOPES
from games.services import api_token_create


class Command(BaseCommand):
    help = ("Create an API token for a user (the key is printed once and stored only as a hash). For an outside "
            "bot account: manage.py bot_token_create BOTNAME NAME --owner PERSON.")

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("name", help="a name for the token (where it is used)")
        parser.add_argument("--scope", action="append", choices=list(TOKEN_SCOPES), dest="scopes",
                            help="what the token may do beyond reading (repeat for more; none given: all): "
                                 + "; ".join(f"{k}: {v}" for k, v in TOKEN_SCOPES.items()))
        parser.add_argument("--bot", action="store_true", help="moved: use bot_token_create")
        parser.add_argument("--owner", help="moved: use bot_token_create")

    def handle(self, *args, username, name, bot=False, owner=None, scopes=None, **options):
        if bot or owner:
            raise CommandError(f"an outside bot's token: manage.py bot_token_create {username} {name!r} "
                               f"--owner {owner or 'PERSON'}")
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        key = api_token_create(user=user, name=name, scopes=scopes)
        self.stdout.write(f"token for {username} ({name}, may {', '.join(['read', *(scopes or TOKEN_SCOPES)])}): {key}")
