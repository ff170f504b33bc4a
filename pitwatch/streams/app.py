"""The Faust app: one batch agent over ``pitwatch.table-events`` feeding the batch engine.

Topology (app id ``pitwatch``, which is also the consumer group)::

    pitwatch.table-events  (key = table_id, value = raw JSON bytes)
        -> agent ``table_events``: Batcher cuts the stream (2000 events or 0.5 s), acks off
           -> offset check: holes Faust left in a partition are read from Kafka directly
           -> batch engine, in a child process (pitwatch/streams/batch_engine.py):
                BatchProcessor.process(batch)            pitwatch/streams/processor.py
                warehouse rows -> open_warehouse(url).insert_new(table, rows)
           -> output messages  -> pitwatch.settlements / pitwatch.alerts / pitwatch.rejected
              (confluent-kafka producer, flushed)
           -> per-table states + last applied offset per partition -> Faust Table
              ``pitwatch-table-state`` (changelog ``pitwatch-pitwatch-table-state-changelog``)
           -> the batch's events acked
        -> before every offset commit: outputs flushed

No repartition: producers key events by table_id (see :mod:`pitwatch.streams.producer`), so
one partition holds all of a table's events and the state of a table lives in the Faust Table
partition of that input partition.

Why a child process: Faust delivers messages to a stream one at a time on the event loop,
which caps a worker near 5k messages/s on this machine even with a no-op processor. The rules
engine and the warehouse inserts, run on the same loop, would stop consumption while they
work; in the child they run on the other core while the loop collects the next batch
(:class:`Batcher`: one batch in flight, the next one filling).

Latency: the consumer's fetches wait at most :data:`FETCH_MAX_WAIT_MS` on the broker
(:func:`_app_class`), and a batch is cut at most ``batch_within`` seconds after its first
event.

At-least-once: the agent acks a batch's events only after :meth:`BatchRuntime.handle` has
stored its warehouse rows, outputs and states; Faust commits acked offsets every second (and
at shutdown). A Faust sensor hooked on ``on_commit_initiated`` (:func:`_commit_sensor`)
flushes the output producer once more, and Faust flushes its own producer (the changelog)
before committing.

Order inside a batch matters as much: a table's state remembers the last offset it applied,
and a restarted worker skips redelivered messages up to that offset. So a batch's states are
written to the changelog only after its warehouse rows are inserted and its output messages
acknowledged. A crash before the state write redelivers the batch against the older state
(same deterministic ids: nothing counted twice); a crash after it skips the batch, whose
results are already stored. (Writing the state first lost the results of a killed batch: the
SIGKILL test in ``tests/e2e`` caught it.) If the processor, the output producer or the
warehouse fails (inserts are retried 3 times), the worker writes the error into its status
file and exits the process with :data:`EXIT_FATAL` *without* committing, so the batch is
redelivered to the next worker. Every derived record carries a deterministic id
(DESIGN.md), so redelivery never double counts.

Output path: by default a confluent-kafka Producer inside the worker (``output="confluent"``,
delivery reports only for failures); ``output="faust"`` uses ``topic.send_soon`` instead.

The status file (``settings.status_path``, optional) is rewritten atomically after every
batch::

    {"consumed": 100000, "rejected": 3, "batches": 61, "pid": 4242, "produced": 2040,
     "warehouse_rows": 5000, "states_written": 310, "gap_filled": 0,
     "timings": {...seconds per stage...}, "error": null, "updated_at": 1732250000.0}

``consumed`` counts input messages processed (including redeliveries after a crash and
offsets read to fill a hole); ``rejected`` counts messages sent to ``pitwatch.rejected``;
``gap_filled`` the messages read directly from Kafka because Faust skipped them.
``timings`` are cumulative seconds: ``wait`` (between batches: Faust consuming and
buffering), ``engine`` (waiting for the batch engine), within it ``process`` (the processor)
and ``warehouse`` (the inserts), ``produce`` (producing and flushing outputs), ``flush``
(the flushes alone), ``states``, ``status``, ``commit_wait`` (flushes before commits).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitwatch.streams.batch_engine import (
    EngineHost,
    FatalPipelineError,
    OutColumns,
    ProcessorFactory,
    WarehouseOpener,
)
from pitwatch.streams.config import KafkaSettings

APP_ID = "pitwatch"
TOPIC_EVENTS = "pitwatch.table-events"
TOPIC_SETTLEMENTS = "pitwatch.settlements"
TOPIC_ALERTS = "pitwatch.alerts"
TOPIC_REJECTED = "pitwatch.rejected"
OUTPUT_TOPICS = (TOPIC_SETTLEMENTS, TOPIC_ALERTS, TOPIC_REJECTED)
ALL_TOPICS = (TOPIC_EVENTS, *OUTPUT_TOPICS)
TABLE_STATE = "pitwatch-table-state"
#: Faust names a table's changelog ``{app id}-{table name}-changelog``.
TABLE_STATE_CHANGELOG = f"{APP_ID}-{TABLE_STATE}-changelog"

BATCH_MAX = 2000
BATCH_WITHIN = 0.5
DEFAULT_PARTITIONS = 8
#: Key of the marker record ending each changelog write (see BatchRuntime._store_states);
#: never a table_id (table ids are printable).
CHANGELOG_MARKER = b"\x00pitwatch-changelog-marker"
#: Key (``% partition``) of the last input offset applied in a partition, kept in the state
#: table beside the table states (same changelog partition). Never a table_id.
APPLIED_OFFSET_KEY = b"\x00pitwatch-applied-offset:%d"
GAP_FILL_TIMEOUT_S = 30.0
EXIT_FATAL = 70  # EX_SOFTWARE: the batch was not committed and will be redelivered
#: Longest time a fetch request waits on the broker for data (Faust hardcodes 1500 ms).
#: Tansu answers a fetch only when this expires unless a full batch is waiting, so at a
#: low offered rate every message waited ~this long before the worker saw it.
FETCH_MAX_WAIT_MS = 100

log = logging.getLogger("pitwatch.streams")



def _load_object(spec: str) -> Any:
    """``"package.module:attr"`` -> the object."""
    module, _, attr = spec.partition(":")
    obj = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


def default_processor_factory() -> ProcessorFactory:
    """:class:`pitwatch.streams.processor.BatchProcessor`."""
    from pitwatch.streams.processor import BatchProcessor

    return BatchProcessor


def default_warehouse_opener() -> WarehouseOpener | None:
    """:func:`pitwatch.warehouse.open_warehouse`."""
    from pitwatch.warehouse import open_warehouse

    return open_warehouse


class BatchRuntime:
    """Everything one worker needs to process batches: the batch engine (processor and
    warehouse sink, :mod:`pitwatch.streams.batch_engine`), the output producer, the state
    table, the gap check and the counters.

    Created by :func:`make_app`; not thread-safe (used from the event loop only). ``isolate``
    runs the batch engine in a child process (the worker) rather than a thread (tests).
    """

    def __init__(self, settings: KafkaSettings, table: Any, topics: dict[str, Any], *,
                 processor_factory: ProcessorFactory, warehouse_opener: WarehouseOpener | None,
                 output: str = "confluent", retries: int = 3, changelog_markers: bool = True,
                 check_gaps: bool = True, isolate: bool = False) -> None:
        self.settings = settings
        self.table = table
        self.topics = topics
        self.output = output
        self.changelog_markers = changelog_markers
        self.engine = EngineHost(processor_factory, warehouse_opener, settings.warehouse_url,
                                 retries=retries, isolate=isolate)
        self._in_message = _in_message_class()
        self._producer: Any = None
        self._delivery_errors: list[Any] = []
        self.consumed = 0
        self.rejected = 0
        self.produced = 0
        self.batches = 0
        self.warehouse_rows = 0
        self.states_written = 0
        self.gap_filled = 0
        self.check_gaps = check_gaps
        self._earliest: dict[int, int] = {}
        self.timings: dict[str, float] = {"wait": 0.0, "engine": 0.0, "process": 0.0,
                                          "warehouse": 0.0, "produce": 0.0, "flush": 0.0,
                                          "states": 0.0, "status": 0.0, "commit_wait": 0.0}
        self._last_batch_end: float | None = None
        self.error: str | None = None

    # -- state -----------------------------------------------------------------------------
    def load_state(self, table_id: str) -> bytes | None:
        """The stored state bytes of ``table_id`` from the Faust Table, or None."""
        return self.table.data.get(table_id.encode("utf-8"))

    # -- outputs ---------------------------------------------------------------------------
    def _confluent(self) -> Any:
        if self._producer is None:
            from confluent_kafka import Producer

            conf = self.settings.confluent_config(**{
                "linger.ms": 1, "batch.num.messages": 10000,
                "enable.idempotence": False, "acks": "all",
                "queue.buffering.max.messages": 1000000,
                # Delivery reports (a Python callback) only for failures: a callback per
                # message made each flush wait on the GIL behind the event loop (~100 ms).
                "delivery.report.only.error": True,
            })
            self._producer = Producer(conf)
        return self._producer

    def _on_delivery(self, err: Any, msg: Any) -> None:
        if err is not None:
            self._delivery_errors.append(err)

    async def _produce(self, messages: OutColumns) -> None:
        """Hand the batch's output messages to the producer (the caller flushes)."""
        if not len(messages):
            return
        triples = zip(messages.topics, messages.keys, messages.values)
        if self.output == "faust":
            topics = self.topics
            for topic, key, value in triples:
                topics[topic].send_soon(key=key, value=value)
            return
        prod = self._confluent()
        produce, on_delivery = prod.produce, self._on_delivery
        for topic, key, value in triples:
            while True:
                try:
                    produce(topic, value, key, on_delivery=on_delivery)
                    break
                except BufferError:
                    prod.poll(0.01)
        prod.poll(0)
        if self._delivery_errors:
            self._raise_delivery_errors(0)

    def flush_outputs(self, timeout: float = 30.0) -> None:
        """Block until every output message is acknowledged; raise FatalPipelineError if not."""
        if self._producer is None:
            return
        t0 = time.perf_counter()
        remaining = self._producer.flush(timeout)
        self.timings["flush"] += time.perf_counter() - t0
        if remaining or self._delivery_errors:
            self._raise_delivery_errors(remaining)

    def _raise_delivery_errors(self, remaining: int) -> None:
        errs, self._delivery_errors = self._delivery_errors[:5], []
        raise FatalPipelineError(f"output delivery failed: {remaining} undelivered, errors {errs}")

    async def start_engine(self) -> None:
        """Start the batch engine (child process or thread) and open the warehouse."""
        await self.engine.start()

    def before_commit(self) -> None:
        """Called right before Faust commits offsets: every output delivered. (A batch's rows
        and states are stored before :meth:`handle` returns, so only outputs can remain.)"""
        t0 = time.perf_counter()
        self.flush_outputs()
        self.timings["commit_wait"] += time.perf_counter() - t0

    # -- the batch ---------------------------------------------------------------------------
    async def handle(self, events: list[Any]) -> None:
        """Process one batch of Faust events; returns once outputs, rows and states are stored.

        Raises :class:`FatalPipelineError` (the caller exits the process without committing).
        """
        InMessage = self._in_message
        t0 = time.perf_counter()
        if self._last_batch_end is not None:
            self.timings["wait"] += t0 - self._last_batch_end
        msgs = [ev.message for ev in events]
        batch = [InMessage(key=m.key, value=m.value, partition=m.partition, offset=m.offset) for m in msgs]
        gaps = self._find_gaps(batch) if self.check_gaps else []
        if gaps:
            filled = await asyncio.get_running_loop().run_in_executor(None, self._fetch_ranges, gaps)
            batch = _merge_in_offset_order(batch, filled)
        partition_of = {m.key: m.partition for m in batch if m.key}
        applied = self._applied_after(batch)
        data = self.table.data
        t1 = time.perf_counter()
        # processed, and its rows inserted, in the engine's process: the loop keeps fetching
        result = await self.engine.run(batch, {k: data.get(k) for k in partition_of})
        t2 = time.perf_counter()
        await self._produce(result.messages)
        if self.output == "faust":
            await self.table.app.producer.flush()
        else:
            self.flush_outputs()
        t3 = time.perf_counter()
        # only now, with rows and outputs durable, the states (which remember the offsets)
        await self._store_states(result.states, partition_of, batch[-1].partition, applied)
        t4 = time.perf_counter()
        self.consumed += len(batch)
        self.batches += 1
        self.produced += len(result.messages)
        self.warehouse_rows += result.warehouse_rows
        self.rejected += result.messages.topics.count(TOPIC_REJECTED)
        self.write_status()
        t5 = time.perf_counter()
        tm = self.timings
        tm["engine"] += t2 - t1
        tm["process"] += result.process_s
        tm["warehouse"] += result.warehouse_s
        tm["produce"] += t3 - t2  # produce + flush (flush also on its own)
        tm["states"] += t4 - t3
        tm["status"] += t5 - t4
        self._last_batch_end = t5

    # -- offset gaps ---------------------------------------------------------------------------
    def applied_offset(self, partition: int) -> int | None:
        """The last input offset applied in ``partition`` (from the state table), or None."""
        raw = self.table.data.get(APPLIED_OFFSET_KEY % partition)
        return int(raw) if raw else None

    def _find_gaps(self, batch: list[Any]) -> list[tuple[int, int, int]]:
        """``[(partition, start, end)]``: input offsets missing before or inside ``batch``.

        Faust can drop messages fetched while it seeks to the committed offsets after a
        rebalance (its flow-control queues are cleared on resume, and the re-fetched copies
        are then below its read offset), yet still commit past them: seen here as a lost first
        message after a restart. The worker therefore checks that each partition's offsets
        continue from the last one applied (or, with no state yet, from the partition's
        earliest offset) and fetches any hole itself. Redelivered offsets (below the
        applied one) are not gaps: the processor skips them.
        """
        gaps: list[tuple[int, int, int]] = []
        nxt: dict[int, int] = {}
        for m in batch:
            p = m.partition
            expected = nxt.get(p)
            if expected is None:
                last = self.applied_offset(p)
                expected = last + 1 if last is not None else self._earliest_offset(p)
            if m.offset > expected:
                gaps.append((p, expected, m.offset))
            nxt[p] = max(expected, m.offset + 1)
        return gaps

    def _consumer(self) -> Any:
        from confluent_kafka import Consumer

        return Consumer(self.settings.confluent_config(**{
            "group.id": f"{APP_ID}-gap-fill", "enable.auto.commit": False,
            "auto.offset.reset": "earliest"}))

    def _earliest_offset(self, partition: int) -> int:
        """The low watermark of an input partition (asked once per partition, then cached)."""
        from confluent_kafka import TopicPartition

        cache = self._earliest
        if partition not in cache:
            c = self._consumer()
            try:
                low, _high = c.get_watermark_offsets(TopicPartition(TOPIC_EVENTS, partition),
                                                     timeout=GAP_FILL_TIMEOUT_S)
            finally:
                c.close()
            cache[partition] = max(low, 0)
        return cache[partition]

    def _fetch_ranges(self, gaps: list[tuple[int, int, int]]) -> list[Any]:
        """Read the input offsets ``[start, end)`` of each gap straight from Kafka (blocking).

        Raises :class:`FatalPipelineError` if a range cannot be read within
        :data:`GAP_FILL_TIMEOUT_S` (the batch is then not committed: nothing is lost).
        """
        from confluent_kafka import TopicPartition

        InMessage = self._in_message
        log.warning("input offset gaps %s: fetching them", gaps)
        wanted = {(p, o) for p, a, b in gaps for o in range(a, b)}
        starts: dict[int, int] = {}
        ends: dict[int, int] = {}
        for p, a, b in gaps:
            starts[p] = min(a, starts.get(p, a))
            ends[p] = max(b, ends.get(p, b))
        c = self._consumer()
        got: list[Any] = []
        try:
            c.assign([TopicPartition(TOPIC_EVENTS, p, a) for p, a in starts.items()])
            deadline = time.monotonic() + GAP_FILL_TIMEOUT_S
            while True:
                for m in c.consume(1000, 0.2):
                    if m.error() is None and (m.partition(), m.offset()) in wanted:
                        wanted.discard((m.partition(), m.offset()))
                        got.append(InMessage(key=m.key(), value=m.value() or b"",
                                             partition=m.partition(), offset=m.offset()))
                positions = c.position([TopicPartition(TOPIC_EVENTS, p) for p in ends])
                if not wanted or all(tp.offset >= ends[tp.partition] for tp in positions):
                    break  # every offset read, or the rest are not records (e.g. control records)
                if time.monotonic() > deadline:
                    raise FatalPipelineError(f"could not read the missing input offsets {gaps}")
        finally:
            c.close()
        self.gap_filled += len(got)
        return got

    def _applied_after(self, batch: list[Any]) -> dict[int, int]:
        out: dict[int, int] = {}
        for m in batch:
            if m.offset > out.get(m.partition, -1):
                out[m.partition] = m.offset
        for p, o in out.items():
            last = self.applied_offset(p)
            if last is not None and last > o:
                out[p] = last
        return out

    async def _store_states(self, states: dict[str, bytes], partition_of: dict[bytes, int],
                            fallback: int, applied: dict[int, int] | None = None) -> None:
        # Table.__setitem__ takes the changelog partition from the "current event", which in
        # a batch is just the last one buffered; write the store and the changelog directly
        # with the partition the table's events came from instead.
        table = self.table
        data = table.data
        touched: set[int] = set()
        for table_id, state in states.items():
            key = table_id.encode("utf-8")
            partition = partition_of.get(key)
            if partition is None:  # events of this table arrived under another key (misrouted)
                partition = fallback
            data[key] = state
            table.send_changelog(partition, key, state)
            touched.add(partition)
            self.states_written += 1
        for partition, offset in (applied or {}).items():
            key, value = APPLIED_OFFSET_KEY % partition, str(offset).encode()
            data[key] = value
            table.send_changelog(partition, key, value)
            touched.add(partition)
        if touched and self.changelog_markers:
            # Tansu reports a partition's high watermark as (base offset of the last record
            # batch + 1), and Faust's table recovery reads a changelog partition only up to
            # the high watermark: every record of the last batch but the first would be lost
            # on restart. Deliver the states, then end each touched partition with a lone
            # marker record so the last batch has exactly one record. On Kafka this costs one
            # small record per partition per batch (compacted away).
            await table.app.producer.flush()
            for partition in touched:
                table.send_changelog(partition, CHANGELOG_MARKER, b"")

    # -- status / lifecycle ------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """The status document (see module docstring)."""
        return {"consumed": self.consumed, "rejected": self.rejected, "batches": self.batches,
                "pid": os.getpid(), "produced": self.produced, "warehouse_rows": self.warehouse_rows,
                "states_written": self.states_written,
                "gap_filled": self.gap_filled,
                "timings": {k: round(v, 4) for k, v in self.timings.items()},
                "error": self.error, "updated_at": time.time()}

    def write_status(self) -> None:
        """Atomically rewrite the status file, if one is configured."""
        path = self.settings.status_path
        if not path:
            return
        p = Path(path)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.status()))
        os.replace(tmp, p)

    def fatal(self, exc: BaseException) -> None:
        """Record ``exc`` in the status file and exit the process at once, committing nothing."""
        self.error = f"{type(exc).__name__}: {exc}"
        log.critical("fatal pipeline error, exiting without commit: %s", self.error)
        try:
            self.write_status()
        finally:
            sys.stderr.flush()
            os._exit(EXIT_FATAL)

    def close(self) -> None:
        """Flush the output producer, close the warehouse and stop the engine (blocking)."""
        if self._producer is not None:
            self._producer.flush(10.0)
        self.engine.close()


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


class Batcher:
    """Cuts the agent's stream into batches and runs them, one at a time, while the next one
    is being consumed.

    Faust's ``take_events`` blocks its buffer while the agent works on a batch, so consuming
    and processing never overlap. Here the agent iterates the stream with acks disabled and
    collects events; a batch is cut at ``batch_max`` events or ``batch_within`` seconds after
    its first event, and handed to :meth:`BatchRuntime.handle` in a task. At most one batch
    is in flight: a full next batch waits for it (backpressure; Faust keeps buffering into
    the stream's queue meanwhile). A batch's events are acked only after ``handle`` has
    stored its rows, outputs and states, so Faust never commits an unprocessed offset; a
    failed batch ends the process (:meth:`BatchRuntime.fatal`) unacked.
    """

    def __init__(self, runtime: BatchRuntime, batch_max: int = BATCH_MAX,
                 batch_within: float = BATCH_WITHIN) -> None:
        self.runtime = runtime
        self.batch_max = batch_max
        self.batch_within = batch_within
        self._events: list[Any] = []
        self._started_at = 0.0
        self._inflight: asyncio.Future | None = None
        self._lock: asyncio.Lock | None = None
        self._stream: Any = None

    async def consume(self, stream: Any) -> None:
        """The agent's body: iterate ``stream`` until it ends."""
        self._stream = stream
        self._lock = asyncio.Lock()
        stream.enable_acks = False  # acked by _run once stored
        timer = asyncio.ensure_future(self._timer())
        try:
            async for event in stream.events():
                if not self._events:
                    self._started_at = time.monotonic()
                self._events.append(event)
                if len(self._events) >= self.batch_max:
                    await self._cut()
        finally:
            timer.cancel()

    async def _timer(self) -> None:
        tick = min(0.05, self.batch_within / 4)
        while True:
            await asyncio.sleep(tick)
            if self._events and time.monotonic() - self._started_at >= self.batch_within:
                await self._cut()

    async def _cut(self) -> None:
        assert self._lock is not None
        async with self._lock:  # batches start in the order they were cut
            if not self._events:
                return
            events, self._events = self._events, []
            if self._inflight is not None:
                await self._inflight
            self._inflight = asyncio.ensure_future(self._run(events))

    async def _run(self, events: list[Any]) -> None:
        try:
            await self.runtime.handle(events)
        except Exception as exc:  # nothing of this batch is acked: it will be redelivered
            self.runtime.fatal(exc)
        ack = self._stream.ack
        for event in events:
            await ack(event)

    async def drain(self, timeout: float = 60.0) -> None:
        """Let the batch in flight finish (shutdown); collected events stay unacked."""
        if self._inflight is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._inflight), timeout)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                log.warning("batch in flight did not finish at shutdown; it will be redelivered")


def _commit_sensor(runtime: BatchRuntime) -> Any:
    """A Faust sensor that completes the runtime's pending work when a commit starts.

    ``Consumer.force_commit`` calls ``sensors.on_commit_initiated`` and then, without
    yielding to the event loop, picks the offsets to commit: every batch acked so far has its
    outputs delivered and its warehouse rows written by then. A failure ends the process
    before the commit (at-least-once).
    """
    import faust

    class _FlushBeforeCommit(faust.Sensor):
        def on_commit_initiated(self, consumer: Any) -> Any:
            try:
                runtime.before_commit()
            except FatalPipelineError as exc:
                runtime.fatal(exc)
            return None

    return _FlushBeforeCommit()


def _merge_in_offset_order(batch: list[Any], extra: list[Any]) -> list[Any]:
    """``batch`` plus ``extra`` messages, each partition's messages in offset order
    (partitions keep the order of their first appearance)."""
    parts: dict[int, list[Any]] = {}
    for m in [*extra, *batch]:
        parts.setdefault(m.partition, []).append(m)
    out: list[Any] = []
    for msgs in parts.values():
        msgs.sort(key=lambda m: m.offset)
        out.extend(msgs)
    return out


def _app_class() -> type:
    """``faust.App`` whose consumer waits at most :data:`FETCH_MAX_WAIT_MS` per fetch.

    Faust's aiokafka driver passes ``fetch_max_wait_ms=1500`` with no setting to change it;
    the measured produce->alert latency at 1,000 events/s was p50 1.5 s, p99 2.7 s with it
    (see BENCHMARKS.md). The consumer reads the value when it starts its fetcher, so the
    subclassed consumer thread sets it on the consumer it creates.
    """
    import faust
    from faust.transport.drivers import aiokafka as driver

    class _ConsumerThread(driver.AIOKafkaConsumerThread):
        def _create_worker_consumer(self, transport: Any) -> Any:
            consumer = super()._create_worker_consumer(transport)
            consumer._fetch_max_wait_ms = FETCH_MAX_WAIT_MS
            return consumer

    class _Consumer(driver.Consumer):
        def _new_consumer_thread(self) -> Any:
            return _ConsumerThread(self, loop=self.loop, beacon=self.beacon)

    class _Transport(driver.Transport):
        Consumer = _Consumer

    class _App(faust.App):
        def _new_transport(self) -> Any:
            return _Transport(self.conf.broker_consumer, self)

    return _App


def make_app(settings: KafkaSettings, *, processor_factory: ProcessorFactory | None = None,
             warehouse_opener: WarehouseOpener | None = None, output: str = "confluent",
             partitions: int = DEFAULT_PARTITIONS, datadir: str | os.PathLike[str] | None = None,
             batch_max: int = BATCH_MAX, batch_within: float = BATCH_WITHIN,
             isolate: bool = True) -> tuple[Any, BatchRuntime]:
    """Build the Faust app and its batch runtime. Returns ``(app, runtime)``.

    ``processor_factory(load_state)`` builds the batch processor (default:
    ``BatchProcessor``); ``warehouse_opener(url)`` opens the warehouse (default
    :func:`pitwatch.warehouse.open_warehouse`; warehouse URL ``none`` drops rows). Both must
    be importable top-level objects when ``isolate`` (the batch engine runs in a child
    process, see :mod:`pitwatch.streams.batch_engine`).
    ``partitions`` is used when Faust has to create the topics; existing topics keep theirs
    (the changelog must have as many partitions as ``pitwatch.table-events``).
    """
    if output not in ("confluent", "faust"):
        raise ValueError(f"output must be 'confluent' or 'faust', not {output!r}")
    if processor_factory is None:
        processor_factory = default_processor_factory()
    if warehouse_opener is None and settings.warehouse_url.strip().lower() != "none":
        warehouse_opener = default_warehouse_opener()
    datadir = Path(datadir) if datadir is not None else Path("pitwatch-data") / "faust"
    datadir.parent.mkdir(parents=True, exist_ok=True)  # Faust creates only the last level
    app = _app_class()(
        APP_ID,
        broker=settings.faust_broker_url(),
        broker_credentials=settings.faust_credentials(),
        autodiscover=False,
        web_enabled=False,
        store="memory://",
        datadir=str(datadir),
        broker_session_timeout=10.0,
        broker_heartbeat_interval=3.0,
        topic_partitions=partitions,
        topic_replication_factor=1,
        topic_disable_leader=True,
        table_standby_replicas=0,
        consumer_auto_offset_reset="earliest",
        stream_buffer_maxsize=max(4096, 2 * batch_max),
        producer_linger_ms=5,
        producer_max_batch_size=1 << 20,
        broker_commit_every=10 * batch_max,
        broker_commit_interval=1.0,
        logging_config=None,
    )
    events_topic = app.topic(TOPIC_EVENTS, key_serializer="raw", value_serializer="raw",
                             partitions=partitions)
    topics = {name: app.topic(name, key_serializer="raw", value_serializer="raw", partitions=partitions)
              for name in OUTPUT_TOPICS}
    table = app.Table(TABLE_STATE, default=None, key_type=bytes, value_type=bytes,
                      partitions=partitions)
    runtime = BatchRuntime(settings, table, topics, processor_factory=processor_factory,
                           warehouse_opener=warehouse_opener, output=output, isolate=isolate)

    app.sensors.add(_commit_sensor(runtime))

    batcher = Batcher(runtime, batch_max, batch_within)

    @app.agent(events_topic, name="table_events", concurrency=1)
    async def table_events(stream: Any) -> None:
        await batcher.consume(stream)

    @app.task
    async def _prepare() -> None:
        for topic in topics.values():
            await topic.maybe_declare()
        try:
            await runtime.start_engine()
        except Exception as exc:
            runtime.fatal(exc)
        runtime.write_status()

    @app.on_before_shutdown.connect
    async def _close(sender: Any, **kwargs: Any) -> None:
        await batcher.drain()
        await asyncio.get_running_loop().run_in_executor(None, runtime.close)
        runtime.write_status()

    return app, runtime


def existing_partitions(settings: KafkaSettings, topic: str = TOPIC_EVENTS,
                        timeout: float = 15.0) -> int | None:
    """Number of partitions of ``topic`` on the cluster, or None if it does not exist.

    The state table's changelog must have as many partitions as the input topic (the state of
    the tables read from input partition *p* lives in changelog partition *p*), so the worker
    sizes its topics from the input topic when it exists. Raises ``RuntimeError`` if the
    cluster cannot be reached within ``timeout`` seconds.
    """
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient

    admin = AdminClient(settings.confluent_config())
    try:
        md = admin.list_topics(topic=topic, timeout=timeout)
    except KafkaException as exc:
        raise RuntimeError(f"cannot read topic metadata from {settings.bootstrap}: {exc}") from exc
    t = md.topics.get(topic)
    if t is None or t.error is not None or not t.partitions:
        return None
    return len(t.partitions)


def read_status(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The worker's status file (module docstring) as a dict; ``{}`` while it does not exist
    yet or is being replaced."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}


def start_worker(bootstrap: str, warehouse_url: str, status_path: str | os.PathLike[str],
                 log_path: str | os.PathLike[str]) -> Any:
    """Start ``pitwatch worker`` in a subprocess on ``bootstrap`` with ``warehouse_url``,
    writing its status file to ``status_path`` and appending its output to ``log_path``.
    Returns the ``subprocess.Popen``; stop it with :func:`stop_worker`."""
    import subprocess

    env = dict(os.environ, PITWATCH_KAFKA_BOOTSTRAP=bootstrap, PITWATCH_WAREHOUSE=warehouse_url)
    with open(log_path, "ab") as log:  # the child keeps its own descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "pitwatch", "worker", "--status-file", str(status_path)],
            env=env, stdout=log, stderr=subprocess.STDOUT)


def stop_worker(proc: Any, timeout: float = 30.0) -> None:
    """Stop a worker ``subprocess.Popen``: SIGTERM (it finishes its batch, commits, flushes),
    SIGKILL if it has not exited after ``timeout`` seconds. No-op if it already exited."""
    import signal
    import subprocess

    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def _has_uvloop() -> bool:
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return False
    return True


def run_worker(settings: KafkaSettings, *, loglevel: str = "warning", event_loop: str = "auto",
               **app_kwargs: Any) -> int:
    """Run one Faust worker in this process until SIGTERM/SIGINT; return its exit code.

    ``event_loop``: "uvloop", "asyncio", or "auto" (uvloop when installed: Faust's per-message
    overhead is mostly event-loop iterations, and uvloop makes them cheaper).

    ``app_kwargs`` go to :func:`make_app`. Blocks; installs signal handlers on the event
    loop (SIGTERM stops the worker cleanly: the current batch finishes, acked offsets are
    committed, the producer is flushed, the warehouse closed). Exits the process with
    :data:`EXIT_FATAL` on a pipeline failure (see module docstring).
    """
    import faust

    if event_loop == "uvloop" or (event_loop == "auto" and _has_uvloop()):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        asyncio.set_event_loop(asyncio.new_event_loop())
    else:
        try:
            asyncio.get_event_loop()
        except RuntimeError:
            asyncio.set_event_loop(asyncio.new_event_loop())
    found = existing_partitions(settings)
    if found is not None and found != app_kwargs.get("partitions", found):
        log.warning("%s has %d partitions: using %d, not %d", TOPIC_EVENTS, found, found,
                    app_kwargs["partitions"])
    if found is not None:
        app_kwargs["partitions"] = found
    app, _runtime = make_app(settings, **app_kwargs)
    # stdout only gets Faust's start-up spinner (terminal escape codes): send it nowhere
    # (left open: the spinner writes to it again at interpreter exit).
    devnull = open(os.devnull, "w")
    worker = faust.Worker(app, loglevel=loglevel, quiet=True, redirect_stdouts=False,
                          override_logging=True, stdout=devnull)
    try:
        worker.execute_from_commandline()
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    return 0  # pragma: no cover


def main(argv: list[str] | None = None) -> int:
    """``python -m pitwatch.streams.app``: run a worker (see ``--help``)."""
    parser = argparse.ArgumentParser(prog="python -m pitwatch.streams.app", description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap")
    parser.add_argument("--security-protocol")
    parser.add_argument("--sasl-mechanism")
    parser.add_argument("--sasl-username")
    parser.add_argument("--sasl-password")
    parser.add_argument("--ssl-ca-location")
    parser.add_argument("--warehouse", dest="warehouse_url", help="warehouse URL, or 'none'")
    parser.add_argument("--status", dest="status_path")
    parser.add_argument("--warehouse-opener",
                        help="module:function opening the warehouse (default: pitwatch.warehouse.open_warehouse)")
    parser.add_argument("--processor", help="module:factory of the batch processor (default: the real one)")
    parser.add_argument("--output", default="confluent", choices=("confluent", "faust"))
    parser.add_argument("--partitions", type=int, default=DEFAULT_PARTITIONS)
    parser.add_argument("--datadir")
    parser.add_argument("--loglevel", default="warning")
    parser.add_argument("--loop", default=os.environ.get("PITWATCH_EVENT_LOOP", "auto"),
                        choices=("auto", "uvloop", "asyncio"))
    args = parser.parse_args(argv)
    settings = KafkaSettings.from_env(
        bootstrap=args.bootstrap, security_protocol=args.security_protocol,
        sasl_mechanism=args.sasl_mechanism, sasl_username=args.sasl_username,
        sasl_password=args.sasl_password, ssl_ca_location=args.ssl_ca_location,
        warehouse_url=args.warehouse_url, status_path=args.status_path)
    kwargs: dict[str, Any] = {"output": args.output, "partitions": args.partitions}
    if args.processor:
        kwargs["processor_factory"] = _load_object(args.processor)
    if args.warehouse_opener:
        kwargs["warehouse_opener"] = _load_object(args.warehouse_opener)
    if args.datadir:
        kwargs["datadir"] = args.datadir
    return run_worker(settings, loglevel=args.loglevel, event_loop=args.loop, **kwargs)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
