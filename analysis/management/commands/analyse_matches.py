"""`manage.py analyse_matches [--league SLUG] [--check]`: analyse, in this process, every
finished match without an analysis of its current result (a backfill), or with `--check`
analyse nothing and fail when one is missing. An unknown slug is refused. Without the Yardzee
strategy tables it analyses every other match, then fails saying how many wait for
`manage.py build_strategy`."""

from typing import Any

from django.apps import apps
from django.core.management.base import CommandError, CommandParser
from tqdm import tqdm

from analysis import services
from core.commands import DatabaseCommand
from scoring.analysis import StrategyTableError


class Command(DatabaseCommand):
    help = "Analyse every finished match not analysed yet (or, with --check, list them)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--league", help="only the matches of this league (its slug, in any case)"
        )
        parser.add_argument(
            "--check", action="store_true", help="analyse nothing; fail when any is missing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        matches = services.unanalysed()
        if options["league"]:
            # league.League by name: this app sits below league (docs/architecture.md).
            leagues = apps.get_model("league", "League").objects
            slug = options["league"]
            league = leagues.filter(slug__iexact=slug).values_list("pk", flat=True).first()
            if league is None:
                raise CommandError(f"There is no league {slug!r}.")
            matches = matches.filter(league_id=league)
        ids = list(matches.values_list("pk", flat=True))
        if options["check"]:
            if ids:
                shown = ", ".join(map(str, ids[:20])) + (" ..." if len(ids) > 20 else "")
                raise CommandError(f"{len(ids)} finished matches have no analysis: {shown}")
            self.stdout.write("Every finished match has its analysis.")
            return
        done = 0
        without_table: list[StrategyTableError] = []
        for match_id in tqdm(ids, desc="analysing", unit="match", disable=not ids):
            try:
                analysed = services.match_analyse(match_id=match_id)
            except StrategyTableError as error:  # a Yardzee match; the others go on
                without_table.append(error)
                continue
            if analysed is not None:
                done += 1
        self.stdout.write(self.style.SUCCESS(f"Analysed {done} of {len(ids)} matches."))
        if without_table:
            raise CommandError(
                f"{len(without_table)} Yardzee matches were not analysed: {without_table[0]}"
            )
