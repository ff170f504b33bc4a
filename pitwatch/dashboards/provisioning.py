"""Grafana provisioning files for pitwatch (Grafana's documented file provisioning, apiVersion 1):

- ``provisioning/datasources/pitwatch.yaml``: the ClickHouse datasource (plugin
  ``grafana-clickhouse-datasource``, uid ``pitwatch-clickhouse``), native protocol, database
  ``pitwatch``, a read-only user; host, user and password from the environment Grafana runs in
  (``PITWATCH_GRAFANA_CH_HOST``, ``PITWATCH_GRAFANA_CH_USER``, ``PITWATCH_GRAFANA_CH_PASSWORD``);
- ``provisioning/dashboards/pitwatch.yaml``: a file provider loading ``dashboards/*.json`` into the
  folder ``pitwatch`` (``PITWATCH_GRAFANA_DASHBOARDS``: where those files are on the Grafana host);
- ``provisioning/alerting/pitwatch.yaml``: alert rules (:data:`ALERT_RULES`), evaluated every
  minute on the same datasource;
- ``provisioning/alerting/contact-points.yaml.example``: an e-mail contact point to adapt.
"""

from __future__ import annotations

from typing import Any

import yaml

from pitwatch.dashboards.performance import GAMING_DAYS, outside_band
from pitwatch.dashboards.query import DATASOURCE_UID, PLUGIN, ClickHouseQuery
from pitwatch.dashboards.surveillance import unacknowledged_high

FOLDER_UID = "pitwatch"
RULE_GROUP = "pitwatch"

ALERT_RULES: dict[str, tuple[str, str, str, int]] = {
    "pitwatch-unacknowledged-high": (
        "Unacknowledged high-severity alerts",
        unacknowledged_high(),
        "High or critical pitwatch alerts not yet acknowledged, whatever their age (the rule fires "
        "until each is acknowledged, escalated or closed): "
        "see the surveillance room dashboard, act with `pitwatch alert ack ID`.", 600),
    "pitwatch-quarantined-tables": (
        "Quarantined tables",
        """SELECT uniqExact(table_id) AS tables FROM pitwatch.parked FINAL WHERE $__timeFilter(parked_at)""",
        "A table's events are parked after an engine failure: fix the cause, then "
        "`pitwatch quarantine release TABLE --by NAME`.", 600),
    "pitwatch-hold-band": (
        "Tables outside the 95% band",
        outside_band(GAMING_DAYS),
        "A table's win over the gaming days dated in the last 24 hours (whole gaming days, as in "
        "`pitwatch figures` and the monthly report) is more than 1.96 σ from its theoretical win (σ from "
        "the variance of its bets): see the table performance dashboard, check the table's "
        "payouts, fills and credits, and its dealers.", 86400),
}
"""Rule uid -> (title, SQL counting what fires the rule when above 0, what to do, the seconds of
data it looks back over)."""


def datasource() -> dict[str, Any]:
    """The datasource provisioning document."""
    return {"apiVersion": 1, "datasources": [{
        "name": "pitwatch ClickHouse", "type": PLUGIN, "uid": DATASOURCE_UID, "editable": False,
        "jsonData": {"host": "${PITWATCH_GRAFANA_CH_HOST}", "port": 9000, "protocol": "native",
                     "defaultDatabase": "pitwatch", "username": "${PITWATCH_GRAFANA_CH_USER}"},
        "secureJsonData": {"password": "${PITWATCH_GRAFANA_CH_PASSWORD}"}}]}


def dashboard_provider() -> dict[str, Any]:
    """The dashboards provider document."""
    return {"apiVersion": 1, "providers": [{
        "name": "pitwatch", "folder": "pitwatch", "folderUid": FOLDER_UID, "type": "file",
        "disableDeletion": True, "allowUiUpdates": False, "updateIntervalSeconds": 60,
        "options": {"path": "${PITWATCH_GRAFANA_DASHBOARDS}", "foldersFromFilesStructure": False}}]}


def alert_rule(uid: str, in_file: bool = False) -> dict[str, Any]:
    """One rule of :data:`ALERT_RULES` as Grafana's provisioning and HTTP API represent it: query
    A on the ClickHouse datasource over the rule's look-back (10 minutes, a day for the hold band),
    then a threshold A > 0 (expression C).
    ``in_file``: for a provisioning file, where Grafana replaces ``$NAME`` by the environment's
    value, so the plugin's macros are written ``$$__timeFilter`` (Grafana's escape for a ``$``)."""
    title, sql, what, seconds = ALERT_RULES[uid]
    query = ClickHouseQuery(sql.replace("$", "$$") if in_file else sql, "table", "A").to_json()
    return {
        "uid": uid, "title": title, "condition": "C", "for": "0s", "noDataState": "OK",
        "execErrState": "Error", "labels": {"team": "surveillance"},
        "annotations": {"summary": title, "description": what},
        "data": [
            {"refId": "A", "relativeTimeRange": {"from": seconds, "to": 0}, "datasourceUid": DATASOURCE_UID,
             "model": query},
            {"refId": "C", "datasourceUid": "__expr__",
             "model": {"refId": "C", "type": "threshold", "expression": "A",
                       "conditions": [{"evaluator": {"type": "gt", "params": [0]}}]}},
        ],
    }


def alert_rules() -> dict[str, Any]:
    """The alerting provisioning document: one group of every rule, evaluated every minute."""
    return {"apiVersion": 1, "groups": [{"orgId": 1, "name": RULE_GROUP, "folder": "pitwatch", "interval": "1m",
                                         "rules": [alert_rule(uid, in_file=True) for uid in ALERT_RULES]}]}


def contact_points_example() -> dict[str, Any]:
    """An e-mail contact point and the policy sending pitwatch's alerts to it (to adapt)."""
    return {"apiVersion": 1,
            "contactPoints": [{"orgId": 1, "name": "surveillance-room", "receivers": [{
                "uid": "pitwatch-surveillance-email", "type": "email",
                "settings": {"addresses": "surveillance@casino.example", "singleEmail": True}}]}],
            "policies": [{"orgId": 1, "receiver": "surveillance-room", "group_by": ["alertname"],
                          "routes": [{"receiver": "surveillance-room",
                                      "object_matchers": [["team", "=", "surveillance"]]}]}]}


FILES = {
    "provisioning/datasources/pitwatch.yaml": datasource,
    "provisioning/dashboards/pitwatch.yaml": dashboard_provider,
    "provisioning/alerting/pitwatch.yaml": alert_rules,
    "provisioning/alerting/contact-points.yaml.example": contact_points_example,
}
"""Path (relative to the export directory) -> the function giving its document."""


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (SQL) as literal blocks."""


_Dumper.add_representer(str, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None))


def render(doc: dict[str, Any]) -> str:
    """A provisioning document as YAML (keys in the order given, SQL as literal blocks)."""
    return "# written by `pitwatch dashboards export`: do not edit, change pitwatch/dashboards/\n" + yaml.dump(
        doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
