"""The strategy tables a process uses (Yardzee's, their moments and the greedy player's, the
two-player Yardkle table, the Yardkle race tables), loaded once per process (memory-mapped
from STRATEGY_DIR, built by `manage.py build_strategy`) and never per task."""

import functools
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings

from scoring.analysis import Strategy, StrategyTableError
from scoring.analysis.game_analysis import turn_strategy
from scoring.winprob import YardkleDuel
from scoring.winprob.yardkle_duel import SHIPPED_TABLE
from scoring.winprob.yardkle_race_file import YardkleRaceTables
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import Spread
from scoring.yardkle import YardkleRules
from scoring.yardzee import JOKER_RULES, YardzeeRules

logger = logging.getLogger(__name__)


def yardzee_strategy(rules: Mapping[str, Any]) -> Strategy:
    """The table for a match's stored Yardzee ruleset, memory-mapped on first use and kept for
    the process's life. Raises StrategyTableMissing / StrategyTableCorrupt (never answers from
    a wrong table)."""
    return _loaded(YardzeeRules.from_json(dict(rules)))


@functools.cache
def _loaded(rules: YardzeeRules) -> Strategy:
    return Strategy.load(rules, Path(settings.STRATEGY_DIR))


def preload() -> None:
    """Load now what a match's analysis would load on first use: each joker rule's Yardzee
    table (memory-mapped and its SHA-256 checked, 0.2 to 0.4 s in all), Yardkle's two turn
    strategies of the standard rules (about 0.1 s each) and their race tables (13 MB read and
    checked, a few hundredths of a second; built, they cost a first forecast about 30 s of a
    core). A job process calls it as it starts
    (registered with `core.warmup` in `analysis.apps`), so its first analysis does not take a
    core for that long while turns are being answered. A table missing or corrupt is logged
    here and refused by the job that needs it, as before."""
    for joker in JOKER_RULES:
        try:
            _loaded(YardzeeRules(joker=joker))
        except StrategyTableError as error:
            logger.warning("Strategy table not loaded: %s", error)
    for on_board in (False, True):
        turn_strategy(YardkleRules(), on_board, None)
    yardkle_race(YardkleRules())


def forget() -> None:
    """Drop the loaded tables (tests that point STRATEGY_DIR elsewhere)."""
    _loaded.cache_clear()
    _duel.cache_clear()
    _spread.cache_clear()
    _greedy.cache_clear()
    _race.cache_clear()


def yardkle_duel(rules: YardkleRules) -> YardkleDuel | None:
    """The solved two-player game for a Yardkle ruleset, memory-mapped from STRATEGY_DIR on
    first use (`manage.py build_strategy --yardkle-duel`) and kept; None where it is not there
    (the race model answers then)."""
    return _duel(rules)


@functools.cache
def _duel(rules: YardkleRules) -> YardkleDuel | None:
    try:
        return YardkleDuel.load(rules, Path(settings.STRATEGY_DIR))
    except StrategyTableError as error:
        if rules == YardkleRules() and SHIPPED_TABLE.exists():  # the one shipped with the code
            return YardkleDuel(rules, np.load(SHIPPED_TABLE, mmap_mode="r"))
        logger.info("Two-player Yardkle table not loaded (%s): the race model answers.", error)
        return None


def yardzee_spread(rules: Mapping[str, Any]) -> Spread:
    """The moments table beside the strategy table of a match's stored Yardzee ruleset (the
    win probability's), memory-mapped on first use and kept. Raises StrategyTableMissing /
    StrategyTableCorrupt as `yardzee_strategy` does."""
    return _spread(YardzeeRules.from_json(dict(rules)))


@functools.cache
def _spread(rules: YardzeeRules) -> Spread:
    return Spread.load(rules, Path(settings.STRATEGY_DIR), strategy=_loaded(rules))


def yardzee_greedy(rules: Mapping[str, Any]) -> GreedySpread:
    """The greedy player's moments table of a match's stored Yardzee ruleset (the weaker
    strength of the win probability), memory-mapped on first use and kept. Raises
    StrategyTableMissing / StrategyTableCorrupt as `yardzee_strategy` does."""
    return _greedy(YardzeeRules.from_json(dict(rules)))


@functools.cache
def _greedy(rules: YardzeeRules) -> GreedySpread:
    return GreedySpread.load(rules, Path(settings.STRATEGY_DIR))


def yardkle_race(rules: YardkleRules) -> bool:
    """Put the Yardkle race tables of `rules` saved in STRATEGY_DIR to use in this process, on
    first use (`YardkleRaceTables.install`); whether they were there. Where they are not, the
    race builds what it needs (about 30 s of a core for the default rules), as logged here."""
    return _race(rules)


@functools.cache
def _race(rules: YardkleRules) -> bool:
    try:
        YardkleRaceTables.load(rules, Path(settings.STRATEGY_DIR)).install()
    except StrategyTableError as error:
        logger.warning("Yardkle race tables not loaded (%s): the first race builds them.", error)
        return False
    return True
