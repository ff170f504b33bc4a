"""Two sinks writing the same batch at once (two workers during a rebalance), on both backends.

``Warehouse.insert_new`` looks the batch's ids up, then inserts the unseen ones: two writers
that both look up before either inserts both insert. The tests force that interleaving (a
barrier between the lookup and the insert of each writer) and check what must still hold:
one row per id in every table (``FINAL``), ``table_hourly`` and the monthly report's figures
equal to a single copy, and one alert per ``alert_id`` whatever its table or month.
"""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitwatch.reports.monthly import build_monthly
from pitwatch.warehouse import base, open_warehouse
from pitwatch.warehouse.sink import prepare

from tests.warehouse.rows import T0, alert, event, settlement
from tests.warehouse.test_warehouse import _assert_hourly

D = Decimal


def _movement(mid: str, kind: str, amount: str, minutes: int) -> dict:
    return {"movement_id": mid, "casino_id": "CAS-1", "table_id": "T-1", "game": "roulette", "kind": kind,
            "amount": D(amount), "gaming_day": dt.date(2026, 3, 14), "occurred_at": T0 + dt.timedelta(minutes=minutes)}


# T0 is 2026-03-14 21:04:05 UTC; settlement(i) is settled i * 7 minutes later: 21:04, 21:11,
# 21:18, 21:25, all in the 21:00 hour of the gaming day 2026-03-14 (22:xx in Madrid). Each
# stakes 10.00 (handle) and is paid 20.00 back: the house's win is -10.00.
BATCH = {
    "settlements": [settlement(i, table_id="T-1") for i in range(4)],
    "movements": [_movement("M-1", "drop", "500.00", 1), _movement("M-2", "tip", "5.00", 2),
                  _movement("M-3", "fill", "1000.00", 3)],
    "events_raw": [event(i) for i in range(1, 6)],
    "alerts": [alert(1), alert(2, table_id="T-2")],
}
# By hand: 4 bets; handle 4 x 10.00 = 40.00; win 4 x -10.00 = -40.00; expected and recorded
# payout 4 x 20.00 = 80.00; drop 500.00, tips 5.00, fills 1000.00.
HOURLY = {"bets": 4, "handle": D("40.00"), "win": D("-40.00"), "expected_payout": D("80.00"),
          "recorded_payout": D("80.00"), "drop": D("500.00"), "tips": D("5.00"), "fills": D("1000.00"),
          "cashed": D("0.00"), "discrepancies": 0}


def _race(url: str, monkeypatch: pytest.MonkeyPatch, batches: list[dict[str, list[dict]]]) -> list[dict[str, int]]:
    """Each batch of ``batches`` written by its own Warehouse in its own thread; every
    writer's id lookup happens before any writer's insert. Returns what each inserted."""
    barrier = threading.Barrier(len(batches), timeout=30)
    real_unseen = base.unseen

    def unseen_then_wait(*args, **kwargs):
        new = real_unseen(*args, **kwargs)
        barrier.wait()
        return new

    monkeypatch.setattr(base, "unseen", unseen_then_wait)
    results: list[dict[str, int]] = [{} for _ in batches]
    errors: list[BaseException] = []

    def write(k: int) -> None:
        try:
            with open_warehouse(url) as wh:
                for table, rows in batches[k].items():
                    results[k][table] = wh.insert_new(table, rows)
        except BaseException as e:  # reported below
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=write, args=(k,)) for k in range(len(batches))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    monkeypatch.setattr(base, "unseen", real_unseen)
    assert not errors, errors
    return results


def test_two_sinks_inserting_the_same_batch_leave_one_copy(warehouse_url, monkeypatch):
    with open_warehouse(warehouse_url) as wh:
        wh.ensure_schema()
    results = _race(warehouse_url, monkeypatch, [BATCH, BATCH])
    # the race really happened: both writers inserted every row
    assert results[0] == results[1] == {"settlements": 4, "movements": 3, "events_raw": 5, "alerts": 2}
    with open_warehouse(warehouse_url) as wh:
        for table, rows in BATCH.items():
            assert wh.query(f"SELECT count() FROM pitwatch.{table} FINAL") == [(len(rows),)], table
        (hourly,) = wh.rows("table_hourly")
        assert hourly["hour"] == dt.datetime(2026, 3, 14, 21, tzinfo=dt.timezone.utc)
        assert {k: hourly[k] for k in HOURLY} == HOURLY
        assert wh.query("SELECT toUInt64(sum(bets)), toDecimal64(sum(handle), 2), toDecimal64(sum(drop), 2) "
                        "FROM pitwatch.table_hourly WHERE table_id = 'T-1'") == [(4, D("40.00"), D("500.00"))]
        report = build_monthly(wh, "CAS-1", "2026-03")
        (line,) = report.tables
        assert (line.bets, line.handle, line.win, line.drop, line.tips, line.fills) == (
            4, D("40.00"), D("-40.00"), D("500.00"), D("5.00"), D("1000.00"))
        # and again after every part merged
        for table in ("settlements", "movements", "table_hourly"):
            physical = wh.query("SELECT name FROM system.tables WHERE database = %(db)s AND name LIKE %(t)s "
                                "AND engine LIKE '%%MergeTree'", {"db": wh.database, "t": f"{table}%"})
            for (name,) in physical:
                wh.query(f"OPTIMIZE TABLE pitwatch.{name} FINAL")
        (hourly,) = wh.rows("table_hourly")
        assert {k: hourly[k] for k in HOURLY} == HOURLY
        assert build_monthly(wh, "CAS-1", "2026-03").tables[0].handle == D("40.00")


def test_one_alert_per_id_whatever_its_table_or_month(warehouse_url, monkeypatch):
    """A pair alert raised again from the other table of the pair, a month later: one row."""
    with open_warehouse(warehouse_url) as wh:
        wh.ensure_schema()
    first = {"alerts": [alert(7, table_id="T-1", kind="chip_dumping")]}
    again = {"alerts": [alert(7, table_id="T-2", kind="chip_dumping", detected_at=T0 + dt.timedelta(days=40))]}
    _race(warehouse_url, monkeypatch, [first, again])
    with open_warehouse(warehouse_url) as wh:
        assert wh.query("SELECT count() FROM pitwatch.alerts FINAL WHERE alert_id = 'A-7'") == [(1,)]
        # and the sink, writing alone, does not store it a third time from yet another table
        third = alert(7, table_id="T-3", kind="chip_dumping", detected_at=T0 + dt.timedelta(days=80))
        assert wh.insert_new("alerts", [third]) == 0
        wh.query("OPTIMIZE TABLE pitwatch.alerts FINAL")
        assert wh.query("SELECT count() FROM pitwatch.alerts WHERE alert_id = 'A-7'") == [(1,)]


def test_the_rows_the_views_write_are_no_sink_table(warehouse):
    """table_hourly_rows is a ReplacingMergeTree keyed on an id, but only its views write it."""
    with pytest.raises(ValueError, match="not a sink table"):
        warehouse.insert_new("table_hourly_rows", [{"source_id": "settlement:S-1"}])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.lists(st.tuples(st.integers(1, 10**7), st.integers(0, 2), st.integers(0, 7200), st.integers(1, 3)),
                     min_size=1, max_size=25),
       batches=st.integers(1, 4))
def test_table_hourly_counts_each_settlement_once_however_often_it_was_stored(warehouse, data, batches):
    """Property: whatever rows racing writers stored and how many times (every copy inserted
    past the sink's lookup, in any number of inserts), table_hourly sums each settlement once.

    Examples share the warehouse: each one writes under its own fresh casino id.
    """
    casino = str(uuid.uuid4())
    rows = [settlement(i, casino_id=casino, settlement_id=f"{casino}-{i}", table_id=f"T-{t}",
                       stake=D(cents) / 100, handle=D(cents) / 100, win=-D(cents) / 100,
                       settled_at=T0 + dt.timedelta(seconds=sec))
            for i, (cents, t, sec, _) in enumerate(data)]
    info = warehouse.tables()["settlements"]
    stored = [r for r, (_, _, _, copies) in zip(rows, data) for _ in range(copies)]
    for k in range(batches):
        part = stored[k::batches]
        if part:
            warehouse._insert_rows(info, prepare(info, part))
    _assert_hourly(warehouse, rows, casino)
