"""ClickHouse warehouse: the portable DDL (``schema.sql``) and two backends.

``open_warehouse("chdb://path")`` (embedded chDB, the zero-setup default) or
``open_warehouse("clickhouse://host:9000/pitwatch")`` (a server via clickhouse-driver)
return a :class:`Warehouse` with ``ensure_schema()``, the idempotent sink
``insert_new(table, rows)``, ``query(sql, params)``, ``rows(table, where, params)``,
``tables()`` and ``close()``::

    wh = open_warehouse("chdb:///var/lib/pitwatch/warehouse")
    wh.ensure_schema()
    wh.insert_new("settlements", rows)
    wh.query("SELECT count() FROM pitwatch.settlements FINAL WHERE table_id = %(t)s", {"t": "T1"})
    wh.close()

One module per job: :mod:`~pitwatch.warehouse.ddl` (``schema.sql``, the database name in
SQL), :mod:`~pitwatch.warehouse.catalog` (tables as the database describes them),
:mod:`~pitwatch.warehouse.values` (Python values <-> ClickHouse types),
:mod:`~pitwatch.warehouse.sql` (parameters and VALUES text), :mod:`~pitwatch.warehouse.sink`
(the idempotent sink), :mod:`~pitwatch.warehouse.migrate` (``ensure_schema``: a database
written by an older release brought up to ``schema.sql``), :mod:`~pitwatch.warehouse.base`
(the interface, which reads need ``FINAL``), :mod:`~pitwatch.warehouse.server` and
:mod:`~pitwatch.warehouse.chdb_backend` (the backends and their URLs).
"""

from urllib.parse import urlsplit

from pitwatch.warehouse.base import Warehouse, WarehouseError
from pitwatch.warehouse.catalog import Table
from pitwatch.warehouse.chdb_backend import ChdbWarehouse
from pitwatch.warehouse.ddl import CANONICAL_DATABASE, schema_statements
from pitwatch.warehouse.server import ServerWarehouse
from pitwatch.warehouse.sql import quote, render

DEFAULT_URL = "chdb://./pitwatch-data/warehouse"
"""Default warehouse URL: chDB in ``./pitwatch-data/warehouse`` (relative to the working
directory; the worker's default, see :mod:`pitwatch.streams.config`)."""


def open_warehouse(url: str) -> Warehouse:
    """Open the warehouse at ``url``: ``chdb://path[?database=x]`` (:mod:`~pitwatch.warehouse.chdb_backend`)
    or ``clickhouse[s]://[user[:pw]@]host[:port][/database][?options]`` (:mod:`~pitwatch.warehouse.server`).

    Does not create the schema: call :meth:`Warehouse.ensure_schema`. Raises
    ``ValueError`` for an unknown scheme or a bad database name, :class:`WarehouseError`
    when chDB cannot open the path (e.g. another path is already open in this process).
    The server connection is made lazily, at the first query.
    """
    scheme = urlsplit(url).scheme.lower()
    if scheme == "chdb":
        return ChdbWarehouse.from_url(url)
    if scheme in ("clickhouse", "clickhouses"):
        return ServerWarehouse.from_url(url)
    raise ValueError(f"unsupported warehouse URL {url!r}: use chdb://path or clickhouse://host:port/db")


__all__ = [
    "CANONICAL_DATABASE",
    "DEFAULT_URL",
    "ChdbWarehouse",
    "ServerWarehouse",
    "Table",
    "Warehouse",
    "WarehouseError",
    "open_warehouse",
    "quote",
    "render",
    "schema_statements",
]
