"""The monthly regulator report's figures (:mod:`pitwatch.reports.monthly`) on an evening whose month
is worked out by hand, on the ClickHouse 18.16 server and on chDB.

The evening is :func:`tests.test_accounting.the_evening` (table RF-ACC of casino gal-acc, French
roulette under Galicia's rules, worked out bet by bet in that module's docstring). Its figures for
November 2026 (gaming days 06:00-06:00 Madrid; every event falls in gaming days 24 and 25 Nov):

- days open 1: both sessions open on gaming day 24 (22:00Z is 23:00 Madrid; 04:50Z on the 25th is
  05:50 Madrid, still the 24th);
- bets 6 settlement rows; drop 500 + 200 + 40 (the 05:00Z buy-in opens gaming day 25, still
  November) = 740.00; handle 100.00; win -270.00; hold -270 / 740 = -36.49 %;
- theoretical win 0.2703 + 0.2740 + 0.1370 + 0.1370 + 0.6849 = 1.5032 -> 1.50; variance
  3408.0351 + 394.5573 + 2 x 98.6393 + 2465.9832 = 6465.8542 EUR², σ = 80.41; deviation
  (-270 - 1.5032) / 80.4105 = -3.38 σ, outside the 95% band 1.5032 ∓ 1.96 x 80.4105 (157.6046):
  -156.1014 .. 159.1078, rounded once: -156.10 .. 159.11 (the per-bet variances are derived in
  tests/test_accounting.py); win / handle -270 / 100 = -270.00 %;
- tips 5.00, fills 2000.00, credits 1000.00, chips cashed 100.00, commission 0.00;
- float differences -30.00: session 2's closing count is 30 short (one high float_discrepancy).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from pitwatch.lifecycle.actions import AlertAction
from pitwatch.lifecycle.store import record
from pitwatch.reports.monthly import build_monthly, month_days
from pitwatch.warehouse import open_warehouse

from tests.fixtures.batches import store_rows
from tests.test_accounting import _processed, the_evening

D = Decimal
UTC = timezone.utc

RF_ACC = {
    "label": "RF-ACC", "game": "french_roulette", "days_open": 1, "bets": 6, "drop": "740.00", "handle": "100.00",
    "win": "-270.00", "theoretical_win": "1.50", "theoretical_variance": "6465.8542", "commission": "0.00",
    "tips": "5.00", "fills": "2000.00", "credits": "1000.00", "cashed": "100.00", "float_difference": "-30.00",
    "hold_percent": "-36.49", "win_per_handle": "-270.00", "sd": "80.41", "deviation_sd": "-3.38",
    "band_low": "-156.10", "band_high": "159.11", "outside_band": True, "peer": False, "revenue_check": None,
    "rake": "0.00", "session_fees": "0.00", "limit_breaches": 0,
}


@pytest.fixture
def stored(warehouse_url):
    store_rows(warehouse_url, _processed().rows)
    return warehouse_url


def _act(alert_id: str, n: int, action: str, at: datetime, **kw) -> AlertAction:
    return AlertAction(action_id=f"00000000-0000-4000-8000-{n:012d}", alert_id=alert_id, action=action,
                       actor="inspector-1", acted_at=at, **kw)


def test_the_month_worked_out_by_hand(stored):
    """Every figure of the table, the game and the month as in the module docstring; the month is
    the year to date (no earlier month has data), so the gross gaming income YTD is the win."""
    with open_warehouse(stored) as wh:
        r = build_monthly(wh, "gal-acc", "2026-11")
    d = r.data()
    assert d["tables"] == [RF_ACC]
    assert d["games"] == [{**RF_ACC, "label": "french_roulette"}]
    assert [p["label"] for p in d["periods"]] == ["2026-11", "2026-10", "2026-09", "2026-08", "2026-01..11"]
    month, *before, ytd = d["periods"]
    assert {k: month[k] for k in ("bets", "drop", "handle", "win", "hold_percent", "theoretical_win")} == {
        "bets": 6, "drop": "740.00", "handle": "100.00", "win": "-270.00", "hold_percent": "-36.49",
        "theoretical_win": "1.50"}
    assert all(p["bets"] == 0 and p["drop"] == "0.00" for p in before)
    assert ytd["win"] == "-270.00" and d["gross_gaming_income_ytd"] == "-270.00"
    # provenance: the 44 stored events, the first at 22:00:00Z on the 24th, the last the 05:00Z buy-in
    assert d["events"] == {"count": 44, "first": "2026-11-24T22:00:00.000Z", "last": "2026-11-25T05:00:00.000Z"}
    assert len(the_evening()) == 44
    (rs,) = d["rulesets"]
    assert (rs["ruleset_id"], rs["jurisdiction"], rs["bets"]) == ("french_roulette.galicia", "galicia", 6)
    assert len(rs["ruleset_hash"]) == 64
    # the end of the month's last gaming day: 1 Dec 06:00 Madrid = 05:00Z
    assert d["first_gaming_day"] == "2026-11-01" and d["last_gaming_day"] == "2026-11-30"
    assert d["as_of"] == "2026-12-01T05:00:00.000Z"


def test_alerts_as_they_stood_at_the_end_of_the_month(stored):
    """The float alert (detected at the 04:5x closing of session 2) acknowledged 3 minutes after its
    detection and closed 63 minutes after it: medians 3.00 and 63.00 minutes, one closed
    confirmed violation. A reopen dated after the month's end does not change the month's report."""
    with open_warehouse(stored) as wh:
        (alert,) = wh.rows("alerts")
        at = alert["detected_at"].replace(tzinfo=UTC) + timedelta(milliseconds=alert["detected_ms"])
        record(wh, _act(alert["alert_id"], 1, "acknowledge", at + timedelta(minutes=3)))
        record(wh, _act(alert["alert_id"], 2, "close", at + timedelta(minutes=63), disposition="confirmed_violation",
                        reason="30.00 missing, counted twice"))
        record(wh, _act(alert["alert_id"], 3, "reopen", datetime(2026, 12, 3, 9, 0, tzinfo=UTC), reason="recount"))
        a = build_monthly(wh, "gal-acc", "2026-11").data()["alerts"]
        dec = build_monthly(wh, "gal-acc", "2026-12").data()
    assert a["total"] == 1 and a["acknowledged"] == 1 and a["closed"] == 1
    assert a["by_kind"] == [{"kind": "float_discrepancy", "severity": "high", "count": 1, "amount": "-30.00"}]
    assert a["by_disposition"] == [{"state": "closed: confirmed_violation", "count": 1}]
    assert (a["median_ack_minutes"], a["median_close_minutes"]) == ("3.00", "63.00")
    assert a["open_over_7_days"] == [] and a["per_day"] == [{"gaming_day": "2026-11-24", "alerts": 1}]
    assert (a["rejected"], a["quarantined"]) == (0, 0)
    # December: no figures of its own; November is the previous month; the reopened November alert
    # is open at December's end and 37 days old (detected 25 Nov 04:5x, as of 1 Jan 05:00Z)
    assert dec["tables"] == [] and dec["periods"][1]["label"] == "2026-11" and dec["periods"][1]["win"] == "-270.00"
    assert dec["gross_gaming_income_ytd"] == "-270.00"
    (old,) = dec["alerts"]["open_over_7_days"]
    assert (old["kind"], old["state"], old["age_days"]) == ("float_discrepancy", "open", 37)
    assert dec["alerts"]["total"] == 0


def test_the_digest_is_the_data_and_only_the_data(stored):
    """Built twice, the same digest; a new settlement (another bet) changes it."""
    with open_warehouse(stored) as wh:
        first = build_monthly(wh, "gal-acc", "2026-11").digest
        assert build_monthly(wh, "gal-acc", "2026-11").digest == first
        row = dict(wh.rows("settlements")[0], settlement_id="extra", bet_id="B-extra")
        wh.insert_new("settlements", [row])
        assert build_monthly(wh, "gal-acc", "2026-11").digest != first


@pytest.mark.parametrize("month", ["2026-13", "2026-1", "November", ""])
def test_a_malformed_month_is_refused(month):
    with pytest.raises(ValueError, match="YYYY-MM"):
        month_days(month)


def test_month_boundaries():
    """February of a leap year has 29 gaming days; December ends on the 31st."""
    assert month_days("2028-02") == (datetime(2028, 2, 1).date(), datetime(2028, 2, 29).date())
    assert month_days("2026-12")[1] == datetime(2026, 12, 31).date()


@pytest.mark.parametrize("scenario", ["month_boundary"])
def test_the_report_equals_an_independent_fold_of_the_raw_events(warehouse_url, scenario):
    """A fault-free night of 7 tables in 3 casinos across 06:00 Madrid on 1 December, through the
    batch processor into the warehouse: every table line of the November and December reports
    equals the independent fold of the same raw event lines (tests/reports/independent_fold.py,
    standard library only, no pitwatch code): days open, bets, drop, handle, win, commission,
    tips, fills, credits, chips cashed."""
    from pitwatch.streams.processor import BatchProcessor

    from tests.fixtures.batches import to_messages
    from tests.reports.independent_fold import fold_month
    from tests.reports.test_independent_fold import SCENARIOS, _simulated

    lines = _simulated(*SCENARIOS[scenario])
    store_rows(warehouse_url, BatchProcessor({}.get).process(to_messages([x.encode() for x in lines], 3)).rows)
    keys = ("game", "days_open", "bets", "drop", "handle", "win", "commission", "tips", "fills", "credits", "cashed")
    compared = 0
    with open_warehouse(warehouse_url) as wh:
        for casino in ("gal-coruna", "and-marbella", "ast-gijon"):
            for month in ("2026-11", "2026-12"):
                report = {t.label: {k: getattr(t, k) for k in keys} for t in build_monthly(wh, casino, month).tables}
                fold = {t: {k: v[k] for k in keys} for t, v in fold_month(lines, casino, month).items()}
                assert report == fold, (casino, month)
                compared += len(report)
    assert compared >= 10  # most tables play on both gaming days
