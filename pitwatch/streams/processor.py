"""The pipeline's logic, free of Kafka and Faust: a batch of raw table-event messages in,
output messages, warehouse rows and new per-table states out.

Stages, in order, for each message of a batch:

1. **ingest**: parse and validate the JSON event (pydantic). Invalid bytes become a
   ``pitwatch.rejected`` message holding the raw bytes (base64, plus a text preview) and the
   reason: nothing is dropped silently.
2. **sequence**: per table, skip redelivered messages (offset already applied from the same
   topic-partition and seq already seen: at-least-once delivery after a crash), flag
   duplicates and gaps, reject stale ``seq``.
3. **rounds**: fold the event into the table's rules engine; finished rounds yield
   settlements (expected vs recorded, per bet) and alerts. An event the rules reject is
   stored and becomes a ``rejected_event`` alert; it changes no state. An event on which the
   engine fails unexpectedly (a defect) goes to ``pitwatch.rejected`` with the exception's
   summary, and the table is left as it was before it.
4. the caller produces the messages, sinks the rows idempotently (deterministic ids) and
   stores the states, then commits the offsets.

Per-table state is a :class:`~pitwatch.detectors.auditor.TableAuditor` stored as a versioned
JSON snapshot (:mod:`pitwatch.detectors.snapshot`), loaded once per batch per table through
``load_state`` and returned in :attr:`BatchResult.states`.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

from pitwatch.detectors.alerts import settlement_rows
from pitwatch.detectors.auditor import TableAuditor
from pitwatch.detectors.snapshot import StateError, dump_state, load_state
from pitwatch.schemas.events import InvalidEvent, parse_event
from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_EVENTS, TOPIC_REJECTED, TOPIC_SETTLEMENTS


@dataclass(slots=True)
class InMessage:
    """A consumed message of ``pitwatch.table-events``."""

    key: bytes | None
    value: bytes
    partition: int
    offset: int


@dataclass(slots=True)
class OutMessage:
    """A message to produce."""

    topic: str
    key: bytes
    value: bytes


@dataclass
class BatchResult:
    """Outputs of one batch: messages to produce, warehouse rows per table (for
    ``Warehouse.insert_new``), and the new state bytes of every table touched."""

    messages: list[OutMessage] = field(default_factory=list)
    rows: dict[str, list[dict]] = field(default_factory=lambda: {
        "events_raw": [], "settlements": [], "alerts": [], "rejected": []})
    states: dict[str, bytes] = field(default_factory=dict)
    consumed: int = 0
    skipped: int = 0


def _json_default(o: object) -> str:
    if isinstance(o, datetime):
        return o.isoformat().replace("+00:00", "Z")
    return str(o)


def _dumps(d: dict) -> bytes:
    return json.dumps(d, default=_json_default, separators=(",", ":")).encode()


def rejected_record(raw: bytes, reason: str, topic: str, partition: int, offset: int,
                    now: datetime) -> dict:
    """The ``rejected`` warehouse row for raw bytes that failed ``reason``; the id is
    deterministic (source position and content) so a re-run stores it once."""
    rid = hashlib.sha1(b"%s|%d|%d|" % (topic.encode(), partition, offset) + raw).hexdigest()
    return {
        "reject_id": rid, "topic": topic, "partition": partition, "offset": offset,
        "raw": raw.decode("utf-8", errors="backslashreplace"), "reason": reason,
        "rejected_at": now.replace(microsecond=0),
    }


def rejected_message(row: dict, raw: bytes) -> dict:
    """JSON body of a ``pitwatch.rejected`` message: the row plus the exact bytes in base64."""
    body = dict(row)
    body["raw_b64"] = base64.b64encode(raw).decode()
    return body


def event_row(event, raw: bytes, ingested_at: datetime) -> dict:
    """The ``events_raw`` row of a valid event; ``payload`` holds the event JSON as received."""
    occ = event.occurred_at
    return {
        "event_id": str(event.event_id), "casino_id": event.casino_id, "table_id": event.table_id,
        "game": event.game.value, "seq": event.seq, "round_id": event.round_id or "",
        "type": event.type, "occurred_at": occ.replace(microsecond=0),
        "occurred_ms": occ.microsecond // 1000, "actor_role": event.actor.role.value,
        "actor_id": event.actor.id, "payload": raw.decode("utf-8", errors="replace"),
        "ingested_at": ingested_at,
    }


class BatchProcessor:
    """Runs the ingest, sequence and round stages over batches of messages.

    ``load_state(table_id) -> bytes | None`` reads the stored state of a table (a Faust
    table, or a dict in tests and benchmarks). ``clock`` gives the UTC time stamped on
    ingested/rejected rows (injectable for tests).
    """

    def __init__(self, load_state: Callable[[str], bytes | None],
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
                 topic: str = TOPIC_EVENTS):
        self.load_state = load_state
        self.clock = clock
        self.topic = topic

    def process(self, batch: list[InMessage]) -> BatchResult:
        """Process one batch (any mix of tables, each table's messages in offset order)."""
        res = BatchResult()
        now = self.clock().replace(microsecond=0)
        auditors: dict[str, TableAuditor] = {}
        unreadable: dict[str, str] = {}  # table -> why its stored state cannot be loaded
        msgs = res.messages
        rows = res.rows
        for m in batch:
            res.consumed += 1
            try:
                event = parse_event(m.value)
            except InvalidEvent as exc:
                self._reject(res, m, exc.reason, now)
                continue
            tid = event.table_id
            aud = auditors.get(tid)
            if aud is None:
                if tid in unreadable:
                    self._reject(res, m, unreadable[tid], now)
                    continue
                blob = self.load_state(tid)
                try:
                    aud = load_state(blob) if blob else TableAuditor(tid)
                except StateError as exc:
                    # the stored state is kept as it is (never overwritten) and every event of
                    # the table is rejected, with its bytes, until a release can read it
                    unreadable[tid] = f"table {tid} held: its stored state cannot be loaded ({exc})"
                    self._reject(res, m, unreadable[tid], now)
                    continue
                auditors[tid] = aud
            position = f"{self.topic}:{m.partition}"
            if aud.already_applied(position, m.offset, event.seq):
                res.skipped += 1  # redelivered after a crash: already applied
                continue
            aud.mark_applied(position, m.offset)
            try:
                out = aud.feed(event)
            except Exception as exc:  # an engine defect: the table is unchanged (all or nothing)
                self._reject(res, m, f"engine error on {event.type} of table {tid}: "
                             f"{type(exc).__name__}: {exc}", now)
                continue
            if out.rejected is not None:
                self._reject(res, m, out.rejected, now)
            else:
                rows["events_raw"].append(event_row(event, m.value, now))
            key = tid.encode()
            for v in out.verdicts:
                for row in settlement_rows(v):
                    rows["settlements"].append(row)
                    msgs.append(OutMessage(TOPIC_SETTLEMENTS, key, _dumps(row)))
            if out.alerts:
                trigger = str(event.event_id)
                for a in out.alerts:
                    rows["alerts"].append(a.to_row())
                    body = a.to_json_dict()
                    body["trigger_event_id"] = trigger  # the event whose processing raised it
                    msgs.append(OutMessage(TOPIC_ALERTS, key, _dumps(body)))
        for tid, aud in auditors.items():
            res.states[tid] = dump_state(aud)
        return res

    def _reject(self, res: BatchResult, m: InMessage, reason: str, now: datetime) -> None:
        row = rejected_record(m.value, reason, self.topic, m.partition, m.offset, now)
        res.rows["rejected"].append(row)
        res.messages.append(OutMessage(TOPIC_REJECTED, m.key or b"", _dumps(rejected_message(row, m.value))))
