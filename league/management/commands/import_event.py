"""`manage.py import_event FILE --league SLUG`: play an export file again into an empty league
(`league.services.exports.event_import`: all or nothing). No size limit, unlike the API's
request body (DATA_UPLOAD_MAX_MEMORY_SIZE)."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from core.commands import DatabaseCommand
from league.models import League
from league.services import exports
from scoring.errors import DomainError


class Command(DatabaseCommand):
    help = "Import an event export file into an empty league."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the export file (JSON)")
        parser.add_argument("--league", required=True, help="the empty league (its slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        league = League.objects.filter(slug=options["league"]).first()
        if league is None:
            raise CommandError(f"No league with slug {options['league']!r}.")
        try:
            data = json.loads(Path(options["file"]).read_text())
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from error
        except RecursionError as error:
            raise CommandError(
                f"Cannot read {options['file']}: its JSON is nested too deeply."
            ) from error
        try:
            imported = exports.event_import(league=league, data=data)
        except DomainError as error:
            raise CommandError(f"{error.code}: {error.message}") from error
        self.stdout.write(
            f"Imported event {imported.event.pk} into {league.slug}: "
            f"{len(imported.players)} players, {len(imported.matches)} matches."
        )
