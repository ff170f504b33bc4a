"""ensure_schema() upgrades a warehouse of the release before the sink's idempotence fixes, on both
backends ([server]: ClickHouse 18.16, [chdb]).

That release's DDL is tests/data/warehouse/schema-b925b42.sql: alerts keyed ``(table_id,
alert_id)`` and partitioned by the month of ``detected_at``; ``table_hourly`` a SummingMergeTree
fed by two materialized views that summed what each insert added. The warehouse here holds what
two racing sinks left there: a settlement and a movement stored twice (the old ``table_hourly``
counted both copies) and a pair alert stored from two tables in two months (two rows under FINAL).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from pitwatch.warehouse import open_warehouse
from pitwatch.warehouse.ddl import split_statements

from tests.warehouse.rows import T0, alert, settlement

OLD_DDL = Path(__file__).resolve().parents[1] / "data" / "warehouse" / "schema-b925b42.sql"
D = Decimal
UTC = dt.timezone.utc

# Steps on the tables this upgrade changes, in order (other tables' steps, e.g. a column another
# change adds to events_raw, may come between them).
UPGRADE = [
    ("create_table", "alerts_rekeyed"),
    ("copy_rows", "alerts_rekeyed"),
    ("rename_table", "alerts"),
    ("drop_table", "alerts_before_rekey"),
    ("drop_view", "table_hourly_mv"),
    ("drop_view", "table_hourly_movements_mv"),
    ("create_table", "table_hourly_rows"),
    ("backfill_table", "table_hourly_rows"),
    ("backfill_table", "table_hourly_rows"),
    ("create_view", "table_hourly_mv"),
    ("create_view", "table_hourly_movements_mv"),
    ("drop_table", "table_hourly"),
    ("create_view", "table_hourly"),
]
CHANGED = {t for _, t in UPGRADE}


def _movement(mid: str, kind: str, amount: str) -> dict:
    return {"movement_id": mid, "casino_id": "CAS-1", "table_id": "T-1", "game": "roulette", "kind": kind,
            "amount": D(amount), "gaming_day": dt.date(2026, 3, 14), "occurred_at": T0}


def _sums(wh) -> tuple:
    return wh.query("SELECT toUInt64(sum(bets)), toDecimal64(sum(handle), 2), toDecimal64(sum(win), 2), "
                    "toDecimal64(sum(drop), 2) FROM pitwatch.table_hourly")[0]


def test_warehouse_of_the_previous_release_is_upgraded(warehouse_url):
    with open_warehouse(warehouse_url) as wh:
        for stmt in split_statements(OLD_DDL.read_text("utf-8"), wh.database):
            wh.query(stmt)
        # 3 settlements at 21:04, 21:11, 21:18 UTC (T-1), each handle 10.00 and house win -10.00
        assert wh.insert_new("settlements", [settlement(i, table_id="T-1") for i in range(3)]) == 3
        assert wh.insert_new("movements", [_movement("M-1", "drop", "500.00")]) == 1
        # what two racing sinks left: S-000000 and M-1 stored twice
        wh.query("INSERT INTO pitwatch.settlements SELECT * FROM pitwatch.settlements WHERE settlement_id = 'S-000000'")
        wh.query("INSERT INTO pitwatch.movements SELECT * FROM pitwatch.movements WHERE movement_id = 'M-1'")
        # a pair alert raised from T-1 in March and again from T-2 in April: the old key kept both
        assert wh.insert_new("alerts", [alert(1, table_id="T-1"), alert(3)]) == 2
        assert wh.insert_new("alerts", [alert(1, table_id="T-2", detected_at=T0 + dt.timedelta(days=40))]) == 1
        assert _sums(wh) == (4, D("40.00"), D("-40.00"), D("1000.00"))  # the old double count
        assert wh.query("SELECT count() FROM pitwatch.alerts FINAL") == [(3,)]

        steps = wh.ensure_schema()

        assert [(s.action, s.table) for s in steps if s.table in CHANGED] == UPGRADE
        tables = wh.tables()
        assert tables["alerts"].sorting_key == ("alert_id",)
        assert tables["table_hourly"].engine == "View"
        assert "alerts_before_rekey" not in tables and "alerts_rekeyed" not in tables
        # by hand: 3 bets, handle 30.00, win -30.00, drop 500.00, each stored row once
        assert _sums(wh) == (3, D("30.00"), D("-30.00"), D("500.00"))
        (hourly,) = wh.rows("table_hourly")
        assert (hourly["table_id"], hourly["hour"], hourly["bets"]) == ("T-1", dt.datetime(2026, 3, 14, 21, tzinfo=UTC), 3)
        # one alert per id, none lost
        assert sorted(r[0] for r in wh.query("SELECT alert_id FROM pitwatch.alerts FINAL")) == ["A-1", "A-3"]
        # the upgraded warehouse takes new rows the new way
        assert wh.insert_new("alerts", [alert(1, table_id="T-9")]) == 0
        assert wh.insert_new("settlements", [settlement(3, table_id="T-1")]) == 1
        assert _sums(wh) == (4, D("40.00"), D("-40.00"), D("500.00"))
        assert wh.ensure_schema() == []
