"""The worker's output producer: a batch's settlements, alerts and rejected messages to Kafka.

By default a confluent-kafka Producer inside the worker (``output="confluent"``, delivery
reports only for failures); ``output="faust"`` uses the Faust topics' ``send_soon`` and Faust's
own producer instead. Either way :meth:`OutputProducer.flush` returns only once every message
is acknowledged, or raises :class:`~pitwatch.streams.batch_engine.FatalPipelineError`.
"""

from __future__ import annotations

import time
from typing import Any

from pitwatch.streams.batch_engine import FatalPipelineError, OutColumns
from pitwatch.streams.config import KafkaSettings

OUTPUT_KINDS = ("confluent", "faust")


class OutputProducer:
    """Produces output messages (:class:`OutColumns`: topic, key, value) and flushes them.

    ``topics``: Faust topics by name (used with ``output="faust"``); ``faust_app``: the Faust
    app, whose producer is flushed with ``output="faust"``. ``flush_s`` accumulates the
    seconds spent flushing. Used from the worker's event loop only. Raises ``ValueError`` for
    an ``output`` not in :data:`OUTPUT_KINDS`.
    """

    def __init__(self, settings: KafkaSettings, topics: dict[str, Any], output: str = "confluent",
                 faust_app: Any = None) -> None:
        if output not in OUTPUT_KINDS:
            raise ValueError(f"output must be 'confluent' or 'faust', not {output!r}")
        self.settings = settings
        self.topics = topics
        self.output = output
        self.faust_app = faust_app
        self.flush_s = 0.0
        self._producer: Any = None
        self._delivery_errors: list[Any] = []

    def _confluent(self) -> Any:
        if self._producer is None:
            from confluent_kafka import Producer

            # idempotent (settings.idempotence, on by default) with acks=all: a produce request
            # retried after a lost reply does not write a batch's outputs twice.
            conf = self.settings.producer_config(**{
                "linger.ms": 1, "batch.num.messages": 10000,
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

    async def produce(self, messages: OutColumns) -> None:
        """Hand ``messages`` to the producer (not flushed: see :meth:`flush`)."""
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

    async def flush(self) -> None:
        """Wait until every message produced is acknowledged; raise FatalPipelineError if not."""
        if self.output == "faust":
            await self.faust_app.producer.flush()
        else:
            self.flush_confluent()

    def flush_confluent(self, timeout: float = 30.0) -> None:
        """Block until every message of the confluent producer is acknowledged (no-op before
        the first message); raise FatalPipelineError if one failed or ``timeout`` passed."""
        if self._producer is None:
            return
        t0 = time.perf_counter()
        remaining = self._producer.flush(timeout)
        self.flush_s += time.perf_counter() - t0
        if remaining or self._delivery_errors:
            self._raise_delivery_errors(remaining)

    def _raise_delivery_errors(self, remaining: int) -> None:
        errs, self._delivery_errors = self._delivery_errors[:5], []
        raise FatalPipelineError(f"output delivery failed: {remaining} undelivered, errors {errs}")

    def close(self) -> None:
        """Flush what is left (at most 10 s; shutdown)."""
        if self._producer is not None:
            self._producer.flush(10.0)
