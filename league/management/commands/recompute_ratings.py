"""`manage.py recompute_ratings [--league SLUG]`: replay every league's ratings (or one's)
from its first match, with a progress bar."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from league.models import League
from league.services import standings


class Command(BaseCommand):
    help = "Replay ratings from scratch (all leagues, or one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--league", help="only this league (its slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        leagues = League.objects.all()
        if options["league"]:
            leagues = leagues.filter(slug=options["league"])
            if not leagues.exists():
                raise CommandError(f"No league with slug {options['league']!r}.")
        ids = list(leagues.values_list("pk", flat=True))
        for league_id in tqdm(ids, desc="ratings", unit="league", file=self.stderr):
            standings.ratings_replay(league_id=league_id)
        self.stdout.write(self.style.SUCCESS(f"Replayed the ratings of {len(ids)} leagues."))
