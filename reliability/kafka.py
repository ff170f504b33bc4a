"""Kafka helpers of the reliability run (and the end-to-end tests): producing a list of
messages with the Python client or with Debian's ``kcat``, paced or all at once, and asking
how far a consumer group has committed.

A message is ``(key, value)``; a ``None`` key is sent without a key.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Message = tuple[bytes | None, bytes]

#: Largest message the reliability run sends (its "1 MB strings" plus an event around them);
#: librdkafka's producer refuses messages above ``message.max.bytes`` (default 1,000,000).
MAX_MESSAGE_BYTES = 4 * 1024 * 1024


def group_progress(bootstrap: str, topic: str, group: str) -> tuple[int, int]:
    """``(committed, end)``: messages of ``topic`` whose offsets consumer group ``group`` has
    committed, and messages in the topic as the broker reports them (sums of the committed
    offsets and of the high watermarks over its partitions). Asks without joining the group.

    ``end`` is only a hint: Tansu reports a partition's high watermark as the base offset of its
    last record batch + 1, not its log end. Completion is ``committed`` against the number of
    messages sent (the harness does so), never against ``end``."""
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        partitions = c.list_topics(topic, timeout=10).topics[topic].partitions
        tps = [TopicPartition(topic, p) for p in partitions]
        committed = end = 0
        for tp in c.committed(tps, timeout=10):
            low, high = c.get_watermark_offsets(tp, timeout=10)
            end += high - max(low, 0)
            committed += max(tp.offset, max(low, 0)) - max(low, 0) if tp.offset >= 0 else 0
        return committed, end
    finally:
        c.close()


def topic_ends(bootstrap: str, topic: str, idle: float = 2.0, timeout: float = 120.0) -> dict[int, int]:
    """``{partition: log end offset}`` of ``topic`` (partitions holding no message left out),
    found by reading every message from the beginning (no group joined) until none has come for
    ``idle`` seconds: for a topic nobody is writing to any more. Not the high watermark, which
    Tansu reports as the base offset of a partition's last record batch + 1. Raises
    ``RuntimeError`` when the topic is not read within ``timeout`` seconds."""
    import uuid

    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"reliability-ends-{uuid.uuid4().hex[:8]}",
                  "enable.auto.commit": False, "fetch.message.max.bytes": MAX_MESSAGE_BYTES})
    ends: dict[int, int] = {}
    try:
        partitions = c.list_topics(topic, timeout=10).topics[topic].partitions
        c.assign([TopicPartition(topic, p, 0) for p in partitions])
        deadline = time.monotonic() + timeout
        last = time.monotonic()
        while time.monotonic() - last < idle:
            if time.monotonic() > deadline:
                raise RuntimeError(f"could not read {topic} to its end within {timeout:.0f} s")
            for m in c.consume(1000, 0.3):
                if m.error() is None:
                    last = time.monotonic()
                    p, o = m.partition() or 0, m.offset() or 0
                    ends[p] = max(ends.get(p, 0), o + 1)
        return ends
    finally:
        c.close()


def committed_to_the_end(bootstrap: str, topic: str, group: str, ends: dict[int, int]) -> bool:
    """Whether consumer group ``group`` has committed every offset of ``topic`` up to ``ends``
    (from :func:`topic_ends`). Asks without joining the group. For the pipeline's workers this
    means every message up to there is handled: rows, outputs and states stored."""
    from confluent_kafka import Consumer, TopicPartition

    if not ends:
        return True
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        tps = [TopicPartition(topic, p) for p in sorted(ends)]
        return all(tp.offset >= ends[tp.partition] for tp in c.committed(tps, timeout=10))
    finally:
        c.close()


def produce_python(messages: Sequence[Message], bootstrap: str, topic: str, *, rate: float | None = None,
                   progress: Callable[[int], None] | None = None) -> int:
    """Send ``messages`` in order with pitwatch's producer settings
    (:func:`pitwatch.streams.producer.make_producer`); ``rate``: messages per second (None: as
    fast as possible). ``progress(n)`` after every chunk, once it is acknowledged. Returns the
    count sent; raises :class:`pitwatch.streams.producer.ProduceError` on a failed delivery."""
    from pitwatch.streams.producer import ProduceError, make_producer

    prod = make_producer(bootstrap, **{"message.max.bytes": MAX_MESSAGE_BYTES, "log_level": 4})
    errors: list[tuple[bytes | None, Any]] = []

    def on_delivery(err: Any, msg: Any) -> None:
        if err is not None:
            errors.append((msg.key() if msg is not None else None, err))

    sent = 0
    for chunk in _paced_chunks(messages, rate):
        for k, v in chunk:
            while True:
                try:
                    prod.produce(topic, v, k, on_delivery=on_delivery)
                    break
                except BufferError:
                    prod.poll(0.05)
        remaining = prod.flush(120)
        if remaining or errors:
            raise ProduceError(len(errors) + remaining, errors)
        sent += len(chunk)
        if progress is not None:
            progress(sent)
    return sent


def produce_kcat(messages: Sequence[Message], bootstrap: str, topic: str, env: dict[str, str], *,
                 rate: float | None = None, progress: Callable[[int], None] | None = None,
                 workdir: str | os.PathLike[str] | None = None) -> int:
    """Send ``messages`` with Debian's ``kcat`` (``env``: :func:`reliability.servers.kcat_environment`),
    one ``kcat -P`` per chunk of a paced run (``rate`` as in :func:`produce_python`).

    Messages go through a file, one per line, the key before a tab (``-K '\\t'``), with
    librdkafka's murmur2 partitioner as pitwatch's producer uses (a Java client's default), so
    that a table's events land in the same partition whichever client sent them. A keyless
    message is sent by a second kcat run without ``-K`` (same position in the stream when
    paced per chunk). Values must not contain a newline and keys no tab. Raises
    ``subprocess.CalledProcessError`` when kcat fails."""
    d = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="pitwatch-kcat-"))
    d.mkdir(parents=True, exist_ok=True)
    sent = 0
    for i, chunk in enumerate(_paced_chunks(messages, rate)):
        # consecutive runs of keyed / keyless messages keep the order of the chunk
        runs: list[tuple[bool, list[Message]]] = []
        for m in chunk:
            keyed = m[0] is not None
            if not runs or runs[-1][0] != keyed:
                runs.append((keyed, []))
            runs[-1][1].append(m)
        for j, (keyed, run) in enumerate(runs):
            path = d / f"chunk-{i}-{j}.txt"
            with path.open("wb") as fh:
                for k, v in run:
                    if b"\n" in v or (k is not None and b"\t" in k):
                        raise ValueError(f"kcat cannot send {v[:60]!r}: newline in the value or tab in the key")
                    fh.write((k + b"\t" if k is not None else b"") + v + b"\n")
            cmd = ["kcat", "-P", "-b", bootstrap, "-t", topic, "-X", "partitioner=murmur2_random",
                   "-X", f"message.max.bytes={MAX_MESSAGE_BYTES}", "-l", str(path)]
            if keyed:
                cmd[2:2] = ["-K", "\t"]
            subprocess.run(cmd, env=env, check=True, timeout=600, capture_output=True)
            path.unlink()
        sent += len(chunk)
        if progress is not None:
            progress(sent)
    return sent


def _paced_chunks(messages: Sequence[Message], rate: float | None) -> Any:
    """``messages`` in chunks of about 0.25 s at ``rate`` per second, each yielded no earlier
    than its due time (all at once when ``rate`` is None)."""
    if not rate:
        yield list(messages)
        return
    size = max(1, int(rate / 4))
    t0 = time.monotonic()
    for start in range(0, len(messages), size):
        due = t0 + start / rate
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        yield list(messages[start:start + size])


class BackgroundProducer:
    """Runs a produce function (:func:`produce_python` or :func:`produce_kcat` with its
    arguments bound) in a thread. ``sent`` is the running count, ``done`` whether it finished,
    ``error`` what it raised."""

    def __init__(self, produce: Callable[[Callable[[int], None]], int]) -> None:
        self.sent = 0
        self.error: BaseException | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(produce,), name="producer", daemon=True)

    def _run(self, produce: Callable[[Callable[[int], None]], int]) -> None:
        try:
            self.sent = produce(self._progress)
        except BaseException as exc:  # reported by check()
            self.error = exc
        finally:
            self._done.set()

    def _progress(self, n: int) -> None:
        self.sent = n

    def start(self) -> BackgroundProducer:
        self._thread.start()
        return self

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def check(self) -> None:
        """Raise what the producer raised, if anything."""
        if self.error is not None:
            raise RuntimeError(f"producer failed: {self.error!r}") from self.error

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)
