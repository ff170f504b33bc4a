"""The producer clients use to put table events on Kafka (confluent-kafka).

Every event is keyed by its ``table_id`` so that one partition holds all of a table's events
in order (the Faust worker relies on this and does no repartition). Lines that are not JSON
(or have no ``table_id``) are still sent, keyed by ``b""``: the pipeline rejects them onto
``pitwatch.rejected`` with a reason rather than the producer dropping them silently.

Delivery is checked: a failed delivery report raises :class:`ProduceError` after the flush.
TLS/SASL settings pass through as librdkafka properties (see
:meth:`pitwatch.streams.config.KafkaSettings.producer_config`). Producers are idempotent with
``acks=all`` by default; :func:`faust_producer_class` makes Faust's aiokafka producer so when
asked (``KafkaSettings.faust_idempotence``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from typing import Any

from confluent_kafka import KafkaError, KafkaException, Producer

_TABLE_ID = re.compile(rb'"table_id"\s*:\s*"((?:[^"\\]|\\.)*)"')

#: librdkafka defaults tuned for throughput (batches of events, small latency cost).
DEFAULT_PRODUCER_CONFIG: dict[str, Any] = {
    # murmur2 like the Java client and aiokafka, so every producer maps a table to the same
    # partition (librdkafka's default, consistent_random, is CRC32-based and would not).
    "partitioner": "murmur2_random",
    "linger.ms": 20,
    "batch.num.messages": 10000,
    "queue.buffering.max.messages": 500000,
    "compression.type": "none",  # aiokafka (the Faust worker) reads gzip natively, lz4/snappy/zstd only with extra packages
    # A retried produce request is not written twice. Tansu 0.6.0 gives librdkafka a producer id
    # (InitProducerId v4): tests/streams/test_idempotence.py. KafkaSettings.idempotence=False
    # (PITWATCH_KAFKA_IDEMPOTENCE=false) turns it off through KafkaSettings.producer_config().
    "enable.idempotence": True,
    "acks": "all",
}


class ProduceError(RuntimeError):
    """One or more messages were not delivered. ``errors`` holds up to 20 ``(key, KafkaError)``."""

    def __init__(self, failed: int, errors: list[tuple[bytes | None, Any]]) -> None:
        super().__init__(f"{failed} message(s) not delivered; first errors: "
                         + "; ".join(f"{k!r}: {e}" for k, e in errors[:5]))
        self.failed = failed
        self.errors = errors


def table_key(line: bytes) -> bytes:
    """The Kafka key of one JSON event line: its ``table_id`` as UTF-8 bytes, or ``b""``.

    Cheap path: a regex finds the first ``"table_id": "..."`` (the envelope field comes first
    in pitwatch's own serialization). Lines with escapes in the id, or without a match, fall
    back to ``json.loads``; anything that is not a JSON object with a string ``table_id``
    gives ``b""``.
    """
    m = _TABLE_ID.search(line)
    if m is not None and b"\\" not in m.group(1):
        return m.group(1)
    try:
        obj = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return b""
    if isinstance(obj, dict) and isinstance(obj.get("table_id"), str):
        return obj["table_id"].encode("utf-8")
    return b""


def make_producer(bootstrap: str, **kafka_config: Any) -> Producer:
    """A confluent-kafka Producer for ``bootstrap`` with :data:`DEFAULT_PRODUCER_CONFIG`.

    ``kafka_config`` are librdkafka properties with their own (dotted) names, passed as
    ``**{"security.protocol": "SASL_SSL", ...}`` or ``**settings.producer_config()``; they
    override the defaults. ``bootstrap`` wins over any ``bootstrap.servers`` among them.
    """
    conf = dict(DEFAULT_PRODUCER_CONFIG)
    conf.update(kafka_config)
    conf["bootstrap.servers"] = bootstrap
    return Producer(conf)


def produce_events(events: Iterable[bytes], bootstrap: str, topic: str,
                   progress: Callable[[int], None] | None = None, *,
                   key: Callable[[bytes], bytes] = table_key, flush_timeout: float = 60.0,
                   producer: Producer | None = None, **kafka_config: Any) -> int:
    """Send each item of ``events`` (raw bytes, one event each) to ``topic``; return the count sent.

    Keys come from ``key(value)`` (default: the event's table_id). ``progress(n)`` is called
    with the running count every 10,000 messages and at the end. Blocks until every message
    is acknowledged (``flush``). Raises :class:`ProduceError` if any delivery failed or the
    flush timed out with messages outstanding; ``KafkaException`` for configuration errors.
    """
    prod = producer if producer is not None else make_producer(bootstrap, **kafka_config)
    failed = 0
    errors: list[tuple[bytes | None, Any]] = []

    def on_delivery(err: KafkaError | None, msg: Any) -> None:
        nonlocal failed
        if err is not None:
            failed += 1
            if len(errors) < 20:
                errors.append((msg.key() if msg is not None else None, err))

    produce = prod.produce
    poll = prod.poll
    n = 0
    for value in events:
        k = key(value)
        while True:
            try:
                produce(topic, value, k, on_delivery=on_delivery)
                break
            except BufferError:  # local queue full: serve delivery reports, then retry
                poll(0.05)
            except KafkaException as exc:
                raise ProduceError(1, [(k, exc.args[0] if exc.args else exc)]) from exc
        n += 1
        if n % 10000 == 0:
            poll(0)
            if progress is not None:
                progress(n)
        if failed:  # fail fast instead of pushing everything into a broken connection
            break
    remaining = prod.flush(flush_timeout)
    if remaining:
        failed += remaining
        errors.append((None, f"{remaining} message(s) still queued after {flush_timeout}s flush"))
    if progress is not None:
        progress(n)
    if failed:
        raise ProduceError(failed, errors)
    return n


def iter_jsonl(path: str | os.PathLike[str]) -> Iterable[bytes]:
    """Lines of a JSONL file as bytes without the line ending; blank lines are skipped."""
    with open(path, "rb") as fh:
        for line in fh:
            line = line.rstrip(b"\r\n")
            if line.strip():
                yield line


def produce_jsonl(path: str | os.PathLike[str], bootstrap: str, topic: str,
                  progress: Callable[[int], None] | None = None, **kafka_config: Any) -> int:
    """Send every non-blank line of the JSONL file ``path`` to ``topic``, keyed by table_id.

    Returns the number of messages sent. Lines that are not JSON are sent too, keyed by
    ``b""`` (the pipeline rejects them). ``progress`` and errors as in :func:`produce_events`;
    ``OSError`` if the file cannot be read.
    """
    return produce_events(iter_jsonl(path), bootstrap, topic, progress, **kafka_config)


def faust_producer_class(idempotence: bool) -> type:
    """Faust's aiokafka producer class (``faust.transport.drivers.aiokafka.Producer``) whose
    aiokafka producer has ``enable_idempotence`` when ``idempotence`` (Faust sets it only inside
    transactions); ``acks`` stays Faust's ``producer_acks`` (default -1, "all", which aiokafka's
    idempotence requires). Overrides Faust's private ``Producer._settings_extra``: the pinned
    faust-streaming version is checked by tests/streams/test_faust_pin.py."""
    from faust.transport.drivers import aiokafka as driver

    class _Producer(driver.Producer):
        def _settings_extra(self) -> Any:
            extra = dict(super()._settings_extra())
            if idempotence:
                extra["enable_idempotence"] = True
            return extra

    return _Producer
