"""Warehouse on both backends (clickhouse-server 18.16 via clickhouse-driver, and chDB).

Every test here runs twice through the parametrized ``warehouse``/``warehouse_url``
fixtures (tests/fixtures/clickhouse.py): ``[server]`` and ``[chdb]``.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import uuid
from collections import defaultdict
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitwatch.warehouse import open_warehouse, schema_statements

from tests.warehouse.rows import BUILDERS, T0, UTC, alert, event, settlement

ALL_OBJECTS = {"events_raw", "settlements", "alerts", "rejected", "rulesets", "parked", "skipped", "movements",
               "alert_actions", "alert_status", "cases",
               "table_hourly", "table_hourly_rows", "table_hourly_mv", "table_hourly_movements_mv"}
SUMS = ("handle", "win", "expected_payout", "recorded_payout", "commission", "discrepancy_amount")


def _objects(wh) -> set[str]:
    return {r[0] for r in wh.query("SELECT name FROM system.tables WHERE database = %(db)s",
                                   {"db": wh.database})}


def _hourly(wh, casino_id: str | None = None) -> dict:
    where = "casino_id = %(c)s" if casino_id else "1"
    out = {}
    for r in wh.rows("table_hourly", where, {"c": casino_id} if casino_id else None):
        out[(r["casino_id"], r["table_id"], r["game"], r["gaming_day"], r["hour"])] = r
    return out


def _expected_hourly(rows: list[dict]) -> dict:
    exp: dict = defaultdict(lambda: defaultdict(lambda: Decimal("0.00")))
    for s in rows:
        hour = s["settled_at"].replace(minute=0, second=0, microsecond=0)
        e = exp[(s["casino_id"], s["table_id"], s["game"], s["gaming_day"], hour)]
        e["bets"] += 1
        e["handle"] += s["handle"]
        e["win"] += s["win"]
        e["expected_payout"] += s["expected_returned"] - s["expected_commission"]
        e["recorded_payout"] += s["recorded_returned"] - s["recorded_commission"]
        e["commission"] += s["recorded_commission"]
        e["discrepancies"] += 1 if s["discrepancy"] != 0 else 0
        e["discrepancy_amount"] += abs(s["discrepancy"])
    return exp


def _assert_hourly(wh, rows: list[dict], casino_id: str | None = None) -> None:
    got = _hourly(wh, casino_id)
    exp = _expected_hourly(rows)
    assert set(got) == set(exp)
    for key, e in exp.items():
        g = got[key]
        assert g["bets"] == e["bets"], key
        assert g["discrepancies"] == e["discrepancies"], key
        for col in SUMS:
            assert g[col] == e[col], (key, col, g[col], e[col])
            assert str(g[col]) == str(e[col].quantize(Decimal("0.01"))), (key, col)


# ----------------------------------------------------------------------------- DDL


def test_ddl_applies_twice_without_error(warehouse_url):
    with open_warehouse(warehouse_url) as wh:
        assert wh.database not in {r[0] for r in wh.query("SHOW DATABASES")}
        wh.ensure_schema()
        wh.ensure_schema()
        assert _objects(wh) == ALL_OBJECTS


def test_ddl_reapplied_keeps_data(warehouse):
    assert warehouse.insert_new("settlements", [settlement(1)]) == 1
    warehouse.ensure_schema()
    assert warehouse.query("SELECT count() FROM pitwatch.settlements") == [(1,)]


def test_tables_are_learned_from_the_database_in_column_order(warehouse):
    """Every table schema.sql creates is known to the warehouse, with the columns and types
    DESCRIBE TABLE gives, in the same order."""
    created = {m.group(1) for s in schema_statements()
               for m in [re.match(r"CREATE (?:TABLE|MATERIALIZED VIEW|VIEW) IF NOT EXISTS pitwatch\.(\w+)", s)] if m}
    tables = warehouse.tables()
    assert created == set(tables) and ALL_OBJECTS <= created
    for name, table in tables.items():
        described = [(r[0], r[1]) for r in warehouse.query(f"DESCRIBE TABLE pitwatch.{name}")]
        assert list(table.columns.items()) == described, name


def test_canonical_database_name_is_mapped_but_literals_are_not(warehouse):
    assert warehouse.database != "pitwatch"
    warehouse.insert_new("rejected", [{"reject_id": "x", "topic": "pitwatch.table-events",
                                       "rejected_at": T0}])
    got = warehouse.query(
        "SELECT topic, 'pitwatch.rejected' FROM pitwatch.rejected WHERE topic = 'pitwatch.table-events'")
    assert got == [("pitwatch.table-events", "pitwatch.rejected")]


# ----------------------------------------------------------------------------- sink


@pytest.mark.parametrize("table", sorted(BUILDERS))
def test_insert_new_twice_counts_once(warehouse, table):
    rows = [BUILDERS[table](i) for i in range(5)]
    assert warehouse.insert_new(table, rows) == 5
    assert warehouse.insert_new(table, rows) == 0
    assert warehouse.insert_new(table, rows[:2] + [BUILDERS[table](7)]) == 1
    # plain count (no FINAL): nothing duplicated was ever written
    assert warehouse.query(f"SELECT count() FROM pitwatch.{table}") == [(6,)]
    assert len(warehouse.rows(table)) == 6


def test_ids_with_commas_and_quotes_are_looked_up_exactly(warehouse):
    """Ids are looked up as one comma-split string, except when an id holds a comma (then as a
    tuple of literals): either way, a stored id is found and only the new ones are written."""
    odd = ["a,b", "it's", "back\\slash", "", "plain"]
    rows = [dict(BUILDERS["rejected"](0), reject_id=i) for i in odd]
    assert warehouse.insert_new("rejected", rows) == 5
    assert warehouse.insert_new("rejected", rows) == 0
    assert warehouse.insert_new("rejected", [r for r in rows if "," not in r["reject_id"]]) == 0
    assert warehouse.insert_new("rejected", rows + [dict(rows[0], reject_id="new")]) == 1
    assert sorted(r["reject_id"] for r in warehouse.rows("rejected")) == sorted(odd + ["new"])


@pytest.mark.parametrize("table", sorted(BUILDERS))
def test_insert_new_dedupes_inside_one_batch_keeping_first(warehouse, table):
    build = BUILDERS[table]
    id_col = warehouse.tables()[table].id_column
    col = "reason" if table in ("rejected", "parked", "skipped") else "game"
    first = build(1, **{col: "first"})
    later = build(1, **{col: "later"})
    assert warehouse.insert_new(table, [first, build(2), later, build(2)]) == 2
    got = {r[id_col]: r for r in warehouse.rows(table)}
    assert len(got) == 2
    assert got[first[id_col]][col] == "first"


def test_reprocessing_counts_each_settlement_once_in_table_hourly(warehouse):
    rows = [settlement(i, stake=Decimal("5.05") + i, discrepancy=Decimal("-0.05") * (i % 2))
            for i in range(40)]
    assert warehouse.insert_new("settlements", rows[:25]) == 25
    # the pipeline crashes and reprocesses an overlapping window, then the rest
    assert warehouse.insert_new("settlements", rows[10:30]) == 5
    assert warehouse.insert_new("settlements", rows) == 10
    assert warehouse.insert_new("settlements", rows[::-1]) == 0
    _assert_hourly(warehouse, rows)
    total = warehouse.query("SELECT sum(bets) FROM pitwatch.table_hourly")
    assert total == [(40,)]


def test_table_hourly_is_exact_to_the_cent_before_and_after_merges(warehouse):
    rng = random.Random(20260314)
    rows = []
    for i in range(600):
        stake = Decimal(rng.randint(1, 500_000)) / 100
        ret = [Decimal("0.00"), stake * 2, stake * 36, stake / 2][rng.randrange(4)].quantize(Decimal("0.01"))
        comm = (ret * Decimal("0.05")).quantize(Decimal("0.01")) if rng.random() < 0.2 else Decimal("0.00")
        diff = Decimal(rng.choice([0, 0, 0, 1, -1, 17])) / 100
        rows.append(settlement(
            i, table_id=f"T-{rng.randrange(4)}", game=rng.choice(["roulette", "blackjack"]),
            stake=stake, expected_returned=ret, expected_commission=comm,
            recorded_returned=ret + diff, recorded_commission=comm, discrepancy=diff,
            handle=stake, win=stake - (ret + diff - comm),
            settled_at=T0 + dt.timedelta(seconds=rng.randrange(6 * 3600)),
        ))
    for start in range(0, 600, 50):  # many inserts -> many unmerged parts
        assert warehouse.insert_new("settlements", rows[start:start + 50]) == 50
    _assert_hourly(warehouse, rows)
    warehouse.query("OPTIMIZE TABLE pitwatch.table_hourly_rows FINAL")
    _assert_hourly(warehouse, rows)


cents = st.integers(min_value=-10**12, max_value=10**12).map(lambda c: Decimal(c).scaleb(-2))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.lists(st.tuples(cents.map(abs), cents, cents.map(abs), cents,
                               st.integers(0, 3), st.integers(0, 7200)), min_size=1, max_size=30))
def test_table_hourly_sums_any_cents_exactly(warehouse, data):
    """Property: table_hourly == Python Decimal sums, for any cent amounts (incl. negatives).

    Examples share the warehouse: each one writes under its own fresh casino id.
    """
    casino = uuid.uuid4()
    rows = [settlement(i, casino_id=str(casino), settlement_id=f"{casino}-{i}",
                       table_id=f"T-{t}", stake=stake, recorded_returned=ret,
                       recorded_commission=comm, discrepancy=diff, handle=stake, win=diff - ret,
                       settled_at=T0 + dt.timedelta(seconds=sec))
            for i, (stake, diff, ret, comm, t, sec) in enumerate(data)]
    assert warehouse.insert_new("settlements", rows) == len(rows)
    assert warehouse.insert_new("settlements", rows) == 0
    _assert_hourly(warehouse, rows, str(casino))


def test_ten_thousand_rows_in_one_batch(warehouse):
    """Bigger than the id-lookup chunk (1000): the lookup must cover every chunk."""
    rows = [settlement(i) for i in range(10_000)]
    assert warehouse.insert_new("settlements", rows[:4_321]) == 4_321
    assert warehouse.insert_new("settlements", rows) == 10_000 - 4_321
    assert warehouse.query("SELECT count(), uniqExact(settlement_id) FROM pitwatch.settlements") \
        == [(10_000, 10_000)]


# ----------------------------------------------------------------------------- values


def test_decimal_round_trip_keeps_cents(warehouse):
    amounts = ["0.01", "0.10", "-0.10", "1.00", "0.00", "12345678901234.99", "-9999999999999999.99"]
    rows = [settlement(i, stake=Decimal(a), discrepancy=Decimal(a)) for i, a in enumerate(amounts)]
    warehouse.insert_new("settlements", rows)
    got = {r["settlement_id"]: r for r in warehouse.rows("settlements")}
    for row, text in zip(rows, amounts):
        back = got[row["settlement_id"]]
        assert isinstance(back["stake"], Decimal)
        assert str(back["stake"]) == text and str(back["discrepancy"]) == text
    (d,) = warehouse.query("SELECT %(d)s", {"d": Decimal("0.10")})[0]
    assert str(d) == "0.10"
    cnt = warehouse.query("SELECT count() FROM pitwatch.settlements FINAL WHERE stake = %(s)s",
                          {"s": Decimal("0.1")})
    assert cnt == [(1,)]


def test_datetime_milliseconds_and_utc(warehouse):
    madrid = dt.timezone(dt.timedelta(hours=1))
    local = dt.datetime(2026, 3, 14, 22, 4, 5, 987654, tzinfo=madrid)
    warehouse.insert_new("events_raw", [event(1, occurred_at=local), event(2, occurred_ms=7)])
    got = {r["seq"]: r for r in warehouse.rows("events_raw")}
    assert got[1]["occurred_at"] == dt.datetime(2026, 3, 14, 21, 4, 5, tzinfo=UTC)
    assert got[1]["occurred_at"].tzinfo is not None
    assert got[1]["occurred_ms"] == 987
    assert got[2]["occurred_ms"] == 7
    assert got[1]["round_id"] == ""
    assert got[1]["ingested_at"].tzinfo is not None
    n = warehouse.query("SELECT count() FROM pitwatch.events_raw FINAL WHERE occurred_at = %(t)s",
                        {"t": local})
    assert n == [(1,)]


def test_arrays_round_trip(warehouse):
    warehouse.insert_new("alerts", [alert(1, evidence=["it's", "a\\b", ""]), alert(2, evidence=[])])
    got = {r["alert_id"]: r["evidence"] for r in warehouse.rows("alerts")}
    assert got == {"A-1": ["it's", "a\\b", ""], "A-2": []}
    hits = warehouse.query("SELECT alert_id FROM pitwatch.alerts FINAL WHERE has(evidence, %(e)s)",
                           {"e": "it's"})
    assert hits == [("A-1",)]


NASTY = ["O'Brien", "it''s", "back\\slash", "end\\", 'dq"x', "tab\there\nnew\rline",
         "x' OR 1=1 --", "%(s)s", "%s", "ñandú €", "nul\x00byte", "`tick`", "pitwatch.settlements"]


def test_query_param_quoting_round_trips_strings(warehouse):
    for s in NASTY:
        assert warehouse.query("SELECT %(s)s", {"s": s}) == [(s,)], s
    assert warehouse.query("SELECT %(l)s, %(n)s, %(i)s", {"l": NASTY, "n": None, "i": -3}) \
        == [(NASTY, None, -3)]


def test_query_param_quoting_in_where_and_in(warehouse):
    rows = [settlement(i, player_id=p) for i, p in enumerate(NASTY)]
    assert warehouse.insert_new("settlements", rows) == len(NASTY)
    for i, p in enumerate(NASTY):
        got = warehouse.query(
            "SELECT settlement_id FROM pitwatch.settlements FINAL WHERE player_id = %(p)s", {"p": p})
        assert got == [(f"S-{i:06d}",)], p
    got = warehouse.query(
        "SELECT count() FROM pitwatch.settlements FINAL WHERE player_id IN %(ps)s",
        {"ps": ("O'Brien", "x' OR 1=1 --", "nobody")})
    assert got == [(2,)]


def test_rejected_keeps_raw_text_and_offsets(warehouse):
    raw = b'{"type": "bet_placed", "amount": 1e9999}\n\t\xff'
    warehouse.insert_new("rejected", [{"reject_id": "r1", "topic": "t", "partition": 2**32 - 1,
                                       "offset": 2**64 - 1, "raw": raw, "reason": "x",
                                       "rejected_at": T0}])
    (r,) = warehouse.rows("rejected")
    assert r["partition"] == 2**32 - 1 and r["offset"] == 2**64 - 1
    assert r["raw"] == '{"type": "bet_placed", "amount": 1e9999}\n\t\\xff'
