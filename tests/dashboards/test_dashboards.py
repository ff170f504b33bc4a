"""Dashboards as code (issue 8 §1): the JSON the SDK builds round-trips through its models, and
every panel's SQL, with the template variables and the ClickHouse plugin's macros expanded as
Grafana and the plugin do, runs on both ClickHouse engines over a simulated evening and returns
the columns its panel needs, with rows where the evening has data."""

from __future__ import annotations

import json
from datetime import timedelta, timezone

import pytest
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models.dashboard import Dashboard
from pitwatch.dashboards import integrity, round_lookup, surveillance
from pitwatch.dashboards.export import DASHBOARDS, dashboard_json
from pitwatch.dashboards.layout import build
from pitwatch.dashboards.macros import ALL, Context, Variable, expand
from pitwatch.dashboards.query import ClickHouseQuery
from pitwatch.lifecycle.actions import new_action
from pitwatch.lifecycle.store import record

from tests.dashboards.conftest import START


def test_the_plugins_macros_expand_as_its_source_does():
    """pkg/macros/macros.go of grafana/clickhouse-datasource; dashboard range 20:00-23:00 UTC on
    2026-11-21 (1795291200-1795302000 by GNU `date -u -d ... +%s`), interval 30 s; Grafana's singlequote
    variable format."""
    ctx = Context(START, START + timedelta(hours=3), 30, {"casino": Variable(["gal-1", "o'hara"]),
                                                          "game": Variable([ALL], "'*'")})
    assert expand("$__timeFilter(detected_at)", ctx) == \
        "detected_at >= toDateTime(1795291200) AND detected_at <= toDateTime(1795302000)"
    assert expand("$__fromTime, $__toTime, $__interval_s", ctx) == \
        "toDateTime(1795291200), toDateTime(1795302000), 30"
    assert expand("$__dateFilter(gaming_day)", ctx) == "gaming_day >= toDate('2026-11-21') AND gaming_day <= toDate('2026-11-21')"
    assert expand("x IN (${casino:singlequote}) AND g IN (${game:singlequote})", ctx) == \
        "x IN ('gal-1','o\\'hara') AND g IN ('*')"
    assert expand("$__interval_s", Context(START, START, 0.2)) == "1"  # at least 1 s
    with pytest.raises(ValueError, match="__timeInterval"):
        expand("$__timeInterval(t)", ctx)
    with pytest.raises(KeyError, match="dealer"):
        expand("${dealer:singlequote}", ctx)


@pytest.mark.parametrize("name", list(DASHBOARDS))
def test_the_dashboard_json_round_trips_through_the_sdk_models(name):
    text = dashboard_json(name).rstrip("\n")
    doc = json.loads(text)
    board = DASHBOARDS[name]
    assert (doc["uid"], doc["refresh"] or "") == (board.uid, board.refresh)
    assert [v["name"] for v in doc["templating"]["list"]] == [v.name for v in board.variables]
    assert [p["title"] for p in doc["panels"]] == [p.title for p in board.panels]
    for p in doc["panels"]:
        (t,) = p["targets"]
        assert t["datasource"] == {"type": "grafana-clickhouse-datasource", "uid": "pitwatch-clickhouse"}
        assert (t["editorType"], t["format"]) == ("sql", {"table": 1, "timeSeries": 0}[t["queryType"]])
        assert p["gridPos"]["x"] + p["gridPos"]["w"] <= 24
    back = Dashboard.from_json(json.loads(text))
    assert all(isinstance(p.targets[0], ClickHouseQuery) for p in back.panels)
    assert JSONEncoder(sort_keys=True, indent=2).encode(back) == text
    assert JSONEncoder(sort_keys=True, indent=2).encode(build(board).build()) == text


EXPECTED_COLUMNS = {
    "Unacknowledged high-severity alerts": ["alerts"],
    "Open alerts": ["severity", "state", "age_min", "detected_at", "kind", "table_id", "round_id", "player_id",
                    "dealer_id", "amount_eur", "message", "dossier", "alert_id"],
    "Alerts per interval by kind": ["time", "kind", "alerts"],
    "Tables by open alerts": ["table_id", "open_alerts", "high"],
    "Rejected, parked and skipped messages": ["rejected", "parked", "quarantined_tables", "skipped"],
    "Pipeline lag (event time to stored, s)": ["time", "p50", "p99"],
    "Response times (median s)": ["alerts", "acknowledged", "closed", "median_ack_s", "median_close_s"],
    "Payout discrepancies by dealer": ["dealer_id", "discrepancies", "over_paid", "under_paid"],
    "Payout discrepancies by dealer and player": ["dealer_id", "player_id", "discrepancies", "net_over_paid"],
    "Float reconciliation differences": ["detected_at", "table_id", "dealer_id", "amount", "message"],
    "Limit breaches and past-posting by dealer": ["dealer_id", "above_maximum", "below_minimum", "past_posting"],
    "Spin direction and misdraws by dealer": ["dealer_id", "spin_direction", "misdraws"],
    "Alerts by kind and state": ["kind", "severity", "state", "alerts", "amount_eur"],
    "Events": ["seq", "occurred_at", "occurred_ms", "type", "actor_role", "actor_id", "payload"],
    "Settlements": ["bet_id", "player_id", "spot", "stake", "expected_outcome", "expected_returned",
                    "recorded_outcome", "recorded_returned", "discrepancy", "citation", "ruleset_id", "ruleset_hash"],
    "Violations": ["kind", "severity", "amount", "message", "citation", "alert_id"],
}
MAY_BE_EMPTY = {"Float reconciliation differences"}  # the simulated evening closes no table


def test_every_panel_query_runs_on_the_warehouse_with_the_columns_its_panel_needs(warehouse, evening_rows):
    for table, rows in evening_rows.items():
        warehouse.insert_new(table, rows)
    alerts = warehouse.rows("alerts", "severity = 'high'", order_by="alert_id")
    assert alerts, "the evening has high-severity alerts"
    record(warehouse, new_action(alerts[0]["alert_id"], "acknowledge", "surv-1", START + timedelta(hours=2)))
    casinos = [r[0] for r in warehouse.query(surveillance.VARIABLE_SQL["casino"])]
    assert casinos
    every = Variable([ALL], "'*'")
    all_of = {v.name: every for v in surveillance.BOARD.variables}
    for variables in (all_of, {**all_of, "casino": Variable(casinos[:1])}, {**all_of, "jurisdiction": Variable(["galicia"])}):
        ctx = Context(START, START + timedelta(hours=2), 60, variables)
        for title, (_query_type, sql) in surveillance.PANELS.items():
            columns, rows = warehouse.query_columns(expand(sql, ctx))
            assert columns == EXPECTED_COLUMNS[title], title
            assert rows, f"{title}: no rows over an evening with alerts"
    ctx = Context(START, START + timedelta(hours=2), 60, {v.name: every for v in integrity.BOARD.variables})
    for panel in integrity.BOARD.panels:
        columns, rows = warehouse.query_columns(expand(panel.sql, ctx))
        assert columns == EXPECTED_COLUMNS[panel.title], panel.title
        assert rows or panel.title in MAY_BE_EMPTY, panel.title
    flagged = warehouse.rows("alerts", "kind = 'payout_discrepancy'", order_by="alert_id")[0]
    pick = {"table": Variable([flagged["table_id"]]), "round": Variable([flagged["round_id"]])}
    ctx = Context(START, START + timedelta(hours=2), 60, pick)
    rounds = [r[0] for r in warehouse.query(expand(round_lookup.BOARD.variables[1].sql, ctx))]
    assert flagged["round_id"] in rounds
    for panel in round_lookup.BOARD.panels:
        columns, rows = warehouse.query_columns(expand(panel.sql, ctx))
        assert columns == EXPECTED_COLUMNS[panel.title] and rows, panel.title
    (violations,) = [p for p in round_lookup.BOARD.panels if p.title == "Violations"]
    assert flagged["alert_id"] in [r[-1] for r in warehouse.query(expand(violations.sql, ctx))]
    one = Context(START, START + timedelta(hours=2), 60, all_of)
    (unacked,) = warehouse.query(expand(surveillance.PANELS["Unacknowledged high-severity alerts"][1], one))
    high_open = len([a for a in warehouse.rows("alerts", "severity IN ('high', 'critical')")]) - 1
    assert unacked == (high_open,)  # the acknowledged one is no longer counted
    # response times: the one acknowledged alert, acknowledged at START + 2 h
    (resp,) = warehouse.query(expand(surveillance.PANELS["Response times (median s)"][1], one))
    first = alerts[0]
    detected = first["detected_at"].replace(tzinfo=timezone.utc) + timedelta(milliseconds=first["detected_ms"])
    assert resp[1:3] == (1, 0) and resp[0] == len(warehouse.rows("alerts"))
    assert float(resp[3]) == pytest.approx((START + timedelta(hours=2) - detected).total_seconds())
    for v in surveillance.BOARD.variables:
        assert warehouse.query(v.sql), v.name
    # the jurisdiction narrows to the tables judged under its rulesets (galicia: the GAL- tables)
    galicia = Context(START, START + timedelta(hours=2), 60, {**all_of, "jurisdiction": Variable(["galicia"])})
    tables = {r[0] for r in warehouse.query(expand(surveillance.PANELS["Tables by open alerts"][1], galicia))}
    assert tables and all(t.startswith("GAL-") for t in tables)
    anywhere = {r[0] for r in warehouse.query(expand(surveillance.PANELS["Tables by open alerts"][1], one))}
    assert tables < anywhere


def test_export_writes_the_dashboards_json(tmp_path):
    from pitwatch.cli import app
    from typer.testing import CliRunner

    res = CliRunner().invoke(app, ["dashboards", "export", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    for name, board in DASHBOARDS.items():
        doc = json.loads((tmp_path / "out" / "dashboards" / f"{name}.json").read_text())
        assert doc["uid"] == board.uid and len(doc["panels"]) == len(board.panels)
