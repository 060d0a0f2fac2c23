"""``manage.py club_create --name NAME --slug SLUG [--organiser USER ...]``"""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from league import services


class Command(BaseCommand):
    help = "Create a club (the admin's 'add club')."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True)
        parser.add_argument("--slug", required=True)
        parser.add_argument("--organiser", action="append", default=[], help="username; repeatable")
        parser.add_argument("--member", action="append", default=[], help="username; repeatable")

    def handle(self, *args, **o):
        User = get_user_model()
        try:
            organisers = [User.objects.get(username=u) for u in o["organiser"]]
            members = [User.objects.get(username=u) for u in o["member"]]
        except User.DoesNotExist as exc:
            raise CommandError(str(exc)) from None
        club = services.club_create(name=o["name"], slug=o["slug"], organisers=organisers, members=members)
        self.stdout.write(f"club {club.pk}: {club.name} ({club.slug})")
