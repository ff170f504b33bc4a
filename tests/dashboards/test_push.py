"""`pitwatch dashboards push` against a local HTTP server that answers Grafana's documented HTTP
API (folders, dashboards, alert-rule provisioning) and checks every request."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pitwatch.cli import app
from pitwatch.dashboards.export import DASHBOARDS, dashboard_json
from pitwatch.dashboards.provisioning import ALERT_RULES
from typer.testing import CliRunner

TOKEN = "glsa_test_token"


class FakeGrafana(BaseHTTPRequestHandler):
    """The endpoints push uses, as Grafana documents them, over an in-memory store."""

    store: dict = {}
    requests: list = []

    def _reply(self, code: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        self.requests.append((method, self.path, body))
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            return self._reply(401, {"message": "invalid API key"})
        s, path = self.store, self.path
        if method == "GET" and path.startswith("/api/folders/"):
            uid = path.rsplit("/", 1)[1]
            if uid not in s["folders"]:
                return self._reply(404, {"message": "folder not found"})
            return self._reply(200, s["folders"][uid])
        if method == "POST" and path == "/api/folders":
            s["folders"][body["uid"]] = body
            return self._reply(200, {"uid": body["uid"], "title": body["title"]})
        if method == "POST" and path == "/api/dashboards/db":
            assert body["overwrite"] is True and body["folderUid"] in s["folders"]
            s["dashboards"][body["dashboard"]["uid"]] = body["dashboard"]
            return self._reply(200, {"status": "success", "uid": body["dashboard"]["uid"]})
        if path.startswith("/api/v1/provisioning/alert-rules"):
            uid = path.rsplit("/", 1)[1] if path.count("/") == 5 else None
            if method == "GET":
                if uid not in s["rules"]:
                    return self._reply(404, {"message": "not found"})
                return self._reply(200, s["rules"][uid])
            assert body["folderUID"] in s["folders"] and body["ruleGroup"] == "pitwatch" and body["condition"] == "C"
            if method == "POST":
                s["rules"][body["uid"]] = body
                return self._reply(201, body)
            if method == "PUT" and uid in s["rules"]:
                s["rules"][uid] = body
                return self._reply(200, body)
        return self._reply(404, {"message": f"no route {method} {path}"})

    def do_GET(self) -> None:  # noqa: N802
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._handle("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._handle("PUT")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def grafana():
    FakeGrafana.store = {"folders": {}, "dashboards": {}, "rules": {}}
    FakeGrafana.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeGrafana)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_push_uploads_folder_dashboards_and_rules_and_is_idempotent(grafana):
    runner = CliRunner()
    first = runner.invoke(app, ["dashboards", "push", "--url", grafana], env={"PITWATCH_GRAFANA_TOKEN": TOKEN})
    assert first.exit_code == 0, first.output
    store = FakeGrafana.store
    assert list(store["folders"]) == ["pitwatch"]
    assert {uid: d for uid, d in store["dashboards"].items()} == {
        json.loads(dashboard_json(n))["uid"]: json.loads(dashboard_json(n)) for n in DASHBOARDS}
    assert sorted(store["rules"]) == sorted(ALERT_RULES)
    sqls = [r["data"][0]["model"]["rawSql"] for r in store["rules"].values()]
    assert all("$$" not in sql for sql in sqls) and all(m in "".join(sqls) for m in ("$__timeFilter", "$__dateFilter"))
    rules = [ln.split(": ")[1] for ln in first.stdout.splitlines() if ln.startswith("alert rule")]
    assert rules == ["created"] * len(ALERT_RULES)
    before = json.dumps(store, sort_keys=True)
    FakeGrafana.requests.clear()
    again = runner.invoke(app, ["dashboards", "push", "--url", grafana], env={"PITWATCH_GRAFANA_TOKEN": TOKEN})
    assert again.exit_code == 0 and "folder pitwatch: present" in again.stdout
    assert json.dumps(store, sort_keys=True) == before  # nothing changed
    assert [m for m, p, _ in FakeGrafana.requests if p.startswith("/api/v1/provisioning")] == ["GET", "PUT"] * len(ALERT_RULES)


def test_a_refused_token_is_a_clear_error(grafana):
    res = CliRunner().invoke(app, ["dashboards", "push", "--url", grafana, "--token", "wrong"])
    assert res.exit_code == 1 and "refused" in res.stderr and "401" in res.stderr
