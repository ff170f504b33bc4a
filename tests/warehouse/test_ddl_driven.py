"""The warehouse code derives everything from schema.sql and the database: a table or a
column that exists only in the DDL is written and read with no code change, and every
column type it may use round-trips exactly on both backends ([server] and [chdb])."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from pitwatch.warehouse import ddl, open_warehouse

from tests.warehouse.rows import T0, UTC, settlement

PROBE_DDL = """
CREATE TABLE IF NOT EXISTS pitwatch.probe
(
    probe_id     String,
    table_id     String,
    note         String,
    amount       Decimal(18, 2),
    tags         Array(String),
    seen_at      DateTime('UTC'),
    seen_ms      UInt16,
    flag         UInt8,
    big          UInt64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(seen_at)
ORDER BY (table_id, probe_id);
"""
SETTLEMENTS = "CREATE TABLE IF NOT EXISTS pitwatch.settlements\n(\n"
MADRID = dt.timezone(dt.timedelta(hours=1))
STRINGS = ["", "O'Brien", 'dq"x', "back\\slash", "end\\", "ñandú €", "tab\there\nnew\rline",
           "nul\x00byte", "`tick`", "%(s)s", "pitwatch.probe"]
AMOUNTS = ["0.01", "-0.01", "0.00", "-0.10", "12345678901234.99", "-9999999999999999.99"]


@pytest.fixture
def extended(warehouse_url, monkeypatch):
    """A warehouse whose schema.sql has one more table (``probe``) and one more settlements
    column (``probe_extra``) than the shipped one, the schema applied."""
    text = ddl.schema_text()
    assert SETTLEMENTS in text
    text = text.replace(SETTLEMENTS, SETTLEMENTS + "    probe_extra  String,\n") + PROBE_DDL
    monkeypatch.setattr(ddl, "schema_text", lambda: text)
    with open_warehouse(warehouse_url) as wh:
        wh.ensure_schema()
        yield wh


def _probe(i: int, **kw) -> dict:
    row = {"probe_id": f"p{i}", "table_id": f"T-{i % 2}", "seen_at": T0 + dt.timedelta(seconds=i)}
    row.update(kw)
    return row


def test_a_table_only_in_the_ddl_is_an_idempotent_sink_table(extended):
    probe = extended.tables()["probe"]
    assert probe.id_column == "probe_id" and probe.narrowing_columns == ("table_id",)
    rows = [_probe(i) for i in range(5)]
    assert extended.insert_new("probe", rows) == 5
    assert extended.insert_new("probe", rows + [_probe(1, note="later"), _probe(9)]) == 1
    assert extended.query("SELECT count() FROM pitwatch.probe") == [(6,)]
    got = {r["probe_id"]: r for r in extended.rows("probe")}
    assert got["p1"] == {"probe_id": "p1", "table_id": "T-1", "note": "", "amount": Decimal("0.00"),
                         "tags": [], "seen_at": T0.replace(microsecond=0) + dt.timedelta(seconds=1),
                         "seen_ms": 120, "flag": 0, "big": 0}
    with pytest.raises(ValueError, match="probe: row without probe_id"):
        extended.insert_new("probe", [{"table_id": "T-1", "seen_at": T0}])
    with pytest.raises(ValueError, match="probe: row without required column seen_at"):
        extended.insert_new("probe", [{"probe_id": "x"}])


def test_a_column_only_in_the_ddl_is_written_and_defaulted(extended):
    assert extended.insert_new("settlements", [settlement(1, probe_extra="r-hash"), settlement(2)]) == 2
    got = {r["settlement_id"]: r["probe_extra"] for r in extended.rows("settlements")}
    assert got == {"S-000001": "r-hash", "S-000002": ""}
    # the materialized view over settlements is unaffected
    assert extended.query("SELECT sum(bets) FROM pitwatch.table_hourly") == [(2,)]


def test_every_column_type_round_trips_exactly(extended):
    rows = [
        _probe(i, note=s, amount=Decimal(AMOUNTS[i % len(AMOUNTS)]), tags=STRINGS[i:] + [s],
               flag=255 if i % 2 else 0, big=2**64 - 1 - i)
        for i, s in enumerate(STRINGS)
    ]
    local = dt.datetime(2026, 3, 14, 22, 4, 5, 987654, tzinfo=MADRID)
    rows.append(_probe(99, seen_at=local, tags=[]))
    assert extended.insert_new("probe", rows) == len(rows)
    got = {r["probe_id"]: r for r in extended.rows("probe")}
    for row in rows:
        back = got[row["probe_id"]]
        assert back["note"] == row.get("note", "")
        assert str(back["amount"]) == str(row.get("amount", Decimal("0.00")))
        assert back["tags"] == row["tags"]
        assert back["flag"] == row.get("flag", 0) and back["big"] == row.get("big", 0)
        assert back["seen_at"] == row["seen_at"].replace(microsecond=0) and back["seen_at"].tzinfo is UTC
        assert back["seen_ms"] == row["seen_at"].microsecond // 1000
    assert got["p99"]["seen_at"] == dt.datetime(2026, 3, 14, 21, 4, 5, tzinfo=UTC) and got["p99"]["seen_ms"] == 987


def test_every_column_type_filters_and_round_trips_as_a_parameter(extended):
    extended.insert_new("probe", [_probe(i, note=s, amount=Decimal(a), tags=[s])
                                  for i, (s, a) in enumerate(zip(STRINGS, AMOUNTS))])
    for i, (s, a) in enumerate(zip(STRINGS, AMOUNTS)):
        (back,) = extended.query("SELECT %(s)s, %(a)s, %(t)s, %(l)s", {"s": s, "a": Decimal(a), "t": T0, "l": [s]})
        assert back[0] == s and str(back[1]) == a and back[3] == [s]
        assert back[2] == T0.replace(microsecond=0) and back[2].tzinfo is UTC
        where = "note = %(s)s AND amount = %(a)s AND has(tags, %(s)s) AND seen_at = %(t)s"
        hits = extended.query(f"SELECT probe_id FROM pitwatch.probe FINAL WHERE {where}",
                              {"s": s, "a": Decimal(a), "t": T0 + dt.timedelta(seconds=i)})
        assert hits == [(f"p{i}",)], s
