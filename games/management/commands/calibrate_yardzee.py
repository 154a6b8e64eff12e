"""`manage.py calibrate_yardzee`: how well the Yardzee win probability is calibrated
(docs/analysis.md, "Win probability: Yardzee"; issue 39).

Simulates `--games` games for each number of players and each way of playing (the optimal
solitaire strategy, and a greedy one), predicts every player's chance to win after every turn,
and prints, per run, the predictions bucketed by tenths against how often those players won,
and the Brier score against the naive baseline (the current leader by points wins). The
predictions are the product's: each player the optimal strength mixed with the greedy player's
by their loss rate so far (`--no-rates`: every player the optimal strength). Seeded:
the same figures on every run. Reads the tables `manage.py build_strategy` writes (or builds
them in memory with `--build`, a minute).

`--fit` calibrates nothing: it fits the strength tables of `scoring.winprob.yardzee_strength`
(`OPTIMAL`, `GREEDY`, and the greedy player's losses by turn, `GREEDY_TURN_LOSSES`) on
`--fit-players` simulated players of each `--play` style, seeded by `--seed` (other games than
the calibration's), and prints them as that module states them.
"""

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.commands.build_strategy import strategy_dir
from scoring.analysis import Strategy, StrategyTableError
from scoring.winprob.yardzee_calibration import (
    PLAY_STYLES,
    calibrate,
    fit,
    fit_turn_losses,
    report,
    seed_of,
)
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import Spread
from scoring.winprob.yardzee_strength import table_source, turn_losses_source
from scoring.yardzee import JOKER_RULES, YardzeeRules


class Command(BaseCommand):
    help = "Measure the calibration of the Yardzee win probability on simulated games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=10_000, help="games per run (10,000)")
        parser.add_argument(
            "--players",
            type=int,
            nargs="+",
            default=[2, 3, 4, 5],
            choices=[2, 3, 4, 5],
            help="numbers of players (default: 2 3 4 5)",
        )
        parser.add_argument(
            "--play",
            nargs="+",
            default=list(PLAY_STYLES),
            choices=PLAY_STYLES,
            help="ways of playing (default: optimal greedy)",
        )
        parser.add_argument("--joker", default="forced", choices=JOKER_RULES)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--dir", help="the strategy tables' directory (default: STRATEGY_DIR)")
        parser.add_argument(
            "--build", action="store_true", help="build the tables in memory instead of loading"
        )
        parser.add_argument(
            "--no-rates",
            dest="rates",
            action="store_false",
            help="judge every player optimal (the product mixes in the greedy player by each "
            "player's loss rate so far)",
        )
        parser.add_argument(
            "--fit",
            action="store_true",
            help="print the strength tables fitted on simulated players instead of calibrating",
        )
        parser.add_argument(
            "--fit-players",
            type=int,
            default=40_000,
            help="players of each style the strength tables are fitted on (40,000)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        if options["fit_players"] < 1:
            raise CommandError("--fit-players must be at least 1.")
        rules = YardzeeRules(joker=options["joker"])
        spread = self._spread(rules, options)
        greedy = self._greedy(rules, options)
        if options["fit"]:
            for style in options["play"]:
                table = fit(spread, style, options["fit_players"], options["seed"], greedy)
                self.stdout.write(table_source(style.upper(), table))
                if style == "greedy":
                    losses = fit_turn_losses(spread, options["fit_players"], options["seed"])
                    self.stdout.write(turn_losses_source(losses))
            return
        for style in options["play"]:
            for players in options["players"]:
                started = time.perf_counter()
                result = calibrate(
                    spread,
                    style,
                    players,
                    options["games"],
                    seed_of(style, players, options["seed"]),
                    rates=options["rates"],
                    greedy=greedy,
                )
                self.stdout.write("\n".join(report(result)))
                self.stdout.write(f"({time.perf_counter() - started:.0f} s)\n")

    def _greedy(self, rules: YardzeeRules, options: dict[str, Any]) -> GreedySpread:
        if options["build"]:
            return GreedySpread.build(rules)
        directory = Path(options["dir"]) if options["dir"] else strategy_dir()
        try:
            return GreedySpread.load(rules, directory)
        except StrategyTableError as error:
            raise CommandError(f"{error} (or pass --build)") from error

    def _spread(self, rules: YardzeeRules, options: dict[str, Any]) -> Spread:
        if options["build"]:
            return Spread.build(Strategy.build(rules))
        directory = Path(options["dir"]) if options["dir"] else strategy_dir()
        try:
            return Spread.load(rules, directory)
        except StrategyTableError as error:
            raise CommandError(f"{error} (or pass --build)") from error
