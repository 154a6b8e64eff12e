"""The strategy engine: optimal play for Yardzee and Yardkle, and the analysis of played games.

Pure code like the rest of `scoring` (the standard library and NumPy; RULES.md is the
specification and `scoring.yardzee` / `scoring.yardkle` the only definition of a score). The one
exception to "no I/O" is `scoring.analysis.table_file`, which saves and memory-maps the Yardzee
strategy tables. docs/analysis.md has the method, the objectives and the figures.
"""

from scoring.analysis.game_analysis import (
    Decision,
    GameAnalysis,
    PlayerSummary,
    TurnAnalysis,
    accuracy,
    analyse_game,
)
from scoring.analysis.option import Option
from scoring.analysis.table_file import (
    StrategyTableCorrupt,
    StrategyTableError,
    StrategyTableMissing,
)
from scoring.analysis.yardkle import TurnStrategy
from scoring.analysis.yardzee import Strategy, YardzeeState

__all__ = [
    "Decision",
    "GameAnalysis",
    "Option",
    "PlayerSummary",
    "Strategy",
    "StrategyTableCorrupt",
    "StrategyTableError",
    "StrategyTableMissing",
    "TurnAnalysis",
    "TurnStrategy",
    "YardzeeState",
    "accuracy",
    "analyse_game",
]
