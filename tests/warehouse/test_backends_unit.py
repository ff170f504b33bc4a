"""Warehouse pieces that need no server: DDL text, quoting, URLs, row validation (against
the tables chDB describes), chDB's one-path rule."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from decimal import Decimal

import pytest
from pitwatch.warehouse import (
    ChdbWarehouse,
    ServerWarehouse,
    WarehouseError,
    open_warehouse,
    quote,
    render,
    schema_statements,
)
from pitwatch.warehouse.ddl import rename_database
from pitwatch.warehouse.sink import prepare

from tests.warehouse.rows import T0, event, settlement


@pytest.fixture(scope="module")
def tables(chdb_path):
    """The pitwatch tables as chDB describes them once ``schema.sql`` ran."""
    with open_warehouse(f"chdb://{chdb_path}?database=t_unit_{uuid.uuid4().hex[:8]}") as wh:
        wh.ensure_schema()
        try:
            yield wh.tables()
        finally:
            wh.drop_database()


def test_schema_statements_rename_only_the_database():
    stmts = schema_statements("t_abc")
    assert stmts[0] == "CREATE DATABASE IF NOT EXISTS t_abc"
    assert all("pitwatch." not in s for s in stmts)
    (mv,) = [s for s in stmts if "MATERIALIZED VIEW IF NOT EXISTS t_abc.table_hourly_mv" in s]
    assert "t_abc.table_hourly_mv TO t_abc.table_hourly" in mv and "FROM t_abc.settlements" in mv
    assert schema_statements()[0] == "CREATE DATABASE IF NOT EXISTS pitwatch"


def test_schema_avoids_non_portable_features():
    """The header of schema.sql: what 18.16 and chDB do not share."""
    text = " ".join(schema_statements()).upper()
    for bad in ("DATETIME64", "LOWCARDINALITY", "MAP", "TUPLE", "TTL", "CODEC", "NULLABLE",
                "JSONEXTRACT", "TOSTARTOFINTERVAL", "SIMPLEAGGREGATEFUNCTION", "WINDOW", "OVER"):
        assert not re.search(rf"\b{bad}\b", text), bad


def test_rename_skips_quoted_literals_and_longer_names():
    sql = "SELECT 'pitwatch.x', `pitwatch`.y FROM pitwatch.a, mypitwatch.b, pitwatch_2.c, pitwatch . d"
    assert rename_database(sql, "t") == (
        "SELECT 'pitwatch.x', `pitwatch`.y FROM t.a, mypitwatch.b, pitwatch_2.c, t . d")


@pytest.mark.parametrize("value, literal", [
    (None, "NULL"), (True, "1"), (-7, "-7"), ("it's", r"'it\'s'"), ("a\\b\n", r"'a\\b\n'"),
    (Decimal("0.10"), "toDecimal64('0.10', 2)"), (Decimal("-5"), "toDecimal64('-5', 0)"),
    (Decimal("1E+2"), "toDecimal64('100', 0)"),
    (dt.datetime(2026, 1, 2, 4, 5, 6, 999, tzinfo=dt.timezone(dt.timedelta(hours=1))),
     "toDateTime('2026-01-02 03:05:06', 'UTC')"),
    (dt.date(2026, 1, 2), "toDate('2026-01-02')"),
    (["a", 1], "['a', 1]"), (("a",), "('a')"), ({"b", "a"}, "('a', 'b')"),
])
def test_quote_literals(value, literal):
    assert quote(value) == literal


@pytest.mark.parametrize("bad, exc", [
    (dt.datetime(2026, 1, 1), ValueError), ((), ValueError), (object(), TypeError),
    (Decimal("NaN"), ValueError),
])
def test_quote_refuses(bad, exc):
    with pytest.raises(exc):
        quote(bad)


def test_render_uses_percent_rules_only_with_params():
    assert render("SELECT '%'", None) == "SELECT '%'"
    assert render("SELECT '%%', %(a)s", {"a": "%(b)s"}) == "SELECT '%', '%(b)s'"
    with pytest.raises(KeyError):
        render("SELECT %(missing)s", {})


@pytest.mark.parametrize("override, exc", [
    ({"stake": 10.0}, TypeError),                     # money is never float
    ({"stake": Decimal("10.005")}, ValueError),       # fraction of a cent
    ({"stake": Decimal("1E+16")}, ValueError),        # does not fit Decimal(18, 2)
    ({"settled_at": dt.datetime(2026, 1, 1)}, ValueError),  # naive
    ({"settled_at": dt.datetime(1969, 12, 31, tzinfo=dt.timezone.utc)}, ValueError),
    ({"recorded": 256}, ValueError),
    ({"recorded": "1"}, TypeError),
    ({"colour": "red"}, ValueError),                  # unknown column
    ({"settlement_id": None}, ValueError),            # id missing -> '' refused below
])
def test_prepare_refuses_bad_rows(tables, override, exc):
    row = settlement(1, **override)
    if override.get("settlement_id", 1) is None:
        del row["settlement_id"]
    with pytest.raises(exc, match="settlement"):
        prepare(tables["settlements"], [row])


def test_prepare_fills_defaults(tables):
    row = event(3)
    del row["actor_id"]
    (t,) = prepare(tables["events_raw"], [row])
    got = dict(zip(tables["events_raw"].columns, t))
    assert got["round_id"] == "" and got["actor_id"] == ""
    assert got["occurred_ms"] == 120
    assert got["ingested_at"].tzinfo is not None
    with pytest.raises(ValueError, match="occurred_at"):
        prepare(tables["events_raw"], [{"event_id": "e"}])


def test_sink_tables_and_their_ids_come_from_the_ddl(tables):
    """ReplacingMergeTree tables are sink tables keyed on the last ORDER BY column."""
    ids = {name: t.id_column for name, t in tables.items() if t.id_column}
    assert {"events_raw": "event_id", "settlements": "settlement_id", "alerts": "alert_id",
            "rejected": "reject_id"}.items() <= ids.items()
    assert "table_hourly" not in ids and "table_hourly_mv" not in ids
    # written by materialized views only, though a ReplacingMergeTree keyed on source_id
    assert "table_hourly_rows" not in ids and tables["table_hourly_rows"].fed_by_views
    assert tables["settlements"].narrowing_columns == ("table_id",)
    assert tables["alerts"].narrowing_columns == ()  # one alert per id, whatever its table
    assert tables["rejected"].narrowing_columns == ()


def test_insert_new_refuses_table_hourly_and_unknown_tables(chdb_url):
    with open_warehouse(chdb_url) as wh:
        assert wh.insert_new("settlements", []) == 0
        with pytest.raises(WarehouseError, match="ensure_schema"):
            wh.insert_new("settlements", [settlement(1)])
        wh.ensure_schema()
        for table in ("table_hourly", "table_hourly_rows", "table_hourly_mv", "nope"):
            with pytest.raises(ValueError):
                wh.insert_new(table, [{}])
        with pytest.raises(ValueError, match="unknown table"):
            wh.rows("table_hourly_mv")


def test_server_url_parsing(monkeypatch):
    monkeypatch.setenv("PITWATCH_CLICKHOUSE_USER", "envuser")
    monkeypatch.setenv("PITWATCH_CLICKHOUSE_PASSWORD", "env:pw@/")
    wh = open_warehouse("clickhouse://db.example:9001/prod")
    try:
        assert isinstance(wh, ServerWarehouse) and wh.database == "prod"
        conn = wh._client.connection
        assert (list(conn.hosts), conn.user, conn.password, conn.database, conn.secure_socket) == (
            [("db.example", 9001)], "envuser", "env:pw@/", "default", False)
    finally:
        wh.close()
    wh = open_warehouse("clickhouses://u:p%40ss@h/x?verify=false")
    try:
        conn = wh._client.connection
        assert (conn.user, conn.password, conn.secure_socket, conn.verify_cert) == ("u", "p@ss", True, False)
        assert list(conn.hosts) == [("h", 9440)]
        assert open_warehouse("clickhouse://h").database == "pitwatch"
    finally:
        wh.close()


@pytest.mark.parametrize("url", ["postgres://x/y", "clickhouse://h/bad-name", "chdb://",
                                 "chdb:///tmp/x?database=a;drop", "chdb:///tmp/x?colour=red"])
def test_bad_urls(url):
    with pytest.raises(ValueError):
        open_warehouse(url)


def test_chdb_same_path_shares_session_other_path_is_refused(chdb_path, tmp_path):
    a = open_warehouse(f"chdb://{chdb_path}?database=t_share_a")
    b = open_warehouse(f"chdb://{chdb_path}/../{chdb_path.rsplit('/', 1)[1]}?database=t_share_b")
    try:
        assert isinstance(a, ChdbWarehouse) and a._session is b._session
        with pytest.raises(WarehouseError, match="only one data directory"):
            open_warehouse(f"chdb://{tmp_path}/other")
        a.close()
        assert b.query("SELECT 1") == [(1,)]  # b survives a's close
        with pytest.raises(WarehouseError, match="closed"):
            a.query("SELECT 1")
    finally:
        a.close()
        b.close()


def test_ms_default_from_datetime_only_when_missing(tables):
    alerts = tables["alerts"]
    cols = list(alerts.columns)
    (t,) = prepare(alerts, [{"alert_id": "a", "detected_at": T0.replace(microsecond=5_999)}])
    assert t[cols.index("detected_ms")] == 5
    (t,) = prepare(alerts, [{"alert_id": "a", "detected_at": T0, "detected_ms": 999}])
    assert t[cols.index("detected_ms")] == 999
