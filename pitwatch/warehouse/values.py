"""Python values <-> ClickHouse types: the warehouse's one type interpreter.

Each ClickHouse type, spelled as the engines print it (``system.columns.type`` and the
result metadata of both backends: ``String``, ``UInt16``, ``Decimal(18, 2)``,
``DateTime('UTC')``, ``Array(String)``, ...), is parsed once by :func:`column_type` into a
:class:`ColumnType` that knows everything pitwatch does with a value of that type:

``accept(value)``
    a Python value a caller passes for a column -> the canonical value written: ``str``,
    ``int``, ``Decimal`` at the column's scale (euros: two decimals), timezone-aware UTC
    ``datetime``, ``list``. Raises ``TypeError`` (wrong Python type, or a column type the
    sink does not write) or ``ValueError`` (out of range, fraction of a cent, naive time).
``default``
    the value of a column left out of a row (:data:`MISSING` where there is none).
``literal(value)``
    a canonical value -> its SQL literal in ``INSERT ... VALUES`` (chDB). Strings (alone
    or in arrays) and dates are escaped by clickhouse-driver
    (``clickhouse_driver.util.escape.escape_param``); a string with nothing to escape is
    quoted directly, times are formatted to the second in the column's zone (the same
    text as ``escape_param``), numbers are plain digits.
``expression(value)``
    a Python query parameter -> a typed SQL expression (``toDecimal64('0.10', 2)``,
    ``toDateTime('2026-03-14 21:04:05', 'UTC')``), see :func:`param_type`.
``from_json(cell)`` / ``from_driver(value)``
    a result cell from chDB (JSONCompact) or from clickhouse-driver -> the same Python
    value on both backends: ``int``, ``Decimal`` quantized to the type's scale, aware UTC
    ``datetime``, ``date``, ``float``, ``bool``, ``list``, ``tuple``, ``None``, ``str``.

Types the warehouse DDL may use for written columns: ``String``, ``(U)Int8..64``,
``Float32/64`` (never money), ``Decimal(P, S)``, ``DateTime[('zone')]``, ``Date``,
``Array(T)`` and ``Nullable(T)`` of those. Any other type can still be read.
"""

from __future__ import annotations

import datetime as _dt
import enum
import re
import uuid
import zoneinfo
from decimal import Context, Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from clickhouse_driver.util.escape import escape_chars_map, escape_param

__all__ = ["MISSING", "ColumnType", "column_type", "param_type"]

UTC = _dt.timezone.utc
_DT_MIN = _dt.datetime(1970, 1, 1, tzinfo=UTC)
_DT_MAX = _dt.datetime(2105, 12, 31, 23, 59, 59, tzinfo=UTC)
_WIDE = Context(prec=80)  # quantizing a Decimal(38, s) needs more than the default 28 digits
# The characters escape_param would escape: strings without any are quoted directly (fast path).
_NEEDS_ESCAPE = re.compile("[" + re.escape("".join(escape_chars_map)) + "]")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""``ColumnType.default`` of a type whose columns a row must always give (DateTime, Date)."""


class ColumnType:
    """One ClickHouse type (``name`` as the engine spells it); see the module doc.

    This base class reads any type as the backends give it and writes none.
    """

    default: Any = MISSING
    identity_from_driver = True
    """True when :meth:`from_driver` returns clickhouse-driver's value unchanged."""

    def __init__(self, name: str):
        self.name = name

    def accept(self, value: Any) -> Any:
        """The canonical value to write for ``value``; raises ``TypeError``/``ValueError``."""
        raise TypeError(f"writing {self.name} columns is not supported")

    def literal(self, value: Any) -> str:
        """SQL literal of a canonical (accepted) value, for ``INSERT ... VALUES``."""
        raise TypeError(f"writing {self.name} columns is not supported")

    def expression(self, value: Any) -> str:
        """Typed SQL expression of a Python query parameter; errors as :meth:`accept`."""
        return self.literal(self.accept(value))

    def from_json(self, cell: Any) -> Any:
        """Python value of a JSONCompact cell (chDB, floats parsed as ``Decimal``)."""
        return cell

    def from_driver(self, value: Any) -> Any:
        """Python value of a clickhouse-driver result value."""
        return value

    def __repr__(self) -> str:
        return f"<ColumnType {self.name}>"


class StringType(ColumnType):
    """``String``: ``str``; ``None`` -> ``''``; enums, UUIDs and ints as text; ``bytes``
    decoded as UTF-8 (invalid bytes as ``\\xNN``)."""

    default = ""

    def accept(self, value: Any) -> str:
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
        raise TypeError(f"expected str, got {type(value).__name__}")

    def literal(self, value: str) -> str:
        if _NEEDS_ESCAPE.search(value) is None:
            return "'" + value + "'"
        return str(escape_param(value, None))


class IntType(ColumnType):
    """``UInt8..UInt64`` / ``Int8..Int64``: ``int`` within the type's range (``bool`` is 0/1)."""

    default = 0

    def __init__(self, name: str):
        super().__init__(name)
        signed = not name.startswith("U")
        bits = int(name[3:] if signed else name[4:])
        self.low = -(1 << (bits - 1)) if signed else 0
        self.high = (1 << (bits - 1)) if signed else (1 << bits)  # exclusive

    def accept(self, value: Any) -> int:
        if not isinstance(value, int):
            raise TypeError(f"expected int, got {type(value).__name__}")
        if not self.low <= value < self.high:
            raise ValueError(f"{value} out of range for {self.name}")
        return int(value)

    def literal(self, value: int) -> str:
        return str(value)

    def expression(self, value: Any) -> str:
        if not isinstance(value, int):
            raise TypeError(f"expected int, got {type(value).__name__}")
        return str(int(value))

    def from_json(self, cell: Any) -> Any:
        return None if cell is None else int(cell)  # 64-bit ints may come quoted


class FloatType(ColumnType):
    """``Float32/64`` (never for money): ``float``/``int`` -> ``float``."""

    default = 0.0

    def accept(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"expected float, got {type(value).__name__}")
        return float(value)

    def literal(self, value: float) -> str:
        return repr(value)

    def expression(self, value: Any) -> str:
        return f"toFloat64('{self.accept(value)!r}')"

    def from_json(self, cell: Any) -> Any:
        return None if cell is None else float(cell)


class DecimalType(ColumnType):
    """``Decimal(P, S)``: exact ``Decimal`` with at most ``S`` decimals and ``P - S`` integer
    digits (``Decimal(18, 2)``: euros to the cent); ``int`` and numeric ``str`` accepted,
    ``float`` refused. Read back quantized to ``S`` (``Decimal('0.00')``, never ``0``)."""

    identity_from_driver = False

    def __init__(self, name: str, precision: int, scale: int):
        super().__init__(name)
        self.precision, self.scale = precision, scale
        self.quantum = Decimal(1).scaleb(-scale)
        self.limit = Decimal(10) ** (precision - scale)
        self.default = Decimal(0).quantize(self.quantum)

    def accept(self, value: Any) -> Decimal:
        if type(value) is not Decimal:
            if isinstance(value, (float, bool)) or not isinstance(value, (Decimal, int, str)):
                raise TypeError(f"money must be Decimal (not {type(value).__name__})")
            try:
                value = Decimal(value)
            except InvalidOperation as e:
                raise ValueError(f"not a number: {value!r}") from e
        if not value.is_finite():
            raise ValueError(f"non-finite amount {value}")
        q = value.quantize(self.quantum) if self.precision <= 28 else value.quantize(self.quantum, context=_WIDE)
        if q != value:
            more = "fractions of a cent" if self.scale == 2 else f"more than {self.scale} decimals"
            raise ValueError(f"{value} has {more}")
        if abs(q) >= self.limit:
            raise ValueError(f"{value} does not fit {self.name}")
        return q

    def literal(self, value: Decimal) -> str:
        return format(value, "f")

    def expression(self, value: Any) -> str:
        fn = "toDecimal64" if self.precision <= 18 else "toDecimal128"
        return f"{fn}('{self.literal(self.accept(value))}', {self.scale})"

    def _quantize(self, value: Decimal) -> Decimal:
        if self.precision <= 28:  # the default context's precision: fast path
            return value.quantize(self.quantum)
        return value.quantize(self.quantum, context=_WIDE)

    def from_json(self, cell: Any) -> Any:
        return None if cell is None else self._quantize(Decimal(str(cell)))

    def from_driver(self, value: Any) -> Any:
        return None if value is None else self._quantize(value)


class DateTimeType(ColumnType):
    """``DateTime[('zone')]``: a timezone-aware ``datetime`` (any zone; naive refused) within
    1970..2105, written to the second (milliseconds live in their own column) and read back
    as aware UTC. A column without a zone is taken as UTC (pitwatch's server zone).
    ``DateTime64`` is read only (sub-seconds kept)."""

    identity_from_driver = False

    def __init__(self, name: str, zone: str | None, writable: bool = True):
        super().__init__(name)
        self.zone_name = zone or "UTC"
        self.zone: _dt.tzinfo = UTC if self.zone_name in ("UTC", "Etc/UTC") else zoneinfo.ZoneInfo(self.zone_name)
        self._writable = writable

    def accept(self, value: Any) -> _dt.datetime:
        if not self._writable:
            return super().accept(value)
        if not isinstance(value, _dt.datetime):
            raise TypeError(f"expected datetime, got {type(value).__name__}")
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: pass a timezone-aware (UTC) datetime")
        value = value.astimezone(UTC)
        if not (_DT_MIN <= value <= _DT_MAX):
            raise ValueError(f"datetime {value.isoformat()} is outside DateTime's 1970..2105 range")
        return value

    def literal(self, value: _dt.datetime) -> str:
        # To the second, in the column's zone: the text of clickhouse-driver's
        # escape_param(value, <context naming the zone>), which a test holds this to, but
        # without its per-call pytz conversion (~2 us per value on the sink's hot path).
        return value.astimezone(self.zone).strftime("'%Y-%m-%d %H:%M:%S'")

    def expression(self, value: Any) -> str:
        return f"toDateTime({self.literal(self.accept(value))}, '{self.zone_name}')"

    def from_json(self, cell: Any) -> Any:
        if cell is None:
            return None
        value = _dt.datetime.fromisoformat(cell).replace(tzinfo=self.zone)
        return value if self.zone is UTC else value.astimezone(UTC)

    def from_driver(self, value: Any) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class DateType(ColumnType):
    """``Date``/``Date32``: a ``date`` (a ``datetime`` is refused: say which day you mean)."""

    def accept(self, value: Any) -> _dt.date:
        if not isinstance(value, _dt.date) or isinstance(value, _dt.datetime):
            raise TypeError(f"expected date, got {type(value).__name__}")
        return value

    def literal(self, value: _dt.date) -> str:
        return str(escape_param(value, None))

    def expression(self, value: Any) -> str:
        return f"toDate({self.literal(self.accept(value))})"

    def from_json(self, cell: Any) -> Any:
        return None if cell is None else _dt.date.fromisoformat(cell)


class BoolType(ColumnType):
    """``Bool`` (recent releases only): read as ``bool``."""

    def from_json(self, cell: Any) -> Any:
        return None if cell is None else bool(cell)


class ArrayType(ColumnType):
    """``Array(T)``: a ``list`` (or tuple) of ``T`` values; ``None`` -> ``[]``; a missing
    column is ``()`` (written as ``[]``)."""

    default: Any = ()

    def __init__(self, name: str, item: ColumnType):
        super().__init__(name)
        self.item = item
        self.identity_from_driver = item.identity_from_driver

    def accept(self, value: Any) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"expected list, got {type(value).__name__}")
        accept = self.item.accept
        return [accept(v) for v in value]

    def literal(self, value: list[Any]) -> str:
        lit = self.item.literal
        return "[" + ",".join([lit(v) for v in value]) + "]"

    def from_json(self, cell: Any) -> Any:
        conv = self.item.from_json
        return [conv(v) for v in cell]

    def from_driver(self, value: Any) -> Any:
        conv = self.item.from_driver
        return [conv(v) for v in value]


class NullableType(ColumnType):
    """``Nullable(T)``: ``None`` or a ``T`` value (the pitwatch DDL itself never uses NULL)."""

    default = None

    def __init__(self, name: str, item: ColumnType):
        super().__init__(name)
        self.item = item
        self.identity_from_driver = item.identity_from_driver

    def accept(self, value: Any) -> Any:
        return None if value is None else self.item.accept(value)

    def literal(self, value: Any) -> str:
        return "NULL" if value is None else self.item.literal(value)

    def from_json(self, cell: Any) -> Any:
        return None if cell is None else self.item.from_json(cell)

    def from_driver(self, value: Any) -> Any:
        return None if value is None else self.item.from_driver(value)


class TupleType(ColumnType):
    """``Tuple(T1, T2, ...)`` (element names dropped): read as a ``tuple``."""

    def __init__(self, name: str, items: list[ColumnType]):
        super().__init__(name)
        self.items = items
        self.identity_from_driver = all(t.identity_from_driver for t in items)

    def from_json(self, cell: Any) -> Any:
        return tuple(t.from_json(v) for t, v in zip(self.items, cell))

    def from_driver(self, value: Any) -> Any:
        return tuple(t.from_driver(v) for t, v in zip(self.items, value))


_NAME_RE = re.compile(r"^(\w+)(?:\((.*)\))?$", re.S)
_INT_RE = re.compile(r"^U?Int(8|16|32|64)$")


def _split_args(inner: str) -> list[str]:
    """Top-level, comma-separated arguments of a type: ``"UInt8, Array(String)"``."""
    parts: list[str] = []
    depth, quoted, start = 0, False, 0
    for i, ch in enumerate(inner):
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch in "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
        elif not quoted and ch == "," and depth == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    parts.append(inner[start:].strip())
    return parts


def _unquote(arg: str) -> str:
    return arg[1:-1] if len(arg) >= 2 and arg[0] == arg[-1] == "'" else arg


@lru_cache(maxsize=None)
def column_type(name: str) -> ColumnType:
    """The :class:`ColumnType` of a ClickHouse type name, e.g. ``"Decimal(18, 2)"``.

    Never fails: a type pitwatch does not know is read as the backend gives it (strings,
    numbers, lists) and refused for writing (``accept`` raises ``TypeError``).
    """
    name = name.strip()
    m = _NAME_RE.match(name)
    if m is None:
        return ColumnType(name)
    base, inner = m.group(1), m.group(2)
    args = _split_args(inner) if inner is not None else []
    if base == "String":
        return StringType(name)
    if _INT_RE.match(base):
        return IntType(name)
    if base in ("Float32", "Float64"):
        return FloatType(name)
    if base == "Decimal" and len(args) == 2:
        return DecimalType(name, int(args[0]), int(args[1]))
    if base in ("Decimal32", "Decimal64", "Decimal128", "Decimal256") and len(args) == 1:
        precision = {"Decimal32": 9, "Decimal64": 18, "Decimal128": 38, "Decimal256": 76}[base]
        return DecimalType(name, precision, int(args[0]))
    if base == "DateTime":
        return DateTimeType(name, _unquote(args[0]) if args else None)
    if base == "DateTime64":
        return DateTimeType(name, _unquote(args[1]) if len(args) > 1 else None, writable=False)
    if base in ("Date", "Date32"):
        return DateType(name)
    if base == "Bool":
        return BoolType(name)
    if base == "Array" and len(args) == 1:
        return ArrayType(name, column_type(args[0]))
    if base == "Nullable" and len(args) == 1:
        return NullableType(name, column_type(args[0]))
    if base == "LowCardinality" and len(args) == 1:
        return column_type(args[0])
    if base == "Tuple":
        return TupleType(name, [column_type(re.sub(r"^\w+\s+(?=\w)", "", a)) for a in args])
    return ColumnType(name)  # FixedString, UUID, Enum8/16, Nothing, IPv4, ...


def param_type(value: Any) -> ColumnType:
    """The type a scalar query parameter is rendered as, by its Python type.

    ``bool``/``int`` -> ``Int64`` digits (``bool`` as 1/0); ``Decimal`` -> ``Decimal`` at
    the value's own scale (64-bit up to 18 digits, else 128-bit); ``float`` -> ``Float64``;
    ``str``/``bytes``/``UUID`` -> ``String``; aware ``datetime`` -> ``DateTime('UTC')``;
    ``date`` -> ``Date``. Raises ``TypeError`` for other types, ``ValueError`` for a
    non-finite Decimal.
    """
    if isinstance(value, int):
        return column_type("Int64")
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"non-finite Decimal {value!r}")
        sign, digits, exponent = value.as_tuple()
        scale = max(0, -int(exponent))
        precision = 18 if max(len(digits), scale) <= 18 else 38
        return column_type(f"Decimal({precision}, {scale})")
    if isinstance(value, float):
        return column_type("Float64")
    if isinstance(value, (str, bytes, bytearray, uuid.UUID)):
        return column_type("String")
    if isinstance(value, _dt.datetime):
        return column_type("DateTime('UTC')")
    if isinstance(value, _dt.date):
        return column_type("Date")
    raise TypeError(f"cannot render {type(value).__name__} as a ClickHouse literal")
