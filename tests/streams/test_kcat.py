"""Debian's kcat, run with the wheel's librdkafka (``kcat_env``), talks to the local broker."""

from __future__ import annotations

import json
import subprocess

import pytest
from pitwatch.streams.producer import produce_events

from .test_broker import consume_all

pytestmark = pytest.mark.kafka


def kcat(env: dict[str, str], *args: str, data: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["kcat", *args], input=data, env=env, capture_output=True, timeout=60, check=False)


def test_kcat_lines_are_consumed_by_confluent_kafka(broker, kcat_env, unique_topic):
    topic = unique_topic()
    broker.create_topics([topic], partitions=3)
    lines = [json.dumps({"table_id": f"T{i % 3}", "seq": i}) for i in range(30)]
    data = "".join(f"T{i % 3}\t{line}\n" for i, line in enumerate(lines)).encode()
    r = kcat(kcat_env, "-b", broker.bootstrap, "-P", "-t", topic, "-K", "\t", data=data)
    assert r.returncode == 0, r.stderr.decode()
    msgs = consume_all(broker.bootstrap, topic, 30)
    assert sorted(m.value().decode() for m in msgs) == sorted(lines)
    assert all(m.key() == json.loads(m.value())["table_id"].encode() for m in msgs)


def test_kcat_reads_what_the_pitwatch_producer_wrote(broker, kcat_env, unique_topic):
    topic = unique_topic()
    broker.create_topics([topic], partitions=2)
    produce_events([b'{"table_id":"RF-01","seq":1}', b'{"table_id":"RF-01","seq":2}'], broker.bootstrap, topic)
    r = kcat(kcat_env, "-b", broker.bootstrap, "-C", "-t", topic, "-o", "beginning", "-e", "-q",
             "-f", "%k|%s\n")
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode().splitlines() == ['RF-01|{"table_id":"RF-01","seq":1}', 'RF-01|{"table_id":"RF-01","seq":2}']


def test_kcat_with_murmur2_partitions_tables_like_pitwatch(broker, kcat_env, unique_topic):
    """A table's events from kcat (-X partitioner=murmur2_random) and from pitwatch's producer
    land in the same partition, so the worker sees one ordered stream per table."""
    topic = unique_topic()
    broker.create_topics([topic], partitions=8)
    tables = [f"BJ-{i:02d}" for i in range(16)]
    produce_events([json.dumps({"table_id": t, "src": "py"}).encode() for t in tables], broker.bootstrap, topic)
    data = "".join(f"{t}\t{json.dumps({'table_id': t, 'src': 'kcat'})}\n" for t in tables).encode()
    r = kcat(kcat_env, "-b", broker.bootstrap, "-P", "-t", topic, "-K", "\t",
             "-X", "partitioner=murmur2_random", data=data)
    assert r.returncode == 0, r.stderr.decode()
    msgs = consume_all(broker.bootstrap, topic, 32)
    where: dict[bytes, set[int]] = {}
    for m in msgs:
        where.setdefault(m.key(), set()).add(m.partition())
    assert len(msgs) == 32
    assert all(len(p) == 1 for p in where.values())
    assert len({p for ps in where.values() for p in ps}) > 1  # and tables do spread over partitions
