"""Warehouse backends: one small interface over a ClickHouse server and chDB.

Open one with :func:`open_warehouse`::

    wh = open_warehouse("chdb:///var/lib/pitwatch/warehouse")        # embedded, zero setup
    wh = open_warehouse("clickhouse://user:pw@127.0.0.1:9000/pitwatch")  # server (clickhouse-driver)
    wh.ensure_schema()
    wh.insert_new("settlements", rows)          # the idempotent sink
    wh.query("SELECT count() FROM pitwatch.settlements FINAL WHERE table_id = %(t)s", {"t": "T1"})
    wh.close()

URLs
    ``chdb://<path>[?database=<name>]``: the text after ``chdb://`` is the data directory;
    ``chdb:///abs/path`` is absolute, ``chdb://rel/path`` relative to the working directory.
    ``clickhouse://[user[:password]@]host[:port][/database][?driver options]``, or
    ``clickhouses://...`` for TLS (clickhouse-driver's own URL options, e.g. ``verify=false``,
    ``ca_certs=...``, are passed through). User and password default to the environment
    variables ``PITWATCH_CLICKHOUSE_USER`` / ``PITWATCH_CLICKHOUSE_PASSWORD``. The
    database defaults to ``pitwatch`` on both backends.

Database name in SQL
    The DDL (``schema.sql``) and all queries name tables as ``pitwatch.<table>``. Every
    backend maps that canonical database name to the one it was opened with (identifier
    ``pitwatch`` followed by ``.`` outside quoted literals), so the same SQL text works for
    a test database ``t_1234`` and for production. Unqualified table names resolve to the
    connection's default database (``default``): always qualify.

Parameters
    ``query(sql, params)`` substitutes ``%(name)s`` placeholders client-side with
    :func:`quote` (the same rendering on both backends; ClickHouse 18.16 has no
    server-side parameters). With ``params`` given, a literal ``%`` in the SQL is written
    ``%%`` (Python %-formatting rules); with ``params=None`` the text is sent as is.

FINAL: which reads need it
    ``events_raw``, ``settlements``, ``alerts`` and ``rejected`` are ReplacingMergeTree
    tables keyed on deterministic ids. :meth:`Warehouse.insert_new` never writes an id
    that is already stored, so duplicates appear only after two writers raced on the same
    id (e.g. two workers during a rebalance). Any read that counts or sums rows of those
    tables (reports, verdicts, detectors computing from the warehouse) must read
    ``FROM pitwatch.<table> FINAL``; :meth:`Warehouse.rows` does so. Existence checks
    (``insert_new``'s id lookup) and "latest N rows" displays do not need it.
    ``table_hourly`` is a SummingMergeTree: read it with ``sum(col) ... GROUP BY`` the key
    columns (never trust one row per key: parts are summed only when merged). FINAL is
    not needed there and not used.

Measured gotchas (see also DESIGN.md): ``avg(Decimal)`` is Decimal(38,2) on 18.16 and
Float64 on chDB (cast explicitly); clickhouse-driver hangs on inline ``INSERT ... VALUES
(...)`` against 18.16, so the server backend passes rows as driver parameters; chDB reads
``config.xml`` from the process's working directory when ``chdb`` is imported (never run
it from a directory holding a ClickHouse server config).
"""

from __future__ import annotations

import datetime as _dt
import enum
import json
import os
import re
import threading
import uuid
from abc import ABC, abstractmethod
from decimal import Decimal, InvalidOperation
from importlib import resources
from typing import Any, Callable, Iterable
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit
from urllib.parse import quote as _urlquote

__all__ = [
    "CANONICAL_DATABASE",
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

CANONICAL_DATABASE = "pitwatch"
"""The database name written in ``schema.sql`` and in queries; mapped per backend."""

ID_COLUMNS: dict[str, str] = {
    "events_raw": "event_id",
    "settlements": "settlement_id",
    "alerts": "alert_id",
    "rejected": "reject_id",
    "rulesets": "ruleset_key",
    "parked": "parked_id",
}
"""Deterministic id column of each table :meth:`Warehouse.insert_new` writes to."""

_UTC = _dt.timezone.utc
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_UTC)
_DT_MAX = _dt.datetime(2105, 12, 31, 23, 59, 59, tzinfo=_UTC)
_MONEY_LIMIT = Decimal(10) ** 16  # Decimal(18, 2): 16 integer digits
_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ID_LOOKUP_CHUNK = 1000  # ids per existence query: keeps the SQL text far below max_query_size


class WarehouseError(RuntimeError):
    """A backend failed (bad SQL, server unreachable, chDB path conflict, ...).

    The driver's or chDB's original exception is chained as ``__cause__``.
    """


# --------------------------------------------------------------------------- schema


def _schema_text() -> str:
    return resources.files("pitwatch.warehouse").joinpath("schema.sql").read_text("utf-8")


# `'...'`, `"..."`, `` `...` `` literals (with backslash escapes) or the canonical db prefix.
_DB_TOKEN_RE = re.compile(
    r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|(?<![\w.`])(pitwatch)(?=\s*\.)""",
    re.S,
)


def _rename_database(sql: str, database: str) -> str:
    """Replace the identifier ``pitwatch`` used as a database prefix by ``database``.

    Quoted literals are left untouched. ``CREATE/DROP DATABASE ... pitwatch`` is handled
    by :func:`schema_statements` itself.
    """
    if database == CANONICAL_DATABASE:
        return sql

    def sub(m: re.Match[str]) -> str:
        return database if m.group(1) else m.group(0)

    return _DB_TOKEN_RE.sub(sub, sql)


def schema_statements(database: str = CANONICAL_DATABASE) -> list[str]:
    """The statements of ``schema.sql`` for ``database``, in order, without comments.

    Statements end with ``;`` at the end of a line. Raises ``ValueError`` for a database
    name that is not a plain identifier.
    """
    _check_ident(database)
    lines = [ln for ln in _schema_text().splitlines() if not ln.lstrip().startswith("--")]
    out = []
    for stmt in re.split(r";[ \t]*$", "\n".join(lines), flags=re.M):
        stmt = stmt.strip()
        if not stmt:
            continue
        stmt = re.sub(r"(?i)^(CREATE DATABASE IF NOT EXISTS )pitwatch$", r"\g<1>" + database, stmt)
        out.append(_rename_database(stmt, database))
    return out


def _parse_columns() -> dict[str, dict[str, str]]:
    tables: dict[str, dict[str, str]] = {}
    for m in re.finditer(
        r"CREATE TABLE IF NOT EXISTS pitwatch\.(\w+)\s*\((.*?)\)\s*ENGINE", _schema_text(), re.S
    ):
        cols: dict[str, str] = {}
        for line in m.group(2).splitlines():
            line = line.strip().rstrip(",")
            if not line or line.startswith("--"):
                continue
            name, typ = line.split(None, 1)
            cols[name.strip("`")] = typ.strip()
        tables[m.group(1)] = cols
    return tables


TABLE_COLUMNS: dict[str, dict[str, str]] = _parse_columns()
"""``{table: {column: ClickHouse type}}`` as declared in ``schema.sql`` (column order kept)."""


def _check_ident(name: str) -> str:
    if not _IDENT_RE.match(name):
        raise ValueError(f"not a plain identifier: {name!r}")
    return name


# --------------------------------------------------------------------------- quoting

_ESCAPES = {
    "\\": "\\\\",
    "'": "\\'",
    "\b": "\\b",
    "\f": "\\f",
    "\r": "\\r",
    "\n": "\\n",
    "\t": "\\t",
    "\0": "\\0",
    "\a": "\\a",
    "\v": "\\v",
}
_ESCAPE_RE = re.compile("[\\\\'\b\f\r\n\t\0\a\v]")


def _quote_str(s: str) -> str:
    if _ESCAPE_RE.search(s) is None:
        return "'" + s + "'"
    return "'" + _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], s) + "'"


def _utc(value: _dt.datetime) -> _dt.datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}: pass a timezone-aware (UTC) datetime")
    value = value.astimezone(_UTC)
    if not (_EPOCH <= value <= _DT_MAX):
        raise ValueError(f"datetime {value.isoformat()} is outside DateTime's 1970..2105 range")
    return value


def _decimal_text(value: Decimal) -> str:
    if not value.is_finite():
        raise ValueError(f"non-finite Decimal {value!r}")
    return format(value, "f")


def quote(value: Any) -> str:
    """Render a Python value as a ClickHouse SQL literal, valid on 18.16 and current releases.

    ``None`` -> ``NULL``; ``bool`` -> ``1``/``0``; ``int`` -> digits; ``Decimal`` ->
    ``toDecimal64('x', scale)`` (``toDecimal128`` beyond 18 digits), so it compares exactly
    with ``Decimal(18,2)`` columns; ``float`` -> ``toFloat64('repr')``; ``str`` (and str
    enums, UUIDs) -> single-quoted with backslash escapes; ``bytes`` -> decoded as UTF-8
    with ``backslashreplace``; timezone-aware ``datetime`` -> ``toDateTime('Y-m-d H:M:S',
    'UTC')`` (sub-second part dropped: milliseconds live in their own column); ``date`` ->
    ``toDate('Y-m-d')``; ``list`` -> array ``[a, b]``; ``tuple``/``set``/``frozenset`` ->
    tuple ``(a, b)`` for ``IN`` (sets sorted; a one-element tuple renders ``(a)``).
    Raises ``TypeError`` for other types and ``ValueError`` for a naive datetime, a
    non-finite Decimal or an empty tuple.
    """
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, enum.Enum):
        return quote(value.value)
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, Decimal):
        text = _decimal_text(value)
        scale = max(0, -value.as_tuple().exponent)  # type: ignore[operator]
        digits = len(value.as_tuple().digits)
        fn = "toDecimal64" if max(digits, scale) <= 18 else "toDecimal128"
        return f"{fn}('{text}', {scale})"
    if isinstance(value, float):
        return f"toFloat64('{value!r}')"
    if isinstance(value, str):
        return _quote_str(value)
    if isinstance(value, (bytes, bytearray)):
        return _quote_str(bytes(value).decode("utf-8", "backslashreplace"))
    if isinstance(value, uuid.UUID):
        return _quote_str(str(value))
    if isinstance(value, _dt.datetime):
        return f"toDateTime('{_utc(value):%Y-%m-%d %H:%M:%S}', 'UTC')"
    if isinstance(value, _dt.date):
        return f"toDate('{value:%Y-%m-%d}')"
    if isinstance(value, list):
        return "[" + ", ".join(quote(v) for v in value) + "]"
    if isinstance(value, (tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else list(value)
        if not items:
            raise ValueError("empty tuple cannot be rendered (ClickHouse has no empty IN ())")
        return "(" + ", ".join(quote(v) for v in items) + ")"
    raise TypeError(f"cannot render {type(value).__name__} as a ClickHouse literal")


def render(sql: str, params: dict[str, Any] | None) -> str:
    """Substitute ``%(name)s`` placeholders in ``sql`` with :func:`quote`-d values.

    ``params=None`` returns ``sql`` unchanged. Raises ``KeyError`` for a missing
    parameter, ``TypeError``/``ValueError`` from :func:`quote`.
    """
    if params is None:
        return sql
    return sql % {k: quote(v) for k, v in params.items()}


# --------------------------------------------------------------------------- rows in


def _coercer(table: str, col: str, typ: str) -> Callable[[Any], Any]:
    """A function checking/converting one Python value for column ``col`` of type ``typ``."""
    where = f"{table}.{col}"
    if typ == "String":
        def coerce_str(value: Any) -> str:
            if type(value) is str:
                return value
            if value is None:
                return ""
            if isinstance(value, enum.Enum):
                value = value.value
            if isinstance(value, str):
                return str(value)
            if isinstance(value, (bytes, bytearray)):
                return bytes(value).decode("utf-8", "backslashreplace")
            if isinstance(value, uuid.UUID):
                return str(value)
            if isinstance(value, int) and not isinstance(value, bool):
                return str(value)
            raise TypeError(f"{where}: expected str, got {type(value).__name__}")
        return coerce_str
    if typ.startswith("UInt"):
        limit = 1 << int(typ[4:])

        def coerce_uint(value: Any) -> int:
            if not isinstance(value, int):
                raise TypeError(f"{where}: expected int, got {type(value).__name__}")
            if not 0 <= value < limit:
                raise ValueError(f"{where}: {value} out of range for {typ}")
            return int(value)
        return coerce_uint
    if typ.startswith("Decimal("):
        cent = Decimal("0.01")

        def coerce_money(value: Any) -> Decimal:
            if type(value) is not Decimal:
                if isinstance(value, (float, bool)) or not isinstance(value, (Decimal, int, str)):
                    raise TypeError(f"{where}: money must be Decimal (not {type(value).__name__})")
                try:
                    value = Decimal(value)
                except InvalidOperation as e:
                    raise ValueError(f"{where}: not a number: {value!r}") from e
            if not value.is_finite():
                raise ValueError(f"{where}: non-finite amount {value}")
            q = value.quantize(cent)
            if q != value:
                raise ValueError(f"{where}: {value} has fractions of a cent")
            if abs(q) >= _MONEY_LIMIT:
                raise ValueError(f"{where}: {value} does not fit Decimal(18, 2)")
            return q
        return coerce_money
    if typ.startswith("DateTime"):
        def coerce_dt(value: Any) -> _dt.datetime:
            if not isinstance(value, _dt.datetime):
                raise TypeError(f"{where}: expected datetime, got {type(value).__name__}")
            try:
                return _utc(value)
            except ValueError as e:
                raise ValueError(f"{where}: {e}") from None
        return coerce_dt
    if typ == "Array(String)":
        item = _coercer(table, col, "String")

        def coerce_list(value: Any) -> list[str]:
            if value is None:
                return []
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"{where}: expected list[str], got {type(value).__name__}")
            return [item(v) for v in value]
        return coerce_list
    raise TypeError(f"{where}: unsupported column type {typ}")  # pragma: no cover


def _default(table: str, col: str, typ: str, row: dict[str, Any]) -> Any:
    if col == ID_COLUMNS.get(table):
        raise ValueError(f"{table}: row without {col}")
    if col.endswith("_ms") and col[:-3] + "_at" in row:
        ts = row[col[:-3] + "_at"]
        if isinstance(ts, _dt.datetime):
            return ts.microsecond // 1000
    if typ == "String":
        return ""
    if typ.startswith("UInt"):
        return 0
    if typ.startswith("Decimal("):
        return Decimal("0.00")
    if typ == "Array(String)":
        return []
    if col == "ingested_at":
        return _dt.datetime.now(_UTC).replace(microsecond=0)
    raise ValueError(f"{table}: row without required column {col}")


_PLANS: dict[str, list[tuple[str, str, Callable[[Any], Any]]]] = {
    table: [(c, t, _coercer(table, c, t)) for c, t in cols.items()]
    for table, cols in TABLE_COLUMNS.items()
}


def _prepare(table: str, rows: Iterable[dict[str, Any]]) -> list[tuple]:
    """Validate ``rows`` for ``table`` and return tuples in the table's column order."""
    plan = _PLANS[table]
    names = TABLE_COLUMNS[table].keys()
    out = []
    for row in rows:
        if len(row) != len(plan) or row.keys() != names:
            unknown = row.keys() - names
            if unknown:
                raise ValueError(f"{table}: unknown column(s) {sorted(unknown)}")
            out.append(tuple(
                coerce(row[c]) if c in row else _default(table, c, t, row) for c, t, coerce in plan
            ))
        else:
            out.append(tuple(coerce(row[c]) for c, _, coerce in plan))
    return out


def _insert_literal_fn(typ: str) -> Callable[[Any], str]:
    """Renderer for the VALUES data of an INSERT (plain literals: the fast parser path)."""
    if typ.startswith("Decimal("):
        return _decimal_text
    if typ.startswith("DateTime"):
        return lambda v: v.strftime("'%Y-%m-%d %H:%M:%S'")  # parsed in the column's zone (UTC)
    if typ.startswith("UInt"):
        return str
    if typ == "Array(String)":
        return lambda v: "[" + ",".join(map(_quote_str, v)) + "]"
    return _quote_str


# --------------------------------------------------------------------------- rows out


def _split_type_args(inner: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


def _converter(typ: str):
    """A function turning a JSONCompact value of ClickHouse type ``typ`` into Python."""
    typ = typ.strip()
    m = re.match(r"^(\w+)\((.*)\)$", typ, re.S)
    base, inner = (m.group(1), m.group(2)) if m else (typ, "")
    if base in ("Nullable", "LowCardinality"):
        conv = _converter(inner)
        return lambda v: None if v is None else conv(v)
    if base == "Array":
        conv = _converter(inner)
        return lambda v: [conv(x) for x in v]
    if base == "Tuple":
        convs = [_converter(re.sub(r"^\w+\s+(?=\w)", "", a) if " " in a else a)
                 for a in _split_type_args(inner)]
        return lambda v: tuple(c(x) for c, x in zip(convs, v))
    if base.startswith("Decimal"):
        args = _split_type_args(inner)
        exp = Decimal(1).scaleb(-int(args[-1]))
        return lambda v: Decimal(str(v)).quantize(exp)
    if base in ("DateTime", "DateTime64"):
        return lambda v: _parse_dt(v)
    if base in ("Date", "Date32"):
        return lambda v: _dt.date.fromisoformat(v)
    if re.match(r"^U?Int\d+$", base):
        return int
    if base.startswith("Float"):
        return lambda v: float(v) if v is not None else None
    if base == "Bool":
        return bool
    return lambda v: v  # String, FixedString, UUID, Enum8/16, Nothing, ...


def _parse_dt(text: str) -> _dt.datetime:
    # Output is in the column's time zone; pitwatch columns and expressions are UTC.
    return _dt.datetime.fromisoformat(text).replace(tzinfo=_UTC)


def _normalize_server(types: list[str], rows: list[tuple]) -> list[tuple]:
    """Make clickhouse-driver results look exactly like the chDB ones."""
    fixers = []
    for t in types:
        if "Decimal" in t or "DateTime" in t:
            fixers.append(_server_fixer(t))
        else:
            fixers.append(None)
    if not any(fixers):
        return rows
    return [tuple(f(v) if f else v for f, v in zip(fixers, row)) for row in rows]


def _server_fixer(typ: str):
    m = re.match(r"^(\w+)\((.*)\)$", typ.strip(), re.S)
    base, inner = (m.group(1), m.group(2)) if m else (typ.strip(), "")
    if base in ("Nullable", "LowCardinality"):
        f = _server_fixer(inner)
        return lambda v: None if v is None else f(v)
    if base == "Array":
        f = _server_fixer(inner)
        return lambda v: [f(x) for x in v]
    if base.startswith("Decimal"):
        exp = Decimal(1).scaleb(-int(_split_type_args(inner)[-1]))
        return lambda v: v.quantize(exp)
    if base in ("DateTime", "DateTime64"):
        return lambda v: (v.replace(tzinfo=_UTC) if v.tzinfo is None else v.astimezone(_UTC))
    return lambda v: v


# --------------------------------------------------------------------------- interface


class Warehouse(ABC):
    """The pitwatch warehouse: the DDL, the idempotent sink and parametrized reads.

    Attributes: ``url`` (as opened), ``database`` (the real database name that
    ``pitwatch.`` in SQL maps to). Methods are thread-safe (one lock per object).
    Use as a context manager or call :meth:`close`.
    """

    backend: str = ""

    def __init__(self, url: str, database: str):
        self.url = url
        self.database = _check_ident(database)
        self._lock = threading.RLock()
        self._closed = False

    # backend primitives -------------------------------------------------------------
    @abstractmethod
    def _execute(self, sql: str) -> list[tuple]:
        """Run one statement (already rendered and renamed); typed rows back."""

    @abstractmethod
    def _insert_rows(self, table: str, columns: dict[str, str], rows: list[tuple]) -> None:
        """Insert prepared rows (column order of ``columns``) in one batch."""

    @abstractmethod
    def _close(self) -> None: ...

    # public API ---------------------------------------------------------------------
    def query(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple]:
        """Run one SQL statement and return its rows as tuples of Python values.

        ``pitwatch.<table>`` names the warehouse's database (mapped, see module doc);
        ``%(name)s`` placeholders are filled from ``params`` with :func:`quote`.
        Result values: ``int`` for (U)Int*, ``Decimal`` quantized to the column's scale
        (``Decimal('0.00')``, never ``Decimal('0')``), timezone-aware UTC ``datetime``
        for DateTime, ``str``, ``float``, ``list`` for arrays, ``None`` for NULL. DDL and
        other statements return ``[]``. Reads of ReplacingMergeTree tables that count or
        sum must use ``FINAL`` (module doc). Raises :class:`WarehouseError`.
        """
        text = _rename_database(render(sql, params), self.database)
        with self._lock:
            self._check_open()
            return self._execute(text)

    def ensure_schema(self) -> None:
        """Create the database, tables and materialized view if missing (idempotent).

        Every statement of ``schema.sql`` is ``CREATE ... IF NOT EXISTS``; an existing
        table with a different definition is left as it is (no migrations).
        Raises :class:`WarehouseError`.
        """
        with self._lock:
            self._check_open()
            for stmt in schema_statements(self.database):
                self._execute(stmt)

    def drop_database(self) -> None:
        """Drop the whole warehouse database (tests, ``pitwatch reset``). Irreversible."""
        with self._lock:
            self._check_open()
            self._execute(f"DROP DATABASE IF EXISTS {self.database}")

    def insert_new(self, table: str, rows: list[dict[str, Any]]) -> int:
        """The idempotent sink: insert the rows whose id is not stored yet; return how many.

        ``table`` is one of ``events_raw``, ``settlements``, ``alerts``, ``rejected``
        (``table_hourly`` is fed by its materialized view). Each row is a dict keyed by
        column name (see ``schema.sql``) with Python values: ``str`` (``None`` -> ``''``),
        ``int``, ``Decimal`` euros with at most two decimals (``float`` is refused),
        timezone-aware ``datetime`` (converted to UTC; seconds go to ``*_at``), ``list[str]``.
        Missing columns take ``''`` / ``0`` / ``Decimal('0.00')`` / ``[]``; a missing
        ``*_ms`` is taken from the ``*_at`` datetime's microseconds; a missing
        ``ingested_at`` is now (UTC). The id column and the other ``*_at`` columns are
        required.

        Ids repeated inside the batch keep their first row; ids already in the table
        are skipped (looked up in chunks of 1000, pruned by ``table_id`` where it leads
        the sort key); the rest go in one batched INSERT, which the ``table_hourly_mv``
        view sees once. So reprocessing the same results never counts them twice, as long
        as one writer at a time owns a given id (pitwatch: a table's results come from
        the worker owning its Kafka partition); a race between two writers leaves
        duplicates that ``FINAL`` hides in the base tables but ``table_hourly`` would
        count. Raises ``ValueError`` (unknown table/column, missing id or time, fraction
        of a cent, naive datetime, out-of-range), ``TypeError`` (wrong Python type),
        :class:`WarehouseError` (backend).
        """
        if table not in ID_COLUMNS:
            raise ValueError(f"insert_new: unknown table {table!r}; one of {sorted(ID_COLUMNS)}")
        if not rows:
            return 0
        columns = TABLE_COLUMNS[table]
        id_col = ID_COLUMNS[table]
        id_pos = list(columns).index(id_col)
        prepared = _prepare(table, rows)
        batch: dict[str, tuple] = {}
        for r in prepared:
            batch.setdefault(r[id_pos], r)
        with self._lock:
            self._check_open()
            existing = self._existing_ids(table, id_col, list(batch.values()), columns)
            new = [r for i, r in batch.items() if i not in existing]
            if new:
                self._insert_rows(table, columns, new)
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
        ``where``). ``table_hourly`` is returned summed per key instead (``sum(...)
        GROUP BY``). Raises ``ValueError`` for an unknown table, :class:`WarehouseError`.
        """
        if table not in TABLE_COLUMNS:
            raise ValueError(f"unknown table {table!r}")
        cols = list(TABLE_COLUMNS[table])
        if table == "table_hourly":
            keys = ["casino_id", "table_id", "game", "hour"]
            select = ", ".join(
                c if c in keys else
                (f"toDecimal64(sum({c}), 2) AS {c}" if TABLE_COLUMNS[table][c].startswith("Decimal")
                 else f"sum({c}) AS {c}")
                for c in cols
            )
            sql = (f"SELECT {select} FROM pitwatch.table_hourly WHERE {where} "
                   f"GROUP BY {', '.join(keys)}")
        else:
            sql = f"SELECT {', '.join('`%s`' % c for c in cols)} FROM pitwatch.{table} FINAL WHERE {where}"
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

    def _existing_ids(self, table: str, id_col: str, rows: list[tuple],
                      columns: dict[str, str]) -> set[str]:
        names = list(columns)
        id_pos = names.index(id_col)
        by_table = "table_id" in columns and id_col != "table_id"
        tpos = names.index("table_id") if by_table else 0
        found: set[str] = set()
        for start in range(0, len(rows), _ID_LOOKUP_CHUNK):
            chunk = rows[start:start + _ID_LOOKUP_CHUNK]
            ids = tuple(r[id_pos] for r in chunk)
            sql = f"SELECT {id_col} FROM {self.database}.{table} WHERE {id_col} IN {quote(ids)}"
            if by_table:
                sql += f" AND table_id IN {quote(tuple(sorted({r[tpos] for r in chunk})))}"
            found.update(r[0] for r in self._execute(sql))
        return found


class ServerWarehouse(Warehouse):
    """A ClickHouse server (18.16 or later) through clickhouse-driver's native protocol.

    Connects to the ``default`` database (so the warehouse database may not exist yet)
    and qualifies every table name. Rows are inserted as driver parameters (inline
    ``VALUES`` hang against 18.16).
    """

    backend = "server"

    def __init__(self, url: str, database: str, client: Any):
        super().__init__(url, database)
        self._client = client

    def _execute(self, sql: str) -> list[tuple]:
        try:
            rows, types = self._client.execute(sql, with_column_types=True)
        except Exception as e:  # driver errors, socket errors
            raise WarehouseError(f"clickhouse server: {e}") from e
        return _normalize_server([t for _, t in types], rows)

    def _insert_rows(self, table: str, columns: dict[str, str], rows: list[tuple]) -> None:
        cols = ", ".join(f"`{c}`" for c in columns)
        try:
            self._client.execute(f"INSERT INTO {self.database}.{table} ({cols}) VALUES", rows)
        except Exception as e:
            raise WarehouseError(f"clickhouse server insert into {table}: {e}") from e

    def _close(self) -> None:
        self._client.disconnect()


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
            os.makedirs(real, exist_ok=True)
            try:
                from chdb import session as chdb_session

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
    """chDB, ClickHouse embedded in this process, on a local data directory.

    Results are read as JSONCompact and converted by column type (exact Decimals).
    Rows are inserted as one ``INSERT ... VALUES`` text. Strings are UTF-8 text
    (invalid bytes read back as U+FFFD).
    """

    backend = "chdb"

    def __init__(self, url: str, database: str, path: str):
        super().__init__(url, database)
        self.path = os.path.realpath(path)
        self._session = _CHDB.acquire(path)

    def _run(self, sql: str, fmt: str) -> bytes:
        try:
            with _CHDB.session_lock:
                res = self._session.query(sql, fmt)
        except Exception as e:
            raise WarehouseError(f"chDB: {e}") from e
        return res.bytes()

    def _execute(self, sql: str) -> list[tuple]:
        raw = self._run(sql, "JSONCompact")
        if not raw.strip():
            return []
        doc = json.loads(raw.decode("utf-8", "replace"), parse_float=Decimal)
        convs = [_converter(m["type"]) for m in doc["meta"]]
        return [tuple(c(v) for c, v in zip(convs, row)) for row in doc["data"]]

    def _insert_rows(self, table: str, columns: dict[str, str], rows: list[tuple]) -> None:
        fns = [_insert_literal_fn(t) for t in columns.values()]
        body = ",".join(
            "(" + ",".join([f(v) for f, v in zip(fns, row)]) + ")" for row in rows
        )
        cols = ", ".join(f"`{c}`" for c in columns)
        self._run(f"INSERT INTO {self.database}.{table} ({cols}) VALUES {body}", "CSV")

    def _close(self) -> None:
        self._session = None
        _CHDB.release()


# --------------------------------------------------------------------------- open


def open_warehouse(url: str) -> Warehouse:
    """Open the warehouse at ``url`` (``chdb://path[?database=x]`` or
    ``clickhouse[s]://[user[:pw]@]host[:port][/database][?options]``; module doc).

    Does not create the schema: call :meth:`Warehouse.ensure_schema`. Raises
    ``ValueError`` for an unknown scheme or a bad database name, :class:`WarehouseError`
    when chDB cannot open the path (e.g. another path is already open in this process).
    The server connection is made lazily, at the first query.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "chdb":
        rest = url.split("://", 1)[1]
        path, _, qs = rest.partition("?")
        opts = dict(parse_qsl(qs))
        database = opts.pop("database", CANONICAL_DATABASE)
        if opts:
            raise ValueError(f"chdb URL: unknown option(s) {sorted(opts)}")
        if not path:
            raise ValueError("chdb URL needs a data directory: chdb:///abs/path or chdb://rel/path")
        return ChdbWarehouse(url, database, unquote(path))
    if scheme in ("clickhouse", "clickhouses"):
        from clickhouse_driver import Client

        database = unquote(parts.path.lstrip("/")) or CANONICAL_DATABASE
        _check_ident(database)
        user = unquote(parts.username) if parts.username else os.environ.get(
            "PITWATCH_CLICKHOUSE_USER", "default")
        password = unquote(parts.password) if parts.password is not None else os.environ.get(
            "PITWATCH_CLICKHOUSE_PASSWORD", "")
        host = parts.hostname or "localhost"
        if ":" in host:
            host = f"[{host}]"
        netloc = f"{_urlquote(user, safe='')}:{_urlquote(password, safe='')}@{host}"
        if parts.port:
            netloc += f":{parts.port}"
        opts = dict(parse_qsl(parts.query))
        conn_url = f"{scheme}://{netloc}/default"
        if opts:
            conn_url += "?" + urlencode(opts)
        return ServerWarehouse(url, database, Client.from_url(conn_url))
    raise ValueError(f"unsupported warehouse URL {url!r}: use chdb://path or clickhouse://host:port/db")
