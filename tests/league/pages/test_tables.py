"""Standings tables and leaderboards as the pages show them (league.pages.tables), built from
plain reads without a database."""

from datetime import UTC, datetime
from typing import Any

import pytest

from league.pages.tables import (
    across_groups,
    leaderboard_table,
    metric_label,
    metric_text,
    standings_table,
    tiebreak_labels,
)
from league.selectors import Leaderboard, LeaderboardRow, StandingsAnswer

COMPUTED = datetime(2026, 5, 2, 20, 0, tzinfo=UTC)


def _row(player: int, rank: int, **values: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "rank": rank,
        "player": player,
        "name": f"P{player}",
        "matches": 4,
        "wins": 2,
        "draws": 1,
        "byes": 0,
        "points": 7.0,
        "metrics": {},
    }
    row.update(values)
    return row


def _answer(*rows: dict[str, Any], group: int | None = None, **kw: Any) -> StandingsAnswer:
    return StandingsAnswer(
        scope="stage",
        scope_id=9,
        group=group,
        tiebreak=kw.get("tiebreak", ("points", "wins")),
        computed_at=COMPUTED,
        pending=kw.get("pending", False),
        rows=rows,
    )


@pytest.mark.parametrize(
    ("key", "value", "text"),
    [
        ("points", None, "\u2013"),
        ("points", True, "yes"),
        ("points", 7.0, "7"),
        ("points", 7.5, "7.5"),
        ("points", 2 / 3, "0.67"),
        ("points", 1234.0, "1,234"),
        ("average_score", 187.25, "187.2"),
        ("total_score", 12345, "12,345"),
        ("head_to_head", "n/a", "n/a"),
    ],
)
def test_a_metric_value_reads_as_the_table_shows_it(key: str, value: object, text: str) -> None:
    assert metric_text(key, value) == text


def test_columns_follow_the_tiebreak_order_with_their_labels() -> None:
    table = standings_table(
        _answer(_row(1, 1, metrics={"head_to_head": 1.0}), tiebreak=("head_to_head", "points")),
        caption="Spring: standings",
    )
    assert [(c.key, c.label) for c in table.columns] == [
        ("head_to_head", "Head-to-head"),
        ("points", "Points"),
    ]
    # A metric's value comes from the row's metrics, else from the row itself.
    assert table.rows[0].cells == ("1", "7")
    assert table.caption == "Spring: standings"
    assert table.computed_at == COMPUTED


def test_the_record_counts_a_bye_as_neither_a_played_win_nor_a_loss() -> None:
    table = standings_table(
        _answer(_row(1, 1, matches=5, wins=3, draws=1, byes=1), _row(2, 2)), caption="t"
    )
    assert [row.record for row in table.rows] == ["2\u20131\u20132", "2\u20131\u20131"]
    assert table.with_byes
    assert not table.with_forfeits


def test_forfeits_show_only_when_a_row_has_one_and_rows_without_the_key_count_none() -> None:
    table = standings_table(_answer(_row(1, 1), _row(2, 2, forfeits=1)), caption="t")
    assert [row.forfeits for row in table.rows] == [0, 1]
    assert table.with_forfeits


def test_a_groups_table_has_its_own_id_and_an_empty_one_no_rows() -> None:
    assert standings_table(_answer(), caption="t").id == "standings-stage-9"
    grouped = standings_table(_answer(group=2), caption="t")
    assert grouped.id == "standings-stage-9-group-2"
    assert grouped.rows == ()
    assert not grouped.with_byes


def test_labels_of_an_order_and_what_compares_players_across_groups() -> None:
    assert metric_label("no_such_metric") == "No such metric"
    assert tiebreak_labels(["points", "head_to_head"]) == ("Points", "Head-to-head")
    # Head-to-head is a group's own: never used across groups.
    assert across_groups(["head_to_head", "points", "no_such_metric"]) == ("Points",)


def test_the_leaderboard_carries_each_players_accuracy_or_none() -> None:
    board = Leaderboard(
        league="spring",
        computed_at=COMPUTED,
        pending=True,
        rows=(
            LeaderboardRow(
                rank=1, player=4, name="P4", mu=27.0, sigma=3.0, ordinal=18.0, matches=6
            ),
            LeaderboardRow(
                rank=1, player=5, name="P5", mu=27.0, sigma=3.0, ordinal=18.0, matches=6
            ),
        ),
    )
    table = leaderboard_table(board, league_name="Spring", accuracy={4: 91.5})
    assert [(row.player, row.rank, row.accuracy) for row in table.rows] == [
        (4, 1, 91.5),
        (5, 1, None),
    ]
    assert table.league_name == "Spring"
    assert table.pending
    assert table.computed_at == COMPUTED
