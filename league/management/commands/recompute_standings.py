"""`manage.py recompute_standings [--league SLUG] [--event ID] [--check [--wait SECONDS]]`:
recompute standings tables from scratch now (all of them, or one league's or one event's), with
a progress bar; or, with --check, only compare the stored tables with a from-scratch computation:
exit 1 on a real difference, or a table still marked stale after --wait seconds (tables never
computed, or marked again while the check ran, are skipped and listed; see
`league.services.checks.standings_check`)."""

from collections.abc import Sequence
from typing import Any

from django.core.management.base import CommandError, CommandParser

from league.management.checking import RecomputeCommand
from league.models import Event, League, StandingsScope
from league.services import checks, standings_refresh


class Command(RecomputeCommand[tuple[str, int]]):
    help = "Recompute standings tables from scratch (all, or one league's or event's)."
    compared = "tables with a from-scratch computation"
    marked = "tables"
    progress = "standings"
    unit = "table"
    failure = "{differences} differences found (above): these standings tables are not current."
    success = "All {compared} standings tables compared are current"
    done = "Recomputed {targets} standings tables."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--event", type=int, help="only this event's tables (its id)")

    def targets(self, options: dict[str, Any]) -> list[tuple[str, int]]:
        return self._scopes(options["league"], options["event"])

    def compare(self, targets: Sequence[tuple[str, int]], *, wait: float) -> checks.CheckReport:
        return checks.standings_check(targets, wait=wait)

    def recompute(self, target: tuple[str, int]) -> None:
        table = standings_refresh.standings_table_computed_on_miss(target)
        standings_refresh.standings_recompute(table_id=table.pk)

    def _scopes(self, slug: str | None, event_id: int | None) -> list[tuple[str, int]]:
        leagues = League.objects.all()
        events = Event.objects.all()
        if slug:
            leagues = leagues.filter(slug=slug)
            events = events.filter(league__slug=slug)
            if not leagues.exists():
                raise CommandError(f"No league with slug {slug!r}.")
        if event_id is not None:
            if not Event.objects.filter(pk=event_id).exists():
                raise CommandError(f"No event with id {event_id}.")
            events = events.filter(pk=event_id)
            if not events.exists():
                raise CommandError(f"Event {event_id} is not in league {slug!r}.")
            leagues = leagues.none()
        scopes = [(StandingsScope.LEAGUE.value, pk) for pk in leagues.values_list("pk", flat=True)]
        for event in events.prefetch_related("stages"):
            scopes.append((StandingsScope.EVENT.value, event.pk))
            scopes.extend((StandingsScope.STAGE.value, stage.pk) for stage in event.stages.all())
        return scopes
