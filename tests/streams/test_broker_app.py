"""The Faust worker (pitwatch.streams.faust_app, runtime, ...) end to end on the local broker,
with a stub processor.

The worker runs in a subprocess (``pitwatch worker``) with :class:`StubProcessor`
and :func:`open_stub_warehouse` from this module, so these tests exercise the app's plumbing
(batching, outputs, batch engine child process, Faust Table + changelog recovery, commits, SIGTERM,
fatal errors) independently of the real rules pipeline.

Stub semantics: per table, the state is ``{"count": n, "last_offset": o}``; a message whose
offset is <= last_offset was already applied (redelivery) and is skipped. Every applied message
gives one ``pitwatch.settlements`` message ``{"table": t, "n": count, "offset": o}`` and one
warehouse row; a non-JSON value goes to ``pitwatch.rejected``. If env ``STUB_POISON`` is set,
a value equal to it makes ``process`` raise.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from pitwatch.streams.batch_engine import FatalPipelineError
from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.processor import BatchResult, InMessage, OutMessage
from pitwatch.streams.producer import produce_events
from pitwatch.streams.runtime import EXIT_FATAL, BatchRuntime
from pitwatch.streams.states import APPLIED_OFFSET_KEY, CHANGELOG_MARKER
from pitwatch.streams.status import read_status
from pitwatch.streams.topics import ALL_TOPICS, TABLE_STATE_CHANGELOG, TOPIC_EVENTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS

from tests.fixtures.processes import track

from .test_broker import consume_all

REPO = Path(__file__).resolve().parents[2]


class StubProcessor:
    """See module docstring."""

    def __init__(self, load_state):
        self.load_state = load_state
        self.poison = os.environ.get("STUB_POISON", "").encode() or None

    def process(self, batch: list[InMessage]) -> BatchResult:
        states: dict[str, dict] = {}
        res = BatchResult(rows={"stub_rows": []})
        for m in batch:
            if self.poison is not None and m.value == self.poison:
                raise RuntimeError("poison message")
            try:
                tid = json.loads(m.value)["table_id"]
            except ValueError:
                res.messages.append(OutMessage(TOPIC_REJECTED, m.key or b"", m.value))
                continue
            st = states.get(tid)
            if st is None:
                raw = self.load_state(tid)
                st = states[tid] = json.loads(raw) if raw else {"count": 0, "last_offset": -1}
            if m.offset <= st["last_offset"]:
                continue
            st["count"] += 1
            st["last_offset"] = m.offset
            body = {"table": tid, "n": st["count"], "offset": m.offset, "partition": m.partition}
            res.messages.append(OutMessage(TOPIC_SETTLEMENTS, tid.encode(), json.dumps(body).encode()))
            res.rows["stub_rows"].append(body)
        res.states = {t: json.dumps(s).encode() for t, s in states.items()}
        return res


class StubWarehouse:
    """Appends every inserted row as a JSON line to the file named by the URL ``stub:PATH``."""

    def __init__(self, url: str):
        self.path = Path(url.split(":", 1)[1])

    def ensure_schema(self) -> None:
        self.path.touch()

    def insert_new(self, table: str, rows: list[dict]) -> int:
        with self.path.open("a") as fh:
            for r in rows:
                fh.write(json.dumps({"wh_table": table, **r}) + "\n")
        return len(rows)

    def close(self) -> None:
        pass


def open_stub_warehouse(url: str) -> StubWarehouse:
    return StubWarehouse(url)


class Worker:
    """A worker subprocess plus its status file."""

    def __init__(self, bootstrap: str, tmp: Path, env: dict[str, str] | None = None):
        self.status_path = tmp / f"status-{uuid.uuid4().hex[:6]}.json"
        self.warehouse = tmp / "rows.jsonl"
        self.log = open(tmp / "worker.log", "ab")
        full_env = dict(os.environ, **(env or {}))
        full_env["PYTHONPATH"] = os.pathsep.join([str(REPO), full_env.get("PYTHONPATH", "")])
        self.proc = track(subprocess.Popen(
            [sys.executable, "-m", "pitwatch", "worker", "--bootstrap", bootstrap,
             "--status-file", str(self.status_path), "--warehouse", f"stub:{self.warehouse}",
             "--warehouse-opener", "tests.streams.test_broker_app:open_stub_warehouse",
             "--processor", "tests.streams.test_broker_app:StubProcessor",
             "--datadir", str(tmp / "faust"), "--partitions", "4"],
            cwd=tmp, env=full_env, stdout=self.log, stderr=subprocess.STDOUT))

    def status(self) -> dict:
        return read_status(self.status_path)

    def wait_consumed(self, n: int, timeout: float = 120.0) -> dict:
        """Wait until the worker reports ``consumed >= n`` (or exits); return the status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            st = self.status()
            if st.get("consumed", 0) >= n or self.proc.poll() is not None:
                return st
            time.sleep(0.2)
        return self.status()

    def terminate(self, timeout: float = 60.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.log.close()


def events(tables: int, per_table: int, start_seq: int = 1) -> list[bytes]:
    return [json.dumps({"table_id": f"T{t:02d}", "seq": s}).encode()
            for s in range(start_seq, start_seq + per_table) for t in range(tables)]


@pytest.fixture
def fresh_topics(broker):
    """The app's topics are fixed names: give each test a broker of its own state by deleting them."""
    from confluent_kafka.admin import AdminClient

    def clear():
        admin = AdminClient({"bootstrap.servers": broker.bootstrap})
        names = [t for t in admin.list_topics(timeout=10).topics if t in ALL_TOPICS or t.startswith("pitwatch-")]
        if names:
            for fut in admin.delete_topics(names, operation_timeout=15).values():
                fut.result(timeout=15)

    clear()
    broker.create_topics([*ALL_TOPICS, TABLE_STATE_CHANGELOG], partitions=4)
    yield
    clear()


def settlements_by_table(bootstrap: str, n: int) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for m in consume_all(bootstrap, TOPIC_SETTLEMENTS, n):
        body = json.loads(m.value())
        assert m.key() == body["table"].encode()
        out.setdefault(body["table"], []).append(body)
    return out


@pytest.mark.kafka
@pytest.mark.slow
def test_worker_processes_restarts_and_recovers_table_state(broker, fresh_topics, tmp_path):
    """Outputs, warehouse rows and per-table state for every event; after a SIGTERM and a
    restart the state is recovered from the changelog, so counts continue where they stopped."""
    first = events(tables=10, per_table=150)  # 1500
    produce_events(first + [b"not json at all"], broker.bootstrap, TOPIC_EVENTS)
    w = Worker(broker.bootstrap, tmp_path)
    st = w.wait_consumed(len(first) + 1)
    assert st.get("consumed") == len(first) + 1, (st, (tmp_path / "worker.log").read_text()[-3000:])
    assert st["rejected"] == 1 and st["error"] is None and st["pid"] == w.proc.pid
    assert w.terminate() == 0

    second = events(tables=10, per_table=50, start_seq=151)  # 500 more
    produce_events(second, broker.bootstrap, TOPIC_EVENTS)
    w2 = Worker(broker.bootstrap, tmp_path)
    st2 = w2.wait_consumed(len(second))
    assert st2.get("consumed", 0) >= len(second), (st2, (tmp_path / "worker.log").read_text()[-3000:])
    assert w2.terminate() == 0

    total = len(first) + len(second)
    by_table = settlements_by_table(broker.bootstrap, total)
    assert sorted(by_table) == [f"T{t:02d}" for t in range(10)]
    for tid, bodies in by_table.items():
        counts = sorted(b["n"] for b in bodies)
        # state survived the restart: counts run 1..200 with no restart back at 1
        seen = sorted((b["offset"], b["n"]) for b in bodies)
        assert counts == list(range(1, 201)), (tid, seen[:5], seen[145:155], len(bodies))
        assert len({b["partition"] for b in bodies}) == 1
    rows = [json.loads(line) for line in w.warehouse.read_text().splitlines()]
    assert Counter(r["wh_table"] for r in rows) == {"stub_rows": total}
    assert len(consume_all(broker.bootstrap, TOPIC_REJECTED, 1)) == 1


@pytest.mark.kafka
@pytest.mark.slow
def test_failed_batch_is_not_committed_and_is_redelivered(broker, fresh_topics, tmp_path):
    """A processor failure exits the worker with EXIT_FATAL before the batch is committed;
    the next worker gets the whole batch again (at-least-once), nothing is lost."""
    evs = events(tables=4, per_table=100)
    poison = b'{"table_id":"T00","seq":999,"poison":true}'
    produce_events(evs + [poison], broker.bootstrap, TOPIC_EVENTS)
    w = Worker(broker.bootstrap, tmp_path, env={"STUB_POISON": poison.decode()})
    assert w.proc.wait(120) == EXIT_FATAL
    st = w.status()
    assert "poison message" in (st.get("error") or ""), st
    w.log.close()

    w2 = Worker(broker.bootstrap, tmp_path)
    st2 = w2.wait_consumed(len(evs) + 1)
    assert st2.get("consumed", 0) >= len(evs) + 1, (st2, (tmp_path / "worker.log").read_text()[-3000:])
    assert w2.terminate() == 0
    by_table = settlements_by_table(broker.bootstrap, len(evs) + 1)
    assert {t: sorted(b["n"] for b in bodies)[-1] for t, bodies in by_table.items()} == \
        {"T00": 101, "T01": 100, "T02": 100, "T03": 100}


class _FakeTable:
    def __init__(self):
        self.data: dict[bytes, bytes] = {}
        self.sent: list[tuple[int, bytes, bytes]] = []
        table = self

        class _Producer:
            async def flush(self):
                table.sent.append(("flush", b"", b""))

        self.app = type("App", (), {"producer": _Producer()})()

    def send_changelog(self, partition, key, value):
        self.sent.append((partition, key, value))


class _Ev:
    def __init__(self, key, value, partition, offset):
        self.message = type("M", (), {"key": key, "value": value, "partition": partition, "offset": offset})


def test_runtime_stores_state_in_the_partition_of_the_tables_events(tmp_path):
    """Faust's Table.__setitem__ would use the batch's "current event" (the last one) for every
    key; the runtime must send each table's state to its own partition of the changelog."""
    import asyncio

    table = _FakeTable()
    produced: list[tuple[str, bytes, bytes]] = []

    class _Topic:
        def __init__(self, name):
            self.name = name

        def send_soon(self, key, value):
            produced.append((self.name, key, value))

    topics = {name: _Topic(name) for name in (TOPIC_SETTLEMENTS, TOPIC_REJECTED)}
    rt = BatchRuntime(KafkaSettings(warehouse_url="none", status_path=str(tmp_path / "s.json")), table, topics,
                      processor_factory=StubProcessor, warehouse_opener=None, output="faust",
                      check_gaps=False)
    batch = [_Ev(b"A", b'{"table_id":"A"}', 0, 10), _Ev(b"B", b'{"table_id":"B"}', 3, 7),
             _Ev(b"A", b'{"table_id":"A"}', 0, 11), _Ev(None, b"junk", 1, 5)]
    asyncio.run(rt.handle(batch))
    # the outputs (Faust producer) are flushed before any state is written
    assert table.sent[0][0] == "flush"
    second_flush = table.sent.index(("flush", b"", b""), 1)
    written = {(p, k): v for p, k, v in table.sent[1:second_flush]}
    # each table's state in its own partition, and each partition's last applied offset
    assert written == {(0, b"A"): table.data[b"A"], (3, b"B"): table.data[b"B"],
                       (0, APPLIED_OFFSET_KEY % 0): b"11", (3, APPLIED_OFFSET_KEY % 3): b"7",
                       (1, APPLIED_OFFSET_KEY % 1): b"5"}
    assert (rt.states.applied_offset(0), rt.states.applied_offset(3), rt.states.applied_offset(2)) == (11, 7, None)
    # then, after the states are delivered, one lone marker record per touched partition
    assert sorted((p, k) for p, k, _ in table.sent[second_flush + 1:]) == [
        (0, CHANGELOG_MARKER), (1, CHANGELOG_MARKER), (3, CHANGELOG_MARKER)]
    assert json.loads(table.data[b"A"]) == {"count": 2, "last_offset": 11}
    assert rt.states.load("B") == table.data[b"B"]
    assert [(t, k) for t, k, _ in produced] == [(TOPIC_SETTLEMENTS, b"A"), (TOPIC_SETTLEMENTS, b"B"),
                                                (TOPIC_SETTLEMENTS, b"A"), (TOPIC_REJECTED, b"")]
    status = json.loads((tmp_path / "s.json").read_text())
    assert (status["consumed"], status["rejected"], status["batches"]) == (4, 1, 1)
    rt.close()


class _BrokenWarehouse(StubWarehouse):
    def insert_new(self, table, rows):
        raise OSError("disk full")


def _stub_topics():
    return {TOPIC_SETTLEMENTS: type("T", (), {"send_soon": lambda self, key, value: None})()}


def test_runtime_warehouse_failure_fails_the_batch_before_its_state_is_stored(tmp_path):
    """A failed warehouse write fails the batch (the agent then exits without committing), and
    the batch's table states never reach the changelog: a restarted worker must re-derive the
    batch's results, not skip its offsets as already applied."""
    import asyncio

    table = _FakeTable()
    rt = BatchRuntime(KafkaSettings(warehouse_url=f"stub:{tmp_path / 'rows.jsonl'}"), table, _stub_topics(),
                      processor_factory=StubProcessor, warehouse_opener=_BrokenWarehouse,
                      output="faust", retries=0, check_gaps=False)

    async def run():
        with pytest.raises(FatalPipelineError, match="disk full"):
            await rt.handle([_Ev(b"A", b'{"table_id":"A"}', 0, 1)])

    asyncio.run(run())
    assert [s for s in table.sent if s[0] != "flush"] == [] and table.data == {}
    rt.close()


def test_runtime_stores_states_only_after_the_warehouse_write(tmp_path):
    """The table state (which remembers the last offset applied) is written only once the
    batch's rows are in the warehouse: handle() waits for the write, then stores the state."""
    import asyncio
    import threading

    gate = threading.Event()

    class SlowWarehouse(StubWarehouse):
        def insert_new(self, table, rows):
            gate.wait(30)
            return super().insert_new(table, rows)

    table = _FakeTable()
    rt = BatchRuntime(KafkaSettings(warehouse_url=f"stub:{tmp_path / 'rows.jsonl'}"), table, _stub_topics(),
                      processor_factory=StubProcessor, warehouse_opener=SlowWarehouse, output="faust",
                      check_gaps=False)

    async def run():
        task = asyncio.ensure_future(rt.handle([_Ev(b"A", b'{"table_id":"A"}', 0, 1)]))
        await asyncio.sleep(0.3)
        assert not task.done() and rt.status.warehouse_rows == 0
        assert [s for s in table.sent if s[0] != "flush"] == []  # no state before the rows
        gate.set()
        await task
        assert rt.status.warehouse_rows == 1
        assert (0, b"A") in [(p, k) for p, k, _ in table.sent]
        rt.before_commit()  # nothing left to wait for

    asyncio.run(run())
    rt.close()


@pytest.mark.kafka
def test_runtime_fetches_input_offsets_missing_from_a_batch(broker, fresh_topics, tmp_path):
    """Faust may drop messages fetched while it seeks after a rebalance and still commit past
    them (seen: a restarted worker lost the first new message of a partition). The runtime
    checks each partition's offsets continue from the last applied one (or the earliest
    offset, with no state yet) and reads any hole from Kafka itself before processing."""
    import asyncio

    produce_events(events(tables=1, per_table=20), broker.bootstrap, TOPIC_EVENTS)
    msgs = sorted(consume_all(broker.bootstrap, TOPIC_EVENTS, 20), key=lambda m: m.offset())
    assert [m.offset() for m in msgs] == list(range(20))
    part = msgs[0].partition()
    table = _FakeTable()
    rt = BatchRuntime(KafkaSettings(bootstrap=broker.bootstrap, warehouse_url="none"), table,
                      _stub_topics(), processor_factory=StubProcessor, warehouse_opener=None,
                      output="faust")

    def batch(ms):
        return [_Ev(m.key(), m.value(), m.partition(), m.offset()) for m in ms]

    async def run():
        # no state yet: offsets 0-4 are missing before the batch, 9 inside it
        await rt.handle(batch(msgs[5:9] + msgs[10:15]))
        assert rt.status.gap_filled == 6
        assert json.loads(table.data[b"T00"]) == {"count": 15, "last_offset": 14}
        assert rt.states.applied_offset(part) == 14
        # with state: 15-16 are missing; a redelivered 12 is no gap (the processor skips it)
        await rt.handle(batch(msgs[12:13] + msgs[17:20]))
        assert rt.status.gap_filled == 8
        assert json.loads(table.data[b"T00"]) == {"count": 20, "last_offset": 19}

    asyncio.run(run())
    rt.close()
