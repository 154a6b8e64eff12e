"""`manage.py recompute_ratings [--league SLUG] [--check [--wait SECONDS]]`: replay every
league's ratings (or one's) from its first match, with a progress bar; or, with --check, only
compare the stored leaderboards with a from-scratch replay: exit 1 on a real difference, or
ratings still marked stale after --wait seconds (leagues never rated, or marked again while the
check ran, are skipped and listed; see `league.services.checks.ratings_check`)."""

from collections.abc import Sequence
from typing import Any

from django.core.management.base import CommandError

from league.management.checking import RecomputeCommand
from league.models import League
from league.services import checks, ratings


class Command(RecomputeCommand[int]):
    help = "Replay ratings from scratch (all leagues, or one)."
    compared = "ratings with a from-scratch replay"
    marked = "ratings"
    progress = "ratings"
    unit = "league"
    failure = "{differences} differences in the ratings of {targets} leagues."
    success = "The ratings of all {compared} leagues compared are current"
    done = "Replayed the ratings of {targets} leagues."

    def targets(self, options: dict[str, Any]) -> list[int]:
        leagues = League.objects.all()
        if options["league"]:
            leagues = leagues.filter(slug=options["league"])
            if not leagues.exists():
                raise CommandError(f"No league with slug {options['league']!r}.")
        return list(leagues.values_list("pk", flat=True))

    def compare(self, targets: Sequence[int], *, wait: float) -> checks.CheckReport:
        return checks.ratings_check(targets, wait=wait)

    def recompute(self, target: int) -> None:
        ratings.ratings_replay(league_id=target)
