"""The Faust app: the table stage (a batch agent over ``pitwatch.table-events``) and the watch
stage (a batch agent over ``pitwatch.round-digests``), each feeding its own batch runtime.

Topology (app id ``pitwatch``, which is also the consumer group; names in
:mod:`pitwatch.streams.topics`)::

    pitwatch.table-events  (key = table_id, value = raw JSON bytes)
        -> agent ``table_events``: Batcher cuts the stream (2000 events or 0.5 s), acks off
           (pitwatch/streams/batcher.py)
           -> BatchRuntime.handle(batch)                 pitwatch/streams/runtime.py
              -> offset check: holes Faust left in a partition are read from Kafka directly
                 (pitwatch/streams/offsets.py)
              -> batch engine, in a child process (pitwatch/streams/batch_engine.py):
                   BatchProcessor.process(batch)         pitwatch/streams/processor.py
                   warehouse rows -> open_warehouse(url).insert_new(table, rows)
              -> output messages -> pitwatch.settlements / pitwatch.alerts / pitwatch.rejected
                 / pitwatch.round-digests (a digest of each round, key = casino_id)
                 (confluent-kafka producer, flushed; pitwatch/streams/outputs.py)
              -> per-table states + last applied offset per partition -> Faust Table
                 ``pitwatch-table-state`` (changelog ``pitwatch-pitwatch-table-state-changelog``;
                 pitwatch/streams/states.py)
           -> the batch's events acked
        -> before every offset commit: outputs flushed (:func:`_commit_sensor`)

    pitwatch.round-digests  (key = casino_id, value = a round digest's JSON)
        -> agent ``round_digests``: the same Batcher and BatchRuntime, whose processor is the
           watch stage's (pitwatch/streams/watch.py: every detector, per casino), run in the
           table stage's engine process (one warehouse connection: chDB opens a data directory
           in one process only)
           -> alerts -> pitwatch.alerts and the warehouse's alerts table
           -> per-casino watch states -> Faust Table ``pitwatch-watch-state`` (changelog
              ``pitwatch-pitwatch-watch-state-changelog``)

The watch stage writes its own status file beside the worker's (:func:`watch_status_path`).

The order of those steps, and why it gives at-least-once with nothing counted twice, is
explained (and enforced) in :mod:`pitwatch.streams.runtime`.

No repartition: producers key events by table_id (see :mod:`pitwatch.streams.producer`), so
one partition holds all of a table's events and the state of a table lives in the Faust Table
partition of that input partition.

Why a child process: Faust delivers messages to a stream one at a time on the event loop,
which caps a worker near 5k messages/s on this machine even with a no-op processor. The rules
engine and the warehouse inserts, run on the same loop, would stop consumption while they
work; in the child they run on the other core while the loop collects the next batch
(:class:`~pitwatch.streams.batcher.Batcher`: one batch in flight, the next one filling).

Latency: the consumer's fetches wait at most :data:`FETCH_MAX_WAIT_MS` on the broker
(:func:`_app_class`), and a batch is cut at most ``batch_within`` seconds after its first
event.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from pitwatch.streams.batch_engine import FatalPipelineError, ProcessorFactory, WarehouseOpener
from pitwatch.streams.batcher import BATCH_MAX, BATCH_WITHIN, Batcher
from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.crashpoints import CrashPoint
from pitwatch.streams.offsets import merge_gap_offsets
from pitwatch.streams.producer import faust_producer_class
from pitwatch.streams.runtime import BatchRuntime
from pitwatch.streams.topics import (
    APP_ID,
    DEFAULT_PARTITIONS,
    OUTPUT_TOPICS,
    TABLE_STATE,
    TOPIC_EVENTS,
    TOPIC_ROUND_DIGESTS,
    WATCH_STATE,
)

#: Longest time a fetch request waits on the broker for data (Faust hardcodes 1500 ms).
#: Tansu answers a fetch only when this expires unless a full batch is waiting, so at a
#: low offered rate every message waited ~this long before the worker saw it.
FETCH_MAX_WAIT_MS = 100


def default_processor_factory() -> ProcessorFactory:
    """:class:`pitwatch.streams.processor.BatchProcessor`."""
    from pitwatch.streams.processor import BatchProcessor

    return BatchProcessor


def default_warehouse_opener() -> WarehouseOpener | None:
    """:func:`pitwatch.warehouse.open_warehouse`."""
    from pitwatch.warehouse import open_warehouse

    return open_warehouse


WATCH_STAGE = "watch"
"""The watch stage's name in the shared batch engine (:class:`pitwatch.streams.batch_engine.BatchEngine`)."""


def watch_processor_factory() -> ProcessorFactory:
    """:class:`pitwatch.streams.watch.WatchProcessor`."""
    from pitwatch.streams.watch import WatchProcessor

    return WatchProcessor


def watch_status_path(status_path: str | os.PathLike[str] | None) -> str | None:
    """The watch stage's status file beside the worker's: ``worker-status.json`` ->
    ``worker-status.watch.json`` (None without a worker status file)."""
    if status_path is None:
        return None
    p = Path(status_path)
    return str(p.with_name(f"{p.stem}.watch{p.suffix or '.json'}"))


def _commit_sensor(*runtimes: BatchRuntime) -> Any:
    """A Faust sensor that completes the runtime's pending work when a commit starts.

    ``Consumer.force_commit`` calls ``sensors.on_commit_initiated`` and then, without
    yielding to the event loop, picks the offsets to commit: every batch acked so far has its
    outputs delivered and its warehouse rows written by then. A failure ends the process
    before the commit (at-least-once). (Sensors are Faust's public hook for this.)
    """
    import faust

    class _FlushBeforeCommit(faust.Sensor):
        def on_commit_initiated(self, consumer: Any) -> Any:
            for runtime in runtimes:
                try:
                    runtime.before_commit()
                except FatalPipelineError as exc:
                    runtime.fatal(exc)
            return None

    return _FlushBeforeCommit()


def _app_class(producer_idempotence: bool = False) -> type:
    """``faust.App`` whose consumer waits at most :data:`FETCH_MAX_WAIT_MS` per fetch, and whose
    producer is idempotent when ``producer_idempotence``
    (:func:`pitwatch.streams.producer.faust_producer_class`).

    Faust's aiokafka driver passes ``fetch_max_wait_ms=1500`` with no setting to change it;
    the measured produce->alert latency at 1,000 events/s was p50 1.5 s, p99 2.7 s with it
    (see BENCHMARKS.md). The consumer reads the value when it starts its fetcher, so the
    subclassed consumer thread sets it on the consumer it creates.

    Private Faust/aiokafka internals used here, each because no public setting exists
    (faust-streaming 0.15: ``App`` settings have ``consumer_max_fetch_size`` and
    ``broker_max_poll_records`` but nothing for the fetch wait; aiokafka takes
    ``fetch_max_wait_ms`` only as a constructor argument, which Faust fills in itself):

    - ``App._new_transport``: the only place the app picks its transport class (the
      alternative, registering a URL scheme in Faust's transport registry, mutates a
      process-wide table instead);
    - ``Consumer._new_consumer_thread`` and ``AIOKafkaConsumerThread._create_worker_consumer``:
      where Faust builds the aiokafka consumer;
    - ``AIOKafkaConsumer._fetch_max_wait_ms``: the value aiokafka hands to its fetcher.

    Drop those when Faust gains a setting for the fetch wait.

    ``Consumer.perform_seek`` suspends the app's flow control (public) before Faust's seek when
    a recovery calls it, and ``Consumer.seek_to_committed`` also seeks the input partitions
    that have no committed offset to their earliest one (public ``earliest_offsets`` and
    ``seek_wait``); the comments in them say why.

    The consumer also corrects Faust's gap bookkeeping (offsets Faust counts as acked because
    it never delivered them; see :func:`pitwatch.streams.offsets.merge_gap_offsets`), through
    ``Consumer._add_gap`` and ``Consumer._new_offset`` and the ``_acked``, ``_acked_index``
    and ``_gap`` maps they keep: no public hook exists. Drop those overrides when Faust
    leaves the message that revealed a gap out of it and stops merging gaps into acked
    offsets twice.
    """
    import faust
    from faust.transport.drivers import aiokafka as driver

    consumer_class = _consumer_class()

    class _Transport(driver.Transport):
        Consumer = consumer_class
        Producer = faust_producer_class(producer_idempotence)

    class _App(faust.App):
        def _new_transport(self) -> Any:
            return _Transport(self.conf.broker_consumer, self)

    return _App


def _consumer_class() -> type:
    """The worker's Faust consumer class (:func:`_app_class` explains each override)."""
    from faust.transport.drivers import aiokafka as driver

    class _ConsumerThread(driver.AIOKafkaConsumerThread):
        def _create_worker_consumer(self, transport: Any) -> Any:
            consumer = super()._create_worker_consumer(transport)
            consumer._fetch_max_wait_ms = FETCH_MAX_WAIT_MS
            return consumer

    class _Consumer(driver.Consumer):
        def _new_consumer_thread(self) -> Any:
            return _ConsumerThread(self, loop=self.loop, beacon=self.beacon)

        async def _add_gap(self, tp: Any, offset_from: int, offset_to: int) -> None:
            # offset_to is the message that revealed the gap: delivered, not yet stored.
            # Faust counts it as acked along with the gap; leave it to its own ack
            # (pitwatch.streams.offsets.merge_gap_offsets explains why it matters).
            await super()._add_gap(tp, offset_from, offset_to - 1)

        def _new_offset(self, tp: Any) -> Any:
            merge_gap_offsets(self._acked[tp], self._acked_index[tp], self._gap[tp])
            return super()._new_offset(tp)

        async def perform_seek(self) -> None:
            # Faust's recovery resumes the stream partitions, awaits this seek, then resumes
            # flow control, which empties the stream queues: messages fetched during the seek
            # were dropped there with Faust's read offset already past them (a worker started
            # on a partition with nothing committed then took in nothing, or never committed
            # again). With flow control suspended first they wait for the resume that follows
            # every such seek, and are delivered after it.
            if self.flow_active and self.app.flow_control.is_active():
                self.app.flow_control.suspend()
            await super().perform_seek()

        async def seek_to_committed(self) -> Any:
            # aiokafka seeks only the partitions with a committed offset above 0 and leaves the
            # others at the fetcher's position. Records Faust took from aiokafka before this seek
            # and did not deliver (its getmany drops the records of partitions outside its set
            # of active partitions, which the recovery changes while a fetch is pending) were
            # lost for good there: a worker restarted after a crash that preceded the first
            # commit took in nothing. Those partitions start again from their first offset, as
            # auto_offset_reset="earliest" would have (tests/streams/test_recovery_seek.py).
            committed = await super().seek_to_committed()
            uncommitted = [tp for tp, offset in committed.items()
                           if not offset and tp.topic in (TOPIC_EVENTS, TOPIC_ROUND_DIGESTS)]
            if uncommitted:
                await self.seek_wait(await self.earliest_offsets(*uncommitted))
            return committed

    return _Consumer


def make_app(settings: KafkaSettings, *, processor_factory: ProcessorFactory | None = None,
             warehouse_opener: WarehouseOpener | None = None, output: str = "confluent",
             partitions: int = DEFAULT_PARTITIONS, datadir: str | os.PathLike[str] | None = None,
             batch_max: int = BATCH_MAX, batch_within: float = BATCH_WITHIN,
             isolate: bool = True, crash_point: CrashPoint | None = None) -> tuple[Any, BatchRuntime]:
    """Build the Faust app and its two batch runtimes. Returns ``(app, runtime)``: the table
    stage's runtime (the watch stage's runs in a thread with the same warehouse, module docstring).

    ``processor_factory(load_state)`` builds the batch processor (default:
    ``BatchProcessor``); ``warehouse_opener(url)`` opens the warehouse (default
    :func:`pitwatch.warehouse.open_warehouse`; warehouse URL ``none`` drops rows). Both must
    be importable top-level objects when ``isolate`` (the batch engine runs in a child
    process, see :mod:`pitwatch.streams.batch_engine`).
    ``partitions`` is used when Faust has to create the topics; existing topics keep theirs
    (the changelog must have as many partitions as ``pitwatch.table-events``).
    ``crash_point``: the test hook of :mod:`pitwatch.streams.crashpoints` (None in production).
    Raises ``ValueError`` for an ``output`` other than ``"confluent"`` or ``"faust"``
    (:mod:`pitwatch.streams.outputs`).
    """
    if processor_factory is None:
        processor_factory = default_processor_factory()
    if warehouse_opener is None and settings.warehouse_url.strip().lower() != "none":
        warehouse_opener = default_warehouse_opener()
    datadir = Path(datadir) if datadir is not None else Path("pitwatch-data") / "faust"
    datadir.parent.mkdir(parents=True, exist_ok=True)  # Faust creates only the last level
    app = _app_class(settings.faust_idempotence)(
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
                           stages={WATCH_STAGE: watch_processor_factory()},
                           warehouse_opener=warehouse_opener, output=output, isolate=isolate,
                           crash_point=crash_point)

    watch_table = app.Table(WATCH_STATE, default=None, key_type=bytes, value_type=bytes, partitions=partitions)
    watch_settings = settings.model_copy(update={"status_path": watch_status_path(settings.status_path),
                                                 "metrics_address": None})
    watch_runtime = BatchRuntime(watch_settings, watch_table, topics, processor_factory=watch_processor_factory(),
                                 warehouse_opener=warehouse_opener, output=output, topic=TOPIC_ROUND_DIGESTS,
                                 engine=runtime.engine, stage=WATCH_STAGE)

    app.sensors.add(_commit_sensor(runtime, watch_runtime))

    batcher = Batcher(runtime, batch_max, batch_within)
    watch_batcher = Batcher(watch_runtime, batch_max, batch_within)

    @app.agent(events_topic, name="table_events", concurrency=1)
    async def table_events(stream: Any) -> None:
        await batcher.consume(stream)

    @app.agent(topics[TOPIC_ROUND_DIGESTS], name="round_digests", concurrency=1)
    async def round_digests(stream: Any) -> None:
        await watch_batcher.consume(stream)

    @app.task
    async def _prepare() -> None:
        for topic in topics.values():
            await topic.maybe_declare()
        for rt in (runtime, watch_runtime):
            try:
                await rt.start_engine()
            except Exception as exc:
                rt.fatal(exc)
            rt.write_status()

    @app.on_before_shutdown.connect
    async def _close(sender: Any, **kwargs: Any) -> None:
        loop = asyncio.get_running_loop()
        await batcher.drain()
        await watch_batcher.drain()
        for rt in (watch_runtime, runtime):  # the table stage's last: it owns the shared engine
            await loop.run_in_executor(None, rt.close)
            rt.write_status()

    return app, runtime
