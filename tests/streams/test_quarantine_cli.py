"""`pitwatch quarantine`: the release control message reaches the table's partition through a
real broker, and `list` reads quarantined tables from a real warehouse (chDB)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from pitwatch.cli import app
from pitwatch.streams.processor import BatchProcessor, InMessage
from pitwatch.streams.producer import table_key
from pitwatch.streams.quarantine import RELEASE, control_of, release_message
from typer.testing import CliRunner

from tests.fixtures.batches import store_rows
from tests.fixtures.defects import inject_defect

from .test_broker import consume_all

runner = CliRunner()


def test_release_sends_a_control_message_keyed_by_the_table(broker, unique_topic):
    topic = unique_topic("release")
    broker.create_topics([topic], partitions=4)
    res = runner.invoke(app, ["quarantine", "release", "GAL-PB-01", "--by", "auditor-7",
                              "--bootstrap", broker.bootstrap, "--topic", topic])
    assert res.exit_code == 0, res.output
    [msg] = consume_all(broker.bootstrap, topic, 1)
    assert msg.key() == b"GAL-PB-01" == table_key(msg.value())  # the partition of the table's events
    control = control_of(msg.value())
    assert control is not None and (control["control"], control["table_id"], control["requested_by"]) == (
        RELEASE, "GAL-PB-01", "auditor-7")


def _quarantine_rows(monkeypatch) -> dict:
    """Warehouse rows of a batch in which the engine fails on RF-Q's first event (seq 1, its
    table_opened): it is rejected, RF-Q is quarantined, and seq 1-3 are parked."""
    ev = {"schema_version": 1, "casino_id": "c", "table_id": "RF-Q", "game": "french_roulette",
          "round_id": None, "actor": {"role": "pit_boss", "id": "PB"}}
    opened = {"type": "table_opened", "ruleset_id": "french_roulette.galicia", "jurisdiction": "galicia",
              "min_bet": "5.00", "max_bet": "500.00", "float_amount": "10000.00"}
    lines = [json.dumps({**ev, "event_id": f"00000000-0000-0000-0000-00000000000{i}", "seq": i,
                         "occurred_at": f"2026-11-24T20:00:0{i}.000Z",
                         **(opened if i == 1 else {"type": "dealer_assigned", "dealer_id": "D"})})
             for i in (1, 2, 3)]
    inject_defect(monkeypatch, "french_roulette", lambda e: e.seq == 1, lambda: ZeroDivisionError("division by zero"))
    return BatchProcessor(lambda _t: None).process(
        [InMessage(b"RF-Q", ln.encode(), 0, i) for i, ln in enumerate(lines)]).rows


def test_list_shows_the_quarantined_table_with_its_parked_events(chdb_url, monkeypatch):
    rows = _quarantine_rows(monkeypatch)
    assert len(rows["parked"]) == 3 and len(rows["rejected"]) == 1
    store_rows(chdb_url, rows)
    res = runner.invoke(app, ["quarantine", "list", "--warehouse", chdb_url], env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    line = next(ln for ln in res.stdout.splitlines() if "RF-Q" in ln)
    assert "2026-11-24 20:00:01" in line and "│ 3 " in line and "ZeroDivisionError" in line
    assert release_message("RF-Q", "x", datetime(2026, 11, 24, tzinfo=timezone.utc)).startswith(b'{"control"')
