"""What the two recompute commands share: their `--league SLUG` and `--check [--wait SECONDS]`
options, the recompute with a progress bar, and how they report a check
(`league.services.checks.CheckReport`): skipped ones listed, differences on stderr and exit 1,
else one line of success. A command says what its targets are, how one is recomputed, how they
are checked, and its messages."""

import math
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.core.management.base import CommandError, CommandParser
from tqdm import tqdm

from core.commands import DatabaseCommand
from league.services import checks

Target = TypeVar("Target")


class RecomputeCommand(DatabaseCommand, Generic[Target]):
    # What --check compares and what may be marked stale, in the options' help.
    compared: str
    marked: str
    # The progress bar's description and unit.
    progress: str
    unit: str
    # The closing lines: `failure` takes {differences} and {targets}, `success` {compared}
    # (how many the check compared), `done` {targets}.
    failure: str
    success: str
    done: str

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

    def targets(self, options: dict[str, Any]) -> Sequence[Target]:
        raise NotImplementedError

    def compare(self, targets: Sequence[Target], *, wait: float) -> checks.CheckReport:
        raise NotImplementedError

    def recompute(self, target: Target) -> None:
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        if options["wait"] is not None:
            if not options["check"]:
                raise CommandError("--wait goes with --check only.")
            if not math.isfinite(options["wait"]) or options["wait"] < 0:
                raise CommandError("--wait takes a number of seconds, 0 or more.")
        targets = self.targets(options)
        if options["check"]:
            self.report(self.compare(targets, wait=self.wait(options)), len(targets))
            return
        for target in tqdm(targets, desc=self.progress, unit=self.unit, file=self.stderr):
            self.recompute(target)
        self.stdout.write(self.style.SUCCESS(self.done.format(targets=len(targets))))

    @staticmethod
    def wait(options: dict[str, Any]) -> float:
        wait: float | None = options["wait"]
        return checks.default_check_wait() if wait is None else wait

    def report(self, report: checks.CheckReport, targets: int) -> None:
        """Print the check's notes and differences; raise (exit 1) with `failure` when it found
        any, else print `success` and how many were skipped."""
        for note in report.skipped:
            self.stdout.write(note)
        for problem in report.differences:
            self.stderr.write(problem)
        if report.differences:
            raise CommandError(
                self.failure.format(differences=len(report.differences), targets=targets)
            )
        success = self.success.format(compared=report.compared)
        self.stdout.write(
            self.style.SUCCESS(
                success + (f"; {len(report.skipped)} skipped (above)." if report.skipped else ".")
            )
        )
