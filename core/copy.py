"""Many rows into one table with PostgreSQL's binary COPY, from NumPy columns (docs/standings.md,
"Our own arithmetic"; docs/benchmarks.md, "Season scale").

`bulk_create` makes a model object a row and binds every value on the client: for the
tens of thousands of rows of a ratings replay that is most of the job. `copy_columns` sends
the columns as they are instead: the rows are laid out in COPY's binary format with NumPy (a
big-endian record a row) and written a few megabytes at a time, so a float reaches the table
with its bits (no text in between) and no Python object is made a row. The columns' dtypes
must be the fields' own: int64 for bigint fields (keys among them), float64 for double precision,
datetime64[us] (UTC) for timestamps with time zone. No NULLs; columns left out take their
defaults (an identity key its next value)."""

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from django.db import connections, models, router

# COPY's binary format: a signature and two int32s (flags, header extension length) first, an
# int16 of -1 last.
_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
_TRAILER = b"\xff\xff"
# PostgreSQL counts timestamps in microseconds from 2000-01-01 UTC.
_POSTGRES_EPOCH = np.datetime64("2000-01-01T00:00:00", "us")
# A column's dtype by the field's database type, and the big-endian type it is sent as.
_TYPES = {
    "bigint": (np.dtype(np.int64), ">i8"),
    "double precision": (np.dtype(np.float64), ">f8"),
    "timestamp with time zone": (np.dtype("datetime64[us]"), ">i8"),
}
_WIDTH = 8  # every type above is 8 bytes
_CHUNK = 100_000  # rows a write: a few megabytes, however long the history


def copy_columns(model: type[models.Model], columns: Mapping[str, npt.NDArray[Any]]) -> int:
    """Insert a row into `model`'s table for every entry of `columns` (field name: values, all
    of one length), in order, with one binary COPY on the model's database for writing.
    Returns how many rows went in."""
    rows = {len(values) for values in columns.values()}
    if len(rows) != 1:
        raise ValueError(f"The columns differ in length: {sorted(rows)}.")
    (count,) = rows
    db = router.db_for_write(model)
    connection = connections[db]
    names: list[str] = []
    layout: list[tuple[str, str]] = [("fields", ">i2")]
    values: dict[str, npt.NDArray[Any]] = {}
    for name, column in columns.items():
        field = model._meta.get_field(name)
        if not isinstance(field, models.Field) or field.column is None:
            raise TypeError(f"{model.__name__}.{name} is not a column of its table.")
        kind = field.db_type(connection)
        if kind not in _TYPES:
            raise TypeError(f"{model.__name__}.{name} is {kind}: not a type copy_columns sends.")
        dtype, sent = _TYPES[kind]
        if column.dtype != dtype:
            raise TypeError(f"{model.__name__}.{name} takes {dtype} values, not {column.dtype}.")
        if dtype.kind == "M":
            if np.isnat(column).any():
                raise ValueError(f"{model.__name__}.{name} takes no NaT.")
            column = (column - _POSTGRES_EPOCH).astype(np.int64)
        names.append(connection.ops.quote_name(field.column))
        layout += [(f"{name} length", ">i4"), (name, sent)]
        values[name] = column
    record = np.empty(count, dtype=np.dtype(layout))
    record["fields"] = len(values)
    for name, column in values.items():
        record[f"{name} length"] = _WIDTH
        record[name] = column
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor: its copy()
        with raw.copy(f"COPY {table} ({', '.join(names)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.write(_SIGNATURE)
            for start in range(0, count, _CHUNK):
                copy.write(record[start : start + _CHUNK].tobytes())
            copy.write(_TRAILER)
    return count
