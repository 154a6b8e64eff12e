"""Rows from NumPy columns with one binary COPY (`core.copy`): floats arrive with their bits,
timestamps to the microsecond, and columns of the wrong kind are refused before anything is
sent."""

import math

import numpy as np
import pytest

from core import copy
from core.copy import copy_columns
from games import services as game_services
from league.models import League, Player, RatingChange

pytestmark = pytest.mark.django_db

FLOATS = [math.nan, -0.0, math.inf, -math.inf, 5e-324, 0.1 + 0.2, -1.7976931348623157e308]
TIMES = [
    "1999-12-31T23:59:59.999999",  # before PostgreSQL's epoch
    "2000-01-01T00:00:00",
    "2026-03-29T01:30:00.000001",
    "2026-12-05T23:59:59.123456",
    "1970-01-01T00:00:00",
    "2262-04-11T23:47:16.854775",
    "1901-01-01T00:00:00.5",
]


@pytest.fixture
def keys() -> tuple[int, list[int], int]:
    """A league, players and a match for the rows to point at."""
    league = League.objects.create(name="Copies", slug="copies", game="yardzee")
    players = [Player.objects.create(display_name=f"C{i}", handle=f"c-{i}").pk for i in range(7)]
    match = game_services.match_create(game="yardzee", player_ids=players[:2], rules={})
    return league.pk, players, match.pk


def _columns(keys: tuple[int, list[int], int]) -> dict[str, np.ndarray]:
    league, players, match = keys
    return {
        "league": np.full(len(players), league, dtype=np.int64),
        "player": np.array(players, dtype=np.int64),
        "match": np.full(len(players), match, dtype=np.int64),
        "finished_at": np.array(TIMES, dtype="datetime64[us]"),
        "mu": np.array(FLOATS),
        "sigma": np.array(FLOATS[::-1]),
        "ordinal": np.arange(len(players), dtype=np.float64) / 3,
    }


@pytest.mark.parametrize("chunk", [3, 100_000])
def test_the_rows_go_in_with_their_floats_bits_and_their_microseconds(keys, chunk, monkeypatch):
    monkeypatch.setattr(copy, "_CHUNK", chunk)  # rows a write: three writes of rows, or one
    columns = _columns(keys)
    assert copy_columns(RatingChange, columns) == 7
    stored = list(
        RatingChange.objects.order_by("pk").values_list(
            "league_id", "player_id", "match_id", "finished_at"
        )
    )
    assert [row[:3] for row in stored] == [
        (keys[0], player, keys[2]) for player in columns["player"].tolist()
    ]
    assert [row[3].isoformat(timespec="microseconds") for row in stored] == [
        np.datetime_as_string(t, unit="us", timezone="UTC").replace("Z", "+00:00")
        for t in columns["finished_at"]
    ]
    floats = list(RatingChange.objects.order_by("pk").values_list("mu", "sigma", "ordinal"))
    for place, name in enumerate(["mu", "sigma", "ordinal"]):
        assert [row[place].hex() for row in floats] == [x.hex() for x in columns[name].tolist()]


def test_no_rows_is_no_rows(keys):
    empty = {name: column[:0] for name, column in _columns(keys).items()}
    assert copy_columns(RatingChange, empty) == 0
    assert not RatingChange.objects.exists()


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"mu": np.zeros(7, dtype=np.float32)}, TypeError, "RatingChange.mu takes float64"),
        ({"player": np.zeros(7, dtype=np.int32)}, TypeError, "RatingChange.player takes int64"),
        ({"ordinal": np.zeros(6)}, ValueError, "differ in length"),
        (
            {"finished_at": np.array(["NaT"] * 7, dtype="datetime64[us]")},
            ValueError,
            "takes no NaT",
        ),
        (
            {"finished_at": np.zeros(7, dtype="datetime64[s]")},
            TypeError,
            r"takes datetime64\[us\] values, not datetime64\[s\]",
        ),
    ],
)
def test_a_column_of_the_wrong_kind_is_refused_before_a_row_goes_in(keys, change, error, message):
    with pytest.raises(error, match=message):
        copy_columns(RatingChange, {**_columns(keys), **change})
    assert not RatingChange.objects.exists()


def test_a_field_of_a_type_it_does_not_send_is_refused(keys):
    with pytest.raises(TypeError, match=r"Player\.display_name is varchar"):
        copy_columns(Player, {"display_name": np.array(["x"])})
    with pytest.raises(TypeError, match=r"League\.rating_changes is not a column"):
        copy_columns(League, {"rating_changes": np.zeros(1, dtype=np.int64)})
