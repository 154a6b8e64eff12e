"""`manage.py build_strategy`: the Yardzee strategy tables that move-by-move analysis reads
(docs/analysis.md, "The table file"), and beside each the moments table of the remaining
points and the greedy player's (`yardzee-forced-greedy.npy`, 16 MB, seconds) that the win
probability reads (docs/analysis.md, "Win probability: Yardzee").

Writes one table per joker rule (`yardzee-forced.npy`, `yardzee-free_choice.npy`, 8 MB each,
with a JSON manifest) and its moments (`yardzee-forced-moments.npy`, ...) into
`settings.STRATEGY_DIR` (or `--dir`). A table already there and intact is kept, so `make run`
can call this on every start; a missing or corrupt one is built (seconds for the strategy,
about a minute for the moments). `--check` only reports, and fails when a table is missing or
corrupt (with `--force`, which would skip the check, it is refused). A directory it cannot
write is a `CommandError` naming it.

`--yardkle-duel` also builds the two-player Yardkle win table of the default rules
(`yardkle-duel-10000-500.npy`, 320 KB; minutes to build: docs/analysis.md, "Win probability:
Yardkle, two players"), kept, checked and forced the same way. Without it that table is not
touched.
"""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.analysis import Strategy, StrategyTableError
from scoring.winprob import YardkleDuel
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import Spread
from scoring.yardzee import JOKER_RULES, YardzeeRules


def strategy_dir() -> Path:
    """Where the tables live: `STRATEGY_DIR`, by default `var/strategy` under the project."""
    return Path(getattr(settings, "STRATEGY_DIR", Path(settings.BASE_DIR) / "var" / "strategy"))


class Command(BaseCommand):
    help = (
        "Build the Yardzee strategy table of each joker rule into STRATEGY_DIR, keeping tables "
        "already there and intact (unless --force)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", help="the directory to write to (default: STRATEGY_DIR)")
        parser.add_argument(
            "--joker",
            action="append",
            choices=JOKER_RULES,
            help="only this joker rule (repeatable; default: every rule)",
        )
        parser.add_argument(
            "--force", action="store_true", help="rebuild even a table that is there and intact"
        )
        parser.add_argument(
            "--yardkle-duel",
            action="store_true",
            help="also the two-player Yardkle win table of the default rules (minutes)",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="build nothing; fail when a table is missing or corrupt",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"] and options["force"]:
            raise CommandError("--check builds nothing and --force rebuilds: give one of them.")
        directory = Path(options["dir"]) if options["dir"] else strategy_dir()
        if not options["check"]:
            try:  # before seconds of building, not after
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise CommandError(
                    f"Cannot write the strategy tables to {directory}: {error}"
                ) from error
        failed: list[str] = []
        for joker in options["joker"] or JOKER_RULES:
            rules = YardzeeRules(joker=joker)
            strategy = self._strategy(rules, directory, failed, **options)
            if strategy is not None:
                self._moments(strategy, directory, failed, **options)
                self._greedy(rules, directory, failed, **options)
        if options["yardkle_duel"]:
            self._yardkle_duel(directory, failed, **options)
        if failed:
            raise CommandError(" ".join(failed))

    def _yardkle_duel(self, directory: Path, failed: list[str], **options: Any) -> None:
        """The two-player Yardkle table, as the Yardzee tables: kept when intact."""
        if not options["force"]:
            try:
                duel = YardkleDuel.load(None, directory)
            except StrategyTableError as error:
                if options["check"]:
                    failed.append(str(error))
                    return
                self.stdout.write(f"yardkle duel: {error}")
            else:
                self.stdout.write(
                    f"yardkle duel: the table in {directory} is intact "
                    f"(first player wins {duel.start_value:.6f})."
                )
                return
        duel = YardkleDuel.build()
        path = self._save(duel, directory)
        self.stdout.write(
            self.style.SUCCESS(
                f"yardkle duel: built {path} in {duel.build_seconds:.0f} s of CPU; the first "
                f"player wins {duel.start_value:.6f}."
            )
        )

    def _strategy(
        self, rules: YardzeeRules, directory: Path, failed: list[str], **options: Any
    ) -> Strategy | None:
        """The strategy table of `rules`: kept, built, or (with --check) reported missing."""
        joker = rules.joker
        if not options["force"]:
            try:
                strategy = Strategy.load(rules, directory)
            except StrategyTableError as error:
                if options["check"]:
                    failed.append(str(error))
                    return None
                self.stdout.write(f"joker={joker}: {error}")
            else:
                self.stdout.write(
                    f"joker={joker}: the table in {directory} is intact "
                    f"(expected score {strategy.start_value:.6f})."
                )
                return strategy
        strategy = Strategy.build(rules)
        path = self._save(strategy, directory)
        self.stdout.write(
            self.style.SUCCESS(
                f"joker={joker}: built {path} ({path.stat().st_size / 2**20:.1f} MB) in "
                f"{strategy.build_seconds or 0:.1f} s; expected score "
                f"{strategy.start_value:.6f}."
            )
        )
        return strategy

    def _moments(
        self, strategy: Strategy, directory: Path, failed: list[str], **options: Any
    ) -> None:
        """The moments table beside the strategy's: kept, built, or reported missing."""
        joker = strategy.rules.joker
        if not options["force"]:
            try:
                Spread.load(strategy.rules, directory, strategy=strategy)
            except StrategyTableError as error:
                if options["check"]:
                    failed.append(str(error))
                    return
                self.stdout.write(f"joker={joker}: {error}")
            else:
                self.stdout.write(f"joker={joker}: the moments table in {directory} is intact.")
                return
        spread = Spread.build(strategy)
        path = self._save(spread, directory)
        self.stdout.write(
            self.style.SUCCESS(
                f"joker={joker}: built {path} ({path.stat().st_size / 2**20:.1f} MB) in "
                f"{spread.build_seconds or 0:.1f} s."
            )
        )

    def _greedy(
        self, rules: YardzeeRules, directory: Path, failed: list[str], **options: Any
    ) -> None:
        """The greedy player's moments table beside the strategy's, as the moments."""
        joker = rules.joker
        if not options["force"]:
            try:
                GreedySpread.load(rules, directory)
            except StrategyTableError as error:
                if options["check"]:
                    failed.append(str(error))
                    return
                self.stdout.write(f"joker={joker}: {error}")
            else:
                self.stdout.write(f"joker={joker}: the greedy table in {directory} is intact.")
                return
        greedy = GreedySpread.build(rules)
        path = self._save(greedy, directory)
        self.stdout.write(
            self.style.SUCCESS(
                f"joker={joker}: built {path} ({path.stat().st_size / 2**20:.1f} MB) in "
                f"{greedy.build_seconds or 0:.1f} s."
            )
        )

    @staticmethod
    def _save(table: Strategy | Spread | GreedySpread | YardkleDuel, directory: Path) -> Path:
        try:
            return table.save(directory)
        except OSError as error:
            raise CommandError(
                f"Cannot write the strategy tables to {directory}: {error}"
            ) from error
