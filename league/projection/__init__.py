"""Projections: each player's chance to finish in each place, to qualify for the next stage
and to win the stage, from simulating the rest of it with the players' ratings, on plain data
apart from the database (docs/analysis.md, "Chance to qualify").

A service loads the stage as a `StageSetup` (its results, the matches left, the bracket, the
next stage's cut) and the players' ratings, calls `project_stage`, and stores the
`Projection`. Nothing here imports Django."""

from league.projection.model import (
    DEFAULT_RUNS,
    FORMATS,
    FormatName,
    Pending,
    PlayerChances,
    Projection,
    Qualifying,
    StageSetup,
    standard_error,
)
from league.projection.simulate import Overrides, project_stage

__all__ = [
    "DEFAULT_RUNS",
    "FORMATS",
    "FormatName",
    "Overrides",
    "Pending",
    "PlayerChances",
    "Projection",
    "Qualifying",
    "StageSetup",
    "project_stage",
    "standard_error",
]
