"""Producer idempotence (``enable.idempotence`` with ``acks=all``) on every producer, checked
through the local Tansu broker (tests/fixtures/broker.py).

librdkafka's statistics say whether a producer got a producer id from the broker
(``eos.idemp_state == "Assigned"``, ``eos.producer_id >= 0``): a producer without idempotence
stays ``Init`` with id -1. aiokafka's InitProducerId (v0) is refused by Tansu, which is why Faust's
producer is idempotent only when asked (``KafkaSettings.faust_idempotence``).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import confluent_kafka
import pytest
from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.faust_app import _app_class
from pitwatch.streams.outputs import OutputProducer
from pitwatch.streams.producer import DEFAULT_PRODUCER_CONFIG, make_producer, produce_events


class _Stats:
    """A ``stats_cb`` keeping librdkafka's last ``eos`` statistics."""

    def __init__(self) -> None:
        self.eos: dict[str, Any] = {}

    def __call__(self, text: str) -> None:
        self.eos = json.loads(text).get("eos", {})

    def wait_assigned(self, producer: Any, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.eos.get("idemp_state") != "Assigned":
            producer.poll(0.1)
        return self.eos


def test_the_cli_producer_is_idempotent_on_the_broker(broker, unique_topic):
    topic = unique_topic("events")
    stats = _Stats()
    settings = KafkaSettings(bootstrap=broker.bootstrap)
    prod = make_producer(broker.bootstrap, **settings.producer_config(
        **{"statistics.interval.ms": 100, "stats_cb": stats}))
    lines = [json.dumps({"table_id": f"T-{i % 3}", "n": i}).encode() for i in range(50)]
    assert produce_events(lines, broker.bootstrap, topic, producer=prod) == 50
    eos = stats.wait_assigned(prod)
    assert eos.get("idemp_state") == "Assigned" and eos.get("producer_id", -1) >= 0, eos
    assert DEFAULT_PRODUCER_CONFIG["enable.idempotence"] is True and DEFAULT_PRODUCER_CONFIG["acks"] == "all"


def test_the_worker_output_producer_is_idempotent_on_the_broker(broker, unique_topic, monkeypatch):
    topic = unique_topic("alerts")
    stats = _Stats()
    made: list[Any] = []
    real = confluent_kafka.Producer

    def producer(conf: dict[str, Any]) -> Any:
        made.append(conf)
        p = real({**conf, "statistics.interval.ms": 100, "stats_cb": stats})
        return p

    monkeypatch.setattr(confluent_kafka, "Producer", producer)
    out = OutputProducer(KafkaSettings(bootstrap=broker.bootstrap), {})

    class Cols:
        topics, keys, values = [topic] * 3, [b"T-1"] * 3, [b"a", b"b", b"c"]

        def __len__(self) -> int:
            return 3

    asyncio.run(out.produce(Cols()))  # type: ignore[arg-type]
    out.flush_confluent()
    assert made[0]["enable.idempotence"] is True and made[0]["acks"] == "all"
    eos = stats.wait_assigned(out._producer)
    assert eos.get("idemp_state") == "Assigned" and eos.get("producer_id", -1) >= 0, eos
    out.close()


def test_idempotence_is_a_setting(monkeypatch):
    assert KafkaSettings().producer_config()["enable.idempotence"] is True
    monkeypatch.setenv("PITWATCH_KAFKA_IDEMPOTENCE", "false")
    conf = KafkaSettings.from_env().producer_config()
    assert conf["enable.idempotence"] is False and conf["acks"] == "all"
    # consumers and admin clients get no producer property
    assert "enable.idempotence" not in KafkaSettings().confluent_config()


@pytest.mark.parametrize("idempotence", [False, True])
def test_the_faust_producer_asks_acks_all_and_idempotence_when_set(idempotence):
    app = _app_class(idempotence)("t-idempotence", broker="kafka://127.0.0.1:9", autodiscover=False,
                                  web_enabled=False)
    producer = app.producer
    assert producer._settings_default()["acks"] == -1  # "all"
    assert producer._settings_extra().get("enable_idempotence", False) is idempotence


def test_tansu_refuses_aiokafka_idempotence(broker, unique_topic):
    """Why ``faust_idempotence`` is off by default: aiokafka sends InitProducerId v0 (no producer
    id or epoch fields) and Tansu answers UNKNOWN_SERVER_ERROR, so an idempotent aiokafka
    producer cannot start. If this fails, Tansu now accepts it: turn the default on."""
    from aiokafka import AIOKafkaProducer
    from aiokafka.errors import KafkaError

    async def start() -> None:
        prod = AIOKafkaProducer(bootstrap_servers=broker.bootstrap, enable_idempotence=True, acks="all",
                                request_timeout_ms=10000)
        try:
            await asyncio.wait_for(prod.start(), 30)
        finally:
            await prod.stop()

    with pytest.raises(KafkaError, match="UnknownError"):
        asyncio.run(start())
    assert KafkaSettings().faust_idempotence is False
