"""`manage.py recompute_ratings [--league SLUG] [--check [--wait SECONDS]]`: replay every
league's ratings (or one's) from its first match, with a progress bar; or, with --check, only
compare the stored leaderboards with a from-scratch replay: exit 1 on a real difference, or
ratings still marked stale after --wait seconds (leagues never rated, or marked again while the
check ran, are skipped and listed; see `league.services.checks.ratings_check`)."""

from typing import Any

from django.core.management.base import CommandError
from tqdm import tqdm

from league.management.checking import RecomputeCommand
from league.models import League
from league.services import checks, ratings


class Command(RecomputeCommand):
    help = "Replay ratings from scratch (all leagues, or one)."
    compared = "ratings with a from-scratch replay"
    marked = "ratings"

    def handle(self, *args: Any, **options: Any) -> None:
        leagues = League.objects.all()
        if options["league"]:
            leagues = leagues.filter(slug=options["league"])
            if not leagues.exists():
                raise CommandError(f"No league with slug {options['league']!r}.")
        ids = list(leagues.values_list("pk", flat=True))
        if options["check"]:
            report = checks.ratings_check(ids, wait=self.wait(options))
            self.report(
                report,
                failure=f"{len(report.differences)} differences in the ratings of {len(ids)} "
                "leagues.",
                success=f"The ratings of all {report.compared} leagues compared are current",
            )
            return
        for league_id in tqdm(ids, desc="ratings", unit="league", file=self.stderr):
            ratings.ratings_replay(league_id=league_id)
        self.stdout.write(self.style.SUCCESS(f"Replayed the ratings of {len(ids)} leagues."))
