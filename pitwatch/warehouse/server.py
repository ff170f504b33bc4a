"""A ClickHouse server (18.16 or later) through clickhouse-driver's native protocol.

URL: ``clickhouse://[user[:password]@]host[:port][/database][?driver options]``, or
``clickhouses://...`` for TLS (clickhouse-driver's own URL options, e.g. ``verify=false``,
``ca_certs=...``, are passed through). User and password default to the environment
variables ``PITWATCH_CLICKHOUSE_USER`` / ``PITWATCH_CLICKHOUSE_PASSWORD``; the database
to ``pitwatch``.

Measured on 18.16: clickhouse-driver hangs on inline ``INSERT ... VALUES (...)``, so rows
go as driver parameters (the driver encodes them by column type); ``avg(Decimal)`` is
``Decimal(38, 2)`` here but ``Float64`` on chDB (cast explicitly).
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit
from urllib.parse import quote as urlquote

from pitwatch.warehouse.base import Warehouse, WarehouseError
from pitwatch.warehouse.catalog import Table
from pitwatch.warehouse.ddl import CANONICAL_DATABASE, check_ident
from pitwatch.warehouse.values import column_type

__all__ = ["ServerWarehouse"]


class ServerWarehouse(Warehouse):
    """A ClickHouse server through clickhouse-driver (``client``: a ``clickhouse_driver.Client``).

    Connects to the ``default`` database (so the warehouse database may not exist yet)
    and qualifies every table name. The connection is made lazily, at the first query.
    """

    backend = "server"

    def __init__(self, url: str, database: str, client: Any):
        super().__init__(url, database)
        self._client = client

    @classmethod
    def from_url(cls, url: str) -> "ServerWarehouse":
        """Open ``clickhouse[s]://...`` (module doc). Raises ``ValueError`` for a database
        name that is not a plain identifier."""
        from clickhouse_driver import Client

        parts = urlsplit(url)
        database = check_ident(unquote(parts.path.lstrip("/")) or CANONICAL_DATABASE)
        user = unquote(parts.username) if parts.username else os.environ.get(
            "PITWATCH_CLICKHOUSE_USER", "default")
        password = unquote(parts.password) if parts.password is not None else os.environ.get(
            "PITWATCH_CLICKHOUSE_PASSWORD", "")
        host = parts.hostname or "localhost"
        if ":" in host:
            host = f"[{host}]"
        netloc = f"{urlquote(user, safe='')}:{urlquote(password, safe='')}@{host}"
        if parts.port:
            netloc += f":{parts.port}"
        opts = dict(parse_qsl(parts.query))
        conn_url = f"{parts.scheme.lower()}://{netloc}/default"
        if opts:
            conn_url += "?" + urlencode(opts)
        return cls(url, database, Client.from_url(conn_url))

    def _execute_columns(self, sql: str) -> tuple[list[str], list[tuple]]:
        try:
            rows, types = self._client.execute(sql, with_column_types=True)
        except Exception as e:  # driver errors, socket errors
            raise WarehouseError(f"clickhouse server: {e}") from e
        names = [n for n, _ in types]
        ctypes = [column_type(t) for _, t in types]
        if all(t.identity_from_driver for t in ctypes):
            return names, rows
        convs = [t.from_driver for t in ctypes]
        return names, [tuple([c(v) for c, v in zip(convs, row)]) for row in rows]

    def _insert_rows(self, table: Table, rows: list[tuple]) -> None:
        cols = ", ".join(f"`{c}`" for c in table.columns)
        try:
            self._client.execute(f"INSERT INTO {self.database}.{table.name} ({cols}) VALUES", rows)
        except Exception as e:
            raise WarehouseError(f"clickhouse server insert into {table.name}: {e}") from e

    def _close(self) -> None:
        self._client.disconnect()
