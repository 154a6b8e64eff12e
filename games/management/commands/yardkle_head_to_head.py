"""`manage.py yardkle_head_to_head`: simulated two-player Yardkle games of the win-maximising
strategy against the points-maximising one (docs/analysis.md, "Win probability: Yardkle, two
players"), seeded, with the win-maximiser first in half of the games.

Reads the table `manage.py build_strategy --yardkle-duel` writes into STRATEGY_DIR (or
`--dir`); `--table` takes a bare `.npy` of the default rules instead (the copy the tests ship).
Prints the win-maximiser's share of the games with its standard error, by seat, and the ties.
"""

from pathlib import Path
from time import perf_counter, process_time
from typing import Any

import numpy as np
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.commands.build_strategy import strategy_dir
from scoring.analysis import StrategyTableError
from scoring.winprob import YardkleDuel
from scoring.winprob.duel_play import head_to_head
from scoring.yardkle import YardkleRules


class Command(BaseCommand):
    help = "Simulate the win-maximising Yardkle strategy against the points-maximising one."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=10_000, help="games (default 10,000)")
        parser.add_argument("--seed", type=int, default=2026, help="the dice's seed")
        parser.add_argument("--dir", help="where the table is (default: STRATEGY_DIR)")
        parser.add_argument("--table", help="a bare .npy table of the default rules instead")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        if options["table"]:
            duel = YardkleDuel(YardkleRules(), np.load(options["table"]))
        else:
            directory = Path(options["dir"]) if options["dir"] else strategy_dir()
            try:
                duel = YardkleDuel.load(None, directory)
            except StrategyTableError as error:
                raise CommandError(str(error)) from error
        started, cpu = perf_counter(), process_time()
        # Every score pair's turn solved at once (350 MB for the default rules), not per pair.
        programs = duel.turn_programs()
        result = head_to_head(duel, options["games"], seed=options["seed"], programs=programs)
        first, second = (result.games + 1) // 2, result.games // 2
        self.stdout.write(
            f"{result.games:,} games (seed {options['seed']}): the win-maximiser wins "
            f"{result.share:.4f} ± {result.standard_error:.4f} (one standard error; ties "
            f"count 1/2: {result.ties}); moving first {result.wins_first / first:.4f}, "
            f"second {result.wins_second / max(second, 1):.4f}. "
            f"{perf_counter() - started:.0f} s, {process_time() - cpu:.0f} s of CPU."
        )
