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
* except a table a materialized view writes to (``table_hourly_rows``): only its views write it;
* a ``SummingMergeTree`` table is read summed per ``ORDER BY`` key; a plain view
  (``table_hourly``) is read as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

from pitwatch.warehouse.values import ColumnType, column_type

__all__ = ["Table", "read_catalog"]

# `CREATE MATERIALIZED VIEW db.v TO db.t ...`: the target, as 18.16 and chDB spell it back.
_VIEW_TARGET_RE = re.compile(r"(?is)^CREATE\s+MATERIALIZED\s+VIEW\s+\S+\s+TO\s+`?(\w+)`?\.`?(\w+)`?")


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
    fed_by_views: bool = False
    """A materialized view writes this table: it is not a sink table."""

    @cached_property
    def types(self) -> dict[str, ColumnType]:
        """``{column: ColumnType}`` in table order."""
        return {c: column_type(t) for c, t in self.columns.items()}

    @property
    def id_column(self) -> str | None:
        """The deterministic id column of a sink table (``ReplacingMergeTree``: the last
        ``ORDER BY`` column), ``None`` for any other table, and for one a materialized view
        writes to."""
        if self.engine != "ReplacingMergeTree" or not self.sorting_key or self.fed_by_views:
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
    ``database`` must be a plain identifier. Two queries. A table some materialized view
    writes to is marked ``fed_by_views``. Raises what ``execute`` raises.
    """
    tables = execute("SELECT name, engine, sorting_key, create_table_query FROM system.tables "
                     f"WHERE database = '{database}'")
    columns: dict[str, dict[str, str]] = {name: {} for name, _, _, _ in tables}
    fed = set()
    for _, engine, _, create in tables:
        m = _VIEW_TARGET_RE.match(create) if engine == "MaterializedView" else None
        if m is not None and m.group(1) == database:
            fed.add(m.group(2))
    for table, name, typ in execute(
        f"SELECT table, name, type FROM system.columns WHERE database = '{database}'"
    ):
        if table in columns:
            columns[table][name] = typ
    return {
        name: Table(name, engine, columns[name], _key_columns(key), name in fed)
        for name, engine, key, _ in tables
    }
