"""The one type interpreter (pitwatch.warehouse.values), without an engine: each type's
write side (accept, literal) and its two read sides (chDB JSON, clickhouse-driver) agree."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal

import pytest
import pytz
from clickhouse_driver.util.escape import escape_param
from pitwatch.warehouse.values import (
    ArrayType,
    ColumnType,
    DateTimeType,
    DecimalType,
    IntType,
    NullableType,
    StringType,
    TupleType,
    column_type,
)

UTC = dt.timezone.utc
MADRID = zoneinfo.ZoneInfo("Europe/Madrid")
NASTY = ["", "O'Brien", "back\\slash", "end\\", "tab\there\nnew\rline", "nul\x00byte", "ñandú €", "\a\b\f\v"]


class _Zone:
    """The context clickhouse-driver's escape_param reads a server's time zone from."""

    def __init__(self, name: str):
        self.server_info = self
        self.name = name

    def get_timezone(self) -> str:
        return self.name


@pytest.mark.parametrize("name, kind, check", [
    ("String", StringType, lambda t: t.default == ""),
    ("UInt16", IntType, lambda t: (t.low, t.high) == (0, 65536)),
    ("Int8", IntType, lambda t: (t.low, t.high) == (-128, 128)),
    ("Decimal(18, 2)", DecimalType, lambda t: (t.precision, t.scale, str(t.default)) == (18, 2, "0.00")),
    ("Decimal64(4)", DecimalType, lambda t: (t.precision, t.scale) == (18, 4)),
    ("DateTime('UTC')", DateTimeType, lambda t: t.zone is UTC),
    ("DateTime('Europe/Madrid')", DateTimeType, lambda t: t.zone_name == "Europe/Madrid"),
    ("DateTime", DateTimeType, lambda t: t.zone is UTC),
    ("Array(String)", ArrayType, lambda t: isinstance(t.item, StringType)),
    ("Array(Array(Decimal(18, 2)))", ArrayType, lambda t: isinstance(t.item.item, DecimalType)),
    ("Nullable(UInt8)", NullableType, lambda t: isinstance(t.item, IntType)),
    ("LowCardinality(String)", StringType, lambda t: t.name == "String"),
    ("Tuple(a UInt8, b DateTime('UTC'))", TupleType, lambda t: isinstance(t.items[1], DateTimeType)),
    ("UUID", ColumnType, lambda t: t.identity_from_driver),
])
def test_type_names_as_the_engines_print_them(name, kind, check):
    t = column_type(name)
    assert type(t) is kind and check(t)


@pytest.mark.parametrize("text", NASTY)
def test_string_literal_is_clickhouse_drivers_escaping(text):
    t = column_type("String")
    assert t.literal(t.accept(text)) == escape_param(text, None)


def test_array_of_strings_literal():
    t = column_type("Array(String)")
    assert t.literal(t.accept(["it's", "a\\b", "ñ€", ""])) == "['it\\'s','a\\\\b','ñ€','']"
    assert t.literal(t.accept(None)) == t.literal(t.default) == "[]"


@pytest.mark.parametrize("zone", ["UTC", "Europe/Madrid", "America/Havana"])
@pytest.mark.parametrize("value", [
    dt.datetime(2026, 3, 14, 21, 4, 5, 987654, tzinfo=UTC),
    dt.datetime(2026, 3, 29, 2, 30, tzinfo=dt.timezone(dt.timedelta(hours=2))),  # Madrid's DST switch
    dt.datetime(1970, 1, 1, tzinfo=UTC),
])
def test_datetime_literal_is_the_text_of_escape_param_in_the_columns_zone(zone, value):
    t = column_type(f"DateTime('{zone}')")
    assert t.literal(t.accept(value)) == escape_param(value, _Zone(zone))


@pytest.mark.parametrize("amount", ["0.01", "-0.01", "0.00", "-0.10", "12345678901234.99", "-9999999999999999.99"])
def test_decimal_to_the_cent_both_ways(amount):
    t = column_type("Decimal(18, 2)")
    value = t.accept(Decimal(amount))
    assert t.literal(value) == amount
    # chDB's JSON gives 0.1 for 0.10 (parsed as Decimal), or an int; the driver Decimal(x) / 100
    for cell in (Decimal(amount).normalize(), Decimal(amount)):
        assert str(t.from_json(cell)) == amount
    assert str(t.from_driver(Decimal(int(Decimal(amount) * 100)) / 100)) == amount
    assert str(t.from_json(0)) == "0.00"


@pytest.mark.parametrize("bad, exc, match", [
    (0.1, TypeError, "money must be Decimal"), (True, TypeError, "money"),
    (Decimal("0.001"), ValueError, "fractions of a cent"), (Decimal("1E+16"), ValueError, "does not fit"),
    (Decimal("NaN"), ValueError, "non-finite"), ("ten", ValueError, "not a number"),
])
def test_decimal_refuses(bad, exc, match):
    with pytest.raises(exc, match=match):
        column_type("Decimal(18, 2)").accept(bad)


def test_datetime_reads_back_as_aware_utc_from_both_backends():
    t = column_type("DateTime('UTC')")
    want = dt.datetime(2026, 3, 14, 21, 4, 5, tzinfo=UTC)
    assert t.accept(want.astimezone(MADRID)) == want
    got = [t.from_json("2026-03-14 21:04:05"), t.from_driver(pytz.utc.localize(want.replace(tzinfo=None))),
           t.from_driver(want.replace(tzinfo=None))]
    assert got == [want] * 3 and all(g.tzinfo is UTC for g in got)
    madrid = column_type("DateTime('Europe/Madrid')")
    assert madrid.from_json("2026-03-14 22:04:05") == want  # JSON text is in the column's zone
    with pytest.raises(ValueError, match="naive"):
        t.accept(dt.datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="1970..2105"):
        t.accept(dt.datetime(2106, 1, 1, tzinfo=UTC))
    with pytest.raises(TypeError):
        column_type("DateTime64(3, 'UTC')").accept(want)  # read only (not in the portable DDL)
    assert column_type("DateTime64(3, 'UTC')").from_json("2026-03-14 21:04:05.123") == want.replace(microsecond=123000)


def test_other_reads_agree_between_json_and_driver():
    cases = [
        ("UInt64", "18446744073709551615", 2**64 - 1, 2**64 - 1),  # quoted by older chDB JSON
        ("Array(Decimal(18, 2))", [Decimal("0.1"), 0], [Decimal("0.1"), Decimal(0)], [Decimal("0.10"), Decimal("0.00")]),
        ("Nullable(Decimal(18, 2))", None, None, None),
        ("Tuple(UInt8, Decimal(18, 2))", [1, Decimal("2.5")], (1, Decimal("2.5")), (1, Decimal("2.50"))),
        ("Date", "2026-03-14", dt.date(2026, 3, 14), dt.date(2026, 3, 14)),
        ("Float64", Decimal("1.5"), 1.5, 1.5),
        ("Array(String)", ["a", ""], ["a", ""], ["a", ""]),
    ]
    for name, cell, driver_value, want in cases:
        t = column_type(name)
        assert repr(t.from_json(cell)) == repr(t.from_driver(driver_value)) == repr(want), name


@pytest.mark.parametrize("name, good, bad", [
    ("UInt8", [0, 255, True], [(256, ValueError), (-1, ValueError), ("1", TypeError)]),
    ("UInt16", [65535], [(65536, ValueError)]),
    ("UInt64", [2**64 - 1], [(2**64, ValueError)]),
    ("String", ["", "ñ"], [(1.5, TypeError), ([], TypeError)]),
    ("Array(String)", [[], ("a",), None], [("abc", TypeError), ([1.5], TypeError)]),
])
def test_accept_ranges_and_types(name, good, bad):
    t = column_type(name)
    for value in good:
        t.accept(value)
    for value, exc in bad:
        with pytest.raises(exc):
            t.accept(value)


def test_types_the_sink_does_not_write_are_refused():
    for name in ("UUID", "Tuple(UInt8, String)", "Bool", "Enum8('a' = 1)"):
        with pytest.raises(TypeError, match="not supported"):
            column_type(name).accept("a")
