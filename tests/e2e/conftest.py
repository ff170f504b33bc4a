"""The end-to-end tests' fixtures: a broker of their own per test, a fresh warehouse database."""

from __future__ import annotations

import uuid

import pytest
from pitwatch.streams.broker import LocalBroker
from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_EVENTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS


@pytest.fixture
def broker(tmp_path):
    """A broker started for this test alone (the session's ``broker`` is shared), with the
    pipeline's topics at 4 partitions."""
    with LocalBroker(log_dir=tmp_path) as b:
        b.create_topics([TOPIC_EVENTS, TOPIC_SETTLEMENTS, TOPIC_ALERTS, TOPIC_REJECTED], partitions=4)
        yield b


@pytest.fixture
def server_db(clickhouse_server):
    """A fresh database on the session's ClickHouse 18.16 server."""
    base = clickhouse_server.rsplit("/", 1)[0]
    return f"{base}/e2e_{uuid.uuid4().hex[:10]}"
