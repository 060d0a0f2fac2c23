"""``python manage.py bot_token_create BOTNAME NAME --owner PERSON``: a token for an outside bot account of
PERSON, the account created if it does not exist (a person's own tokens: ``api_token_create``)."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from league import services
from league.models import PlayerProfile


class Command(BaseCommand):
    help = ("Create an API token for an outside bot account of --owner (the account is created if it does not "
            "exist); the key is printed once and stored only as a hash.")

    def add_arguments(self, parser):
        parser.add_argument("botname", help="the outside bot's username")
        parser.add_argument("name", help="a name for the token (where it is used)")
        parser.add_argument("--owner", required=True, help="the person who runs the outside bot")

    def handle(self, *args, botname, name, owner, **options):
        User = get_user_model()
        person = User.objects.filter(username=owner).first()
        if person is None:
            raise CommandError(f"--owner {owner!r} is not an existing person")
        bot = User.objects.filter(username=botname).first()
        if bot is None:
            bot, key = services.bot_account_create(owner=person, name=botname)
            self.stdout.write(f"outside bot {botname} created for {owner}; token: {key}")
            return
        if not PlayerProfile.objects.filter(user=bot, is_bot_account=True, owner=person).exists():
            raise CommandError(f"{botname} is not an outside bot of {owner}")
        key = services.bot_token_create(owner=person, bot_user_id=bot.pk)
        self.stdout.write(f"token for {botname} ({name}): {key}")
