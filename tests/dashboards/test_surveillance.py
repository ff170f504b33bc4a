"""The surveillance room's queue and its field configuration (issue: the open-alerts queue sorted by
time only, cut by the dashboard's range, amounts shown as ``0.0``, no player, no link to the round;
no units, thresholds or severity colours), on both ClickHouse engines."""

from __future__ import annotations

import json
import re
from datetime import timedelta, timezone
from decimal import Decimal

from pitwatch.dashboards import surveillance
from pitwatch.dashboards.export import dashboard_json
from pitwatch.dashboards.macros import ALL, Context, Variable, expand
from pitwatch.lifecycle.actions import new_action
from pitwatch.lifecycle.store import record

from tests.warehouse.rows import T0, alert

NOW = T0.replace(tzinfo=timezone.utc)
EVERY = Variable([ALL], "'*'")


def _ctx() -> Context:
    """The surveillance room's default range: the last 6 hours."""
    return Context(NOW - timedelta(hours=6), NOW, 60, {v.name: EVERY for v in surveillance.BOARD.variables})


def _panel(title: str) -> dict:
    (p,) = [p for p in json.loads(dashboard_json("surveillance"))["panels"] if p["title"] == title]
    return p


def test_the_queue_is_every_open_alert_by_severity_then_age(warehouse):
    """Four alerts: a low duplicate 2 minutes old, a high payout discrepancy (35.00 over-paid to
    P-3) detected 7 h ago (before the 6-hour range), a medium 1 h old and a high closed one. The queue
    shows the three open ones, the high first (oldest first within a severity: 420 minutes), with
    its player and its euros; the closed one is not there."""
    warehouse.insert_new("alerts", [
        alert(1, kind="duplicate_event", severity="low", amount=Decimal("0.00"), player_id="",
              detected_at=NOW - timedelta(minutes=2)),
        alert(2, kind="payout_discrepancy", severity="high", amount=Decimal("35.00"), player_id="P-3",
              round_id="R-7", detected_at=NOW - timedelta(hours=7)),
        alert(3, kind="bet_above_maximum", severity="medium", amount=Decimal("950.50"), player_id="P-4",
              detected_at=NOW - timedelta(hours=1)),
        alert(4, kind="payout_discrepancy", severity="high", detected_at=NOW - timedelta(minutes=30)),
    ])
    record(warehouse, new_action("A-4", "close", "surv-1", NOW - timedelta(minutes=10), disposition="false_positive",
                                 reason="checked on camera"))
    columns, rows = warehouse.query_columns(expand(surveillance.PANELS["Open alerts"][1], _ctx()))
    got = [dict(zip(columns, r)) for r in rows]
    assert [(g["alert_id"], g["severity"], g["age_min"]) for g in got] == [
        ("A-2", "high", 420), ("A-3", "medium", 60), ("A-1", "low", 2)]
    assert [(g["player_id"], g["amount_eur"]) for g in got] == [("P-3", 35.0), ("P-4", 950.5), ("", None)]
    assert got[0]["round_id"] == "R-7"
    assert got[0]["dossier"] == "pitwatch replay round T-1 R-7 --format html"
    # the big number counts the old high one too (open whatever its age)
    unacked = surveillance.PANELS["Unacknowledged high-severity alerts"][1]
    assert warehouse.query(expand(unacked, _ctx())) == [(1,)]
    tables = warehouse.query(expand(surveillance.PANELS["Tables by open alerts"][1], _ctx()))
    assert tables == [("T-1", 3, 1)]


def test_the_queue_shows_euros_severity_colours_and_links_to_the_round():
    """Field configuration as Grafana reads it: the amount in euros (currencyEUR, 2 decimals), the
    severity cell coloured by value (critical dark red, high red, medium orange, low yellow), a data
    link from the round to the round lookup dashboard of that table and round."""
    p = _panel("Open alerts")
    props = {o["matcher"]["options"]: {q["id"]: q["value"] for q in o["properties"]}
             for o in p["fieldConfig"]["overrides"]}
    assert props["amount_eur"]["unit"] == "currencyEUR" and props["amount_eur"]["decimals"] == 2
    (mapping,) = props["severity"]["mappings"]
    assert {k: v["color"] for k, v in mapping["options"].items()} == {
        "critical": "dark-red", "high": "red", "medium": "orange", "low": "yellow"}
    assert props["severity"]["custom.cellOptions"] == {"type": "color-background"}
    (link,) = props["round_id"]["links"]
    assert link["url"] == "/d/pitwatch-round?var-table=${__data.fields.table_id}&var-round=${__data.fields.round_id}"
    big = _panel("Unacknowledged high-severity alerts")
    steps = big["fieldConfig"]["defaults"]["thresholds"]["steps"]
    assert [(s["value"], s["color"]) for s in steps] == [(None, "green"), (1, "red")]


MONEY_COLUMNS = {"amount", "amount_eur", "over_paid", "under_paid", "net_over_paid", "stake", "expected_returned",
                 "recorded_returned", "discrepancy", "drop_eur", "handle_eur", "win_eur", "theo_eur", "sd_eur",
                 "win_minus_theo", "band_low", "band_high"}
"""Every column of a dashboard table that holds euros (written out from the panels' SQL)."""


def test_every_euro_column_of_every_dashboard_shows_in_euros():
    """Each table panel's euro columns (those of :data:`MONEY_COLUMNS` its SQL selects) carry the
    unit currencyEUR with 2 decimals; the euro time series too."""
    from pitwatch.dashboards.export import DASHBOARDS

    seen = set()
    for name in DASHBOARDS:
        for p in json.loads(dashboard_json(name))["panels"]:
            head = " ".join(p["targets"][0]["rawSql"].split("FROM")[0].split())  # the SELECT list
            units = {o["matcher"]["options"]: {q["id"]: q["value"] for q in o["properties"]}
                     for o in p["fieldConfig"]["overrides"]}
            for col in MONEY_COLUMNS:
                if p["type"] == "table" and re.search(rf"AS {col}\b|(^SELECT|,) {col}( ?,|$)", head):
                    assert (units[col]["unit"], units[col]["decimals"]) == ("currencyEUR", 2), (name, p["title"], col)
                    seen.add(col)
    assert seen == MONEY_COLUMNS
    (series,) = [p for p in json.loads(dashboard_json("performance"))["panels"] if p["type"] == "timeseries"]
    assert series["fieldConfig"]["defaults"]["unit"] == "currencyEUR"


def test_the_median_response_time_of_an_even_count_is_the_mean_of_the_middle_two(warehouse):
    """Two alerts acknowledged 60 s and 120 s after detection: the median is 90 s, as the monthly
    report's (statistics.median) gives 1.50 minutes; ``quantileExact(0.5)`` gave 120 s. None closed: 0."""
    at = NOW.replace(microsecond=0)
    warehouse.insert_new("alerts", [alert(1, detected_at=at, detected_ms=0), alert(2, detected_at=at, detected_ms=0)])
    record(warehouse, new_action("A-1", "acknowledge", "surv-1", at + timedelta(seconds=60)))
    record(warehouse, new_action("A-2", "acknowledge", "surv-1", at + timedelta(seconds=120)))
    columns, rows = warehouse.query_columns(expand(surveillance.PANELS["Response times (median s)"][1], _ctx()))
    got = dict(zip(columns, rows[0]))
    assert (got["alerts"], got["acknowledged"], got["closed"], got["median_ack_s"], got["median_close_s"]) == (
        2, 2, 0, 90.0, 0.0)


def test_response_times_count_the_alerts_of_the_gaming_days_of_the_range(warehouse):
    """As the monthly report: over the range of November (1 Nov 00:00 to 30 Nov 23:59:59 UTC), an
    alert detected at 04:00 UTC on 1 Nov (05:00 Madrid: gaming day 31 Oct) is not counted; one
    detected at 05:00 UTC on 1 Dec (06:00 Madrid: gaming day 1 Dec) neither; one at 04:00 UTC on
    1 Dec (gaming day 30 Nov) is, and it is the one acknowledged (after 60 s)."""
    from datetime import datetime

    warehouse.insert_new("alerts", [
        alert(1, detected_at=datetime(2026, 11, 1, 4, 0, tzinfo=timezone.utc), detected_ms=0),
        alert(2, detected_at=datetime(2026, 12, 1, 5, 0, tzinfo=timezone.utc), detected_ms=0),
        alert(3, detected_at=datetime(2026, 12, 1, 4, 0, tzinfo=timezone.utc), detected_ms=0)])
    record(warehouse, new_action("A-3", "acknowledge", "surv-1", datetime(2026, 12, 1, 4, 1, tzinfo=timezone.utc)))
    every = {v.name: EVERY for v in surveillance.BOARD.variables}
    month = Context(datetime(2026, 11, 1, tzinfo=timezone.utc), datetime(2026, 11, 30, 23, 59, 59, tzinfo=timezone.utc),
                    60, every)
    (row,) = warehouse.query(expand(surveillance.PANELS["Response times (median s)"][1], month))
    assert row[:4] == (1, 1, 0, 60.0)
