"""ensure_schema() brings a warehouse created by an older release up to this schema.sql
(pitwatch.warehouse.migrate), on both backends ([server]: ClickHouse 18.16, [chdb]).

The previous release's DDL is tests/data/warehouse/schema-2021da7.sql (schema.sql as of
commit 2021da7): settlements without handle, win, theoretical_win and gaming_day, no
movements table, and a table_hourly keyed without gaming_day whose one view summed stake
into wagered and house_win.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from pitwatch.detectors.figures import GAMING_DAY_START, GAMING_DAY_ZONE, gaming_day
from pitwatch.warehouse import WarehouseError, ddl, open_warehouse
from pitwatch.warehouse.ddl import split_statements
from pitwatch.warehouse.migrate import gaming_day_sql

from tests.warehouse.rows import UTC, alert, event, parked, rejected, ruleset

OLD_DDL = Path(__file__).resolve().parents[1] / "data" / "warehouse" / "schema-2021da7.sql"
BASE_TABLES = ("events_raw", "settlements", "alerts", "rulesets", "rejected", "parked")
D = Decimal

HOURLY_COLUMNS = ["casino_id", "table_id", "game", "gaming_day", "hour", "bets", "handle", "win",
                  "theoretical_win", "theoretical_variance", "expected_payout", "recorded_payout", "commission", "discrepancies",
                  "discrepancy_amount", "drop", "cashed", "fills", "credits", "tips"]

MIGRATION_FROM_2021DA7 = [
    ("add_column", "events_raw", "prev_hash String"),
    ("add_column", "events_raw", "hash String"),
    ("add_column", "settlements", "handle Decimal(18, 2)"),
    ("add_column", "settlements", "win Decimal(18, 2)"),
    ("add_column", "settlements", "theoretical_win Decimal(18, 4)"),
    ("add_column", "settlements", "theoretical_variance Decimal(18, 4)"),
    ("add_column", "settlements", "gaming_day Date"),
    ("backfill_column", "settlements", None),
    # alerts rekeyed on alert_id alone (its new columns parties and score come with the copy)
    ("create_table", "alerts_rekeyed", None),
    ("copy_rows", "alerts_rekeyed", "every row of alerts (2)"),
    ("rename_table", "alerts", None),
    ("drop_table", "alerts_before_rekey", "the copy of alerts under its old keys"),
    ("create_table", "skipped", None),
    ("create_table", "movements", None),
    ("create_table", "alert_actions", None),
    ("create_table", "cases", None),
    ("drop_view", "table_hourly_mv", None),
    ("create_table", "table_hourly_rows", None),
    ("backfill_table", "table_hourly_rows", "table_hourly_mv's SELECT over settlements FINAL"),
    ("backfill_table", "table_hourly_rows", "table_hourly_movements_mv's SELECT over movements FINAL"),
    ("create_view", "table_hourly_mv", None),
    ("create_view", "table_hourly_movements_mv", None),
    ("drop_table", "table_hourly", None),
    ("create_view", "table_hourly", None),
    ("create_view", "alert_status", None),
]
REBUILD_HOURLY_ROWS = [
    ("drop_view", "table_hourly_mv"),
    ("drop_table", "table_hourly_rows"),
    ("create_table", "table_hourly_rows"),
    ("backfill_table", "table_hourly_rows"),
    ("backfill_table", "table_hourly_rows"),
    ("create_view", "table_hourly_mv"),
    ("create_view", "table_hourly_movements_mv"),
]


def _at(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


def _old_settlement(sid: str, table_id: str, game: str, at: dt.datetime, stake: str, **kw: object) -> dict:
    """A settlements row as the previous release wrote it (no handle, win, theo, gaming_day)."""
    row = {"settlement_id": sid, "casino_id": "CAS-1", "table_id": table_id, "game": game,
           "ruleset_id": f"{game}.galicia", "round_id": f"R-{sid}", "bet_id": f"B-{sid}",
           "player_id": "P-1", "dealer_id": "D-1", "spot": "any", "stake": D(stake),
           "expected_outcome": "lose", "recorded": 1, "recorded_outcome": "lose",
           "citation": "000_e1555249d49967be.txt L133", "settled_at": at}
    row.update(kw)
    return row


# Old rows. Gaming days by hand (Europe/Madrid from 06:00): 05:30 UTC on 24 Nov is 06:30 CET (the
# 24th), 04:59:59 UTC is 05:59:59 CET (the 23rd); 04:30 UTC on 29 Mar 2026 is 06:30 CEST, the
# first morning of summer time (the 29th).
OLD_SETTLEMENTS = [
    _old_settlement("S-old-1", "RF-01", "french_roulette", _at(2026, 11, 24, 5, 30, 0), "10.00"),
    _old_settlement("S-old-2", "RF-01", "french_roulette", _at(2026, 11, 24, 4, 59, 59), "5.00",
                    expected_outcome="win", expected_returned=D("10.00"), recorded_outcome="win",
                    recorded_returned=D("10.00")),
    _old_settlement("S-old-3", "RF-01", "french_roulette", _at(2026, 3, 29, 4, 30, 0), "20.00",
                    recorded_outcome="win", recorded_returned=D("5.00"), discrepancy=D("5.00")),
    _old_settlement("S-old-4", "PB-01", "punto_banca", _at(2026, 11, 24, 5, 45, 0), "100.00",
                    expected_outcome="win", expected_returned=D("200.00"), expected_commission=D("5.00"),
                    recorded_outcome="win", recorded_returned=D("200.00"), recorded_commission=D("5.00")),
]
OLD_GAMING_DAYS = {"S-old-1": dt.date(2026, 11, 24), "S-old-2": dt.date(2026, 11, 23),
                   "S-old-3": dt.date(2026, 3, 29), "S-old-4": dt.date(2026, 11, 24)}

NEW_SETTLEMENT = _old_settlement(
    "S-new-1", "RF-01", "french_roulette", _at(2026, 11, 24, 5, 50, 0), "10.00",
    expected_outcome="win", expected_returned=D("360.00"), recorded_outcome="win",
    recorded_returned=D("360.00"), handle=D("10.00"), win=D("-350.00"),
    theoretical_win=D("0.2703"), gaming_day=dt.date(2026, 11, 24))


def _movement(mid: str, table_id: str, game: str, kind: str, amount: str, at: dt.datetime, day: dt.date) -> dict:
    return {"movement_id": mid, "casino_id": "CAS-1", "table_id": table_id, "game": game, "kind": kind,
            "amount": D(amount), "gaming_day": day, "occurred_at": at}


MOVEMENTS = [
    _movement("E-1", "RF-01", "french_roulette", "drop", "500.00", _at(2026, 11, 24, 5, 10), dt.date(2026, 11, 24)),
    _movement("E-2", "RF-01", "french_roulette", "tip", "5.00", _at(2026, 11, 24, 5, 20), dt.date(2026, 11, 24)),
    _movement("E-3", "RF-01", "french_roulette", "fill", "1000.00", _at(2026, 11, 24, 4, 40), dt.date(2026, 11, 23)),
    _movement("E-4", "PB-01", "punto_banca", "cashed", "300.00", _at(2026, 11, 24, 5, 55), dt.date(2026, 11, 24)),
    _movement("E-5", "RF-01", "french_roulette", "anticipo", "2000.00", _at(2026, 11, 24, 4, 30), dt.date(2026, 11, 23)),
]


def _hourly_row(table_id: str, game: str, day: dt.date, hour: dt.datetime, **sums: object) -> dict:
    row: dict = {"casino_id": "CAS-1", "table_id": table_id, "game": game, "gaming_day": day, "hour": hour,
                 "bets": 0, "discrepancies": 0, "theoretical_win": D("0.0000")}
    for col in HOURLY_COLUMNS[5:]:
        row.setdefault(col, D("0.00"))
    row.update(sums)
    return row


# table_hourly after the migration, the new settlement and the movements, by hand. S-old-1 was
# written twice (a double write): the old view counted it twice, the backfill reads FINAL. The old
# rows have handle = win = theoretical_win = 0 (not derivable without a replay).
EXPECTED_HOURLY = [
    # S-old-1, S-new-1, E-1 (drop), E-2 (tip)
    _hourly_row("RF-01", "french_roulette", dt.date(2026, 11, 24), _at(2026, 11, 24, 5),
                bets=2, handle=D("10.00"), win=D("-350.00"), theoretical_win=D("0.2703"),
                expected_payout=D("360.00"), recorded_payout=D("360.00"), drop=D("500.00"), tips=D("5.00")),
    # S-old-2, E-3 (fill), E-5 (anticipo: in no sum)
    _hourly_row("RF-01", "french_roulette", dt.date(2026, 11, 23), _at(2026, 11, 24, 4),
                bets=1, expected_payout=D("10.00"), recorded_payout=D("10.00"), fills=D("1000.00")),
    # S-old-3: overpaid 5.00
    _hourly_row("RF-01", "french_roulette", dt.date(2026, 3, 29), _at(2026, 3, 29, 4),
                bets=1, recorded_payout=D("5.00"), discrepancies=1, discrepancy_amount=D("5.00")),
    # S-old-4 (commission 5.00), E-4 (cashed)
    _hourly_row("PB-01", "punto_banca", dt.date(2026, 11, 24), _at(2026, 11, 24, 5),
                bets=1, expected_payout=D("195.00"), recorded_payout=D("195.00"), commission=D("5.00"),
                cashed=D("300.00")),
]


def _key(r: dict) -> tuple:
    return (r["table_id"], r["gaming_day"], r["hour"])


def _hourly(wh) -> list[dict]:
    return sorted(wh.rows("table_hourly"), key=_key)


def _create_old(wh) -> None:
    """The previous release's schema in ``wh``'s database, with a few rows of every base table."""
    for stmt in split_statements(OLD_DDL.read_text("utf-8"), wh.database):
        wh.query(stmt)
    assert wh.insert_new("settlements", OLD_SETTLEMENTS) == 4
    # a double write (two workers during a rebalance): the old view counts S-old-1 twice
    wh.query("INSERT INTO pitwatch.settlements SELECT * FROM pitwatch.settlements WHERE settlement_id = 'S-old-1'")
    for table, build in (("events_raw", event), ("alerts", alert), ("rulesets", ruleset), ("rejected", rejected),
                         ("parked", parked)):
        assert wh.insert_new(table, [build(1), build(2)]) == 2


def _snapshot(wh) -> dict[str, list[dict]]:
    return {t: sorted(wh.rows(t), key=lambda r: [str(v) for v in r.values()]) for t in BASE_TABLES}


@pytest.fixture
def old_warehouse(warehouse_url):
    with open_warehouse(warehouse_url) as wh:
        _create_old(wh)
        yield wh


def test_previous_release_warehouse_is_migrated(old_warehouse, caplog):
    wh = old_warehouse
    assert "movements" not in wh.tables() and "gaming_day" not in wh.tables()["settlements"].columns
    assert wh.query("SELECT toUInt64(sum(bets)), toDecimal64(sum(wagered), 2) FROM pitwatch.table_hourly") == [(5, D("145.00"))]
    before = _snapshot(wh)
    assert len(before["settlements"]) == 4

    with caplog.at_level(logging.INFO, logger="pitwatch.warehouse.migrate"):
        steps = wh.ensure_schema()

    assert [(s.action, s.table) for s in steps] == [(a, t) for a, t, _ in MIGRATION_FROM_2021DA7]
    for step, (_, _, detail) in zip(steps, MIGRATION_FROM_2021DA7):
        assert detail is None or step.detail == detail
        assert str(step) in caplog.text
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    for col in ("handle", "win", "theoretical_win", "theoretical_variance"):
        assert any(re.search(rf"settlements\.{col} added: the [45] row\(s\) stored before keep the default", m)
                   and "replay" in m for m in warned), col  # 5 stored rows, 4 once duplicates merge
    assert not any("gaming_day" in m for m in warned)

    # the new columns, in schema.sql's order, and the new table
    tables = wh.tables()
    cols = list(tables["settlements"].columns)
    assert cols[cols.index("detail"):] == ["detail", "handle", "win", "theoretical_win", "theoretical_variance", "gaming_day",
                                           "settled_at", "settled_ms"]
    assert tables["settlements"].columns["theoretical_win"] == "Decimal(18, 4)"
    assert tables["settlements"].columns["gaming_day"] == "Date"
    assert "movements" in tables
    assert list(tables["table_hourly"].columns) == HOURLY_COLUMNS
    assert tables["table_hourly"].engine == "View"
    assert list(tables["table_hourly_rows"].columns) == HOURLY_COLUMNS + ["source_id"]
    assert tables["table_hourly_rows"].sorting_key == ("casino_id", "table_id", "game", "gaming_day", "hour",
                                                       "source_id")
    assert tables["alerts"].sorting_key == ("alert_id",)

    # no base-table row lost or changed; the old settlements got their gaming day, handle/win/theo 0
    after = _snapshot(wh)
    for table in BASE_TABLES:
        old_cols = before[table][0].keys()
        assert [{c: r[c] for c in old_cols} for r in after[table]] == before[table], table
    for r in after["settlements"]:
        assert r["gaming_day"] == OLD_GAMING_DAYS[r["settlement_id"]] == gaming_day(r["settled_at"])
        assert (r["handle"], r["win"], r["theoretical_win"]) == (D("0.00"), D("0.00"), D("0.0000"))

    # new-shape rows insert, and the new views sum them
    assert wh.insert_new("settlements", [NEW_SETTLEMENT]) == 1
    assert wh.insert_new("movements", MOVEMENTS) == 5
    assert _hourly(wh) == sorted(EXPECTED_HOURLY, key=_key)
    # ... which is what settlements FINAL and movements FINAL hold
    hourly = wh.query("SELECT toUInt64(sum(bets)), toUInt64(sum(discrepancies)), toDecimal64(sum(handle), 2), "
                      "toDecimal64(sum(win), 2), toDecimal64(sum(recorded_payout), 2), toDecimal64(sum(drop), 2), "
                      "toDecimal64(sum(fills), 2), toDecimal64(sum(tips), 2) FROM pitwatch.table_hourly")
    settled = wh.query("SELECT toUInt64(count()), toUInt64(countIf(discrepancy != 0)), toDecimal64(sum(handle), 2), "
                       "toDecimal64(sum(win), 2), toDecimal64(sum(recorded_returned) - sum(recorded_commission), 2) "
                       "FROM pitwatch.settlements FINAL")
    moved = wh.query("SELECT toDecimal64(sumIf(amount, kind = 'drop'), 2), toDecimal64(sumIf(amount, kind = 'fill'), 2), "
                     "toDecimal64(sumIf(amount, kind = 'tip'), 2) FROM pitwatch.movements FINAL")
    assert hourly == [settled[0] + moved[0]] == [(5, 1, D("10.00"), D("-350.00"), D("570.00"), D("500.00"),
                                                   D("1000.00"), D("5.00"))]

    # a second run changes nothing
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="pitwatch.warehouse.migrate"):
        assert wh.ensure_schema() == []
    assert caplog.records == []
    assert _hourly(wh) == sorted(EXPECTED_HOURLY, key=_key)


def test_migrated_warehouse_reopened_is_up_to_date(warehouse_url):
    """The worker opens the warehouse afresh at every start: nothing to do there either, and no
    scratch database is left behind."""
    with open_warehouse(warehouse_url) as wh:
        _create_old(wh)
        assert len(wh.ensure_schema()) == len(MIGRATION_FROM_2021DA7)
    with open_warehouse(warehouse_url) as wh:
        assert wh.ensure_schema() == []
        assert wh.query("SELECT name FROM system.databases WHERE name LIKE %(p)s",
                        {"p": wh.database + "_schema_probe%"}) == []


def test_interrupted_rebuild_is_done_again(warehouse):
    """A rebuild interrupted before its views were created (here: one view dropped) is redone
    on the next run, and the sums come out the same (backfilled from the base tables FINAL)."""
    assert warehouse.insert_new("settlements", [NEW_SETTLEMENT]) == 1
    assert warehouse.insert_new("movements", MOVEMENTS) == 5
    expected = _hourly(warehouse)
    assert len(expected) == 3
    warehouse.query("DROP TABLE pitwatch.table_hourly_movements_mv")
    steps = warehouse.ensure_schema()
    assert [(s.action, s.table) for s in steps] == REBUILD_HOURLY_ROWS
    assert _hourly(warehouse) == expected
    assert warehouse.ensure_schema() == []


def test_a_plain_view_that_differs_is_replaced(warehouse):
    """A plain view (alert_status) holds no data: when its definition differs from schema.sql
    it is dropped and created again, and it reads the stored actions as before."""
    warehouse.query("DROP TABLE pitwatch.alert_status")
    warehouse.query("CREATE VIEW pitwatch.alert_status AS SELECT alert_id FROM pitwatch.alert_actions")
    steps = warehouse.ensure_schema()
    assert [(s.action, s.table) for s in steps] == [("drop_view", "alert_status"), ("create_view", "alert_status")]
    assert "state" in {r[0] for r in warehouse.query("DESCRIBE TABLE pitwatch.alert_status")}
    assert warehouse.ensure_schema() == []


EXTRA_TABLE = """
CREATE TABLE IF NOT EXISTS pitwatch.extra
(
    extra_id  String,
    noted_at  DateTime('UTC')
)
ENGINE = ReplacingMergeTree()
ORDER BY extra_id;
"""
SETTLEMENTS_DETAIL = "    detail               String,\n"


def test_a_later_column_and_table_are_added_without_touching_the_rest(warehouse, monkeypatch, caplog):
    assert warehouse.insert_new("settlements", [NEW_SETTLEMENT]) == 1
    hourly = _hourly(warehouse)
    text = ddl.schema_text()
    assert SETTLEMENTS_DETAIL in text
    text = text.replace(SETTLEMENTS_DETAIL, SETTLEMENTS_DETAIL + "    note                 String,\n") + EXTRA_TABLE
    monkeypatch.setattr(ddl, "schema_text", lambda: text)
    with caplog.at_level(logging.WARNING, logger="pitwatch.warehouse.migrate"):
        steps = warehouse.ensure_schema()
    assert [(s.action, s.table, s.detail) for s in steps] == [
        ("add_column", "settlements", "note String"),
        ("create_table", "extra", "missing: created from schema.sql"),
    ]
    assert steps[0].sql.endswith("ADD COLUMN `note` String AFTER `detail`")
    assert "settlements.note added: the 1 row(s) stored before keep the default of String" in caplog.text
    cols = list(warehouse.tables()["settlements"].columns)
    assert cols[cols.index("detail") + 1] == "note"
    assert [r["note"] for r in warehouse.rows("settlements")] == [""]
    assert _hourly(warehouse) == hourly
    assert warehouse.ensure_schema() == []


def test_a_base_table_whose_key_changed_is_refused_not_rebuilt(warehouse, monkeypatch):
    assert warehouse.insert_new("rejected", [rejected(1)]) == 1
    text = ddl.schema_text()
    assert "ORDER BY reject_id;" in text
    monkeypatch.setattr(ddl, "schema_text", lambda: text.replace("ORDER BY reject_id;", "ORDER BY (topic, reject_id);"))
    with pytest.raises(WarehouseError, match=r"rejected: engine or keys .* never rebuilt automatically"):
        warehouse.ensure_schema()
    assert warehouse.tables()["rejected"].sorting_key == ("reject_id",)
    assert warehouse.query("SELECT count() FROM pitwatch.rejected") == [(1,)]


def test_gaming_day_sql_is_pitwatch_gaming_day(warehouse):
    """The backfill expression of gaming_day gives pitwatch's gaming day (Python) around 06:00
    local time in winter and summer and on both days Madrid changes time."""
    assert (GAMING_DAY_ZONE, GAMING_DAY_START) == (ZoneInfo("Europe/Madrid"), dt.time(6, 0))
    instants = []
    for start in (_at(2026, 3, 28, 20), _at(2026, 10, 24, 20), _at(2026, 11, 23, 20), _at(2026, 7, 22, 20)):
        for minutes in range(0, 36 * 60, 30):
            t = start + dt.timedelta(minutes=minutes)
            instants += [t, t - dt.timedelta(seconds=1)]
    literals = ", ".join(f"toDateTime('{t:%Y-%m-%d %H:%M:%S}', 'UTC')" for t in instants)
    got = warehouse.query(f"SELECT settled_at, {gaming_day_sql('settled_at')} "
                          f"FROM (SELECT arrayJoin([{literals}]) AS settled_at)")
    assert [(t, gaming_day(t)) for t in instants] == got


def test_pitwatch_migrate_prints_the_steps_then_nothing(warehouse_url):
    from pitwatch.cli import app
    from typer.testing import CliRunner

    with open_warehouse(warehouse_url) as wh:
        _create_old(wh)
    runner = CliRunner()
    res = runner.invoke(app, ["migrate", "--warehouse", warehouse_url])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "add_column events_raw: prev_hash String"
    assert lines[-1] == f"{len(MIGRATION_FROM_2021DA7)} step(s) applied"
    res = runner.invoke(app, ["migrate", "--warehouse", warehouse_url])
    assert res.exit_code == 0 and res.stdout == "up to date: nothing to do\n", res.output
