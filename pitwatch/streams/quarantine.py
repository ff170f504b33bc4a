"""Quarantine of a table after a poison event: parked messages and the release control message.

When the engine fails unexpectedly on an event (a defect, not a rule the event breaks), the
stream processor sends that event to ``pitwatch.rejected`` with the exception's summary, raises
one ``table_quarantined`` alert and *parks* the table: the poison event and every later event
of the table are stored in the warehouse's ``parked`` table (raw bytes, position, reason) and in
``events_raw``, but not judged. Every other table is served as usual.

Once the cause is fixed (typically a new release of pitwatch), ``pitwatch quarantine release
TABLE`` produces a control message on the input topic, keyed by the table so that it lands in
the table's partition after every parked event. The processor that reads it applies the parked
events again, in ``seq`` order, lifts the quarantine and raises a ``quarantine_released``
alert; if the engine fails again, the table is quarantined again from that event.

Control message (UTF-8 JSON object; never a valid event, which has no ``control`` key)::

    {"control": "release_quarantine", "table_id": "RF-01", "requested_by": "jdoe",
     "requested_at": "2026-11-24T10:00:00Z"}
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

RELEASE = "release_quarantine"
"""``control`` value of the message that releases a quarantined table."""


def release_message(table_id: str, requested_by: str, requested_at: datetime) -> bytes:
    """The control message releasing ``table_id`` (``requested_at`` is UTC)."""
    return json.dumps({"control": RELEASE, "table_id": table_id, "requested_by": requested_by,
                       "requested_at": requested_at.isoformat().replace("+00:00", "Z")}).encode()


def control_of(raw: bytes) -> dict[str, Any] | None:
    """The control message in ``raw`` (a JSON object with a string ``control`` and a non-empty
    string ``table_id``), else ``None``. Called only on messages that are not valid events."""
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if (isinstance(doc, dict) and isinstance(doc.get("control"), str)
            and isinstance(doc.get("table_id"), str) and doc["table_id"]):
        return doc
    return None


def parked_row(raw: bytes, *, table_id: str, seq: int, event_id: str, reason: str, topic: str,
               partition: int, offset: int, now: datetime) -> dict[str, Any]:
    """The ``parked`` warehouse row of one parked message. The id is deterministic (position
    and content), so parking the same message again (a redelivery, a failed release) stores
    it once."""
    pid = hashlib.sha1(b"%s|%d|%d|" % (topic.encode(), partition, offset) + raw).hexdigest()
    return {
        "parked_id": pid, "table_id": table_id, "seq": seq, "event_id": event_id, "topic": topic,
        "partition": partition, "offset": offset, "raw": raw.decode("utf-8", errors="backslashreplace"),
        "reason": reason, "parked_at": now,
    }
