"""`manage.py load_demo`: the demo league that `make run` serves. Idempotent: running it again
changes nothing. It grows as models arrive (players, leagues, events, matches)."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

DEMO_ORGANIZER = "organizer"
# Demo data only ever goes into a DEBUG (development) database, so a known password is fine.
DEMO_PASSWORD = "yardleague"  # noqa: S105


class Command(BaseCommand):
    help = "Load the demo league (idempotent). Refuses to run unless DEBUG is on or --force."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="load even though DEBUG is off")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("Refusing to load demo data with DEBUG off; pass --force.")
        user_model = get_user_model()
        organizer, created = user_model.objects.get_or_create(
            username=DEMO_ORGANIZER, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            organizer.set_password(DEMO_PASSWORD)
            organizer.save(update_fields=["password"])
            self.stdout.write(
                f"Created demo organizer '{DEMO_ORGANIZER}' (password '{DEMO_PASSWORD}')."
            )
        self.stdout.write(self.style.SUCCESS("Demo data is loaded."))
