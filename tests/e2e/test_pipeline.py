"""End to end: simulator -> real broker (Tansu) -> Faust worker -> ClickHouse 18.16 server / chDB.

The oracle is the offline replay of the same file through the rules engine
(``pitwatch.replay.replay_lines``): the pipeline must store exactly the settlements and alerts
(same deterministic ids) that the replay derives, each once, whatever happens to the worker.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
from pitwatch.detectors.alerts import settlement_id
from pitwatch.replay import replay_lines
from pitwatch.sim import write_simulation
from pitwatch.streams.broker import LocalBroker
from pitwatch.streams.crashpoints import ENV_VAR, EXIT_CRASH
from pitwatch.streams.faust_app import watch_status_path
from pitwatch.streams.producer import produce_events, produce_jsonl
from pitwatch.streams.status import read_status
from pitwatch.streams.supervisor import start_worker as spawn_worker
from pitwatch.streams.supervisor import stop_worker
from pitwatch.streams.topics import APP_ID, TOPIC_ALERTS, TOPIC_EVENTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS

from tests.fixtures.broker import committed_to_the_end, end_offsets
from tests.fixtures.processes import track

pytestmark = [pytest.mark.kafka, pytest.mark.clickhouse, pytest.mark.slow]

RATES = {"wrong_payout": 0.05, "late_bet": 0.03, "over_limit_bet": 0.03, "dealer_misdraw": 0.03,
         "spin_direction": 0.03, "illegal_decision": 0.03, "dropped_event": 0.003,
         "duplicated_event": 0.003}
WAIT_S = 240


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def events_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("e2e") / "events.jsonl"
    write_simulation(path, tables=7, hours=0.4, seed=20261122, fault_rates=RATES)
    return path


def replay_oracle(path: Path) -> dict:
    """What the warehouse must hold after the pipeline ran over the events file ``path``, from the
    offline replay: settlement id -> (stake, discrepancy), the alert ids (the detectors' included),
    their kinds (sorted), the number of lines and of rounds judged."""
    settlements: dict[str, tuple] = {}
    alerts: dict[str, str] = {}
    rounds = 0
    with path.open("rb") as f:
        for item in replay_lines(f):
            assert item.error is None, item.error
            if item.verdict is not None:
                rounds += 1
                v = item.verdict
                for c in v.checks:
                    settlements[settlement_id(v.table_id, v.round_id, c.expected.bet_id)] = (
                        c.expected.stake, c.discrepancy)
            alerts.update({a.alert_id: a.kind for a in item.alerts})
    return {"settlements": settlements, "alerts": set(alerts), "kinds": sorted(alerts.values()),
            "lines": len(path.read_bytes().splitlines()), "rounds": rounds}


@pytest.fixture(scope="module")
def oracle(events_file) -> dict:
    out = replay_oracle(events_file)
    assert out["settlements"] and out["alerts"]
    return out


def start_worker(bootstrap: str, warehouse: str, workdir: Path, name: str = "worker") -> tuple[subprocess.Popen, Path]:
    status = workdir / f"{name}-status.json"
    status.unlink(missing_ok=True)
    proc = track(spawn_worker(bootstrap, warehouse, status, workdir / f"{name}.log",
                              args=["--datadir", str(workdir / "faust"), "--loglevel", "info"]))
    return proc, status


def wait_consumed(proc, status: Path, n: int, workdir: Path) -> None:
    deadline = time.monotonic() + WAIT_S
    while int(read_status(status).get("consumed", 0)) < n:
        assert proc.poll() is None, (workdir / "worker.log").read_text()[-3000:]
        assert time.monotonic() < deadline, f"worker consumed {read_status(status)} of {n}"
        time.sleep(0.3)


def consume_all(bootstrap: str, warehouse: str, workdir: Path, n: int, name: str = "worker",
                rounds: int = 0) -> None:
    """Start a worker, wait until it has consumed ``n`` messages (and its watch stage ``rounds``
    round digests), stop it (whatever happens)."""
    proc, status = start_worker(bootstrap, warehouse, workdir, name)
    try:
        wait_consumed(proc, status, n, workdir)
        if rounds:
            wait_consumed(proc, Path(watch_status_path(status)), rounds, workdir)
    finally:
        stop_worker(proc, 60)


def snapshot(wh) -> dict:
    """Everything the warehouse holds, deduplicated view and raw row counts."""
    q = wh.query
    return {
        "settlements": {r[0]: (Decimal(r[1]), Decimal(r[2])) for r in q(
            "SELECT settlement_id, toString(stake), toString(discrepancy) FROM pitwatch.settlements FINAL")},
        "alerts": {r[0] for r in q("SELECT alert_id FROM pitwatch.alerts FINAL")},
        "events": q("SELECT count() FROM pitwatch.events_raw FINAL")[0][0],
        "raw_rows": (q("SELECT count() FROM pitwatch.settlements")[0][0], q("SELECT count() FROM pitwatch.alerts")[0][0]),
        "hourly": q("SELECT toString(sum(bets)), toString(sum(handle)), toString(sum(win)), "
                    "toString(sum(discrepancies)), toString(sum(discrepancy_amount)) FROM pitwatch.table_hourly")[0],
        "from_settlements": q(
            "SELECT toString(count()), toString(sum(handle)), toString(sum(win)), "
            "toString(countIf(discrepancy != 0)), toString(sum(abs(discrepancy))) FROM pitwatch.settlements FINAL")[0],
    }


def assert_matches_oracle(snap: dict, oracle: dict) -> None:
    assert set(snap["settlements"]) == set(oracle["settlements"])
    assert snap["alerts"] == oracle["alerts"]
    assert snap["settlements"] == {k: (s, d) for k, (s, d) in oracle["settlements"].items()}
    # the hourly aggregate (materialized view) counts every settlement exactly once (the
    # figures themselves are checked by hand in tests/test_accounting.py)
    assert tuple(Decimal(x) for x in snap["hourly"]) == tuple(Decimal(x) for x in snap["from_settlements"])
    # and nothing was inserted twice, even in the raw (un-merged) tables
    assert snap["raw_rows"] == (len(oracle["settlements"]), len(oracle["alerts"]))


def kcat_produce(path: Path, bootstrap: str, topic: str, env: dict) -> None:
    keyed = path.with_suffix(".keyed")
    with path.open("rb") as src, keyed.open("wb") as dst:
        for line in src:
            tid = json.loads(line)["table_id"].encode()
            dst.write(tid + b"\t" + line)
    subprocess.run(["kcat", "-P", "-b", bootstrap, "-t", topic, "-K", "\t", "-l", str(keyed)],
                   env=env, check=True, timeout=120)


# ----------------------------------------------------------------------------- tests


def test_kcat_produced_events_reach_clickhouse_exactly_and_reprocessing_is_harmless(
        events_file, oracle, broker, server_db, kcat_env, tmp_path):
    """kcat (Debian) produces the evening; one worker settles it into ClickHouse 18.16: the same
    settlements and alerts as the offline replay, each once, and aggregates equal to the sums.
    Then the whole log is processed again from scratch (a second broker, a fresh worker state) into
    the same warehouse: nothing changes."""
    from pitwatch.warehouse import open_warehouse

    kcat_produce(events_file, broker.bootstrap, TOPIC_EVENTS, kcat_env)
    consume_all(broker.bootstrap, server_db, tmp_path, oracle["lines"], rounds=oracle["rounds"])
    wh = open_warehouse(server_db)
    try:
        first = snapshot(wh)
        assert_matches_oracle(first, oracle)
        assert first["events"] > 0.99 * oracle["lines"] - 200  # duplicates and dropped excluded

        with LocalBroker(log_dir=tmp_path / "again") as b2:
            b2.create_topics([TOPIC_EVENTS, TOPIC_SETTLEMENTS, TOPIC_ALERTS, TOPIC_REJECTED], partitions=4)
            produce_jsonl(events_file, b2.bootstrap, TOPIC_EVENTS)
            consume_all(b2.bootstrap, server_db, tmp_path, oracle["lines"], "worker2", rounds=oracle["rounds"])
        second = snapshot(wh)
        assert second == first
    finally:
        wh.close()


def test_crash_mid_stream_then_restart_loses_and_doubles_nothing(events_file, oracle, broker, server_db, tmp_path):
    """A worker dies like a SIGKILL in the middle of the stream (the crash-point test hook: its
    second batch of 500, rows inserted, outputs not produced, nothing committed); a restarted
    worker (same consumer group, state recovered from the changelog, uncommitted batches
    redelivered) completes the job: exactly the oracle's settlements and alerts, each once,
    and exact aggregates. (tests/e2e/test_crash_points.py covers every crash point.)"""
    from pitwatch.warehouse import open_warehouse

    assert produce_jsonl(events_file, broker.bootstrap, TOPIC_EVENTS) == oracle["lines"]
    ends = end_offsets(broker.bootstrap, TOPIC_EVENTS, oracle["lines"])
    status = tmp_path / "worker-status.json"
    proc = track(spawn_worker(broker.bootstrap, server_db, status, tmp_path / "worker.log",
                              args=["--batch-max", "500", "--datadir", str(tmp_path / "faust")],
                              env={ENV_VAR: "after_warehouse:2"}))
    assert proc.wait(WAIT_S) == EXIT_CRASH, (tmp_path / "worker.log").read_text()[-3000:]
    assert read_status(status)["batches"] == 1
    proc, status = start_worker(broker.bootstrap, server_db, tmp_path, "worker-restarted")
    try:
        deadline = time.monotonic() + WAIT_S
        while not committed_to_the_end(broker.bootstrap, TOPIC_EVENTS, APP_ID, ends):
            assert proc.poll() is None, (tmp_path / "worker-restarted.log").read_text()[-3000:]
            assert time.monotonic() < deadline, (
                f"not all input committed: {read_status(status)}\n"
                + (tmp_path / "worker-restarted.log").read_text()[-6000:])
            time.sleep(0.3)
    finally:
        stop_worker(proc, 60)
    wh = open_warehouse(server_db)
    try:
        assert_matches_oracle(snapshot(wh), oracle)
    finally:
        wh.close()


def test_pipeline_into_chdb_matches_the_offline_replay(events_file, oracle, broker, tmp_path):
    """The zero-setup default: the worker sinks into chDB (embedded); read back after it stops
    (one process owns a chDB directory), in a separate process."""
    url = f"chdb://{tmp_path / 'wh'}"
    produce_jsonl(events_file, broker.bootstrap, TOPIC_EVENTS)
    consume_all(broker.bootstrap, url, tmp_path, oracle["lines"], rounds=oracle["rounds"])
    script = (
        "import json,sys\n"
        "from tests.e2e.test_pipeline import snapshot\n"
        "from pitwatch.warehouse import open_warehouse\n"
        f"wh=open_warehouse({url!r}); s=snapshot(wh); wh.close()\n"
        "s['settlements']={k:[str(a),str(b)] for k,(a,b) in s['settlements'].items()}\n"
        "s['alerts']=sorted(s['alerts'])\n"
        "print(json.dumps(s))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2], timeout=120)
    snap = json.loads(out.stdout.strip().splitlines()[-1])
    snap["settlements"] = {k: (Decimal(a), Decimal(b)) for k, (a, b) in snap["settlements"].items()}
    snap["alerts"] = set(snap["alerts"])
    snap["hourly"], snap["from_settlements"] = tuple(snap["hourly"]), tuple(snap["from_settlements"])
    snap["raw_rows"] = tuple(snap["raw_rows"])
    assert_matches_oracle(snap, oracle)


def test_bad_input_goes_to_the_rejected_topic_with_its_bytes_and_reason(broker, server_db, tmp_path):
    """Malformed JSON, unknown type, missing fields and a wrong seq each land on
    pitwatch.rejected with the exact raw bytes and a reason; valid events around them are kept."""
    import base64

    from confluent_kafka import Consumer
    from pitwatch.warehouse import open_warehouse

    good = []
    src = tmp_path / "good.jsonl"
    write_simulation(src, tables=1, hours=0.05, seed=3, fault_rates={})
    good = src.read_bytes().splitlines()[:6]
    first = json.loads(good[0])
    stale = dict(json.loads(good[3]), event_id=str(uuid.uuid4()), seq=2)
    missing = dict(json.loads(good[4]))
    missing.pop("seq")
    bad = {
        b'{"event_id": "oops", ': "Invalid JSON",
        json.dumps(dict(first, type="teleport", seq=99)).encode(): "does not match any of the expected tags",
        json.dumps(missing).encode(): "seq: Field required",
        json.dumps(stale).encode(): "not after the table's last seq",
    }
    stream = good[:4] + list(bad) + good[4:]
    produce_events(stream, broker.bootstrap, TOPIC_EVENTS)
    proc, status = start_worker(broker.bootstrap, server_db, tmp_path)
    try:
        wait_consumed(proc, status, len(stream), tmp_path)
        assert read_status(status)["rejected"] == len(bad)
    finally:
        stop_worker(proc, 60)
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "t-rejected", "auto.offset.reset": "earliest"})
    c.subscribe([TOPIC_REJECTED])
    got = {}
    deadline = time.monotonic() + 30
    while len(got) < len(bad) and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and not m.error():
            body = json.loads(m.value())
            got[base64.b64decode(body["raw_b64"])] = body["reason"]
    c.close()
    assert set(got) == set(bad)
    for raw, needle in bad.items():
        assert needle in got[raw], (raw, got[raw])
    wh = open_warehouse(server_db)
    try:
        rows = wh.query("SELECT raw, reason FROM pitwatch.rejected FINAL")
        assert len(rows) == len(bad)
        assert wh.query("SELECT count() FROM pitwatch.events_raw FINAL")[0][0] == len(good)
    finally:
        wh.close()
