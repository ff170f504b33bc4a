"""The batch runtime in-process (no broker): where each crash point stops a batch, and the
status document's counters."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import pytest
from pitwatch.sim import write_simulation
from pitwatch.streams import crashpoints
from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.crashpoints import POINTS, CrashPoint
from pitwatch.streams.processor import BatchProcessor, BatchResult
from pitwatch.streams.runtime import BatchRuntime
from pitwatch.streams.topics import TOPIC_SETTLEMENTS

from .test_broker_app import StubProcessor, StubWarehouse, _Ev, _FakeTable


class _Crashed(Exception):
    """Raised instead of ``os._exit`` so the test can look at what was stored."""


class _RecordingTopic:
    def __init__(self, sent: list):
        self.sent = sent

    def send_soon(self, key, value):
        self.sent.append((key, value))


def _runtime(tmp_path, crash_point=None, processor=StubProcessor, warehouse_url=None):
    table = _FakeTable()
    produced: list = []
    topics = {TOPIC_SETTLEMENTS: _RecordingTopic(produced)}
    url = warehouse_url or f"stub:{tmp_path / 'rows.jsonl'}"
    rt = BatchRuntime(KafkaSettings(warehouse_url=url, status_path=str(tmp_path / "status.json")),
                      table, topics, processor_factory=processor,
                      warehouse_opener=None if url == "none" else StubWarehouse,
                      output="faust", check_gaps=False, crash_point=crash_point)
    return rt, table, produced


def _stored(tmp_path, table, produced) -> dict:
    rows = tmp_path / "rows.jsonl"
    return {"rows": len(rows.read_text().splitlines()) if rows.exists() else 0,
            "outputs": len(produced),
            "states": sum(1 for p, k, _ in table.sent if p != "flush" and not k.startswith(b"\x00")),
            "last_sent_is_flush": bool(table.sent) and table.sent[-1][0] == "flush"}


def _batch(first_offset: int) -> list:
    return [_Ev(b"A", b'{"table_id":"A"}', 0, first_offset), _Ev(b"B", b'{"table_id":"B"}', 1, first_offset)]


@pytest.mark.parametrize("point", POINTS)
def test_each_crash_point_stops_the_batch_between_the_steps_it_names(point, tmp_path, monkeypatch):
    """Batch 1 is stored whole; batch 2 dies at ``point``: after_process with nothing stored,
    after_warehouse with only the rows, after_outputs with rows and delivered outputs but no
    state, after_states with the states flushed too. The status never counts the dead batch."""
    def crash(self):
        raise _Crashed(self.point)

    monkeypatch.setattr(CrashPoint, "crash", crash)
    rt, table, produced = _runtime(tmp_path, CrashPoint(point, 2))

    async def run():
        await rt.handle(_batch(0))
        before = _stored(tmp_path, table, produced)
        assert before == {"rows": 2, "outputs": 2, "states": 2, "last_sent_is_flush": False}
        with pytest.raises(_Crashed):
            await rt.handle(_batch(1))
        return before

    before = asyncio.run(run())
    after = _stored(tmp_path, table, produced)
    added = {k: after[k] - before[k] for k in ("rows", "outputs", "states")}
    assert added == {"after_process": {"rows": 0, "outputs": 0, "states": 0},
                     "after_warehouse": {"rows": 2, "outputs": 0, "states": 0},
                     "after_outputs": {"rows": 2, "outputs": 2, "states": 0},
                     "after_states": {"rows": 2, "outputs": 2, "states": 2}}[point]
    if point == "after_states":
        assert after["last_sent_is_flush"]  # the states (and their markers) were delivered
    assert json.loads((tmp_path / "status.json").read_text())["batches"] == 1
    rt.close()


def test_crash_point_spec_from_the_environment():
    assert crashpoints.from_env({}) is None and crashpoints.from_env({crashpoints.ENV_VAR: " "}) is None
    assert crashpoints.from_env({crashpoints.ENV_VAR: "after_states"}) == CrashPoint("after_states", 1)
    assert CrashPoint.parse("after_process:4") == CrashPoint("after_process", 4)
    for bad in ("after_lunch", "after_states:0", "after_states:x"):
        with pytest.raises(ValueError, match=crashpoints.ENV_VAR):
            CrashPoint.parse(bad)


@dataclass
class _ResultWithParking(BatchResult):
    """A batch result with a counter the runtime has never heard of."""

    parked: int = 0


class _CountingProcessor:
    def __init__(self, load_state):
        pass

    def process(self, batch):
        return _ResultWithParking(rows={}, consumed=len(batch), skipped=1, parked=2)


def test_status_shows_every_counter_of_the_batch_result(tmp_path):
    """Every integer field of the processor's result is summed into the status ``counters``,
    including one added later (here ``parked``), with no change to the runtime."""
    rt, _table, _produced = _runtime(tmp_path, processor=_CountingProcessor, warehouse_url="none")

    async def run():
        await rt.handle(_batch(0))
        await rt.handle(_batch(1))

    asyncio.run(run())
    status = json.loads((tmp_path / "status.json").read_text())
    assert status["counters"] == {"consumed": 4, "rejected": 0, "skipped": 2, "parked": 4, "digests": 0, "late": 0}
    assert (status["consumed"], status["batches"]) == (4, 2)
    rt.close()


def test_redelivered_messages_are_counted_as_skipped_in_the_status(tmp_path):
    """The real processor skips messages redelivered after a crash (already applied); the
    worker's status counts them, so no message disappears without a trace."""
    src = tmp_path / "evening.jsonl"
    write_simulation(src, tables=1, hours=0.05, seed=5, fault_rates={})
    lines = src.read_bytes().splitlines()[:6]
    tid = json.loads(lines[0])["table_id"].encode()
    events = [_Ev(tid, line, 0, offset) for offset, line in enumerate(lines)]
    rt, _table, _produced = _runtime(tmp_path, processor=BatchProcessor, warehouse_url="none")

    async def run():
        await rt.handle(events)
        await rt.handle(events[2:])  # redelivered: the state already remembers offset 5

    asyncio.run(run())
    status = json.loads((tmp_path / "status.json").read_text())
    assert status["counters"]["skipped"] == 4
    assert status["counters"]["consumed"] == status["consumed"] == 10
    assert status["rejected"] == 0
    rt.close()
