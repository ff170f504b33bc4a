"""Two findings of the reliability run (RELIABILITY.md), at the processor's level.

1. A message whose Kafka key is not its table's id arrives in a partition where that table's
   state and order are not. Applied, a valid event sent again without a key made its table jump
   ahead, and thousands of the table's later events were rejected as stale; an invalid one
   that names its table and seq, or a release control message, loaded the table's state there
   (a fresh one when the worker had none) and wrote it back over the table's real state. Now
   such a message is rejected with the reason and changes no state.
2. A 1 MB input message made a ``pitwatch.rejected`` message of about 2.4 MB (its bytes as text
   and as base64), which the output producer refuses: the worker failed on that batch at every
   restart. The rejected message now carries at most ``REJECTED_MESSAGE_RAW_MAX`` bytes of it.
"""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import datetime, timezone
from decimal import Decimal

import pytest
from pitwatch.sim.base import TableSpec, simulate
from pitwatch.streams.processor import REJECTED_MESSAGE_RAW_MAX, BatchProcessor, InMessage
from pitwatch.streams.quarantine import release_message
from pitwatch.streams.topics import TOPIC_REJECTED

TABLE = "PB-1"


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    spec = TableSpec(TABLE, "c", "punto_banca", "punto_banca.galicia", Decimal("20.00"), Decimal("2000.00"))
    events, _ = simulate([spec], hours=0.5, seed=11, fault_rates={})
    return [json.dumps(e, separators=(",", ":")).encode() for e in events]


def keyed(lines: list[bytes], start: int = 0) -> list[InMessage]:
    return [InMessage(TABLE.encode(), ln, 0, start + i) for i, ln in enumerate(lines)]


def rows_of(results) -> dict[str, set[str]]:
    ids = {"events_raw": "event_id", "settlements": "settlement_id", "alerts": "alert_id"}
    return {t: {r[c] for res in results for r in res.rows[t]} for t, c in ids.items()}


@pytest.mark.parametrize("key", [None, b"", b"PB-2"])
def test_a_valid_event_under_another_key_is_rejected_and_changes_nothing(lines, key):
    """An event of the table sent again ahead of its turn, without its key (in another
    partition): rejected with the reason; the table's results equal a clean run's."""
    half = len(lines) // 2
    clean_store: dict[str, bytes] = {}
    clean = BatchProcessor(clean_store.get)
    clean_results = [clean.process(keyed(lines[:half]))]
    clean_store.update(clean_results[0].states)
    clean_results.append(clean.process(keyed(lines[half:], half)))

    store: dict[str, bytes] = {}
    proc = BatchProcessor(store.get)
    first = proc.process(keyed(lines[:half]))
    store.update(first.states)
    ahead = lines[half + 40]  # a later event of the table, before its turn, in partition 1
    odd = proc.process([InMessage(key, ahead, 1, 0)])
    assert odd.states == {} and odd.rows["events_raw"] == [] and odd.rows["alerts"] == []
    [row] = odd.rows["rejected"]
    assert "is not the table_id 'PB-1'" in row["reason"] and row["partition"] == 1
    assert [m.topic for m in odd.messages] == [TOPIC_REJECTED]
    rest = proc.process(keyed(lines[half:], half))
    assert rest.rows["rejected"] == []
    assert rows_of([first, rest]) == rows_of(clean_results)


def test_an_invalid_message_naming_a_table_under_another_key_leaves_its_state_alone(lines):
    """Truncated bytes that still show ``table_id`` and a future ``seq``, keyed by another
    table: rejected as invalid, and no state of the named table is loaded or written (before,
    a worker without that table's state wrote a fresh one over it)."""
    cut = lines[30][:lines[30].index(b'"round_id"')]
    assert b'"table_id"' in cut and b'"seq"' in cut
    res = BatchProcessor({}.get).process([InMessage(b"PB-2", cut, 1, 0)])
    assert "Invalid JSON" in res.rows["rejected"][0]["reason"]
    assert res.states == {}


def test_a_release_under_another_key_is_refused_without_touching_the_table(lines):
    release = release_message(TABLE, "auditor", datetime(2026, 11, 24, tzinfo=timezone.utc))
    res = BatchProcessor({}.get).process([InMessage(None, release, 2, 0)])
    [row] = res.rows["rejected"]
    assert row["reason"].startswith(f"release of table {TABLE} refused: Kafka key missing")
    assert res.states == {}


def test_a_1mb_message_makes_a_bounded_rejected_message_and_a_whole_row(lines):
    doc = json.loads(lines[5])
    raw = json.dumps(dict(doc, actor={"role": "dealer", "id": "X" * 1_000_000})).encode()
    res = BatchProcessor({}.get).process([InMessage(TABLE.encode(), raw, 0, 0)])
    [row] = res.rows["rejected"]
    assert row["raw"] == raw.decode() and "at most 64 characters" in row["reason"]
    [msg] = [m for m in res.messages if m.topic == TOPIC_REJECTED]
    assert len(msg.value) < 400_000  # librdkafka's default message.max.bytes is 1,000,000
    body = json.loads(msg.value)
    assert body["raw_truncated"] is True and body["raw_size"] == len(raw)
    assert body["raw_sha256"] == hashlib.sha256(raw).hexdigest()
    assert base64.b64decode(body["raw_b64"]) == raw[:REJECTED_MESSAGE_RAW_MAX]
    assert body["reject_id"] == row["reject_id"] and body["reason"] == row["reason"]


def test_a_small_rejected_message_still_carries_its_exact_bytes():
    raw = b'{"event_id": "oops", \xff'
    res = BatchProcessor({}.get).process([InMessage(b"x", raw, 0, 7)])
    body = json.loads(res.messages[0].value)
    assert base64.b64decode(body["raw_b64"]) == raw and "raw_truncated" not in body
