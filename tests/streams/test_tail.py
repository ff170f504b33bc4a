"""``pitwatch alerts`` without ``--follow`` reads every alert on the topic, on the real broker."""

from __future__ import annotations

import json

from confluent_kafka import Producer
from pitwatch.streams.config import KafkaSettings
from pitwatch.streams.tail import tail_alerts


def test_tail_reads_the_whole_last_record_batch(broker, unique_topic):
    """1,200 alerts produced in one request form one record batch: Tansu reports the partition's
    high watermark as that batch's base offset + 1, so a tail that stopped at the watermark read
    only the first poll's alerts (500). All 1,200 come back, in order, and the tail stops."""
    topic = unique_topic("alerts")
    broker.create_topics([topic], partitions=1)
    prod = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 200})
    for i in range(1200):
        prod.produce(topic, json.dumps({"alert_id": f"A{i}", "kind": "procedure"}).encode())
    assert prod.flush(10) == 0
    got = list(tail_alerts(KafkaSettings(bootstrap=broker.bootstrap), follow=False, timeout=20, topic=topic))
    assert [a["alert_id"] for a in got] == [f"A{i}" for i in range(1200)]


def test_tail_stops_on_a_busy_topic(broker, unique_topic):
    """Alerts keep arriving every 0.1 s while the tail runs (the topic is never quiet): the tail
    still stops, about PAST_WATERMARK_S after the watermark, with every alert that was there
    when it started first and in order."""
    import threading
    import time

    from pitwatch.streams.tail import PAST_WATERMARK_S
    topic = unique_topic("busy")
    broker.create_topics([topic], partitions=1)
    prod = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})
    for i in range(30):
        prod.produce(topic, json.dumps({"alert_id": f"A{i}"}).encode())
    assert prod.flush(10) == 0
    stop = threading.Event()

    def keep_producing() -> None:
        n = 0
        while not stop.is_set():
            prod.produce(topic, json.dumps({"alert_id": f"N{n}"}).encode())
            prod.flush(5)
            n += 1
            time.sleep(0.1)

    th = threading.Thread(target=keep_producing)
    th.start()
    try:
        t0 = time.monotonic()
        got = [a["alert_id"] for a in tail_alerts(KafkaSettings(bootstrap=broker.bootstrap), follow=False,
                                                    timeout=20, topic=topic)]
        took = time.monotonic() - t0
    finally:
        stop.set()
        th.join()
    assert got[:30] == [f"A{i}" for i in range(30)]
    assert took < 10 * PAST_WATERMARK_S
