"""The idempotent sink's two steps: validate rows for a table, then keep the unseen ids.

Both work from the table as the database describes it (:class:`~pitwatch.warehouse.catalog.Table`),
so a table or column added to ``schema.sql`` is written without a code change, following
these conventions for a column a row leaves out:

* the id column (last ``ORDER BY`` column) is required;
* ``<name>_ms`` takes the milliseconds of the row's ``<name>_at`` datetime, if given;
* ``ingested_at`` is now (UTC, to the second);
* other columns take their type's default (``''``, ``0``, ``Decimal('0.00')``, ``[]``);
  ``DateTime``/``Date`` columns have none and are required.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any, Callable, Iterable

from pitwatch.warehouse.catalog import Table
from pitwatch.warehouse.sql import quote
from pitwatch.warehouse.values import MISSING, ColumnType, StringType

__all__ = ["ID_LOOKUP_CHUNK", "prepare", "unseen"]

ID_LOOKUP_CHUNK = 1000
"""Ids per existence query: keeps the SQL text far below ClickHouse's ``max_query_size``."""


def _default(table: Table, col: str, ctype: ColumnType, row: dict[str, Any]) -> Any:
    if col == table.id_column:
        raise ValueError(f"{table.name}: row without {col}")
    if col.endswith("_ms") and col[:-3] + "_at" in row:
        ts = row[col[:-3] + "_at"]
        if isinstance(ts, _dt.datetime):
            return ts.microsecond // 1000
    if ctype.default is not MISSING:
        return ctype.default
    if col == "ingested_at":
        return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)
    raise ValueError(f"{table.name}: row without required column {col}")


def _locate(table: Table, row: dict[str, Any], error: Exception) -> Exception:
    """``error`` raised while accepting ``row``, renamed after the first column that fails."""
    for col, ctype in table.types.items():
        if col in row:
            try:
                ctype.accept(row[col])
            except (TypeError, ValueError) as e:
                return type(e)(f"{table.name}.{col}: {e}")
    return error  # raised by _default: already names the table


def prepare(table: Table, rows: Iterable[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Validate ``rows`` (dicts keyed by column name) for ``table`` and return tuples of
    accepted values in the table's column order (missing columns filled, module doc).

    Raises ``ValueError`` (unknown column, missing id or required column, fraction of a
    cent, naive datetime, out of range) or ``TypeError`` (wrong Python type, e.g. a float
    for money), naming ``table.column``.
    """
    plan = [(c, t, t.accept) for c, t in table.types.items()]
    names = table.columns.keys()
    out = []
    for row in rows:
        try:
            if len(row) == len(plan) and row.keys() == names:
                out.append(tuple([accept(row[c]) for c, _, accept in plan]))
                continue
            unknown = row.keys() - names
            if unknown:
                raise ValueError(f"{table.name}: unknown column(s) {sorted(unknown)}")
            out.append(tuple([
                accept(row[c]) if c in row else _default(table, c, t, row) for c, t, accept in plan
            ]))
        except (TypeError, ValueError) as e:
            raise _locate(table, row, e) from None
    return out


def _id_set(ids: list[Any], as_text: bool) -> str:
    """The SQL of a set of ids for ``IN``: text ids without a comma as one string literal split
    by the server (``(SELECT arrayJoin(splitByChar(',', '...')))``: ClickHouse parses one long
    literal several times faster than a thousand short ones), else a tuple of literals."""
    if as_text and not any("," in i for i in ids):
        return f"(SELECT arrayJoin(splitByChar(',', {quote(','.join(ids))})))"
    return quote(tuple(ids))


def unseen(table: Table, rows: list[tuple[Any, ...]], execute: Callable[[str], list[tuple]],
           database: str) -> list[tuple[Any, ...]]:
    """The rows of ``rows`` (prepared for ``table``) whose id is not stored in
    ``database``, without repeats: an id repeated in ``rows`` keeps its first row.

    Looks ids up ``ID_LOOKUP_CHUNK`` at a time, each lookup narrowed by the table's other
    ``ORDER BY`` columns (``table_id IN (...)``) so the primary index prunes it. ``execute``
    runs one SQL text (a backend primitive). Raises ``ValueError`` if ``table`` is not a
    sink table, and what ``execute`` raises.
    """
    id_col = table.id_column
    if id_col is None:
        raise ValueError(f"{table.name} is not a sink table (a ReplacingMergeTree keyed on an id)")
    names = list(table.columns)
    id_pos = names.index(id_col)
    narrowing = [(c, names.index(c)) for c in table.narrowing_columns]
    batch: dict[Any, tuple[Any, ...]] = {}
    for r in rows:
        batch.setdefault(r[id_pos], r)
    firsts = list(batch.values())
    found: set[Any] = set()
    as_text = isinstance(table.types[id_col], StringType)
    for start in range(0, len(firsts), ID_LOOKUP_CHUNK):
        chunk = firsts[start:start + ID_LOOKUP_CHUNK]
        sql = (f"SELECT `{id_col}` FROM {database}.{table.name} "
               f"WHERE `{id_col}` IN {_id_set([r[id_pos] for r in chunk], as_text)}")
        for col, pos in narrowing:
            sql += f" AND `{col}` IN {quote(tuple(sorted({r[pos] for r in chunk})))}"
        found.update(r[0] for r in execute(sql))
    return [r for i, r in batch.items() if i not in found]
