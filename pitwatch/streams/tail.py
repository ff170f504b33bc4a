"""Live tail of ``pitwatch.alerts`` for the surveillance room (``pitwatch alerts --follow``)."""

from __future__ import annotations

import json
import uuid
from typing import Iterator

from pitwatch.streams.processor import TOPIC_ALERTS


def tail_alerts(settings, follow: bool = True, idle_timeout: float = 5.0) -> Iterator[dict]:
    """Yield alerts (dicts) from the alerts topic, from the beginning. With ``follow`` it
    waits for new alerts forever; without, it stops after ``idle_timeout`` seconds of
    silence. Uses a throw-away consumer group, so it never disturbs the workers."""
    from confluent_kafka import Consumer

    conf = settings.confluent_config(**{
        "group.id": f"pitwatch-tail-{uuid.uuid4().hex[:8]}",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    })
    consumer = Consumer(conf)
    consumer.subscribe([TOPIC_ALERTS])
    idle = 0.0
    try:
        while True:
            msg = consumer.poll(0.5)
            if msg is None:
                idle += 0.5
                if not follow and idle >= idle_timeout:
                    return
                continue
            if msg.error():
                continue
            idle = 0.0
            try:
                yield json.loads(msg.value())
            except ValueError:
                continue
    finally:
        consumer.close()
