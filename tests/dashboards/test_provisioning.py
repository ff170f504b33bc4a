"""Grafana provisioning (issue 8 §1): the files under infra/grafana are what `pitwatch dashboards
export` writes; the alert rules' SQL runs on both ClickHouse engines; a `$` of the plugin's macros
survives Grafana's environment expansion of provisioning files (written `$$`)."""

from __future__ import annotations

import json
import shutil
from datetime import timedelta, timezone
from decimal import Decimal
from pathlib import Path

import yaml
from pitwatch.cli import app
from pitwatch.dashboards import provisioning
from pitwatch.dashboards.export import rendered
from pitwatch.dashboards.macros import Context, expand
from pitwatch.dashboards.query import DATASOURCE_UID
from typer.testing import CliRunner

from tests.warehouse.rows import T0, alert, parked, settlement

INFRA = Path(__file__).resolve().parents[2] / "infra" / "grafana"


def test_the_committed_provisioning_is_what_export_writes(tmp_path):
    runner = CliRunner()
    ok = runner.invoke(app, ["dashboards", "export", str(INFRA), "--check"])
    assert ok.exit_code == 0, ok.output + "\nrun `pitwatch dashboards export infra/grafana`"
    copy = tmp_path / "grafana"
    shutil.copytree(INFRA, copy)
    (copy / "dashboards" / "surveillance.json").write_text("{}")
    stale = runner.invoke(app, ["dashboards", "export", str(copy), "--check"])
    assert stale.exit_code == 1 and "surveillance.json" in stale.output


def test_the_files_are_the_documents_grafana_reads():
    files = {rel: text for rel, text in rendered().items() if rel.startswith("provisioning/")}
    ds = yaml.safe_load(files["provisioning/datasources/pitwatch.yaml"])["datasources"][0]
    assert (ds["type"], ds["uid"], ds["jsonData"]["defaultDatabase"]) == (
        "grafana-clickhouse-datasource", DATASOURCE_UID, "pitwatch")
    assert ds["secureJsonData"]["password"] == "${PITWATCH_GRAFANA_CH_PASSWORD}"  # from Grafana's environment
    provider = yaml.safe_load(files["provisioning/dashboards/pitwatch.yaml"])["providers"][0]
    assert provider["type"] == "file" and provider["folderUid"] == provisioning.FOLDER_UID
    (group,) = yaml.safe_load(files["provisioning/alerting/pitwatch.yaml"])["groups"]
    assert [r["uid"] for r in group["rules"]] == list(provisioning.ALERT_RULES)
    for rule in group["rules"]:
        sql = rule["data"][0]["model"]["rawSql"]
        assert "$__" not in sql.replace("$$__", "")  # every macro escaped for the file
        assert sql.replace("$$", "$") == provisioning.alert_rule(rule["uid"])["data"][0]["model"]["rawSql"]
        assert rule["data"][1]["model"]["conditions"][0]["evaluator"] == {"type": "gt", "params": [0]}
    for name in ("surveillance", "performance", "integrity", "round-lookup"):
        assert json.loads(rendered()[f"dashboards/{name}.json"])["uid"].startswith("pitwatch-")


def test_the_alert_rules_count_what_they_are_about(warehouse):
    """One high alert unacknowledged, one quarantined table and one table whose win (1000.00) is
    outside its band (theoretical win 1.00 ∓ 1.96 x √100 = 19.60: -18.60 .. 20.60) on the gaming
    day of the range, and one table inside (win 15.00, the same band): each rule's query (macros expanded for
    that range, as Grafana's evaluation does) returns 1, so A > 0 fires."""
    warehouse.insert_new("alerts", [alert(1, severity="high"), alert(2, severity="low")])
    warehouse.insert_new("parked", [parked(1, parked_at=T0), parked(2, parked_at=T0)])
    band = {"settled_at": T0, "theoretical_win": Decimal("1.0000"), "theoretical_variance": Decimal("100.0000")}
    warehouse.insert_new("settlements", [settlement(1, win=Decimal("1000.00"), **band),
                                         settlement(2, win=Decimal("15.00"), **band)])
    now = T0.replace(tzinfo=timezone.utc) + timedelta(minutes=5)
    ctx = Context(now - timedelta(seconds=600), now)
    for uid in provisioning.ALERT_RULES:
        sql = provisioning.alert_rule(uid)["data"][0]["model"]["rawSql"]
        assert warehouse.query(expand(sql, ctx)) == [(1,)], uid
    # an hour later: the quarantine rule looks at its last 10 minutes (nothing parked then); the
    # unacknowledged alert still fires, and so does the table's gaming day (2026-03-14, whole)
    later = Context(now + timedelta(hours=1), now + timedelta(hours=1, minutes=10))
    assert {u: warehouse.query(expand(provisioning.alert_rule(u)["data"][0]["model"]["rawSql"], later))
            for u in provisioning.ALERT_RULES} == {
        "pitwatch-unacknowledged-high": [(1,)], "pitwatch-quarantined-tables": [(0,)], "pitwatch-hold-band": [(1,)]}


def _rule(uid: str) -> str:
    return provisioning.alert_rule(uid)["data"][0]["model"]["rawSql"]


def test_an_unacknowledged_high_alert_fires_until_someone_acknowledges_it(warehouse):
    """The issue: the rule looked at the last 10 minutes only and resolved itself while the alert
    was still unacknowledged. A high alert detected 3 h before the evaluation (T0), nobody has
    acknowledged it: the rule evaluated over its 10-minute range returns 1 (fires); once acknowledged
    (at T0 + 3 h 5 min), 0; a low alert never counts."""
    from pitwatch.lifecycle.actions import new_action
    from pitwatch.lifecycle.store import record

    warehouse.insert_new("alerts", [alert(1, severity="high"), alert(2, severity="low")])
    now = T0.replace(tzinfo=timezone.utc) + timedelta(hours=3)
    ctx = Context(now - timedelta(seconds=600), now)
    assert warehouse.query(expand(_rule("pitwatch-unacknowledged-high"), ctx)) == [(1,)]
    record(warehouse, new_action("A-1", "acknowledge", "surv-1", now + timedelta(minutes=5)))
    later = Context(now, now + timedelta(minutes=10))
    assert warehouse.query(expand(_rule("pitwatch-unacknowledged-high"), later)) == [(0,)]
