"""The batch runtime: one batch of input messages handled, in the order that makes it safe.

For every batch cut by :class:`pitwatch.streams.batcher.Batcher`, :meth:`BatchRuntime.handle`:

1. fills any hole Faust left in the input offsets (:mod:`pitwatch.streams.offsets`);
2. runs the batch engine (:mod:`pitwatch.streams.batch_engine`, a child process in the
   worker): the processor, then the warehouse inserts; it returns once the rows are stored;
3. produces the output messages and waits until they are acknowledged
   (:mod:`pitwatch.streams.outputs`);
4. only then writes the per-table states and each partition's last applied offset to the
   Faust Table and its changelog (:mod:`pitwatch.streams.states`);
5. updates the status document (:mod:`pitwatch.streams.status`).

The agent acks the batch's events only after ``handle`` returns; Faust commits acked offsets
every second (and at shutdown), after flushing its own producer (the changelog) and calling
:meth:`BatchRuntime.before_commit` (the output producer, once more).

At-least-once, and why the order inside a batch matters as much: a table's state remembers
the last offset it applied, and a restarted worker skips redelivered messages up to that
offset. So a batch's states are written to the changelog only after its warehouse rows are
inserted and its output messages acknowledged. A crash before the state write redelivers the
batch against the older state (same deterministic ids: nothing counted twice); a crash after
it skips the batch, whose results are already stored. (Writing the state first lost the
results of a killed batch: the SIGKILL test in ``tests/e2e`` caught it.) The named crash
points of :mod:`pitwatch.streams.crashpoints` (a test hook) stop a worker between these
steps; ``tests/e2e/test_crash_points.py`` restarts after each and compares the warehouse
with a clean run's.

If the processor, the output producer or the warehouse fails (inserts are retried 3 times),
the worker writes the error into its status file and exits the process with
:data:`EXIT_FATAL` *without* committing, so the batch is redelivered to the next worker.
Every derived record carries a deterministic id (see :mod:`pitwatch.detectors.alerts`), so redelivery never double
counts.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass
from typing import Any

from pitwatch.streams.batch_engine import TABLE_STAGE, EngineHost, ProcessorFactory, WarehouseOpener
from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.crashpoints import CrashPoint
from pitwatch.streams.offsets import GapRepair
from pitwatch.streams.outputs import OutputProducer
from pitwatch.streams.states import StateTable
from pitwatch.streams.status import WorkerStatus
from pitwatch.streams.topics import TOPIC_EVENTS, TOPIC_REJECTED

EXIT_FATAL = 70  # EX_SOFTWARE: the batch was not committed and will be redelivered

log = logging.getLogger("pitwatch.streams")


class BatchRuntime:
    """Everything one worker needs to handle batches: the batch engine (processor and
    warehouse sink), the output producer, the state table, the gap repair and the status.

    ``table``: the Faust state table; ``topics``: the output topics by name (Faust topics).
    ``output``: ``"confluent"`` or ``"faust"`` (:mod:`pitwatch.streams.outputs`); ``retries``:
    warehouse insert retries; ``changelog_markers``: see :class:`StateTable`; ``check_gaps``:
    repair input offset holes; ``isolate``: run the batch engine in a child process (the
    worker) rather than a thread (tests); ``crash_point``: the test hook of
    :mod:`pitwatch.streams.crashpoints` (None in production); ``topic``: the input topic (the
    table events, or the round digests for the watch stage, :mod:`pitwatch.streams.watch`);
    ``stages``: further processors for the engine (:class:`~pitwatch.streams.batch_engine.BatchEngine`);
    ``engine``: an engine host to share (the watch stage's runtime runs its batches in the table
    stage's engine, as ``stage``) instead of starting one.

    Created by :func:`pitwatch.streams.faust_app.make_app`; not thread-safe (used from the
    event loop only).
    """

    def __init__(self, settings: KafkaSettings, table: Any, topics: dict[str, Any], *,
                 processor_factory: ProcessorFactory, warehouse_opener: WarehouseOpener | None,
                 output: str = "confluent", retries: int = 3, changelog_markers: bool = True,
                 check_gaps: bool = True, isolate: bool = False,
                 crash_point: CrashPoint | None = None, topic: str = TOPIC_EVENTS,
                 stages: dict[str, ProcessorFactory] | None = None, engine: EngineHost | None = None,
                 stage: str = TABLE_STAGE) -> None:
        self.settings = settings
        self.outputs = OutputProducer(settings, topics, output, faust_app=table.app)
        self.stage = stage
        self._owns_engine = engine is None
        self.engine = engine if engine is not None else EngineHost(
            processor_factory, warehouse_opener, settings.warehouse_url, stages=stages, retries=retries,
            isolate=isolate)
        self.states = StateTable(table, changelog_markers)
        self._in_message = _in_message_class()
        self.gaps = GapRepair(settings, self.states.applied_offset, self._in_message, topic) if check_gaps else None
        self.status = WorkerStatus(settings.status_path)
        self.metrics = None
        if settings.metrics_address:  # prometheus-client is imported only when asked for
            from pitwatch.streams.metrics import serve_metrics

            self.metrics = serve_metrics(self.status, settings.metrics_address)
        self.crash_point = crash_point
        self._batch_no = 0
        self._last_batch_end: float | None = None

    async def start_engine(self) -> None:
        """Start the batch engine (child process or thread) and open the warehouse (a shared
        engine is started by its owner)."""
        if self._owns_engine:
            await self.engine.start()

    def before_commit(self) -> None:
        """Called right before Faust commits offsets: every output delivered. (A batch's rows
        and states are stored before :meth:`handle` returns, so only outputs can remain.)"""
        t0 = time.perf_counter()
        self.outputs.flush_confluent()
        self.status.timings["commit_wait"] += time.perf_counter() - t0

    async def handle(self, events: list[Any]) -> None:
        """Handle one batch of Faust events (module docstring); returns once its rows,
        outputs and states are stored.

        Raises :class:`~pitwatch.streams.batch_engine.FatalPipelineError` (the caller exits the
        process without committing).
        """
        self._batch_no += 1
        n = self._batch_no
        InMessage = self._in_message
        st = self.status
        tm = st.timings
        t0 = time.perf_counter()
        if self._last_batch_end is not None:
            tm["wait"] += t0 - self._last_batch_end
        msgs = [ev.message for ev in events]
        batch = [InMessage(key=m.key, value=m.value, partition=m.partition, offset=m.offset) for m in msgs]
        if self.gaps is not None:
            before = self.gaps.filled
            batch = await self.gaps.repair(batch)
            st.gap_filled += self.gaps.filled - before
        partition_of = {m.key: m.partition for m in batch if m.key}
        applied = self.states.applied_after(batch)
        given = self.states.stored(partition_of)
        t1 = time.perf_counter()
        # processed, and its rows inserted, in the engine's process: the loop keeps fetching
        crash = self.crash_point
        store = crash is None or not crash.reached("after_process", n)
        result = await self.engine.run(batch, given, store, self.stage)
        await self._crash_point("after_process", n)
        t2 = time.perf_counter()
        await self._crash_point("after_warehouse", n)
        await self.outputs.produce(result.messages)
        await self.outputs.flush()
        t3 = time.perf_counter()
        await self._crash_point("after_outputs", n)
        # only now, with rows and outputs durable, the states (which remember the offsets)
        written = await self.states.store(result.states, partition_of, batch[-1].partition, applied)
        await self._crash_point("after_states", n)
        t4 = time.perf_counter()
        st.consumed += len(batch)
        st.batches += 1
        st.produced += len(result.messages)
        st.warehouse_rows += result.warehouse_rows
        st.states_written += written
        st.rejected += result.messages.topics.count(TOPIC_REJECTED)
        st.add_counters(result.counters)
        tm["flush"] = self.outputs.flush_s
        self.write_status()
        t5 = time.perf_counter()
        tm["engine"] += t2 - t1
        tm["process"] += result.process_s
        tm["warehouse"] += result.warehouse_s
        tm["produce"] += t3 - t2  # produce + flush (flush also on its own)
        tm["states"] += t4 - t3
        tm["status"] += t5 - t4
        self._last_batch_end = t5

    async def _crash_point(self, point: str, batch_no: int) -> None:
        """The test hook: exit like a SIGKILL if ``point`` of batch ``batch_no`` is the
        configured crash point (``after_states`` first flushes the changelog, so the states
        are durable when the worker dies)."""
        crash = self.crash_point
        if crash is None or not crash.reached(point, batch_no):
            return
        if point == "after_states":
            await self.states.flush()
        crash.crash()

    def write_status(self) -> None:
        """Atomically rewrite the status file, if one is configured."""
        self.status.write()

    def fatal(self, exc: BaseException) -> None:
        """Record ``exc`` in the status file and exit the process at once, committing nothing."""
        self.status.error = f"{type(exc).__name__}: {exc}"
        log.critical("fatal pipeline error, exiting without commit: %s", self.status.error)
        try:
            self.write_status()
        finally:
            sys.stderr.flush()
            os._exit(EXIT_FATAL)

    def close(self) -> None:
        """Flush the output producer, close the warehouse, stop the engine (if this runtime
        started it) and the metrics server (blocking)."""
        self.outputs.close()
        if self._owns_engine:
            self.engine.close()
        if self.metrics is not None:
            self.metrics.shutdown()


@dataclass(slots=True)
class _InMessage:
    """Same shape as ``pitwatch.streams.processor.InMessage`` (used if that cannot be imported)."""

    key: bytes | None
    value: bytes
    partition: int
    offset: int


def _in_message_class() -> type:
    try:
        from pitwatch.streams.processor import InMessage
    except ImportError:
        return _InMessage
    return InMessage
