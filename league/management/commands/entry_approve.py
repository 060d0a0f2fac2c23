"""``manage.py entry_approve <registration_id> [--refuse --reason TEXT]`` (the twin of the admin's sign-up
actions)."""
from django.core.management.base import BaseCommand, CommandError

from league import services
from league.management.commands._common import domain_errors
from league.models import Registration


class Command(BaseCommand):
    help = ("Approve a sign-up waiting for approval (in the field, or on the waiting list when full), or refuse it "
            "with a reason the person sees.")

    def add_arguments(self, parser):
        parser.add_argument("registration_id", type=int)
        parser.add_argument("--refuse", action="store_true")
        parser.add_argument("--reason", default="")

    def handle(self, *args, **o):
        registration = Registration.objects.select_related("player", "tournament").filter(
            pk=o["registration_id"]).first()
        if registration is None:
            raise CommandError(f"no sign-up with id {o['registration_id']}")
        name, tournament = registration.player.name, registration.tournament.name
        with domain_errors():
            if o["refuse"]:
                services.entry_refuse(registration_id=registration.pk, reason=o["reason"])
                self.stdout.write(f"{name}'s entry to {tournament} refused")
                return
            status = services.entry_approve(registration_id=registration.pk)
        where = f"on the waiting list (#{status.position})" if status.status == "waiting" else "in the field"
        self.stdout.write(f"{name}'s entry to {tournament} approved: {where}")
