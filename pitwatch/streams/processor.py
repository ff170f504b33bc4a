"""The pipeline's logic, free of Kafka and Faust: a batch of raw table-event messages in,
output messages, warehouse rows and new per-table states out.

Stages, in order, for each message of a batch:

1. **ingest**: parse and validate the JSON event (pydantic). Invalid bytes become a
   ``pitwatch.rejected`` message holding the raw bytes (base64, plus a text preview) and the
   reason: nothing is dropped silently. So is a valid event (or a release control message)
   whose Kafka key is not its ``table_id``: it arrived in another table's partition, where
   that table's state and order are not, and must change no state (a message that is not
   valid but names its table and ``seq`` excuses that ``seq`` only under the table's key).
2. **sequence**: per table, skip redelivered messages (offset already applied from the same
   topic-partition and seq already seen: at-least-once delivery after a crash; each is
   counted in ``skipped`` and stored in the ``skipped`` table with the reason), flag
   duplicates and gaps, reject stale ``seq``. A duplicate (an ``event_id`` seen before, at
   another offset) is not applied: a ``duplicate_event`` alert names it and its bytes go to
   ``rejected`` with the reason (``events_raw`` keeps the first event of an id, so a forged
   copy would otherwise leave no trace).
3. **rounds**: fold the event into the table's rules engine; finished rounds yield
   settlements (expected vs recorded, per bet) and alerts, and a digest of each verdict goes to
   ``pitwatch.round-digests`` keyed by casino, for the detectors (:mod:`pitwatch.streams.watch`). An event the rules reject is
   stored and becomes a ``rejected_event`` alert; it changes no state. An event on which the
   engine fails unexpectedly (a defect) goes to ``pitwatch.rejected`` with the exception's
   summary, the table is left as it was before it and is quarantined: its later events are
   parked (stored, counted in ``parked``, not judged) until a release control message
   (:mod:`pitwatch.streams.quarantine`) applies them again.
4. the caller produces the messages, sinks the rows idempotently (deterministic ids) and
   stores the states, then commits the offsets.

Each event stored in ``events_raw`` as judged carries its link in its table's hash chain
(``prev_hash``, ``hash``: :mod:`pitwatch.detectors.chain`, computed by the auditor's ``feed``);
a parked event is stored without one (``pitwatch verify`` recomputes it).

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
from typing import Any, Callable

from pitwatch.detectors.alerts import Alert, alert_from_violation, settlement_rows
from pitwatch.detectors.auditor import Quarantine, TableAuditor
from pitwatch.detectors.digest import TableMark, digest_of
from pitwatch.detectors.figures import movement_row
from pitwatch.detectors.snapshot import StateError, dump_state, load_state
from pitwatch.rules.base import RoundVerdict, Violation, ViolationKind, load_ruleset
from pitwatch.rules.engine import ENGINE_CITATION
from pitwatch.schemas.events import InvalidEvent, parse_event
from pitwatch.streams.quarantine import RELEASE, control_of, parked_row
from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_EVENTS, TOPIC_REJECTED, TOPIC_ROUND_DIGESTS, TOPIC_SETTLEMENTS
from pydantic_core import PydanticSerializationError, to_json


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
        "events_raw": [], "settlements": [], "alerts": [], "rejected": [], "rulesets": [], "parked": [], "movements": [],
        "skipped": []})
    states: dict[str, bytes] = field(default_factory=dict)
    consumed: int = 0
    skipped: int = 0
    parked: int = 0
    digests: int = 0
    """Round digests sent to ``pitwatch.round-digests`` (what the watch stage will consume)."""
    late: int = 0
    """Round digests the watch stage judged out of event-time order (:mod:`pitwatch.detectors.release`)."""


LIVE_TABLES = 4096
"""At most this many tables' auditors are kept between batches (see ``BatchProcessor._live``)."""


@dataclass
class _Batch:
    """The working set of one :meth:`BatchProcessor.process` call."""

    res: BatchResult
    now: datetime
    auditors: dict[str, TableAuditor] = field(default_factory=dict)
    unreadable: dict[str, str] = field(default_factory=dict)  # table -> why its state cannot be loaded
    versions: set[tuple[str, str]] = field(default_factory=set)  # ruleset versions that judged


def _json_default(o: object) -> str:
    if isinstance(o, datetime):
        return o.isoformat().replace("+00:00", "Z")
    return str(o)


def message_json(d: dict) -> bytes:
    """Compact JSON of an output message: money (``Decimal``) as strings, UTC times as
    ``2026-11-21T21:04:05Z`` (with the fraction when there is one), dates as ``2026-11-21``, text
    as UTF-8. pydantic-core's serializer, five times faster than ``json.dumps`` with a
    ``default``; the same JSON values (``json.dumps`` for anything it cannot serialize)."""
    try:
        return to_json(d)
    except PydanticSerializationError:
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


#: Largest input message whose bytes a ``pitwatch.rejected`` message repeats whole. The body
#: holds them twice (text and base64, about 2.4 times their size), and Kafka producers and
#: brokers refuse messages above about 1 MB by default: a 1 MB input message would make a
#: rejected message no broker takes, and the worker would fail on that batch forever.
REJECTED_MESSAGE_RAW_MAX = 128 * 1024


def rejected_message(row: dict, raw: bytes) -> dict:
    """JSON body of a ``pitwatch.rejected`` message: the row plus the exact bytes in base64.

    Bytes longer than :data:`REJECTED_MESSAGE_RAW_MAX` are cut to that length in both
    ``raw`` and ``raw_b64``, and the body says so: ``raw_truncated`` true, ``raw_size`` (bytes)
    and ``raw_sha256`` of the whole message (the warehouse row keeps the whole text, the input
    topic the bytes)."""
    body = dict(row)
    if len(raw) > REJECTED_MESSAGE_RAW_MAX:
        cut = raw[:REJECTED_MESSAGE_RAW_MAX]
        body["raw"] = cut.decode("utf-8", errors="backslashreplace")
        body.update(raw_truncated=True, raw_size=len(raw), raw_sha256=hashlib.sha256(raw).hexdigest())
        raw = cut
    body["raw_b64"] = base64.b64encode(raw).decode()
    return body


def event_row(event, raw: bytes, ingested_at: datetime, prev_hash: bytes | None = None,
              link: bytes | None = None) -> dict:
    """The ``events_raw`` row of a valid event; ``payload`` holds the event JSON as received.

    ``link`` is the event's link in its table's hash chain and ``prev_hash`` the link before it
    (32 bytes each, :mod:`pitwatch.detectors.chain`), stored as 64 hex digits; ``''`` for an
    event stored unjudged (parked), which is not linked."""
    occ = event.occurred_at
    return {
        "event_id": str(event.event_id), "casino_id": event.casino_id, "table_id": event.table_id,
        "game": event.game, "seq": event.seq, "round_id": event.round_id or "",
        "type": event.type, "occurred_at": occ.replace(microsecond=0),
        "occurred_ms": occ.microsecond // 1000, "actor_role": event.actor.role.value,
        "actor_id": event.actor.id, "payload": raw.decode("utf-8", errors="replace"),
        "ingested_at": ingested_at,
        "prev_hash": "" if prev_hash is None else prev_hash.hex(), "hash": "" if link is None else link.hex(),
    }


def skipped_row(event: Any, position: str, offset: int, now: datetime, reason: str) -> dict:
    """The ``skipped`` row of a message not applied because it was applied before; its id is its
    position (``"topic:partition"`` and offset), so a message skipped twice is stored once."""
    topic, _, partition = position.rpartition(":")
    return {"skip_id": f"{position}:{offset}", "table_id": event.table_id, "seq": event.seq,
            "event_id": str(event.event_id), "topic": topic, "partition": int(partition), "offset": offset,
            "reason": reason, "skipped_at": now}


def ruleset_row(ruleset_id: str, version: str, now: datetime) -> dict:
    """The ``rulesets`` warehouse row of a ruleset version (its id, content hash and file
    text), keyed ``<id>@<hash>`` so that it is stored once however often it judges."""
    r = load_ruleset(ruleset_id, version)
    return {"ruleset_key": f"{r.id}@{r.content_hash}", "ruleset_id": r.id, "ruleset_hash": r.content_hash,
            "game": r.game, "jurisdiction": r.jurisdiction, "source": r.source, "first_used_at": now}


def _keyed_by(m: InMessage, table_id: str) -> bool:
    """Whether message ``m`` carries the Kafka key of ``table_id`` (its UTF-8 bytes)."""
    return m.key == table_id.encode("utf-8")


def _misrouted(m: InMessage, table_id: str) -> str:
    key = "missing" if m.key is None else repr(m.key.decode("utf-8", errors="backslashreplace"))
    return (f"Kafka key {key} is not the table_id {table_id!r}: not applied (a table's messages must "
            "all be keyed by its table_id: its order and state live in that key's partition)")


class BatchProcessor:
    """Runs the ingest, sequence and round stages over batches of messages.

    ``load_state(table_id) -> bytes | None`` reads the stored state of a table (a Faust
    table, or a dict in tests and benchmarks). ``load_parked(table_id) -> list[dict]`` reads
    the warehouse's ``parked`` rows of a table (at least ``raw``, ``partition``, ``offset``,
    ``seq``, ``parked_id``), used only to release a quarantine
    (:mod:`pitwatch.streams.quarantine`); by default there are none. ``clock`` gives the UTC
    time stamped on ingested/rejected rows (injectable for tests).
    """

    def __init__(self, load_state: Callable[[str], bytes | None],
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
                 topic: str = TOPIC_EVENTS,
                 load_parked: Callable[[str], list[dict]] = lambda _table_id: []):
        self.load_state = load_state
        self.load_parked = load_parked
        self.clock = clock
        self.topic = topic
        #: ruleset versions whose ``rulesets`` row an earlier batch of this processor returned
        #: (a worker exits when a batch's rows cannot be stored, so these are stored)
        self._versions_returned: set[tuple[str, str]] = set()
        #: tables held for an unreadable state whose table_quarantined alert this process raised
        self._held_alerted: set[str] = set()
        #: table -> (the state bytes this processor last returned for it, the auditor they were
        #: dumped from, untouched since): when a later batch is given exactly those bytes, that
        #: auditor is used instead of decoding them again (``load_state`` of a ``dump_state`` is
        #: the same table). Forgotten for every table if a batch fails midway.
        self._live: dict[str, tuple[bytes, TableAuditor]] = {}

    def process(self, batch: list[InMessage]) -> BatchResult:
        """Process one batch (any mix of tables, each table's messages in offset order)."""
        b = _Batch(BatchResult(), self.clock().replace(microsecond=0))
        try:
            return self._process(b, batch)
        except BaseException:
            self._live.clear()  # the auditors of this batch may be half-way through it
            raise

    def _process(self, b: _Batch, batch: list[InMessage]) -> BatchResult:
        res = b.res
        live = self._live
        for m in batch:
            res.consumed += 1
            try:
                event = parse_event(m.value)
            except InvalidEvent as exc:
                control = control_of(m.value)
                if control is not None and control["control"] == RELEASE:
                    self._release(b, m, control)
                    continue
                self._reject(b, m, exc.reason)
                if exc.table_id is not None and exc.seq is not None and _keyed_by(m, exc.table_id):
                    # reported once, as invalid: not again as a missing seq by a later gap
                    held = self._auditor(exc.table_id, b)
                    if isinstance(held, TableAuditor):
                        held.sequence.excuse(exc.seq)
                continue
            if not _keyed_by(m, event.table_id):
                self._reject(b, m, _misrouted(m, event.table_id))
                continue
            aud = self._auditor(event.table_id, b)
            if not isinstance(aud, TableAuditor):
                self._hold(b, m, event, aud)
                continue
            self._handle(b, aud, m, event)
        for tid, aud in b.auditors.items():
            state = res.states[tid] = dump_state(aud)
            live.pop(tid, None)
            live[tid] = (state, aud)
        while len(live) > LIVE_TABLES:
            del live[next(iter(live))]  # the table least recently in a batch
        new = sorted(v for v in b.versions - self._versions_returned if v[1])
        self._versions_returned.update(new)
        res.rows["rulesets"] = [ruleset_row(rid, h, b.now) for rid, h in new]
        return res

    def _handle(self, b: _Batch, aud: TableAuditor, m: InMessage, event: Any) -> None:
        """Skip (a redelivery), park (the table is quarantined) or judge one valid event."""
        position = f"{self.topic}:{m.partition}"
        if aud.already_applied(position, m.offset, event.seq):  # redelivered after a crash
            b.res.skipped += 1
            b.res.rows["skipped"].append(skipped_row(
                event, position, m.offset, b.now,
                f"redelivered: already applied (the table's last applied offset in {position} is "
                f"{aud.positions[position]}, its last seq {aud.sequence.last_seq})"))
            return
        if aud.quarantine is not None:
            q = aud.quarantine
            self._park(b, aud, m, event, f"table quarantined since seq {q.since_seq}: {q.reason}")
            return
        aud.mark_applied(position, m.offset)
        prev = aud.chain_head
        try:
            out = aud.feed(event, m.value)
        except Exception as exc:  # an engine defect: the table is unchanged (all or nothing)
            self._quarantine(b, aud, m, event, f"engine error on {event.type} of table {event.table_id}: "
                             f"{type(exc).__name__}: {exc}")
            return
        if out.rejected is not None:
            self._reject(b, m, out.rejected)
        elif out.duplicate is not None:  # its id is taken in events_raw: its bytes are kept here
            self._reject(b, m, out.duplicate)
        else:  # accepted: linked in the table's chain by feed
            b.res.rows["events_raw"].append(event_row(event, m.value, b.now, prev, aud.chain_head))
        b.res.rows["movements"].extend(movement_row(mv, event) for mv in out.movements)
        self._emit(b, event, out.verdicts, out.alerts)
        if event.type == "table_closed" and out.rejected is None and out.duplicate is None:
            # after the table's last digest: the watch stops waiting for its rounds
            b.res.messages.append(OutMessage(TOPIC_ROUND_DIGESTS, event.casino_id.encode(), TableMark(
                event.casino_id, event.table_id, event.occurred_at).to_json()))

    def _emit(self, b: _Batch, event: Any, verdicts: list[RoundVerdict], alerts: list[Alert]) -> None:
        rows, msgs, key = b.res.rows, b.res.messages, event.table_id.encode()
        for v in verdicts:
            b.versions.add((v.ruleset_id, v.ruleset_hash))
            for row in settlement_rows(v):
                rows["settlements"].append(row)
                msgs.append(OutMessage(TOPIC_SETTLEMENTS, key, message_json(row)))
            msgs.append(OutMessage(TOPIC_ROUND_DIGESTS, v.casino_id.encode(), digest_of(v).to_json()))
            b.res.digests += 1
        if alerts:
            trigger = str(event.event_id)
            for a in alerts:
                b.versions.add((a.ruleset_id, a.ruleset_hash))
                rows["alerts"].append(a.to_row())
                body = a.to_json_dict()
                body["trigger_event_id"] = trigger  # the event whose processing raised it
                msgs.append(OutMessage(TOPIC_ALERTS, key, message_json(body)))

    # -- quarantine ----------------------------------------------------------------------

    def _quarantine(self, b: _Batch, aud: TableAuditor, m: InMessage, event: Any, reason: str) -> None:
        """A poison event: rejected with ``reason``, the table quarantined from it (parked)."""
        self._reject(b, m, reason)
        aud.quarantine = Quarantine(reason, event.seq, str(event.event_id))
        self._park(b, aud, m, event, reason)
        self._table_alert(b, aud, event, ViolationKind.TABLE_QUARANTINED,
                          f"table {aud.table_id} quarantined at seq {event.seq}: {reason}; its later events are "
                          "parked, not judged, until `pitwatch quarantine release`")

    def _hold(self, b: _Batch, m: InMessage, event: Any, reason: str) -> None:
        """An event of a table whose stored state cannot be loaded: parked (stored with the
        reason, counted), its state kept as it is (never overwritten); one ``table_quarantined``
        alert per table and process (its id depends on the table only, so the warehouse keeps
        one). ``pitwatch quarantine release`` applies the parked events once a release reads
        the state."""
        self._park(b, None, m, event, reason)
        if event.table_id in self._held_alerted:
            return
        self._held_alerted.add(event.table_id)
        alert = alert_from_violation(
            Violation(ViolationKind.TABLE_QUARANTINED,
                      f"{reason}; its events are parked, not judged, until `pitwatch quarantine release` "
                      "with a release that reads the state", ENGINE_CITATION, ()),
            casino_id=event.casino_id, table_id=event.table_id, game=event.game, round_id=None,
            dealer_id=None, detected_at=event.occurred_at, ruleset_id="", ruleset_hash="")
        self._emit(b, event, [], [alert])

    def _park(self, b: _Batch, aud: TableAuditor | None, m: InMessage, event: Any, reason: str) -> None:
        """Store ``event`` (its raw bytes, position and ``reason``) as parked, counted; ``aud``
        is its quarantined table's auditor, ``None`` for a table whose state cannot be loaded."""
        if aud is not None:
            assert aud.quarantine is not None
            aud.quarantine.parked += 1
        b.res.parked += 1
        b.res.rows["parked"].append(parked_row(
            m.value, table_id=event.table_id, seq=event.seq, event_id=str(event.event_id), reason=reason,
            topic=self.topic, partition=m.partition, offset=m.offset, now=b.now))
        b.res.rows["events_raw"].append(event_row(event, m.value, b.now))

    def _release(self, b: _Batch, m: InMessage, control: dict[str, Any]) -> None:
        """Apply a table's parked events again, in seq order, and lift its quarantine."""
        tid = str(control["table_id"])
        if not _keyed_by(m, tid):
            self._reject(b, m, f"release of table {tid} refused: {_misrouted(m, tid)}")
            return
        aud = self._auditor(tid, b)
        parked = {r["parked_id"]: r for r in self.load_parked(tid)} if isinstance(aud, TableAuditor) else {}
        parked.update({r["parked_id"]: r for r in b.res.rows["parked"] if r["table_id"] == tid})
        if isinstance(aud, TableAuditor):  # parked events of an earlier, released quarantine are applied
            parked = {k: r for k, r in parked.items() if int(r["seq"]) > aud.sequence.last_seq}
        if not isinstance(aud, TableAuditor) or (aud.quarantine is None and not parked):
            why = aud if isinstance(aud, str) else "it is not quarantined"
            self._reject(b, m, f"release of table {tid} refused: {why}")
            return
        # a table held because its stored state could not be loaded, and now can, has parked
        # events but no quarantine in its state
        q = aud.quarantine or Quarantine("its stored state could not be loaded", 0, "")
        aud.quarantine = None
        self._held_alerted.discard(tid)
        events = [(r, parse_event(r["raw"].encode("utf-8"))) for r in
                  sorted(parked.values(), key=lambda r: (int(r["seq"]), int(r["offset"])))]
        if events:
            self._table_alert(b, aud, events[0][1], ViolationKind.QUARANTINE_RELEASED,
                              f"quarantine of table {tid} (since seq {q.since_seq}: {q.reason}) released by "
                              f"{control.get('requested_by') or 'unknown'}: {len(events)} parked event(s) applied again")
        for r, event in events:
            self._handle(b, aud, InMessage(tid.encode(), r["raw"].encode("utf-8"), int(r["partition"]),
                                           int(r["offset"])), event)

    def _table_alert(self, b: _Batch, aud: TableAuditor, event: Any, kind: str, message: str) -> None:
        ctx = aud.engine.ctx
        alert = alert_from_violation(
            Violation(kind, message, ENGINE_CITATION, (str(event.event_id),)),
            casino_id=event.casino_id, table_id=aud.table_id, game=event.game, round_id=None,
            dealer_id=ctx.dealer_id if ctx else None, detected_at=event.occurred_at,
            ruleset_id=ctx.ruleset.id if ctx else "", ruleset_hash=ctx.ruleset.content_hash if ctx else "")
        self._emit(b, event, [], [alert])

    def _auditor(self, tid: str, b: _Batch) -> TableAuditor | str:
        """The auditor of table ``tid`` for this batch (loaded from its stored state the first
        time), or the reason its events are held when the stored state cannot be loaded."""
        auditors, unreadable = b.auditors, b.unreadable
        aud = auditors.get(tid)
        if aud is not None:
            return aud
        if tid in unreadable:
            return unreadable[tid]
        blob = self.load_state(tid)
        kept = self._live.pop(tid, None)  # in use again: no longer as it was dumped
        try:
            if kept is not None and blob and kept[0] == blob:
                aud = kept[1]
            else:
                aud = load_state(blob) if blob else TableAuditor(tid)
        except StateError as exc:
            # the stored state is kept as it is (never overwritten) and every event of the
            # table is parked, with its bytes, until a release can read it
            unreadable[tid] = f"table {tid} held: its stored state cannot be loaded ({exc})"
            return unreadable[tid]
        auditors[tid] = aud
        return aud

    def _reject(self, b: _Batch, m: InMessage, reason: str) -> None:
        res = b.res
        row = rejected_record(m.value, reason, self.topic, m.partition, m.offset, b.now)
        res.rows["rejected"].append(row)
        res.messages.append(OutMessage(TOPIC_REJECTED, m.key or b"", message_json(rejected_message(row, m.value))))
