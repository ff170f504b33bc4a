"""chDB: ClickHouse embedded in this process, on a local data directory.

URL: ``chdb://<path>[?database=<name>]``: the text after ``chdb://`` is the data
directory; ``chdb:///abs/path`` is absolute, ``chdb://rel/path`` relative to the working
directory. The database defaults to ``pitwatch``.

chDB opens one data directory per process: warehouses on the same path share one session
(several databases on one path are fine), another path is refused while one is open.
Results are read as JSONCompact and converted by their column types
(:mod:`pitwatch.warehouse.values`, exact Decimals); rows are inserted as one
``INSERT ... FORMAT JSONCompactEachRow`` text (pydantic-core's JSON of the accepted values). Strings are
UTF-8 text (invalid bytes read back as U+FFFD). chDB reads ``config.xml`` from the
process's working directory when ``chdb`` is imported: never run it from a directory
holding a ClickHouse server config. chDB is optional (the ``local`` extra,
``pip install 'pitwatch[local]'``) and imported on first use.
"""

from __future__ import annotations

import importlib.util
import json
import os
import threading
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qsl, unquote

from pydantic_core import to_json

from pitwatch.warehouse.base import Warehouse, WarehouseError
from pitwatch.warehouse.catalog import Table
from pitwatch.warehouse.ddl import CANONICAL_DATABASE
from pitwatch.warehouse.values import column_type

__all__ = ["ChdbWarehouse", "chdb_session_module", "require_chdb"]

MISSING = ("the embedded warehouse (chdb://) needs chDB, which is not installed: pip install 'pitwatch[local]', "
           "or use a ClickHouse server (clickhouse://host:9000/db)")
"""The error when chDB is missing: it is not a dependency of a production install but of the
``local`` extra."""


def require_chdb() -> None:
    """Raise :class:`WarehouseError` (:data:`MISSING`) unless chDB is installed; does not import it."""
    if importlib.util.find_spec("chdb") is None:
        raise WarehouseError(MISSING)


def chdb_session_module() -> Any:
    """chDB's ``session`` module, imported on first use. Raises :class:`WarehouseError`
    (:data:`MISSING`, naming the ``local`` extra) when chDB is not installed."""
    try:
        from chdb import session
    except ImportError as e:
        raise WarehouseError(MISSING) from e
    return session


class _ChdbSessions:
    """Process-wide registry: chDB opens one data directory per process.

    A second open of the same path shares the session (reference counted); opening a
    different path while one is open raises :class:`WarehouseError`. Once every user
    closed, the session is closed and another path may be opened.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._path: str | None = None
        self._session: Any = None
        self._users = 0
        self.session_lock = threading.RLock()  # chDB session calls are serialized

    def acquire(self, path: str) -> Any:
        real = os.path.realpath(path)
        with self._lock:
            if self._session is not None:
                if real != self._path:
                    raise WarehouseError(
                        f"chDB can open only one data directory per process: {self._path} is "
                        f"open, cannot open {real} (close every warehouse on it first, or use "
                        "one path with several databases: chdb://<path>?database=<name>)"
                    )
                self._users += 1
                return self._session
            chdb_session = chdb_session_module()
            os.makedirs(real, exist_ok=True)
            try:
                sess = chdb_session.Session(real)
            except Exception as e:
                raise WarehouseError(f"chDB could not open {real}: {e}") from e
            self._path, self._session, self._users = real, sess, 1
            return sess

    def release(self) -> None:
        with self._lock:
            self._users -= 1
            if self._users <= 0 and self._session is not None:
                try:
                    self._session.close()
                finally:
                    self._path, self._session, self._users = None, None, 0

    @property
    def path(self) -> str | None:
        """The data directory currently open in this process, if any."""
        return self._path


_CHDB = _ChdbSessions()


class ChdbWarehouse(Warehouse):
    """chDB on the data directory ``path`` (module doc). Raises :class:`WarehouseError`
    when chDB cannot open ``path`` (e.g. another path is open in this process)."""

    backend = "chdb"

    def __init__(self, url: str, database: str, path: str):
        super().__init__(url, database)
        self.path = os.path.realpath(path)
        self._session = _CHDB.acquire(path)

    @classmethod
    def from_url(cls, url: str) -> "ChdbWarehouse":
        """Open ``chdb://<path>[?database=<name>]``. Raises ``ValueError`` for an unknown
        option, no path or a database name that is not a plain identifier;
        :class:`WarehouseError` as the constructor."""
        rest = url.split("://", 1)[1]
        path, _, qs = rest.partition("?")
        opts = dict(parse_qsl(qs))
        database = opts.pop("database", CANONICAL_DATABASE)
        if opts:
            raise ValueError(f"chdb URL: unknown option(s) {sorted(opts)}")
        if not path:
            raise ValueError("chdb URL needs a data directory: chdb:///abs/path or chdb://rel/path")
        return cls(url, database, unquote(path))

    def _run(self, sql: str, fmt: str) -> bytes:
        try:
            with _CHDB.session_lock:
                res = self._session.query(sql, fmt)
        except Exception as e:
            raise WarehouseError(f"chDB: {e}") from e
        return res.bytes()

    def _execute_columns(self, sql: str) -> tuple[list[str], list[tuple]]:
        raw = self._run(sql, "JSONCompact")
        if not raw.strip():
            return [], []
        doc = json.loads(raw.decode("utf-8", "replace"), parse_float=Decimal)
        convs = [column_type(m["type"]).from_json for m in doc["meta"]]
        return [m["name"] for m in doc["meta"]], [tuple([c(v) for c, v in zip(convs, row)]) for row in doc["data"]]

    def _insert_rows(self, table: Table, rows: list[tuple]) -> None:
        # JSONCompactEachRow rendered by pydantic-core: four times faster than VALUES text
        # rendered value by value. Accepted values only (str, int, Decimal quantized to the
        # column's scale, UTC datetime as "...Z", date, lists): the same data as VALUES.
        cols = ", ".join(f"`{c}`" for c in table.columns)
        body = b"\n".join([to_json(r) for r in rows]).decode("utf-8")
        self._run(f"INSERT INTO {self.database}.{table.name} ({cols}) "
                  f"SETTINGS date_time_input_format = 'best_effort' FORMAT JSONCompactEachRow\n{body}", "CSV")

    def _close(self) -> None:
        self._session = None
        _CHDB.release()
