"""ClickHouse warehouse: the portable DDL (``schema.sql``) and two backends.

``open_warehouse("chdb://path")`` (embedded chDB, the zero-setup default) or
``open_warehouse("clickhouse://host:9000/pitwatch")`` (a server via clickhouse-driver)
return a :class:`Warehouse` with ``ensure_schema()``, the idempotent sink
``insert_new(table, rows)``, ``query(sql, params)``, ``rows(table, where, params)`` and
``close()``. See :mod:`pitwatch.warehouse.backends` for URLs, parameter quoting and which
reads need ``FINAL``.
"""

from pitwatch.warehouse.backends import (
    CANONICAL_DATABASE,
    ID_COLUMNS,
    TABLE_COLUMNS,
    ChdbWarehouse,
    ServerWarehouse,
    Warehouse,
    WarehouseError,
    open_warehouse,
    quote,
    render,
    schema_statements,
)

DEFAULT_URL = "chdb://./pitwatch-data/warehouse"
"""Default warehouse URL: chDB in ``./pitwatch-data/warehouse`` (relative to the working
directory; the worker's default, see :mod:`pitwatch.streams.config`)."""

__all__ = [
    "CANONICAL_DATABASE",
    "DEFAULT_URL",
    "ID_COLUMNS",
    "TABLE_COLUMNS",
    "ChdbWarehouse",
    "ServerWarehouse",
    "Warehouse",
    "WarehouseError",
    "open_warehouse",
    "quote",
    "render",
    "schema_statements",
]
