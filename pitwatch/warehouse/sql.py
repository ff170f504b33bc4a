"""SQL text from Python values: query parameters and ``INSERT ... VALUES`` rows.

``query(sql, params)`` substitutes ``%(name)s`` placeholders client-side with
:func:`quote`, the same rendering on both backends (ClickHouse 18.16 has no server-side
parameters, and chDB none in the driver's ``%(name)s`` style). With ``params`` given, a
literal ``%`` in the SQL is written ``%%`` (Python %-formatting rules); with
``params=None`` the text is sent as is. Escaping itself is clickhouse-driver's
(``escape_param``), reached through :mod:`pitwatch.warehouse.values`.
"""

from __future__ import annotations

import enum
from typing import Any, Iterable, Sequence

from pitwatch.warehouse.values import ColumnType, param_type

__all__ = ["quote", "render", "values_clause"]


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
    if isinstance(value, enum.Enum):
        return quote(value.value)
    if isinstance(value, list):
        return "[" + ", ".join(quote(v) for v in value) + "]"
    if isinstance(value, (tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else list(value)
        if not items:
            raise ValueError("empty tuple cannot be rendered (ClickHouse has no empty IN ())")
        return "(" + ", ".join(quote(v) for v in items) + ")"
    return param_type(value).expression(value)


def render(sql: str, params: dict[str, Any] | None) -> str:
    """Substitute ``%(name)s`` placeholders in ``sql`` with :func:`quote`-d values.

    ``params=None`` returns ``sql`` unchanged. Raises ``KeyError`` for a missing
    parameter, ``TypeError``/``ValueError`` from :func:`quote`.
    """
    if params is None:
        return sql
    return sql % {k: quote(v) for k, v in params.items()}


def values_clause(types: Sequence[ColumnType], rows: Iterable[Sequence[Any]]) -> str:
    """``(a,b),(c,d)``: the data of an ``INSERT ... VALUES`` for rows of accepted values
    (:meth:`ColumnType.accept`), one type per column, in column order."""
    lits = [t.literal for t in types]
    return ",".join("(" + ",".join([f(v) for f, v in zip(lits, row)]) + ")" for row in rows)
