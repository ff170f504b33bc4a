"""The hash chain through the real pipeline: Tansu, the Faust worker (killed mid-stream and
restarted) and ClickHouse 18.16. Every table's chain in the warehouse is intact and ends at the
head the offline replay of the same file computes, event for event."""

from __future__ import annotations

import time

import pytest
from pitwatch.detectors.auditor import TableAuditor
from pitwatch.replay import fold_lines
from pitwatch.streams.crashpoints import ENV_VAR, EXIT_CRASH
from pitwatch.streams.producer import produce_jsonl
from pitwatch.streams.supervisor import start_worker as spawn_worker
from pitwatch.streams.supervisor import stop_worker
from pitwatch.streams.topics import APP_ID, TOPIC_EVENTS
from pitwatch.warehouse import open_warehouse
from pitwatch.warehouse.verify import verify_table

from tests.e2e.test_pipeline import WAIT_S, events_file, start_worker  # noqa: F401 (events_file: a fixture)
from tests.fixtures.broker import committed_to_the_end, end_offsets
from tests.fixtures.processes import track

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]


def test_a_crashed_and_restarted_worker_stores_the_chain_the_replay_computes(events_file, broker, server_db,  # noqa: F811
                                                                              tmp_path):
    """The worker dies after storing its second batch's rows (nothing committed, outputs not
    produced); a restarted one recovers the states and gets the batch again. Each event's stored
    link is the one the offline replay gives it (the file has dropped and duplicated events:
    gaps and duplicates), and ``verify`` finds every table's chain intact."""
    lines = events_file.read_bytes().splitlines()
    auditors: dict[str, TableAuditor] = {}
    replay: dict[str, str] = {}
    for _, event, out, error in fold_lines(lines, auditors=auditors):
        assert error is None, error
        if event is not None and out is not None and out.rejected is None and out.duplicate is None:
            replay[str(event.event_id)] = auditors[event.table_id].chain_head.hex()
    assert len(replay) < len(lines)  # the duplicates are not linked

    assert produce_jsonl(events_file, broker.bootstrap, TOPIC_EVENTS) == len(lines)
    ends = end_offsets(broker.bootstrap, TOPIC_EVENTS, len(lines))
    status = tmp_path / "worker-status.json"
    proc = track(spawn_worker(broker.bootstrap, server_db, status, tmp_path / "worker.log",
                              args=["--batch-max", "500", "--datadir", str(tmp_path / "faust")],
                              env={ENV_VAR: "after_warehouse:2"}))
    assert proc.wait(WAIT_S) == EXIT_CRASH, (tmp_path / "worker.log").read_text()[-3000:]
    proc, status = start_worker(broker.bootstrap, server_db, tmp_path, "worker-restarted")
    try:
        deadline = time.monotonic() + WAIT_S
        while not committed_to_the_end(broker.bootstrap, TOPIC_EVENTS, APP_ID, ends):
            assert proc.poll() is None, (tmp_path / "worker-restarted.log").read_text()[-3000:]
            assert time.monotonic() < deadline, (tmp_path / "worker-restarted.log").read_text()[-6000:]
            time.sleep(0.3)
    finally:
        stop_worker(proc, 60)

    with open_warehouse(server_db) as wh:
        stored = dict(wh.query("SELECT event_id, hash FROM pitwatch.events_raw FINAL"))
        assert stored == replay
        for table_id, aud in sorted(auditors.items()):
            res = verify_table(wh, table_id)
            assert res.intact, (table_id, res.broken)
            assert res.head is not None and res.head[1] == aud.chain_head.hex()
