"""`manage.py recompute_ratings [--league SLUG] [--check]`: replay every league's ratings (or
one's) from its first match, with a progress bar; or, with --check, only compare the stored
leaderboards with a from-scratch replay (exit 1 when any differs or is still pending)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from league.models import League
from league.services import standings


class Command(BaseCommand):
    help = "Replay ratings from scratch (all leagues, or one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--league", help="only this league (its slug)")
        parser.add_argument(
            "--check",
            action="store_true",
            help="write nothing: compare the stored ratings with a from-scratch replay",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        leagues = League.objects.all()
        if options["league"]:
            leagues = leagues.filter(slug=options["league"])
            if not leagues.exists():
                raise CommandError(f"No league with slug {options['league']!r}.")
        ids = list(leagues.values_list("pk", flat=True))
        if options["check"]:
            problems = [p for league_id in ids for p in standings.ratings_differences(league_id)]
            for problem in problems:
                self.stderr.write(problem)
            if problems:
                raise CommandError(
                    f"{len(problems)} differences in the ratings of {len(ids)} leagues."
                )
            self.stdout.write(
                self.style.SUCCESS(f"The ratings of all {len(ids)} leagues are current.")
            )
            return
        for league_id in tqdm(ids, desc="ratings", unit="league", file=self.stderr):
            standings.ratings_replay(league_id=league_id)
        self.stdout.write(self.style.SUCCESS(f"Replayed the ratings of {len(ids)} leagues."))
