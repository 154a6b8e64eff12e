"""`manage.py seed_season --factor N [--one-league] [--force]`: seed a season of finished Yardzee
results N times the size of the standings benchmark (1,000 players, 20,000 matches), with
COPY: 2 N leagues of 10,000 matches each (at 50: 100 leagues, 1,000,000 matches, 10,000
players), or with --one-league a single league of 1,000 N players and 20,000 N matches
(`league.management.seeding`). It only adds what a smaller factor seeded lacks. Refuses to
run unless DEBUG is on or --force: it is benchmark data, not a league's."""

import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from core.commands import DatabaseCommand
from league.management import seeding

MOST = 1_000


class Command(DatabaseCommand):
    help = "Seed a season N times the standings benchmark's size (COPY; DEBUG or --force)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--factor", type=int, required=True, help="the size, in benchmark sizes (1 to 1000)"
        )
        parser.add_argument(
            "--one-league",
            action="store_true",
            help="one league of 1,000 N players and 20,000 N matches instead of 2 N leagues",
        )
        parser.add_argument("--force", action="store_true", help="seed even with DEBUG off")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("Refusing to seed benchmark data with DEBUG off; pass --force.")
        factor = options["factor"]
        if not 1 <= factor <= MOST:
            raise CommandError(f"--factor must be from 1 to {MOST}, not {factor}.")
        started = time.perf_counter()
        with transaction.atomic():
            seed = seeding.seed_league if options["one_league"] else seeding.seed_season
            added = seed(factor)
        self.stdout.write(
            f"Seeded {added.leagues} leagues, {added.players} players and {added.matches} "
            f"matches in {time.perf_counter() - started:.1f} s."
        )
