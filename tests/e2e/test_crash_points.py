"""Crash points: a worker dies at each named point of a batch, a new worker finishes the job,
and the warehouse equals a clean run's.

The crash is the test hook of :mod:`pitwatch.streams.crashpoints` (``PITWATCH_CRASH_AT``:
``os._exit(137)`` at a named point of a given batch, no cleanup), so where the worker dies is
decided by the test, not by timing. Completion is read from Kafka: the consumer group has
committed every input offset, which the worker does only after the rows, outputs and states
of those offsets are stored. "Every" is up to the log end offsets read back after producing,
not up to the high watermark: Tansu reports that as 1 for a partition filled in one produce
request, so a worker was stopped as soon as any batch was committed (under CPU load, the
crashed worker's own first commit did it, and the restarted worker was stopped before it
handled anything; see :func:`tests.fixtures.broker.end_offsets`).

Warehouse comparison: for ``events_raw``, ``settlements``, ``alerts`` and ``rejected``, the
ids and the number of stored rows per id (without ``FINAL``: a row inserted twice would
show) must be those of a clean run of the same events, each id once.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import pytest
from pitwatch.sim import write_simulation
from pitwatch.streams.broker import LocalBroker, free_port
from pitwatch.streams.crashpoints import ENV_VAR, EXIT_CRASH, POINTS
from pitwatch.streams.faust_app import watch_status_path
from pitwatch.streams.producer import produce_events
from pitwatch.streams.status import read_status
from pitwatch.streams.supervisor import start_worker, stop_worker
from pitwatch.streams.topics import ALL_TOPICS, APP_ID, TOPIC_EVENTS, TOPIC_ROUND_DIGESTS
from pitwatch.warehouse import open_warehouse

from tests.fixtures.broker import committed_to_the_end, end_offsets
from tests.fixtures.processes import track
from tests.streams.test_metrics import scrape

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]

RATES = {"wrong_payout": 0.05, "late_bet": 0.03, "over_limit_bet": 0.03, "dealer_misdraw": 0.03,
         "spin_direction": 0.03, "illegal_decision": 0.03, "dropped_event": 0.01,
         "duplicated_event": 0.01}
PARTITIONS = 4
#: small batches, so that a small evening is several batches and the crash is mid-stream
WORKER_ARGS = ["--batch-max", "150", "--partitions", str(PARTITIONS), "--loglevel", "info"]
CRASH_BATCH = 3
WAIT_S = 120
ID_COLUMNS = {"events_raw": "event_id", "settlements": "settlement_id", "alerts": "alert_id",
              "rejected": "reject_id"}


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> list[bytes]:
    """A small simulated evening (fixed seed) with malformed messages among the events."""
    path = tmp_path_factory.mktemp("crash") / "events.jsonl"
    write_simulation(path, tables=5, hours=0.3, seed=20261123, fault_rates=RATES)
    lines = path.read_bytes().splitlines()
    assert len(lines) > 4 * 150, len(lines)  # several batches
    junk = [b'{"event_id": "oops", ', b"not json at all", json.dumps({"type": "teleport"}).encode()]
    for i, bad in enumerate(junk):
        lines.insert((i + 1) * len(lines) // (len(junk) + 1), bad)
    return lines


def run_until_committed(bootstrap: str, warehouse: str, workdir: Path, name: str,
                        ends: dict[int, int]) -> dict:
    """Run a worker (no crash hook) until every input offset up to ``ends`` (``{partition: log
    end offset}``) is committed, then stop it; returns its last status, with the counters its
    Prometheus endpoint served at the end under ``"metrics"`` and its watch stage's status under
    ``"watch"``."""
    status = workdir / f"{name}-status.json"
    port = free_port()
    proc = track(start_worker(bootstrap, warehouse, status, workdir / f"{name}.log",
                              args=[*WORKER_ARGS, "--datadir", str(workdir / "faust"),
                                    "--metrics-address", f"127.0.0.1:{port}"]))
    try:
        deadline = time.monotonic() + WAIT_S
        while not committed_to_the_end(bootstrap, TOPIC_EVENTS, APP_ID, ends):
            assert proc.poll() is None, (workdir / f"{name}.log").read_text()[-3000:]
            assert time.monotonic() < deadline, (
                f"not all input committed; worker status {read_status(status)}\n"
                + (workdir / f"{name}.log").read_text()[-6000:])
            time.sleep(0.3)
        metrics = {dict(labels)["counter"]: int(value) for (sample, labels), value
                   in scrape(f"http://127.0.0.1:{port}/metrics").items() if sample == "pitwatch_messages_total"}
    finally:
        stop_worker(proc, 60)
    return {**read_status(status), "metrics": metrics, "watch": read_status(Path(watch_status_path(status)))}


def stored_rows(warehouse: str) -> dict[str, dict[str, int]]:
    """``{table: {id: rows stored}}`` for the four tables, counted without ``FINAL``."""
    wh = open_warehouse(warehouse)
    try:
        return {table: {r[0]: int(r[1]) for r in wh.query(
                    f"SELECT {col}, count() FROM pitwatch.{table} GROUP BY {col}")}
                for table, col in ID_COLUMNS.items()}
    finally:
        wh.close()


def skipped_rows(warehouse: str) -> dict[str, str]:
    """``{skip_id: reason}`` of the warehouse's ``skipped`` table."""
    wh = open_warehouse(warehouse)
    try:
        return dict(wh.query("SELECT skip_id, any(reason) FROM pitwatch.skipped GROUP BY skip_id"))
    finally:
        wh.close()


def fresh_db(clickhouse_server: str) -> str:
    return f"{clickhouse_server.rsplit('/', 1)[0]}/crash_{uuid.uuid4().hex[:10]}"


def run_pipeline(evening: list[bytes], warehouse: str, workdir: Path,
                 crash_at: str | None = None) -> tuple[dict, dict]:
    """Produce ``evening`` on a fresh broker; if ``crash_at``, run a worker with the hook
    until it dies there; then run a worker without it until all input is committed.
    Returns the last status of the crashed worker (``{}`` without a crash) and of the other."""
    crashed_status: dict = {}
    with LocalBroker(log_dir=workdir) as broker:
        broker.create_topics(list(ALL_TOPICS), partitions=PARTITIONS)
        assert produce_events(evening, broker.bootstrap, TOPIC_EVENTS) == len(evening)
        ends = end_offsets(broker.bootstrap, TOPIC_EVENTS, len(evening))
        if crash_at is not None:
            status = workdir / "crashing-status.json"
            proc = track(start_worker(broker.bootstrap, warehouse, status, workdir / "crashing.log",
                                      args=[*WORKER_ARGS, "--datadir", str(workdir / "faust")],
                                      env={ENV_VAR: crash_at}))
            try:
                code = proc.wait(WAIT_S)
            finally:
                stop_worker(proc)
            assert code == EXIT_CRASH, (workdir / "crashing.log").read_text()[-3000:]
            crashed_status = read_status(status)
        finished = run_until_committed(broker.bootstrap, warehouse, workdir, "restarted", ends)
    return crashed_status, finished


@pytest.fixture(scope="module")
def clean_run(evening, clickhouse_server, tmp_path_factory) -> dict[str, dict[str, int]]:
    """The warehouse after one uninterrupted worker processed the evening."""
    db = fresh_db(clickhouse_server)
    _, status = run_pipeline(evening, db, tmp_path_factory.mktemp("clean"))
    assert status["counters"]["skipped"] == 0 and skipped_rows(db) == {}
    rows = stored_rows(db)
    assert all(rows.values()), {t: len(ids) for t, ids in rows.items()}  # every table has rows
    return rows


@pytest.mark.parametrize("point", POINTS)
def test_restart_after_a_crash_at_each_point_stores_what_a_clean_run_stores(
        point, evening, clean_run, clickhouse_server, tmp_path):
    """The worker dies at ``point`` of its third batch (no flush, no commit); a new worker
    recovers the states from the changelog, gets the uncommitted batches again, and the
    warehouse ends with exactly the clean run's rows: the same ids in every table, each once."""
    db = fresh_db(clickhouse_server)
    crashed, restarted = run_pipeline(evening, db, tmp_path, crash_at=f"{point}:{CRASH_BATCH}")
    # it died inside batch 3: two batches done, the third never reported
    assert crashed.get("batches") == CRASH_BATCH - 1 and crashed.get("error") is None, crashed
    rows = stored_rows(db)
    for table in ID_COLUMNS:
        assert rows[table] == clean_run[table], table
        assert set(rows[table].values()) == {1}, table
    # every message the restarted worker skipped as already applied is stored with the reason
    # (a message it took in twice, e.g. read again to fill a hole, is one row)
    # (the watch stage skips the round digests it had applied: stored too, counted in its status)
    every = skipped_rows(db)
    skipped = {k: r for k, r in every.items() if k.startswith(f"{TOPIC_EVENTS}:")}
    assert len(skipped) <= restarted["counters"]["skipped"] == restarted["metrics"]["skipped"], (
        skipped, restarted["counters"], restarted["metrics"])
    assert all(r.startswith("redelivered: already applied") for r in skipped.values())
    digests = {k: r for k, r in every.items() if k not in skipped}
    assert len(digests) <= restarted["watch"].get("counters", {}).get("skipped", 0), (digests, restarted["watch"])
    # a digest redelivered at its own offset, or sent again at a new one by a table stage that crashed
    # between its outputs and its states (after_outputs): each read once, the copy stored as skipped
    assert all(k.startswith(f"{TOPIC_ROUND_DIGESTS}:") and (r.startswith("redelivered: round digest already applied")
                                                           or "already received" in r)
               for k, r in digests.items())
    if point == "after_states":  # batch 3's states were stored, its offsets never committed
        assert skipped, restarted["counters"]
