"""`manage.py recompute_ratings [--league SLUG] [--check [--wait SECONDS]]`: replay every
league's ratings (or one's) from its first match, with a progress bar; or, with --check, only
compare the stored leaderboards with a from-scratch replay: exit 1 on a real difference, or
ratings still marked stale after --wait seconds (leagues never rated, or marked again while the
check ran, are skipped and listed; see `league.services.checks.ratings_check`)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from league.models import League
from league.services import checks, ratings


class Command(BaseCommand):
    help = "Replay ratings from scratch (all leagues, or one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--league", help="only this league (its slug)")
        parser.add_argument(
            "--check",
            action="store_true",
            help="write nothing: compare the stored ratings with a from-scratch replay",
        )
        parser.add_argument(
            "--wait",
            type=float,
            metavar="SECONDS",
            help="with --check: how long ratings marked stale may take to be computed by their "
            "job before they count as a difference (default: twice STANDINGS_SWEEP_SECONDS)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        leagues = League.objects.all()
        if options["league"]:
            leagues = leagues.filter(slug=options["league"])
            if not leagues.exists():
                raise CommandError(f"No league with slug {options['league']!r}.")
        ids = list(leagues.values_list("pk", flat=True))
        if options["check"]:
            wait = options["wait"]
            report = checks.ratings_check(
                ids, wait=checks.default_check_wait() if wait is None else wait
            )
            for note in report.skipped:
                self.stdout.write(note)
            for problem in report.differences:
                self.stderr.write(problem)
            if report.differences:
                raise CommandError(
                    f"{len(report.differences)} differences in the ratings of {len(ids)} leagues."
                )
            self.stdout.write(
                self.style.SUCCESS(
                    f"The ratings of all {report.compared} leagues compared are current"
                    + (f"; {len(report.skipped)} skipped (above)." if report.skipped else ".")
                )
            )
            return
        for league_id in tqdm(ids, desc="ratings", unit="league", file=self.stderr):
            ratings.ratings_replay(league_id=league_id)
        self.stdout.write(self.style.SUCCESS(f"Replayed the ratings of {len(ids)} leagues."))
