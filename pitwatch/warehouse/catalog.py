"""What the warehouse database holds: tables, their columns and types, engines, sort keys.

Learned from the database itself (``system.tables`` and ``system.columns``, which
ClickHouse 18.16 and chDB both have, with the same type spellings) after ``schema.sql``
ran, rather than by parsing ``schema.sql``: the engine's own parser has read the DDL, the
types come out spelled exactly as in query results (so :mod:`pitwatch.warehouse.values`
has one spelling to interpret), and the sink writes the tables as they really are (a
table created by an older ``schema.sql`` is not silently assumed to have new columns).
A table, a column or a type added to ``schema.sql`` therefore needs no code change here.

Conventions read from a table's definition:

* a ``ReplacingMergeTree`` table is a sink table: its deterministic id column is the last
  column of its ``ORDER BY`` (``ORDER BY (table_id, settlement_id)`` -> ``settlement_id``);
  the other plain ``ORDER BY`` columns narrow the id lookups of the sink;
* a ``SummingMergeTree`` table is read summed per ``ORDER BY`` key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

from pitwatch.warehouse.values import ColumnType, column_type

__all__ = ["Table", "read_catalog"]


def _key_columns(sorting_key: str) -> tuple[str, ...]:
    """``"table_id, event_id"`` -> ``("table_id", "event_id")`` (expressions kept as text)."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(sorting_key):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(sorting_key[start:i])
            start = i + 1
    parts.append(sorting_key[start:])
    return tuple(p.strip().strip("`") for p in parts if p.strip())


@dataclass(frozen=True)
class Table:
    """One table of the warehouse database, as the database describes it.

    ``columns``: ``{column: ClickHouse type}`` in table order (e.g. ``{"stake":
    "Decimal(18, 2)"}``); ``engine``: e.g. ``"ReplacingMergeTree"``; ``sorting_key``: the
    ``ORDER BY`` columns (or expressions), in order.
    """

    name: str
    engine: str
    columns: dict[str, str] = field(hash=False)
    sorting_key: tuple[str, ...] = ()

    @cached_property
    def types(self) -> dict[str, ColumnType]:
        """``{column: ColumnType}`` in table order."""
        return {c: column_type(t) for c, t in self.columns.items()}

    @property
    def id_column(self) -> str | None:
        """The deterministic id column of a sink table (``ReplacingMergeTree``: the last
        ``ORDER BY`` column), ``None`` for any other table."""
        if self.engine != "ReplacingMergeTree" or not self.sorting_key:
            return None
        last = self.sorting_key[-1]
        return last if last in self.columns else None

    @property
    def narrowing_columns(self) -> tuple[str, ...]:
        """The plain ``ORDER BY`` columns other than the id: an id lookup filters on them too."""
        return tuple(c for c in self.sorting_key if c in self.columns and c != self.id_column)


def read_catalog(execute: Callable[[str], list[tuple]], database: str) -> dict[str, Table]:
    """``{table name: Table}`` of ``database`` (empty if it does not exist).

    ``execute`` runs one SQL text and returns typed rows (a backend's primitive);
    ``database`` must be a plain identifier. Two queries. Raises what ``execute`` raises.
    """
    tables = execute(f"SELECT name, engine, sorting_key FROM system.tables WHERE database = '{database}'")
    columns: dict[str, dict[str, str]] = {name: {} for name, _, _ in tables}
    for table, name, typ in execute(
        f"SELECT table, name, type FROM system.columns WHERE database = '{database}'"
    ):
        if table in columns:
            columns[table][name] = typ
    return {
        name: Table(name, engine, columns[name], _key_columns(key))
        for name, engine, key in tables
    }
