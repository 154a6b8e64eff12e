"""The Yardkle race tables on disk: both styles' `RaceTables` and final-round odds
(`yardkle_race`), built by `manage.py build_strategy` beside the strategy tables, so that a
process answers its first race of three or more players from a file instead of building them
(about 30 s of a core, which a worker spent in its first forecast of such a match, on the
cores that serve the turns: docs/benchmarks.md, "Win probability: Yardkle race").

One `.npy` file of float64 holds every array one after the other; its manifest
(`scoring.analysis.table_file`, checked as the other tables are: format, fingerprint, shape,
checksum) gives each array's name, shape and dtype. The fingerprint covers the rules, the
constants and the source of the modules the numbers come from, so a table built by other code
is refused (and built again by `build_strategy`); until then a process builds what it needs
as before."""

import hashlib
import os
from math import ceil, prod
from pathlib import Path
from time import process_time
from typing import Final

import numpy as np

from scoring import yardkle as yardkle_scoring
from scoring.analysis import yardkle as yardkle_turn
from scoring.analysis.rolls import FloatArray
from scoring.analysis.table_file import StrategyTableCorrupt, load_table, save_table
from scoring.analysis.yardkle import STEP, TIE
from scoring.winprob import yardkle_race, yardkle_turns
from scoring.winprob.yardkle_race import ABOVE, SHIPPED, RaceTables, final_odds, race_tables
from scoring.winprob.yardkle_turns import Style
from scoring.yardkle import YardkleRules

STYLES: Final[tuple[Style, ...]] = ("points", "weak")
FIELDS: Final = ("alive", "reach", "beat_odds", "tie_odds", "success", "tie")
_SOURCES: Final = (yardkle_scoring, yardkle_turn, yardkle_turns, yardkle_race)


def table_name(rules: YardkleRules) -> str:
    """The table file's name (without extension): "yardkle-race-10000-500"."""
    return f"yardkle-race-{rules.target}-{rules.entry_minimum}"


def _fingerprint(rules: YardkleRules) -> str:
    digest = hashlib.sha256(repr((rules.to_json(), STEP, TIE, ABOVE, STYLES, FIELDS)).encode())
    for module in _SOURCES:
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()


class YardkleRaceTables:
    """Both styles' race tables and final-round odds of one ruleset: built (`build`), written
    (`save`), read back (`load`), and put to use by this process's races (`install`)."""

    __slots__ = ("build_seconds", "parts", "rules")

    def __init__(
        self,
        rules: YardkleRules,
        parts: dict[Style, tuple[RaceTables, FloatArray]],
        build_seconds: float = 0.0,
    ) -> None:
        self.rules = rules
        self.parts = parts
        self.build_seconds = build_seconds

    @classmethod
    def build(cls, rules: YardkleRules | None = None) -> "YardkleRaceTables":
        """Build both styles' tables (about 30 s of a core for the default rules)."""
        rules = rules if rules is not None else YardkleRules()
        started = process_time()
        parts = {style: (race_tables(rules, style), final_odds(rules, style)) for style in STYLES}
        return cls(rules, parts, process_time() - started)

    def install(self) -> None:
        """From now on this process's races of these rules use these tables."""
        for style, part in self.parts.items():
            SHIPPED[(self.rules, style)] = part

    def _arrays(self) -> list[tuple[str, FloatArray]]:
        arrays = []
        for style in STYLES:
            tables, odds = self.parts[style]
            arrays += [(f"{style}.{field}", getattr(tables, field)) for field in FIELDS]
            arrays.append((f"{style}.final_odds", odds))
        return arrays

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the tables and their manifest into `directory`; returns the table's path."""
        arrays = self._arrays()
        layout = [[name, list(array.shape), array.dtype.str] for name, array in arrays]
        data = np.concatenate([np.asarray(array, dtype=np.float64).ravel() for _, array in arrays])
        facts = {
            "game": "yardkle-race",
            "rules": self.rules.to_json(),
            "layout": layout,
            "build_seconds": self.build_seconds,
        }
        name, fingerprint = table_name(self.rules), _fingerprint(self.rules)
        return save_table(directory, name, data, fingerprint=fingerprint, facts=facts)

    @classmethod
    def load(
        cls, rules: YardkleRules | None, directory: str | os.PathLike[str]
    ) -> "YardkleRaceTables":
        """The tables saved in `directory` for `rules`. Raises `StrategyTableMissing` or
        `StrategyTableCorrupt` (`scoring.analysis`), never answers from a wrong table."""
        rules = rules if rules is not None else YardkleRules()
        data, manifest = load_table(
            directory, table_name(rules), fingerprint=_fingerprint(rules), shape=None
        )
        found: dict[str, FloatArray] = {}
        start = 0
        try:
            for name, shape, dtype in manifest["layout"]:
                size = prod(shape)
                found[name] = np.asarray(data[start : start + size].reshape(shape), dtype=dtype)
                start += size
            goal = ceil(rules.target / STEP)
            parts = {
                style: (
                    RaceTables(goal, *(found[f"{style}.{field}"] for field in FIELDS)),
                    found[f"{style}.final_odds"],
                )
                for style in STYLES
            }
        except (KeyError, TypeError, ValueError) as error:
            raise StrategyTableCorrupt(
                f"{directory}/{table_name(rules)}.json does not describe its table: {error}; "
                "rebuild it.",
                path=Path(directory),
            ) from error
        if start != data.size:
            raise StrategyTableCorrupt(
                f"{directory}/{table_name(rules)}.npy is not the size its layout says: rebuild it.",
                path=Path(directory),
            )
        return cls(rules, parts, float(manifest.get("build_seconds", 0.0)))
