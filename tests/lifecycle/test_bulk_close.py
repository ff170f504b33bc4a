"""Bulk close (issue: "there is no bulk close") and the filters of `pitwatch alerts --state`:
alerts picked by kind, table, severity and detection time, on both ClickHouse engines; closed
in one go from the CLI through a real broker, with a dry run that records nothing."""

from __future__ import annotations

import json
import time
import uuid
from datetime import timedelta

import pytest
from confluent_kafka import Consumer
from pitwatch.cli import app
from pitwatch.lifecycle.actions import new_action
from pitwatch.lifecycle.store import close_alerts, current, record
from pitwatch.streams.topics import TOPIC_ALERT_ACTIONS
from pitwatch.warehouse import open_warehouse
from typer.testing import CliRunner

from tests.warehouse.rows import T0, alert

H = timedelta(hours=1)
runner = CliRunner()


def evening(prefix: str = "A") -> list[dict]:
    """1, 2: payouts at T-1 before T0 + 2 h; 3: a payout at T-1 after it; 4: a sequence gap at
    T-1 before it (medium); 5: a payout at T-2 before it; 6: a payout at T-1 before it, closed
    by the caller."""
    def a(i: int, **kw) -> dict:
        return alert(i, alert_id=f"{prefix}-{i}", **kw)
    return [a(1), a(2, detected_at=T0 + H), a(3, detected_at=T0 + 3 * H),
            a(4, kind="sequence_gap", severity="medium"), a(5, table_id="T-2"), a(6)]


@pytest.mark.parametrize("filters, want", [
    ({}, ["A-3", "A-2", "A-1", "A-4", "A-5", "A-6"]),
    ({"kinds": ["payout_discrepancy"], "tables": ["T-1"]}, ["A-3", "A-2", "A-1", "A-6"]),
    ({"kinds": ["payout_discrepancy"], "tables": ["T-1"], "before": T0 + 2 * H}, ["A-2", "A-1", "A-6"]),
    ({"tables": ["T-1", "T-2"], "severities": ["medium"]}, ["A-4"]),
    ({"since": T0 + H}, ["A-3", "A-2"]),  # since is inclusive, to the millisecond
    ({"since": T0 + H + timedelta(milliseconds=1), "before": T0 + 3 * H}, []),  # before is exclusive
    ({"state": "active", "tables": ["T-1"], "before": T0 + 2 * H}, ["A-2", "A-1", "A-4"]),
    ({"state": "closed"}, ["A-6"]),
])
def test_current_filters_by_kind_table_severity_and_time(warehouse, filters, want):
    warehouse.insert_new("alerts", evening())
    record(warehouse, new_action("A-6", "close", "surv-1", T0 + H, disposition="duplicate", reason="A-1"))
    got = [r["alert_id"] for r in current(warehouse, **filters)]
    # newest first, then by id (A-1, A-4, A-5, A-6 detected together)
    assert got == want


def test_close_alerts_closes_the_open_ones_in_one_publish(warehouse):
    warehouse.insert_new("alerts", evening())
    record(warehouse, new_action("A-2", "acknowledge", "surv-1", T0 + 5 * H))
    record(warehouse, new_action("A-6", "close", "surv-1", T0 + H, disposition="duplicate", reason="A-1"))
    sent: list[list[tuple[bytes, bytes]]] = []
    closed = close_alerts(warehouse, ["A-1", "A-2", "A-6"], "insp-1", T0 + 4 * H, "false_positive",
                          "croupier corrected it", lambda msgs: sent.append(list(msgs)) or len(msgs))
    assert closed == ["A-1", "A-2"]  # A-6 was closed already
    assert [[k for k, _v in batch] for batch in sent] == [[b"A-1", b"A-2"]]
    states = {r["alert_id"]: (r["state"], r["disposition"] or None) for r in current(warehouse)}
    assert states["A-1"] == states["A-2"] == ("closed", "false_positive")
    assert states["A-6"] == ("closed", "duplicate") and states["A-3"] == ("open", None)


def _keys_on_topic(bootstrap: str, keys: set[bytes], timeout: float = 30.0) -> list[bytes]:
    """The keys among ``keys`` of the messages on the alert-actions topic (read from the start)."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"test-{uuid.uuid4().hex[:8]}",
                  "auto.offset.reset": "earliest", "enable.auto.commit": False})
    c.subscribe([TOPIC_ALERT_ACTIONS])
    seen: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while set(seen) < keys and time.monotonic() < deadline:
            seen += [m.key() for m in c.consume(1000, 0.5) if m.error() is None and m.key() in keys]
    finally:
        c.close()
    return seen


def test_bulk_close_from_the_cli_with_a_dry_run_first(chdb_url, broker):
    broker.create_topics([TOPIC_ALERT_ACTIONS], partitions=2)
    p = "B" + uuid.uuid4().hex[:6]
    with open_warehouse(chdb_url) as wh:
        wh.ensure_schema()
        wh.insert_new("alerts", evening(p))
        record(wh, new_action(f"{p}-6", "close", "surv-1", T0 + H, disposition="duplicate", reason="x"))

    def bulk(*extra: str):
        return runner.invoke(app, ["alert", "bulk-close", "--kind", "payout_discrepancy", "--table", "T-1",
                                   "--before", "2026-03-14T23:04:05", "--disposition", "false_positive",
                                   "--reason", "dealer corrected, camera 4", "--by", "insp-1",
                                   "--warehouse", chdb_url, "--bootstrap", broker.bootstrap, *extra],
                             env={"COLUMNS": "200"})

    dry = bulk("--dry-run")
    assert dry.exit_code == 0, dry.output
    assert f"{p}-1" in dry.stdout and f"{p}-2" in dry.stdout and f"{p}-3" not in dry.stdout
    assert "would close 2 alert(s); nothing recorded (dry run)" in dry.stderr
    with open_warehouse(chdb_url) as wh:
        assert wh.query("SELECT count() FROM pitwatch.alert_actions") == [(1,)]
    done = bulk()
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-1] == f"closed 2 alert(s): {p}-2, {p}-1"
    with open_warehouse(chdb_url) as wh:
        states = {r["alert_id"]: r["state"] for r in current(wh)}
    assert {a for a, s in states.items() if s == "closed"} == {f"{p}-1", f"{p}-2", f"{p}-6"}
    assert sorted(_keys_on_topic(broker.bootstrap, {f"{p}-1".encode(), f"{p}-2".encode()})) == [
        f"{p}-1".encode(), f"{p}-2".encode()]
    again = bulk()
    assert again.exit_code == 0 and again.stdout.splitlines()[-1] == "closed 0 alert(s): none matched"


@pytest.mark.parametrize("args, message", [
    (["--disposition", "duplicate", "--reason", "x"], "give at least one of --kind, --table, --severity"),
    (["--kind", "k", "--disposition", "duplicate", "--reason", " "], "close needs a reason"),
    (["--kind", "k", "--disposition", "settled", "--reason", "x"], "disposition"),
])
def test_bulk_close_refuses_no_filter_and_a_bad_close(chdb_url, args, message):
    res = runner.invoke(app, ["alert", "bulk-close", *args, "--by", "x", "--warehouse", chdb_url,
                              "--bootstrap", "127.0.0.1:1"])
    assert res.exit_code == 2 and message in res.stderr, res.output


def test_alerts_state_prints_a_header_and_takes_filters(chdb_url):
    ids = [str(uuid.UUID(int=i)) for i in range(1, 7)]
    with open_warehouse(chdb_url) as wh:
        wh.ensure_schema()
        wh.insert_new("alerts", [{**r, "alert_id": ids[i]} for i, r in enumerate(evening())])

    def alerts(*args: str, columns: int = 200):
        return runner.invoke(app, ["alerts", "--warehouse", chdb_url, *args], env={"COLUMNS": str(columns)})

    listed = alerts("--state", "open", "--kind", "payout_discrepancy", "--table", "T-1", "--since",
                    "2026-03-14T22:04:05", "--format", "json")
    assert listed.exit_code == 0, listed.output
    assert [json.loads(x)["alert_id"] for x in listed.stdout.splitlines()] == [ids[2], ids[1]]
    medium = alerts("--state", "all", "--severity", "medium", "--format", "json")
    assert [json.loads(x)["alert_id"] for x in medium.stdout.splitlines()] == [ids[3]]
    for columns in (200, 80):
        text = alerts("--state", "open", columns=columns)
        assert text.exit_code == 0, text.output
        head = text.stdout.splitlines()[0] + text.stdout.splitlines()[1]
        for name in ("alert id", "state", "severity", "detected (UTC)", "table", "kind"):
            assert name in head, (columns, name, text.stdout)
        assert all(i in text.stdout for i in ids) and "…" not in text.stdout, text.stdout
        assert max(map(len, text.stdout.splitlines())) <= columns
        assert "6 alert(s) open" in text.stderr
    lone = alerts("--kind", "payout_discrepancy")
    assert lone.exit_code == 2 and "with --state" in lone.stderr
