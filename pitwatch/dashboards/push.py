"""Uploading the dashboards and alert rules to a running Grafana (``pitwatch dashboards push``),
with grafana-client over Grafana's HTTP API, idempotently: run it again and nothing changes.

1. the folder ``pitwatch`` (``GET /api/folders/pitwatch``; ``POST /api/folders`` when missing);
2. every dashboard (``POST /api/dashboards/db`` in that folder, ``overwrite``: the same uid
   is replaced);
3. every alert rule (``GET /api/v1/provisioning/alert-rules/{uid}``, then ``PUT`` it when it
   exists, ``POST /api/v1/provisioning/alert-rules`` when not), in the folder's rule group.

The datasource is left to Grafana's provisioning (it carries a password).
"""

from __future__ import annotations

import json
from typing import Any

from grafana_client import GrafanaApi
from grafana_client.client import GrafanaClientError

from pitwatch.dashboards.export import DASHBOARDS, dashboard_json
from pitwatch.dashboards.provisioning import ALERT_RULES, FOLDER_UID, RULE_GROUP, alert_rule


def _missing(exc: GrafanaClientError) -> bool:
    return getattr(exc, "status_code", None) == 404


def push(url: str, token: str, timeout: float = 10.0) -> list[str]:
    """Upload the folder, dashboards and alert rules to Grafana at ``url`` with API ``token``;
    returns what was done, one line each. Raises grafana-client's ``GrafanaException`` (an HTTP
    error, with its status and Grafana's message) or ``OSError``."""
    api = GrafanaApi.from_url(url, credential=token, timeout=timeout)
    done = []
    try:
        api.folder.get_folder(FOLDER_UID)
        done.append(f"folder {FOLDER_UID}: present")
    except GrafanaClientError as exc:
        if not _missing(exc):
            raise
        api.folder.create_folder("pitwatch", uid=FOLDER_UID)
        done.append(f"folder {FOLDER_UID}: created")
    for name in DASHBOARDS:
        board = json.loads(dashboard_json(name))
        api.dashboard.update_dashboard({"dashboard": board, "folderUid": FOLDER_UID, "overwrite": True,
                                        "message": "pitwatch dashboards push"})
        done.append(f"dashboard {board['uid']}: uploaded")
    for uid in ALERT_RULES:
        rule: dict[str, Any] = {**alert_rule(uid), "folderUID": FOLDER_UID, "ruleGroup": RULE_GROUP, "orgID": 1}
        try:
            api.alertingprovisioning.get_alertrule(uid)
        except GrafanaClientError as exc:
            if not _missing(exc):
                raise
            api.alertingprovisioning.create_alertrule(rule)
            done.append(f"alert rule {uid}: created")
            continue
        api.alertingprovisioning.update_alertrule(uid, rule)
        done.append(f"alert rule {uid}: updated")
    return done
