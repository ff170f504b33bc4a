"""The local broker, the client producer and the connection settings."""

from __future__ import annotations

import json
import os
import socket
import uuid

import pytest
from confluent_kafka import Consumer
from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.streams.broker import BrokerError, LocalBroker, find_tansu, free_port
from pitwatch.streams.config import DEFAULT_WAREHOUSE, KafkaSettings
from pitwatch.streams.producer import ProduceError, produce_events, produce_jsonl, table_key


def consume_all(bootstrap: str, topic: str, expected: int, timeout: float = 60.0) -> list:
    """Consume ``expected`` messages of ``topic`` from the beginning (fresh group)."""
    import time

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"test-{uuid.uuid4().hex[:8]}",
                  "auto.offset.reset": "earliest", "enable.auto.commit": False,
                  "session.timeout.ms": 6000})
    c.subscribe([topic])
    out: list = []
    deadline = time.monotonic() + timeout
    try:
        while len(out) < expected and time.monotonic() < deadline:
            for m in c.consume(num_messages=1000, timeout=0.5):
                if m.error() is None:
                    out.append(m)
    finally:
        c.close()
    return out


# -- table_key (pure) -----------------------------------------------------------------------

def test_table_key_reads_envelope_table_id():
    line = b'{"event_id":"4f0c","casino_id":"gal","table_id":"RF-01","game":"french_roulette"}'
    assert table_key(line) == b"RF-01"


def test_table_key_ignores_fields_that_only_end_in_table_id():
    line = b'{"to_table_id":"X-9","table_id":"BJ-02"}'
    assert table_key(line) == b"BJ-02"


@pytest.mark.parametrize("line", [b"not json", b"{broken", b"[1,2]", b'{"table_id": 7}', b"{}", b"\xff\xfe"])
def test_table_key_of_non_events_is_empty(line):
    assert table_key(line) == b""


@settings(max_examples=200, deadline=None)
@given(tid=st.text(min_size=1, max_size=30), ascii_only=st.booleans())
def test_table_key_round_trips_any_table_id(tid, ascii_only):
    """Whatever the id (quotes, backslashes, non-ASCII, escaped or not), the key is its UTF-8."""
    line = json.dumps({"event_id": "e", "table_id": tid, "seq": 1}, ensure_ascii=ascii_only).encode()
    assert table_key(line) == tid.encode("utf-8", errors="surrogatepass")


# -- settings (pure) --------------------------------------------------------------------------

@pytest.fixture
def env(monkeypatch):
    """A clean environment for the settings: no PITWATCH_* variable; returns a setter."""
    for name in list(os.environ):
        if name.upper().startswith("PITWATCH_"):
            monkeypatch.delenv(name)

    def set_env(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
    return set_env


def test_settings_from_env_and_overrides(env):
    env(PITWATCH_KAFKA_BOOTSTRAP="k1:9093,k2:9093", PITWATCH_KAFKA_SECURITY_PROTOCOL="SASL_SSL",
        PITWATCH_KAFKA_SASL_MECHANISM="SCRAM-SHA-512", PITWATCH_KAFKA_SASL_USERNAME="u",
        PITWATCH_KAFKA_SASL_PASSWORD="p", PITWATCH_KAFKA_SSL_CA_LOCATION="/ca.pem")
    s = KafkaSettings.from_env(sasl_username="cli-user", status_path=None)
    assert s.bootstrap_list == ["k1:9093", "k2:9093"]
    assert s.sasl_username == "cli-user"  # the CLI flag wins over the environment
    assert s.warehouse_url == DEFAULT_WAREHOUSE and s.status_path is None
    conf = s.confluent_config(**{"group.id": "g"})
    assert conf == {"bootstrap.servers": "k1:9093,k2:9093", "security.protocol": "SASL_SSL",
                    "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": "cli-user",
                    "sasl.password": "p", "ssl.ca.location": "/ca.pem", "group.id": "g"}
    assert s.faust_broker_url() == "kafka://k1:9093;k2:9093"
    assert "s3cret" not in repr(KafkaSettings(sasl_password="s3cret"))


def test_settings_warehouse_and_status_from_their_own_variables(env):
    env(PITWATCH_WAREHOUSE="clickhouse://ch:9000/pitwatch", PITWATCH_STATUS_PATH="/run/st.json",
        PITWATCH_KAFKA_BOOTSTRAP="")  # empty means unset
    s = KafkaSettings.from_env()
    assert s.warehouse_url == "clickhouse://ch:9000/pitwatch" and s.status_path == "/run/st.json"
    assert s.confluent_config() == {"bootstrap.servers": "127.0.0.1:9092", "security.protocol": "PLAINTEXT"}
    assert KafkaSettings.from_env(warehouse_url="none").warehouse_url == "none"  # the flag wins


def test_settings_faust_credentials():
    import faust

    assert KafkaSettings().faust_credentials() is None
    sasl = KafkaSettings(security_protocol="SASL_PLAINTEXT", sasl_mechanism="SCRAM-SHA-256",
                         sasl_username="u", sasl_password="p").faust_credentials()
    assert isinstance(sasl, faust.SASLCredentials)
    assert sasl.mechanism.value == "SCRAM-SHA-256" and sasl.ssl_context is None
    tls = KafkaSettings(security_protocol="SASL_SSL", sasl_username="u", sasl_password="p").faust_credentials()
    assert tls.ssl_context is not None and str(tls.protocol.value) == "SASL_SSL"
    assert isinstance(KafkaSettings(security_protocol="SSL").faust_credentials(), faust.SSLCredentials)


@pytest.mark.parametrize("kwargs", [
    {"security_protocol": "SASL_SSL"},                                   # no username/password
    {"security_protocol": "TLS"},                                        # unknown protocol
    {"security_protocol": "SASL_PLAINTEXT", "sasl_mechanism": "MD5", "sasl_username": "u", "sasl_password": "p"},
    {"bootstrap": " "},
])
def test_settings_reject_inconsistent(env, kwargs):
    with pytest.raises(ValueError):
        KafkaSettings.from_env(**kwargs)


def test_settings_errors_are_one_clear_line_without_the_password(env):
    env(PITWATCH_KAFKA_SECURITY_PROTOCOL="SASL_SSL", PITWATCH_KAFKA_SASL_PASSWORD="s3cret")
    with pytest.raises(ValueError) as exc:
        KafkaSettings.from_env()
    assert str(exc.value) == "SASL_SSL needs a SASL username and password"


def test_settings_reject_unknown_override(env):
    with pytest.raises(TypeError):
        KafkaSettings.from_env(bootstrap_servers="x:1")


# -- the broker ----------------------------------------------------------------------------------

def test_find_tansu_is_executable():
    path = find_tansu()
    assert os.path.isfile(path) and os.access(path, os.X_OK)


def test_broker_start_create_topics_and_stop(tmp_path):
    from confluent_kafka.admin import AdminClient

    with LocalBroker(tmp_path) as b:
        host, port = b.bootstrap.split(":")
        assert host == "127.0.0.1" and int(port) == b.port
        b.create_topics(["a.events", "a.out"], partitions=3)
        b.create_topics(["a.events"], partitions=3)  # already there: no error
        md = AdminClient({"bootstrap.servers": b.bootstrap}).list_topics(timeout=10)
        assert len(md.topics["a.events"].partitions) == 3
        assert len(md.topics["a.out"].partitions) == 3
        proc = b.process
        assert b.log_path is not None and b.log_path.exists()
    assert proc.poll() is not None  # the process is gone
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", int(port)), timeout=1).close()


def test_broker_that_cannot_start_raises(tmp_path):
    with pytest.raises(BrokerError):
        LocalBroker(tmp_path, binary="/bin/false", start_timeout=5).start()


# -- producing through the broker --------------------------------------------------------------

@pytest.mark.kafka
def test_produce_jsonl_round_trip(broker, unique_topic, tmp_path):
    """Lines keyed by table_id, non-JSON lines sent with key b"", blank lines skipped."""
    topic = unique_topic()
    broker.create_topics([topic], partitions=4)
    lines = [json.dumps({"event_id": str(i), "table_id": f"T{i % 5}", "seq": i // 5 + 1}) for i in range(500)]
    lines.insert(100, "this is not json")
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(lines[:250]) + "\n\n" + "\n".join(lines[250:]) + "\r\n")
    seen_progress: list[int] = []
    n = produce_jsonl(path, broker.bootstrap, topic, progress=seen_progress.append)
    assert n == 501 and seen_progress[-1] == 501
    msgs = consume_all(broker.bootstrap, topic, 501)
    assert sorted(m.value().decode() for m in msgs) == sorted(lines)
    partitions: dict[bytes, set[int]] = {}
    for m in msgs:
        v = m.value()
        expected_key = b"" if v == b"this is not json" else json.loads(v)["table_id"].encode()
        assert m.key() == expected_key
        partitions.setdefault(m.key(), set()).add(m.partition())
    assert all(len(p) == 1 for p in partitions.values())  # one partition per table
    # per table, the consumer sees the events in the order produced
    for tid in (f"T{i}".encode() for i in range(5)):
        seqs = [json.loads(m.value())["seq"] for m in sorted(msgs, key=lambda m: m.offset()) if m.key() == tid]
        assert seqs == sorted(seqs) and len(seqs) == 100


@pytest.mark.kafka
def test_committed_to_the_end_means_every_offset_read_back_not_the_high_watermark(broker, unique_topic):
    """The end-to-end tests stop a worker once its group has committed the whole input. Tansu
    reports a partition's high watermark as the base offset of its last record batch + 1 (1
    for a partition filled by one produce request), so "committed up to the watermark" was
    true after any commit: under CPU load a restarted worker was stopped before it handled
    anything and tests/e2e/test_crash_points.py found hundreds of events missing. The end
    offsets are read back instead, and only a commit up to them counts."""
    from confluent_kafka import TopicPartition

    from tests.fixtures.broker import committed_to_the_end, end_offsets

    topic = unique_topic()
    broker.create_topics([topic], partitions=1)
    assert produce_events([b"m%03d" % i for i in range(100)], broker.bootstrap, topic) == 100
    ends = end_offsets(broker.bootstrap, topic, 100)
    assert ends == {0: 100}
    group = f"test-{uuid.uuid4().hex[:8]}"
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": group, "enable.auto.commit": False})

    def committed_up_to(offset: int) -> bool:
        c.commit(offsets=[TopicPartition(topic, 0, offset)], asynchronous=False)
        return committed_to_the_end(broker.bootstrap, topic, group, ends)

    try:
        assert not committed_to_the_end(broker.bootstrap, topic, group, ends)  # nothing committed
        assert not committed_up_to(1)
        assert not committed_up_to(99)
        assert committed_up_to(100)
    finally:
        c.close()


@pytest.mark.kafka
def test_produce_events_custom_key(broker, unique_topic):
    topic = unique_topic()
    broker.create_topics([topic], partitions=2)
    n = produce_events((b"v%d" % i for i in range(50)), broker.bootstrap, topic, key=lambda v: b"k")
    assert n == 50
    msgs = consume_all(broker.bootstrap, topic, 50)
    assert {m.key() for m in msgs} == {b"k"} and len({m.partition() for m in msgs}) == 1


def test_produce_to_unreachable_broker_raises():
    dead = f"127.0.0.1:{free_port()}"
    with pytest.raises(ProduceError) as info:
        produce_events([b'{"table_id":"T1"}'] * 3, dead, "nowhere",
                       **{"message.timeout.ms": 1500, "socket.connection.setup.timeout.ms": 1000, "log_level": 0})
    assert info.value.failed == 3
