"""The warehouse interface both backends implement: DDL, the idempotent sink, reads.

A backend supplies three primitives: ``_execute_columns(sql)`` (one rendered statement -> names and typed
rows, converted by :mod:`pitwatch.warehouse.values`), ``_insert_rows(table, columns,
rows)`` (one batch of prepared rows) and ``_close()``.

FINAL: which reads need it
    The sink tables (``ReplacingMergeTree``, keyed on deterministic ids: ``events_raw``,
    ``settlements``, ``alerts``, ``rejected``, ...) never get an id that is already stored
    from :meth:`Warehouse.insert_new`, so duplicates appear only after two writers raced
    on the same id (e.g. two workers during a rebalance). Any read that counts or sums
    rows of those tables (reports, verdicts, detectors computing from the warehouse) must
    read ``FROM pitwatch.<table> FINAL``; :meth:`Warehouse.rows` does so. Existence checks
    (``insert_new``'s id lookup) and "latest N rows" displays do not need it.
    ``table_hourly`` is a view that sums ``table_hourly_rows FINAL`` (one row per
    settlement and movement, written by materialized views) per table and hour: read it
    with ``sum(col) ... GROUP BY``; it already counts each source row once, even after two
    writers raced. A ``SummingMergeTree`` table (none in ``schema.sql`` now) would be read
    with ``sum(col) ... GROUP BY`` its key columns.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from pitwatch.warehouse.catalog import Table, read_catalog
from pitwatch.warehouse.ddl import check_ident, rename_database
from pitwatch.warehouse.sink import prepare, unseen
from pitwatch.warehouse.sql import render
from pitwatch.warehouse.values import DecimalType

if TYPE_CHECKING:
    from pitwatch.warehouse.migrate import MigrationStep

__all__ = ["Warehouse", "WarehouseError"]


class WarehouseError(RuntimeError):
    """A backend failed (bad SQL, server unreachable, chDB path conflict, no schema, ...).

    The driver's or chDB's original exception, if any, is chained as ``__cause__``.
    """


class Warehouse(ABC):
    """The pitwatch warehouse: the DDL, the idempotent sink and parametrized reads.

    Attributes: ``url`` (as opened), ``database`` (the real database name that
    ``pitwatch.`` in SQL maps to), ``backend`` (``"server"`` or ``"chdb"``). Methods are
    thread-safe (one lock per object). Use as a context manager or call :meth:`close`.
    """

    backend: str = ""

    def __init__(self, url: str, database: str):
        self.url = url
        self.database = check_ident(database)
        self._lock = threading.RLock()
        self._closed = False
        self._catalog: dict[str, Table] | None = None

    # backend primitives -------------------------------------------------------------
    @abstractmethod
    def _execute_columns(self, sql: str) -> tuple[list[str], list[tuple]]:
        """Run one statement (already rendered and renamed); its column names and typed rows."""

    def _execute(self, sql: str) -> list[tuple]:
        return self._execute_columns(sql)[1]

    @abstractmethod
    def _insert_rows(self, table: Table, rows: list[tuple]) -> None:
        """Insert prepared rows (``table``'s column order) in one batch."""

    @abstractmethod
    def _close(self) -> None: ...

    # public API ---------------------------------------------------------------------
    def query(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple]:
        """Run one SQL statement and return its rows as tuples of Python values.

        ``pitwatch.<table>`` names the warehouse's database (:mod:`pitwatch.warehouse.ddl`);
        ``%(name)s`` placeholders are filled from ``params`` (:func:`pitwatch.warehouse.sql.quote`).
        Result values: ``int`` for (U)Int*, ``Decimal`` quantized to the column's scale
        (``Decimal('0.00')``, never ``Decimal('0')``), timezone-aware UTC ``datetime``
        for DateTime, ``str``, ``float``, ``list`` for arrays, ``None`` for NULL. DDL and
        other statements return ``[]``. Reads of sink tables that count or sum must use
        ``FINAL`` (module doc). Raises :class:`WarehouseError`.
        """
        text = rename_database(render(sql, params), self.database)
        with self._lock:
            self._check_open()
            return self._execute(text)

    def query_columns(self, sql: str, params: dict[str, Any] | None = None) -> tuple[list[str], list[tuple]]:
        """:meth:`query` with the result's column names: ``(names, rows)``. Raises
        :class:`WarehouseError`."""
        text = rename_database(render(sql, params), self.database)
        with self._lock:
            self._check_open()
            return self._execute_columns(text)

    def ensure_schema(self) -> list[MigrationStep]:
        """Create the database, its tables and materialized views, or bring a database
        created by an older release up to this ``schema.sql``; then learn the tables from
        the database (:meth:`tables`). Returns the steps applied (``[]`` when it was up to
        date, so a second call does nothing).

        :func:`pitwatch.warehouse.migrate.migrate` does the work: missing tables created,
        missing columns added to base tables (never dropped or rewritten), an aggregate table
        whose definition changed (``table_hourly``) rebuilt with its views and refilled from
        the base tables ``FINAL``. Each step is logged (``pitwatch.warehouse.migrate``).
        Run it from one process while nothing writes (the worker does so at start). Raises
        :class:`WarehouseError`, also when a base table's engine, keys or column types
        differ from ``schema.sql``.
        """
        from pitwatch.warehouse.migrate import migrate

        with self._lock:
            self._check_open()
            self._catalog = None
            steps = migrate(self._execute, self.database)
            self._load_catalog()
            return steps

    def drop_database(self) -> None:
        """Drop the whole warehouse database (tests, ``pitwatch reset``). Irreversible."""
        with self._lock:
            self._check_open()
            self._catalog = None
            self._execute(f"DROP DATABASE IF EXISTS {self.database}")

    def tables(self) -> dict[str, Table]:
        """``{name: Table}``: the tables of the warehouse database as the database
        describes them (columns and types, engine, sort key; :mod:`pitwatch.warehouse.catalog`).

        Read once and kept; :meth:`ensure_schema` reads it again. Empty if the database
        does not exist. Raises :class:`WarehouseError`.
        """
        with self._lock:
            self._check_open()
            return dict(self._catalog if self._catalog is not None else self._load_catalog())

    def insert_new(self, table: str, rows: list[dict[str, Any]]) -> int:
        """The idempotent sink: insert the rows whose id is not stored yet; return how many.

        ``table`` is a sink table (``events_raw``, ``settlements``, ``alerts``, ``rejected``, or
        any ``ReplacingMergeTree`` table ``schema.sql`` adds; ``table_hourly_rows`` is fed by
        its materialized views, and ``table_hourly`` is a view over it). Each row is a dict
        keyed by column name (see ``schema.sql``) with Python values: ``str`` (``None`` ->
        ``''``), ``int``, ``Decimal`` euros with at most two decimals (``float`` is refused),
        timezone-aware ``datetime`` (converted to UTC; seconds go to ``*_at``), ``list[str]``.
        Missing columns take ``''`` / ``0`` / ``Decimal('0.00')`` / ``[]``; a missing ``*_ms``
        is taken from the ``*_at`` datetime's microseconds; a missing ``ingested_at`` is now
        (UTC). The id column and the other ``*_at`` columns are required
        (:mod:`pitwatch.warehouse.sink`). An empty ``rows`` returns 0 at once.

        Ids repeated inside the batch keep their first row; ids already in the table
        are skipped (looked up in chunks of 1000, narrowed by the other ``ORDER BY``
        columns, e.g. ``table_id``); the rest go in one batched INSERT. So reprocessing the
        same results stores nothing twice while one writer at a time owns a given id
        (pitwatch: a table's results come from the worker owning its Kafka partition); two
        writers that race (both look up, then both insert) store a row twice, which
        ``FINAL`` hides in the base tables and in ``table_hourly`` (its rows are keyed on the
        source row and summed ``FINAL``: tests/warehouse/test_concurrent_sinks.py). Raises
        ``ValueError`` (unknown or non-sink table, unknown column, missing id or time, fraction of a cent, naive datetime,
        out-of-range), ``TypeError`` (wrong Python type), :class:`WarehouseError` (backend,
        or the database has no tables: call :meth:`ensure_schema`).
        """
        if not rows:
            return 0
        info = self._table(table)
        if info.id_column is None:
            raise ValueError(f"insert_new: {table} is not a sink table (a ReplacingMergeTree keyed on an id "
                             "that no materialized view writes)")
        prepared = prepare(info, rows)
        with self._lock:
            self._check_open()
            new = unseen(info, prepared, self._execute, self.database)
            if new:
                self._insert_rows(info, new)
        return len(new)

    def rows(
        self,
        table: str,
        where: str = "1",
        params: dict[str, Any] | None = None,
        order_by: str | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """Deduplicated rows of ``table`` as dicts: ``SELECT * FROM t FINAL WHERE ...``.

        ``where``/``order_by`` are SQL fragments (``%(name)s`` placeholders allowed in
        ``where``). A plain view (``table_hourly``) is read as it is (``table_hourly``: one
        row per table, gaming day and hour, already summed); a ``SummingMergeTree`` table is
        returned summed per key (``sum(...) GROUP BY``). Raises ``ValueError`` for an unknown
        table or a materialized view, :class:`WarehouseError`.
        """
        info = self._table(table, plain_views=True)
        cols = list(info.columns)
        if info.engine == "SummingMergeTree":
            keys = info.sorting_key
            select = ", ".join(f"`{c}`" if c in keys else _summed(c, info) for c in cols)
            sql = (f"SELECT {select} FROM pitwatch.{table} WHERE {where} "
                   f"GROUP BY {', '.join(f'`{k}`' for k in keys)}")
        else:
            final = " FINAL" if info.engine == "ReplacingMergeTree" else ""
            sql = f"SELECT {', '.join(f'`{c}`' for c in cols)} FROM pitwatch.{table}{final} WHERE {where}"
        if order_by:
            sql += f" ORDER BY {order_by}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [dict(zip(cols, r)) for r in self.query(sql, params)]

    def close(self) -> None:
        """Release the connection (chDB: the shared session once its last user closes)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._close()

    def __enter__(self) -> "Warehouse":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url!r} database={self.database!r}>"

    # helpers ------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self._closed:
            raise WarehouseError(f"{self!r} is closed")

    def _load_catalog(self) -> dict[str, Table]:
        self._catalog = read_catalog(self._execute, self.database)
        return self._catalog

    def _table(self, name: str, plain_views: bool = False) -> Table:
        """The table ``name`` (or plain view, with ``plain_views``), reading the catalog again
        once if it is not known yet."""
        with self._lock:
            self._check_open()
            catalog = self._catalog
            if catalog is None or name not in catalog:
                catalog = self._load_catalog()
        if not catalog:
            raise WarehouseError(f"database {self.database} has no tables: call ensure_schema() first")
        info = catalog.get(name)
        if info is None or (info.engine in _VIEWS and not (plain_views and info.engine == "View")):
            raise ValueError(f"unknown table {name!r}; one of {sorted(t for t, i in catalog.items() if i.engine not in _VIEWS)}")
        return info


_VIEWS = ("MaterializedView", "View", "LiveView", "WindowView")


def _summed(col: str, table: Table) -> str:
    ctype = table.types[col]
    if isinstance(ctype, DecimalType):  # sum() widens to Decimal(38, s): back to the column's type
        return f"toDecimal64(sum(`{col}`), {ctype.scale}) AS `{col}`"
    return f"sum(`{col}`) AS `{col}`"
