"""The simulated evening the dashboard tests run every panel over."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from pitwatch.sim.base import simulate
from pitwatch.streams.processor import BatchProcessor, InMessage

START = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
"""When the simulated evening starts."""


@pytest.fixture(scope="module")
def evening_rows() -> dict[str, list[dict]]:
    """The warehouse rows of 4 tables for an hour of play (seed 5) and one message that is not JSON,
    stored by the pipeline as if 90 minutes after the evening started."""
    events, _ = simulate(4, 1.0, 5)
    lines = [json.dumps(e).encode() for e in events]
    msgs = [InMessage(json.loads(ln)["table_id"].encode(), ln, 0, i) for i, ln in enumerate(lines)]
    msgs.append(InMessage(b"X", b"not json", 0, len(msgs)))
    return BatchProcessor({}.get, clock=lambda: START + timedelta(hours=1, minutes=30)).process(msgs).rows
