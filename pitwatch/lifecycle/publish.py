"""Putting alert actions on ``pitwatch.alert-actions`` with a bounded wait, quietly.

An action is published before it is stored (:func:`pitwatch.lifecycle.store.record`), so when
the broker cannot be reached the action fails and nothing is recorded: it is not queued to be
sent later. :class:`ActionPublisher` first asks the broker for its metadata and gives up with
:class:`BrokerUnreachable` (one line, with a hint) as soon as every bootstrap server refused the
connection, or after ``timeout`` seconds; then it waits at most :data:`DELIVERY_TIMEOUT` seconds
more for the broker to acknowledge the messages (:class:`~pitwatch.streams.producer.ProduceError` if it did
not). librdkafka's own log lines (e.g. ``%3|...|FAIL|... Connection refused``, one every retry)
go to the Python logger ``pitwatch.lifecycle.kafka`` (silent unless logging is configured),
not to stderr.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Iterable

from pitwatch.streams.topics import TOPIC_ALERT_ACTIONS

DEFAULT_TIMEOUT = 2.0
"""Seconds to wait for the broker to answer (the CLI's ``--broker-timeout``). With the
interpreter's start (about 2 s on a busy machine) an unreachable broker fails an action within
5 s."""
DELIVERY_TIMEOUT = 5.0
"""Seconds a broker that answered has to acknowledge the messages (at least the timeout)."""

log = logging.getLogger("pitwatch.lifecycle.kafka")
log.addHandler(logging.NullHandler())  # no "last resort" printing to stderr when logging is not configured

_GIVE_UP = {"_ALL_BROKERS_DOWN": "no answer", "_AUTHENTICATION": "authentication failed",
            "_RESOLVE": "cannot resolve the host", "_SSL": "TLS handshake failed"}
"""librdkafka error codes (their names) after which waiting longer is pointless, and what to say
(every broker down after a refused connection: "connection refused")."""


class BrokerUnreachable(RuntimeError):
    """The broker did not answer within the timeout, or refused us (connection, credentials).
    ``str()`` is one line naming the bootstrap servers, the reason and the options to check."""


class ActionPublisher:
    """``publisher(key, value)`` puts one message on ``topic`` (a
    :data:`pitwatch.lifecycle.store.Publish`); :meth:`publish_many` several with one wait.

    ``bootstrap`` is ``"host:port[,host:port]"``; ``kafka_config`` are further librdkafka
    properties (``**settings.confluent_config()``); ``timeout`` in seconds (> 0). The producer
    is made and the broker asked by :meth:`connect`, or else at the first publish. Raises
    :class:`BrokerUnreachable` or :class:`~pitwatch.streams.producer.ProduceError`; either way
    nothing was delivered, except that messages acknowledged late may still reach the topic
    (never the warehouse)."""

    def __init__(self, bootstrap: str, topic: str = TOPIC_ALERT_ACTIONS, timeout: float = DEFAULT_TIMEOUT,
                 **kafka_config: Any) -> None:
        if timeout <= 0:
            raise ValueError(f"broker timeout must be positive, not {timeout}")
        self.bootstrap, self.topic, self.timeout = bootstrap, topic, timeout
        self._config = kafka_config
        self._producer: Any = None
        self._errors: list[Any] = []

    def connect(self) -> Any:
        """Make the producer and check that the broker answers (once; later calls return the
        same producer). Raises :class:`BrokerUnreachable`."""
        from confluent_kafka import Producer

        from pitwatch.streams.producer import DEFAULT_PRODUCER_CONFIG

        if self._producer is not None:
            return self._producer
        ms = int(self.timeout * 1000)
        self._delivery = max(DELIVERY_TIMEOUT, self.timeout)
        conf = {**DEFAULT_PRODUCER_CONFIG, **self._config, "bootstrap.servers": self.bootstrap,
                "logger": log, "error_cb": self._errors.append, "linger.ms": 0,
                "message.timeout.ms": int(self._delivery * 1000), "socket.connection.setup.timeout.ms": max(1000, ms)}
        producer = Producer(conf)
        wait_for_broker(producer, self.bootstrap, self.timeout, self._errors)
        self._producer = producer
        return producer

    def __call__(self, key: bytes, value: bytes) -> None:
        self.publish_many([(key, value)])

    def publish_many(self, messages: Iterable[tuple[bytes, bytes]]) -> int:
        """Put ``(key, value)`` messages on the topic, in order; wait for the broker to take them
        all. Returns how many. Raises as the class says."""
        items = list(messages)
        if not items:
            return 0
        from pitwatch.streams.producer import produce_events

        producer = self.connect()
        keys = iter([k for k, _v in items])  # produce_events asks for each value's key once, in order
        return produce_events([v for _k, v in items], self.bootstrap, self.topic, key=lambda _v: next(keys),
                              flush_timeout=self._delivery + 1.0, producer=producer)


def wait_for_broker(client: Any, bootstrap: str, timeout: float, errors: list[Any]) -> None:
    """Ask ``client`` (a confluent-kafka Producer made with
    ``error_cb=errors.append`` and ``logger``) for the cluster's metadata until it answers;
    raise :class:`BrokerUnreachable` once every broker refused us (see :data:`_GIVE_UP`) or
    after ``timeout`` seconds."""
    from confluent_kafka import KafkaException

    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            client.list_topics(timeout=max(0.05, min(0.25, left)))
            return
        except KafkaException:
            pass
        client.poll(0)  # serve error_cb
        why = next((_GIVE_UP[e.name()] for e in errors if e.name() in _GIVE_UP), None)
        if why == "no answer" and any("Connection refused" in e.str() for e in errors):
            why = "connection refused"
        if why is None and time.monotonic() < deadline:
            continue
        raise BrokerUnreachable(
            f"cannot reach the broker at {bootstrap} within {timeout:g} s ({why or 'no answer'}): is it running? "
            "set --bootstrap or PITWATCH_KAFKA_BOOTSTRAP (and the PITWATCH_KAFKA_* security settings)")


def check_broker(bootstrap: str, timeout: float = DEFAULT_TIMEOUT, **kafka_config: Any) -> None:
    """Raise :class:`BrokerUnreachable` unless the broker at ``bootstrap`` answers within
    ``timeout`` seconds (quietly, as :class:`ActionPublisher` does); ``kafka_config`` as there.
    For commands that read a topic (``pitwatch alerts``) before they wait on it."""
    from confluent_kafka import Producer

    errors: list[Any] = []
    conf = {**kafka_config, "bootstrap.servers": bootstrap, "logger": log, "error_cb": errors.append,
            "socket.connection.setup.timeout.ms": max(1000, int(timeout * 1000))}
    wait_for_broker(Producer(conf), bootstrap, timeout, errors)
