"""What an import's replay made, compared with its file once it is done: every stage, match
and table of the new event must be what the file says (`import_mismatch` otherwise, with where
in the file). `_Replay` is a `Comparison`: these read the ids it mapped."""

from collections.abc import Iterable, Mapping
from typing import Any

from league.errors import ImportRefused
from league.models import Event, StageStatus, StandingsScope
from league.services.exports._common import (
    MATCH_FIELDS,
    STAGE_FIELDS,
    _comparable,
    _first,
    _is_id,
    _order,
    _turn_result,
)
from league.services.exports.export import event_export
from league.services.standings_refresh import compute_rows


class Comparison:
    """The comparisons of a replay with its file, over the ids it mapped: the file's players,
    matches and stages to the new ones, and the new event."""

    export: dict[str, Any]
    event: Event
    players: dict[int, int]
    matches: dict[int, int]
    stages: dict[int, int]

    def _compare_results(self) -> None:
        """Every stage and match of the new event, written as an export, against the file's:
        what the replay made of them (a stage's options, status, ranking, byes and forfeits; a
        match's rules, status, place in its stage, seats with their totals and placements, and
        each turn's points) must be what the file says, else the file was changed by hand and
        is not imported as if it had been (`import_mismatch`, `details.path`: where in the
        file)."""
        replayed = event_export(event=Event.objects.get(pk=self.event.pk))
        stages = {self.stages[stage["id"]]: stage for stage in self.export["stages"]}
        for stage in replayed["stages"]:
            original = stages[stage["id"]]
            where = f"/stages/{self.export['stages'].index(original)}"
            self._same(where, original, stage, STAGE_FIELDS)
            if original["status"] != StageStatus.DRAFT:  # the scheme its start kept
                self._same(where, original, stage, ["points"])
            self._same(where, original, stage, {"ranking": self._tiers})
            self._same(where, original, stage, {"group_ranking": self._group_tiers})
            self._same(
                where, original, stage, {"byes": self._with_players, "forfeits": self._with_players}
            )
        by_new = {new: old for old, new in self.matches.items()}
        matches = {match["id"]: (n, match) for n, match in enumerate(self.export["matches"])}
        for match in replayed["matches"]:
            if match["id"] not in by_new:
                raise ImportRefused(
                    "import_mismatch",
                    "Replayed, the event has a match the file does not list: the file's results "
                    "cannot be replayed.",
                    details={"path": "/matches"},
                )
            number, original = matches[by_new[match["id"]]]
            where = f"/matches/{number}"
            self._same(where, original, match, MATCH_FIELDS)
            self._same(where, original, match, {"stage": self._stage, "seats": self._seats})
            turns = [self._turn(t) for t in original["turns"]]
            if sorted(turns, key=_first) != [_turn_result(t) for t in match["turns"]]:
                self._mismatch(f"{where}/turns", "its turns' points")

    def _same(
        self,
        where: str,
        original: Mapping[str, Any],
        replayed: Mapping[str, Any],
        fields: Iterable[str] | Mapping[str, Any],
    ) -> None:
        """Each of `fields` of the file's row (mapped to the new ids by the callable given for
        it) is the replay's."""
        mapping = fields if isinstance(fields, Mapping) else dict.fromkeys(fields)
        for field, mapped in mapping.items():
            value = original[field] if mapped is None else mapped(original[field])
            if value != replayed[field]:
                self._mismatch(f"{where}/{field}", f"its {field.replace('_', ' ')}")

    def _mismatch(self, path: str, what: str) -> None:
        raise ImportRefused(
            "import_mismatch",
            f"Replayed, {what} at {path} differs from the file's: the file was changed after "
            "it was exported, and its results cannot be replayed.",
            details={"path": path},
        )

    def _player(self, player: Any) -> Any:
        return self.players.get(player, -1) if _is_id(player) else player

    def _tiers(self, tiers: Any) -> Any:
        if not isinstance(tiers, list):
            return tiers
        return [[self._player(p) for p in tier] for tier in tiers]

    def _group_tiers(self, groups: Any) -> Any:
        if not isinstance(groups, dict):
            return groups
        return {group: self._tiers(tiers) for group, tiers in groups.items()}

    def _with_players(self, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Rows of the file (byes, forfeits, seats) with their players' new ids."""
        return [self._mapped_row(row) for row in rows]

    def _stage(self, stage: Any) -> Any:
        return None if stage is None else self.stages.get(stage, -1)

    def _seats(self, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self._with_players(sorted(seats, key=_order))

    def _turn(self, turn: Mapping[str, Any]) -> tuple[Any, ...]:
        return _turn_result({**turn, "player": self._player(turn["player"])})

    def _compare_tables(self) -> None:
        """Every table of the new event, computed from its results, against the file's."""
        expected = self.export["standings"]
        tables = [((StandingsScope.EVENT.value, self.event.pk), expected["event"], "event")]
        tables += [
            (
                (StandingsScope.STAGE.value, self.stages[table["stage"]]),
                table,
                f"stage {table['stage']}",
            )
            for table in expected["stages"]
            if table["stage"] in self.stages
        ]
        for scope, table, name in tables:
            tiebreak, rows = compute_rows(scope)
            wanted = self._with_players(table["rows"])
            if tiebreak != table["tiebreak"] or _comparable(rows) != _comparable(wanted):
                raise ImportRefused(
                    "import_mismatch",
                    f"Replayed, the {name} table differs from the file's: the file's standings "
                    "do not follow from its matches.",
                    details={"table": name},
                )

    def _mapped_row(self, row: Mapping[str, Any]) -> dict[str, Any]:
        return {**row, "player": self._player(row["player"])}
