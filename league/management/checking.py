"""What the two recompute commands share: their `--league SLUG` and `--check [--wait SECONDS]`
options, and how they report a check (`league.services.checks.CheckReport`): skipped ones
listed, differences on stderr and exit 1, else one line of success."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.services import checks


class RecomputeCommand(BaseCommand):
    # What --check compares and what may be marked stale, in the options' help.
    compared: str
    marked: str

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--league", help=f"only this league's {self.marked} (its slug)")
        parser.add_argument(
            "--check",
            action="store_true",
            help=f"write nothing: compare the stored {self.compared}",
        )
        parser.add_argument(
            "--wait",
            type=float,
            metavar="SECONDS",
            help=f"with --check: how long {self.marked} marked stale may take to be computed by "
            "their job before they count as a difference (default: twice "
            "STANDINGS_SWEEP_SECONDS)",
        )

    @staticmethod
    def wait(options: dict[str, Any]) -> float:
        wait: float | None = options["wait"]
        return checks.default_check_wait() if wait is None else wait

    def report(self, report: checks.CheckReport, *, failure: str, success: str) -> None:
        """Print the check's notes and differences; raise (exit 1) with `failure` when it found
        any, else print `success` and how many were skipped."""
        for note in report.skipped:
            self.stdout.write(note)
        for problem in report.differences:
            self.stderr.write(problem)
        if report.differences:
            raise CommandError(failure)
        self.stdout.write(
            self.style.SUCCESS(
                success + (f"; {len(report.skipped)} skipped (above)." if report.skipped else ".")
            )
        )
