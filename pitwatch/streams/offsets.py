"""Input offsets: holes Faust left in a batch, read from Kafka directly; partition counts.

Faust can drop messages fetched while it seeks to the committed offsets after a rebalance
(its flow-control queues are cleared on resume, and the re-fetched copies are then below its
read offset), yet still commit past them: seen here as a lost first message after a restart.
:class:`GapRepair` therefore checks that each partition's offsets in a batch continue from the
last one applied (or, with no state yet, from the partition's earliest offset) and reads any
hole with a confluent-kafka consumer of its own before the batch is processed. Redelivered
offsets (at or below the applied one) are not gaps: the processor skips them.

Faust keeps such holes too ("gaps", per partition), counts them as acked and commits past
them (:func:`merge_gap_offsets`); the worker's consumer corrects two details of that
(:func:`pitwatch.streams.faust_app._consumer_class`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Callable

from pitwatch.streams.batch_engine import FatalPipelineError
from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.topics import APP_ID, TOPIC_EVENTS

#: Longest time (seconds) to read one batch's missing offsets or a watermark.
GAP_FILL_TIMEOUT_S = 30.0

log = logging.getLogger("pitwatch.streams")

Gap = tuple[int, int, int]  # (partition, first missing offset, next offset present)


class GapRepair:
    """Finds the input offsets missing from batches and reads them from Kafka.

    ``applied_offset(partition)`` gives the last offset applied in a partition (or None);
    ``in_message`` builds a batch message from ``key=, value=, partition=, offset=``. Reading
    a hole runs in the loop's default executor. ``filled`` counts messages read so far.
    """

    def __init__(self, settings: KafkaSettings, applied_offset: Callable[[int], int | None],
                 in_message: Callable[..., Any], topic: str = TOPIC_EVENTS) -> None:
        self.settings = settings
        self.applied_offset = applied_offset
        self.in_message = in_message
        self.topic = topic
        self.filled = 0
        self._earliest: dict[int, int] = {}

    async def repair(self, batch: list[Any]) -> list[Any]:
        """``batch`` with its holes filled (each partition in offset order), or ``batch``
        itself when it has none. Raises :class:`FatalPipelineError` if a hole cannot be read
        within :data:`GAP_FILL_TIMEOUT_S`."""
        gaps = self.find(batch)
        if not gaps:
            return batch
        filled = await asyncio.get_running_loop().run_in_executor(None, self.fetch, gaps)
        return merge_in_offset_order(batch, filled)

    def find(self, batch: list[Any]) -> list[Gap]:
        """``[(partition, start, end)]``: input offsets missing before or inside ``batch``.

        Blocks only the first time it meets a partition with no applied offset: that
        partition's low watermark is asked once, then cached."""
        gaps: list[Gap] = []
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
                low, _high = c.get_watermark_offsets(TopicPartition(self.topic, partition),
                                                     timeout=GAP_FILL_TIMEOUT_S)
            finally:
                c.close()
            cache[partition] = max(low, 0)
        return cache[partition]

    def fetch(self, gaps: list[Gap]) -> list[Any]:
        """Read the input offsets ``[start, end)`` of each gap straight from Kafka (blocking).

        Raises :class:`FatalPipelineError` if a range cannot be read within
        :data:`GAP_FILL_TIMEOUT_S` (the batch is then not committed: nothing is lost).
        """
        from confluent_kafka import TopicPartition

        log.warning("input offset gaps %s: fetching them", gaps)
        topic = self.topic
        wanted = {(p, o) for p, a, b in gaps for o in range(a, b)}
        starts: dict[int, int] = {}
        ends: dict[int, int] = {}
        for p, a, b in gaps:
            starts[p] = min(a, starts.get(p, a))
            ends[p] = max(b, ends.get(p, b))
        c = self._consumer()
        got: list[Any] = []
        try:
            c.assign([TopicPartition(topic, p, a) for p, a in starts.items()])
            deadline = time.monotonic() + GAP_FILL_TIMEOUT_S
            while True:
                for m in c.consume(1000, 0.2):
                    if m.error() is None and (m.partition(), m.offset()) in wanted:
                        wanted.discard((m.partition(), m.offset()))
                        got.append(self.in_message(key=m.key(), value=m.value() or b"",
                                                   partition=m.partition(), offset=m.offset()))
                positions = c.position([TopicPartition(topic, p) for p in ends])
                if not wanted or all(tp.offset >= ends[tp.partition] for tp in positions):
                    break  # every offset read, or the rest are not records (e.g. control records)
                if time.monotonic() > deadline:
                    raise FatalPipelineError(f"could not read the missing input offsets {gaps}")
        finally:
            c.close()
        self.filled += len(got)
        return got


def merge_gap_offsets(acked: list[int], acked_index: set[int], gap: Any) -> None:
    """Merge a partition's gap offsets into its acked offsets, each offset once (in place).

    ``acked``, ``acked_index`` and ``gap`` are Faust's ``Consumer._acked[tp]``,
    ``_acked_index[tp]`` and ``_gap[tp]`` (an ``IntervalTree`` of offsets Faust never
    delivered: a jump in the fetched offsets, seen after a restart, when it seeks to the
    committed offsets). Faust commits the first run of consecutive acked offsets and counts
    every gap interval that begins below the highest acked offset as acked. It appends those
    offsets without looking at the ones already acked, and a gap often holds offsets that
    were delivered and acked as well (measured: a gap of offsets 38-214 while 37-111 were
    delivered): each duplicate then ends the run, and the committed offset crept one
    offset per commit (per second) for minutes after a restart. Called by the worker's
    consumer before Faust's own merge (which then finds nothing left to merge): the result
    is the commit Faust means, promptly.

    Committing gap offsets is safe because the message that revealed the gap is left out of
    it (the worker's consumer ``_add_gap``; Faust counted it as acked too, so the commit could
    pass it before its batch was stored): the commit stops at or before that message, which
    is redelivered after a crash, and its batch reads the hole first (:class:`GapRepair`:
    applied offsets come from the state table, not from the commit).
    """
    if not acked:
        return
    merged = set(acked)
    top = max(merged)
    while gap:
        found = gap.overlap(0, top)  # the intervals Faust would merge: they begin below top
        if not found:
            break
        for interval in found:
            merged.update(range(interval.begin, interval.end))
            top = max(top, interval.end - 1)
            gap.remove(interval)
    acked_index.update(merged)  # a later ack of a merged offset is then not appended again
    acked[:] = sorted(merged)


def merge_in_offset_order(batch: list[Any], extra: list[Any]) -> list[Any]:
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
