"""The Yardzee strategy tables a process uses, loaded once per process (memory-mapped from
STRATEGY_DIR, built by `manage.py build_strategy`) and never per task."""

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings

from scoring.analysis import Strategy
from scoring.yardzee import YardzeeRules


def yardzee_strategy(rules: Mapping[str, Any]) -> Strategy:
    """The table for a match's stored Yardzee ruleset, memory-mapped on first use and kept for
    the process's life. Raises StrategyTableMissing / StrategyTableCorrupt (never answers from
    a wrong table)."""
    return _loaded(YardzeeRules.from_json(dict(rules)))


@functools.cache
def _loaded(rules: YardzeeRules) -> Strategy:
    return Strategy.load(rules, Path(settings.STRATEGY_DIR))


def forget() -> None:
    """Drop the loaded tables (tests that point STRATEGY_DIR elsewhere)."""
    _loaded.cache_clear()
