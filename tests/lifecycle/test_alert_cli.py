"""`pitwatch alert ...` and `pitwatch alerts --state`: through a real broker (each action is a
message on pitwatch.alert-actions keyed by the alert) and a real warehouse (chDB)."""

from __future__ import annotations

import json
import socket
import time

import pytest
from pitwatch.cli import app
from pitwatch.lifecycle.actions import AlertAction
from pitwatch.streams.topics import TOPIC_ALERT_ACTIONS
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

from tests.streams.test_broker import consume_all
from tests.warehouse.rows import alert

runner = CliRunner()


def test_staff_act_on_alerts_and_every_action_is_kept(broker, chdb_url):
    broker.create_topics([TOPIC_ALERT_ACTIONS], partitions=2)
    with open_warehouse(chdb_url) as wh:
        wh.ensure_schema()
        wh.insert_new("alerts", [alert(1, alert_id="CLI-1"), alert(2, alert_id="CLI-2")])

    def cli(*args: str):
        return runner.invoke(app, [*args, "--warehouse", chdb_url], env={"COLUMNS": "250"})

    def act(*args: str):
        return cli("alert", *args, "--by", "surv-7", "--bootstrap", broker.bootstrap)

    assert act("ack", "CLI-1").exit_code == 0
    assert act("assign", "CLI-1", "--to", "insp-2").exit_code == 0
    closing = act("close", "CLI-1", "--disposition", "false_positive", "--reason", "payout corrected on camera")
    assert closing.exit_code == 0 and "now closed" in closing.stdout
    refused = act("comment", "CLI-1", "too late")
    assert refused.exit_code == 2 and "comment not recorded: alert CLI-1 is closed (false_positive)" in refused.stderr
    no_reason = act("close", "CLI-2", "--disposition", "duplicate", "--reason", " ")
    assert no_reason.exit_code == 2 and "close needs a reason" in no_reason.stderr
    unknown = act("ack", "CLI-404")
    assert unknown.exit_code == 2 and "unknown alert CLI-404" in unknown.stderr

    shown = cli("alert", "show", "CLI-1", "--format", "json")
    assert shown.exit_code == 0, shown.output
    doc = json.loads(shown.stdout)
    assert (doc["state"], doc["assignee"], doc["disposition"]) == ("closed", "insp-2", "false_positive")
    assert [h["action"] for h in doc["history"]] == ["acknowledge", "assign", "close"]
    assert all(h["actor"] == "surv-7" for h in doc["history"])

    listed = cli("alerts", "--state", "open", "--format", "json")
    assert listed.exit_code == 0 and [json.loads(ln)["alert_id"] for ln in listed.stdout.splitlines()] == ["CLI-2"]
    assert cli("alerts", "--state", "shelved").exit_code == 2

    # delivered (the CLI waits for the broker): read them however long a loaded broker takes to join a group
    msgs = [m for m in consume_all(broker.bootstrap, TOPIC_ALERT_ACTIONS, 3, timeout=180) if m.key() == b"CLI-1"]
    sent = [AlertAction.model_validate_json(m.value()) for m in msgs]
    assert [a.action for a in sorted(sent, key=lambda a: a.acted_at)] == ["acknowledge", "assign", "close"]
    assert {a.action_id for a in sent} == {h["action_id"] for h in doc["history"]}  # the topic and the table agree


def _stored_actions(url: str, alert_id: str) -> list:
    from pitwatch.lifecycle.store import load_actions

    with open_warehouse(url) as wh:
        return load_actions(wh, alert_id)


@pytest.fixture
def one_alert(chdb_url) -> str:
    with open_warehouse(chdb_url) as wh:
        wh.ensure_schema()
        wh.insert_new("alerts", [alert(1, alert_id="CLI-1")])
    return chdb_url


@pytest.fixture
def silent_port():
    """A TCP port that accepts connections and never answers (a hung broker)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        yield s.getsockname()[1]


@pytest.mark.parametrize("command, what", [
    (["ack", "CLI-1"], "acknowledge"),
    (["bulk-close", "--table", "T-1", "--disposition", "duplicate", "--reason", "x"], "bulk close")])
@pytest.mark.parametrize("where, why", [("closed", "connection refused"), ("silent", "no answer")])
def test_an_action_without_a_broker_fails_within_5_s_in_one_line_and_records_nothing(
        one_alert, silent_port, capfd, where, why, command, what):
    """Issue: "hangs 30 s per action with librdkafka connection errors". Port 1 refuses the
    connection at once; the silent port takes it and never answers (the default timeout, 2 s)."""
    bootstrap = "127.0.0.1:1" if where == "closed" else f"127.0.0.1:{silent_port}"
    started = time.monotonic()
    res = runner.invoke(app, ["alert", *command, "--by", "surv-7", "--bootstrap", bootstrap,
                              "--warehouse", one_alert])
    took = time.monotonic() - started
    assert took < 5.0, f"took {took:.1f} s"
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [
        f"error: {what} not recorded: cannot reach the broker at {bootstrap} within 2 s ({why}): is it "
        "running? set --bootstrap or PITWATCH_KAFKA_BOOTSTRAP (and the PITWATCH_KAFKA_* security settings)"]
    leaked = capfd.readouterr().err  # what librdkafka would write to the process's stderr itself
    assert "rdkafka" not in leaked and "FAIL" not in leaked, leaked
    assert _stored_actions(one_alert, "CLI-1") == []
