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

Beside them, the Yardkle race tables of the default rules (`yardkle-race-10000-500.npy`,
13 MB; about 30 s of a core), which the live win probability of Yardkle matches of three or
more players reads (docs/analysis.md, "Win probability: Yardkle, three or more players"), kept,
checked and forced the same way.

`--yardkle-duel` also builds the two-player Yardkle win table of the default rules
(`yardkle-duel-10000-500.npy`, 320 KB; minutes to build: docs/analysis.md, "Win probability:
Yardkle, two players"), kept, checked and forced the same way. Without it that table is not
touched.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.analysis import Strategy, StrategyTableError
from scoring.winprob import YardkleDuel
from scoring.winprob.yardkle_race_file import YardkleRaceTables
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import Spread
from scoring.yardzee import JOKER_RULES, YardzeeRules

Table = Strategy | Spread | GreedySpread | YardkleDuel | YardkleRaceTables
T = TypeVar("T", Strategy, Spread, GreedySpread, YardkleDuel, YardkleRaceTables)


def _megabytes(path: Path) -> str:
    return f"{path.stat().st_size / 2**20:.1f} MB"


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
        self._yardkle_race(directory, failed, **options)
        if options["yardkle_duel"]:
            self._yardkle_duel(directory, failed, **options)
        if failed:
            raise CommandError(" ".join(failed))

    def _yardkle_race(self, directory: Path, failed: list[str], **options: Any) -> None:
        """The Yardkle race tables of the default rules, as the Yardzee tables: kept when
        intact."""
        self._table(
            "yardkle race",
            directory,
            failed,
            load=lambda: YardkleRaceTables.load(None, directory),
            build=YardkleRaceTables.build,
            intact=lambda _: f"the race tables in {directory} are intact.",
            built=lambda tables, path: (
                f"built {path} ({_megabytes(path)}) in {tables.build_seconds:.0f} s of CPU."
            ),
            **options,
        )

    def _yardkle_duel(self, directory: Path, failed: list[str], **options: Any) -> None:
        """The two-player Yardkle table, as the Yardzee tables: kept when intact."""
        self._table(
            "yardkle duel",
            directory,
            failed,
            load=lambda: YardkleDuel.load(None, directory),
            build=YardkleDuel.build,
            intact=lambda duel: (
                f"the table in {directory} is intact (first player wins {duel.start_value:.6f})."
            ),
            built=lambda duel, path: (
                f"built {path} in {duel.build_seconds:.0f} s of CPU; the first player wins "
                f"{duel.start_value:.6f}."
            ),
            **options,
        )

    def _strategy(
        self, rules: YardzeeRules, directory: Path, failed: list[str], **options: Any
    ) -> Strategy | None:
        """The strategy table of `rules`: kept, built, or (with --check) reported missing."""
        return self._table(
            f"joker={rules.joker}",
            directory,
            failed,
            load=lambda: Strategy.load(rules, directory),
            build=lambda: Strategy.build(rules),
            intact=lambda strategy: (
                f"the table in {directory} is intact (expected score {strategy.start_value:.6f})."
            ),
            built=lambda strategy, path: (
                f"built {path} ({_megabytes(path)}) in {strategy.build_seconds or 0:.1f} s; "
                f"expected score {strategy.start_value:.6f}."
            ),
            **options,
        )

    def _moments(
        self, strategy: Strategy, directory: Path, failed: list[str], **options: Any
    ) -> None:
        """The moments table beside the strategy's: kept, built, or reported missing."""
        self._table(
            f"joker={strategy.rules.joker}",
            directory,
            failed,
            load=lambda: Spread.load(strategy.rules, directory, strategy=strategy),
            build=lambda: Spread.build(strategy),
            intact=lambda _: f"the moments table in {directory} is intact.",
            built=lambda spread, path: (
                f"built {path} ({_megabytes(path)}) in {spread.build_seconds or 0:.1f} s."
            ),
            **options,
        )

    def _greedy(
        self, rules: YardzeeRules, directory: Path, failed: list[str], **options: Any
    ) -> None:
        """The greedy player's moments table beside the strategy's, as the moments."""
        self._table(
            f"joker={rules.joker}",
            directory,
            failed,
            load=lambda: GreedySpread.load(rules, directory),
            build=lambda: GreedySpread.build(rules),
            intact=lambda _: f"the greedy table in {directory} is intact.",
            built=lambda greedy, path: (
                f"built {path} ({_megabytes(path)}) in {greedy.build_seconds or 0:.1f} s."
            ),
            **options,
        )

    def _table(
        self,
        label: str,
        directory: Path,
        failed: list[str],
        *,
        load: Callable[[], T],
        build: Callable[[], T],
        intact: Callable[[T], str],
        built: Callable[[T, Path], str],
        **options: Any,
    ) -> T | None:
        """One table: kept when it loads intact (unless --force), else built and saved; with
        --check a missing or corrupt table is added to `failed` and None returned."""
        if not options["force"]:
            try:
                table = load()
            except StrategyTableError as error:
                if options["check"]:
                    failed.append(str(error))
                    return None
                self.stdout.write(f"{label}: {error}")
            else:
                self.stdout.write(f"{label}: {intact(table)}")
                return table
        table = build()
        path = self._save(table, directory)
        self.stdout.write(self.style.SUCCESS(f"{label}: {built(table, path)}"))
        return table

    @staticmethod
    def _save(table: Table, directory: Path) -> Path:
        try:
            return table.save(directory)
        except OSError as error:
            raise CommandError(
                f"Cannot write the strategy tables to {directory}: {error}"
            ) from error
