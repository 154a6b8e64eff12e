"""`manage.py export_event EVENT_ID [--output FILE]`: the event as an export file (JSON,
docs/api.md, "Event export and import"), to FILE or to standard output."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.core.serializers.json import DjangoJSONEncoder

from core.commands import DatabaseCommand
from league.models import Event
from league.services import exports


class Command(DatabaseCommand):
    help = "Write an event as an export file (JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", type=int, help="the event's id")
        parser.add_argument("--output", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.select_related("league").filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(f"No event with id {options['event']}.")
        text = json.dumps(exports.event_export(event=event), cls=DjangoJSONEncoder, indent=1)
        if options["output"]:
            try:
                Path(options["output"]).write_text(text + "\n")
            except OSError as error:
                raise CommandError(f"Cannot write {options['output']}: {error}") from error
            self.stdout.write(f"Wrote event {event.pk} to {options['output']}.")
        else:
            self.stdout.write(text)
