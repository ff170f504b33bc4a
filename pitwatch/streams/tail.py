"""Live tail of ``pitwatch.alerts`` for the surveillance room (``pitwatch alerts --follow``)."""

from __future__ import annotations

import json
import time
import uuid
from typing import Iterator

from pitwatch.streams.topics import TOPIC_ALERTS

QUIET_S = 0.5
"""Without ``--follow``: past every partition's watermark, the tail stops after a poll this long
(seconds) that brings nothing ..."""
PAST_WATERMARK_S = 2.0
"""... or this many seconds after passing the last watermark (a busy topic is never quiet)."""


def tail_alerts(settings, follow: bool = True, timeout: float = 30.0,
                topic: str = TOPIC_ALERTS) -> Iterator[dict]:
    """Yield the alerts (dicts) on ``topic``, from the beginning, partition by partition in
    offset order.

    Without ``follow`` it stops once it has read every alert that was on the topic when it
    started: each partition up to its high watermark then, and on until a poll of
    :data:`QUIET_S` seconds brings nothing more, for at most :data:`PAST_WATERMARK_S` seconds
    (Tansu reports a partition's watermark as the base offset of its last record batch + 1, so the
    rest of that batch lies after it; on a busy topic a few newer alerts may come too). With
    ``follow`` it then keeps waiting for new ones until the caller stops iterating. The partitions are assigned directly, with no
    consumer group: nothing to join (a group join can take seconds), nothing committed, the
    workers never disturbed. Messages that are not JSON objects are skipped.

    Raises ``RuntimeError`` if the cluster's metadata cannot be read within ``timeout``
    seconds, or, without ``follow``, if the existing alerts cannot be read within it. A
    missing topic yields nothing (without ``follow``) or is waited for (with it).
    """
    from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, TopicPartition

    consumer = Consumer(settings.confluent_config(**{
        "group.id": f"pitwatch-tail-{uuid.uuid4().hex[:8]}",  # required by librdkafka; never joined
        "enable.auto.commit": False,
        "fetch.wait.max.ms": 100,
    }))
    try:
        while True:
            try:
                md = consumer.list_topics(topic, timeout=timeout)
            except KafkaException as exc:
                raise RuntimeError(f"cannot read metadata from {settings.bootstrap}: {exc}") from exc
            t = md.topics.get(topic)
            if t is not None and t.error is None and t.partitions:
                break
            if not follow:
                return
            time.sleep(1.0)
        partitions = sorted(t.partitions)
        ends = {}
        if not follow:
            for p in partitions:
                low, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=timeout)
                if high > low:
                    ends[p] = high
            if not ends:
                return
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions])
        deadline = time.monotonic() + timeout
        past: float | None = None  # when every watermark was passed
        while True:
            msgs = consumer.consume(500, QUIET_S)
            if not follow:
                if not ends:
                    past = time.monotonic() if past is None else past
                    if not msgs or time.monotonic() - past > PAST_WATERMARK_S:
                        return
                elif not msgs and time.monotonic() > deadline:
                    raise RuntimeError(f"timed out reading {topic}: partitions {sorted(ends)} not read to the end")
            for msg in msgs:
                if msg.error():
                    continue
                if not follow:
                    deadline = time.monotonic() + timeout
                    if (msg.offset() or 0) + 1 >= ends.get(msg.partition(), 0):
                        ends.pop(msg.partition(), None)
                try:
                    doc = json.loads(msg.value() or b"")
                except ValueError:
                    continue
                if isinstance(doc, dict):
                    yield doc
    finally:
        consumer.close()
