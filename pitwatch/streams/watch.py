"""The watch stage: the cross-round detectors over ``pitwatch.round-digests``, keyed by casino.

The table stage (:mod:`pitwatch.streams.processor`) judges rounds in their table's partition and
sends a digest of each verdict (:class:`pitwatch.detectors.digest.RoundDigest`) to
``pitwatch.round-digests`` with the casino as key: a casino's rounds, from all its tables, meet
in one partition, where one :class:`pitwatch.detectors.watch.CasinoWatch` per casino runs every
detector (a dealer and the player who follows him from table to table are one pair).

:class:`WatchProcessor` is this stage's batch processor, free of Kafka and Faust like the table
stage's: a batch of digest messages in; alert messages and rows, rejected messages and rows and
the new state of every casino touched out (a :class:`pitwatch.streams.processor.BatchResult`).
The worker runs it with the same :class:`pitwatch.streams.runtime.BatchRuntime` as the table
stage (:func:`pitwatch.streams.faust_app.make_app`), so the order that gives at-least-once with
nothing counted twice is the same: rows and alerts stored, then the states (which remember the
last offset applied per partition: a redelivered digest is skipped, counted and stored in the
``skipped`` table), then the offsets committed. Alert ids depend on the parties only, so an alert
raised twice (a redelivery) is stored once.

The watch releases a casino's rounds to its detectors in event-time order
(:class:`pitwatch.detectors.release.ReleaseBuffer`): a round received twice (a producer retry, or a
table stage that crashed between its outputs and its states and sent its digests again at new
offsets) is read once, whatever its offset; it is counted and stored in ``skipped``. A round that
arrives later than the release's bounds is judged out of order and counted (``late``). A table's
``table_closed`` comes as a :class:`pitwatch.detectors.digest.TableMark`.

A message that is not a digest or a mark, or is keyed by another casino, goes to
``pitwatch.rejected`` with its bytes and the reason. A digest of a casino whose stored state cannot
be read is **parked** (stored with its bytes and the reason, counted) and the state kept as it is.
A digest on which a detector raises (a poison digest) is parked too, and the batch runs again
from the stored states without it, so it changes no state; the worker never stops for a message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

from pitwatch.detectors.alerts import Alert
from pitwatch.detectors.digest import RoundDigest, TableMark, read_watch_message
from pitwatch.detectors.release import Intake
from pitwatch.detectors.watch import CasinoWatch, PoisonDigest
from pitwatch.streams.processor import BatchResult, InMessage, OutMessage, message_json, rejected_message, rejected_record
from pitwatch.streams.quarantine import parked_row
from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_REJECTED, TOPIC_ROUND_DIGESTS


@dataclass
class _Batch:
    res: BatchResult
    now: datetime
    watches: dict[str, CasinoWatch] = field(default_factory=dict)
    poison: dict[tuple[str, str], str] = field(default_factory=dict)
    """Rounds ``(table_id, round_id)`` on which a detector raised, with the reason: left out."""
    late: int = 0


class WatchProcessor:
    """Runs the casinos' detectors over batches of digest messages (module docstring).

    ``load_state(casino_id) -> bytes | None`` reads the stored state of a casino's watch;
    ``clock`` gives the UTC time stamped on rejected and skipped rows.
    """

    def __init__(self, load_state: Callable[[str], bytes | None],
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
                 topic: str = TOPIC_ROUND_DIGESTS) -> None:
        self.load_state = load_state
        self.clock = clock
        self.topic = topic

    def process(self, batch: list[InMessage]) -> BatchResult:
        """Process one batch (any mix of casinos, each partition's messages in offset order). A
        poison digest found on the way is parked and the batch run again without it (module
        docstring), so the result is as if it had never come."""
        poison: dict[tuple[str, str], str] = {}
        while True:
            b = _Batch(BatchResult(), self.clock().replace(microsecond=0), poison=poison)
            try:
                self._run(b, batch)
            except PoisonDigest as exc:
                d = exc.digest
                if (d.table_id, d.round_id) in poison:  # cannot happen: it is left out on the next run
                    raise RuntimeError(f"round {d.table_id}/{d.round_id} was left out and still judged") from exc
                poison[(d.table_id, d.round_id)] = exc.reason
                continue
            b.res.late = b.late
            return b.res

    def _run(self, b: _Batch, batch: list[InMessage]) -> None:
        res = b.res
        for m in batch:
            res.consumed += 1
            try:
                msg = read_watch_message(m.value)
            except ValueError as exc:
                self._reject(b, m, str(exc))
                continue
            if m.key != msg.casino_id.encode("utf-8"):
                self._reject(b, m, f"Kafka key {m.key!r} is not the casino_id {msg.casino_id!r}: not applied "
                                   "(a casino's digests must all be keyed by its casino_id)")
                continue
            watch = self._watch(b, msg.casino_id, m)
            if isinstance(watch, str):
                self._park(b, m, msg, watch)
                continue
            position = f"{self.topic}:{m.partition}"
            if watch.already_applied(position, m.offset):
                self._skip(b, m, msg, f"redelivered: round digest already applied (casino {msg.casino_id}'s last "
                                      f"applied offset in {position} is {watch.positions[position]})")
                continue
            watch.mark_applied(position, m.offset)
            if isinstance(msg, TableMark):
                self._alerts(b, watch.close_table(msg))
                continue
            reason = b.poison.get((msg.table_id, msg.round_id))
            if reason is not None:
                self._park(b, m, msg, reason)
                continue
            intake, alerts = watch.offer(msg)
            if intake is Intake.DUPLICATE:
                self._skip(b, m, msg, f"round {msg.table_id}/{msg.round_id} already received by casino "
                                      f"{msg.casino_id}'s watch (a digest sent again at a new offset)")
            b.late += intake is Intake.LATE
            self._alerts(b, alerts)
        res.states = {cid: w.dump() for cid, w in b.watches.items()}

    @staticmethod
    def _alerts(b: _Batch, alerts: list[Alert]) -> None:
        for a in alerts:
            b.res.rows["alerts"].append(a.to_row())
            b.res.messages.append(OutMessage(TOPIC_ALERTS, a.table_id.encode(), message_json(a.to_json_dict())))

    def _skip(self, b: _Batch, m: InMessage, msg: RoundDigest | TableMark, reason: str) -> None:
        position = f"{self.topic}:{m.partition}"
        b.res.skipped += 1
        b.res.rows["skipped"].append({
            "skip_id": f"{position}:{m.offset}", "table_id": msg.table_id, "seq": 0,
            "event_id": msg.round_id if isinstance(msg, RoundDigest) else msg.mark, "topic": self.topic,
            "partition": m.partition, "offset": m.offset, "reason": reason, "skipped_at": b.now})

    def _park(self, b: _Batch, m: InMessage, msg: RoundDigest | TableMark, reason: str,
              raw: bytes | None = None) -> None:
        """Store a digest (or mark) not judged, with its bytes and ``reason``; counted."""
        b.res.parked += 1
        b.res.rows["parked"].append(parked_row(
            m.value if raw is None else raw, table_id=msg.table_id, seq=0,
            event_id=msg.round_id if isinstance(msg, RoundDigest) else msg.mark, reason=reason,
            topic=self.topic, partition=m.partition, offset=m.offset, now=b.now))

    def _watch(self, b: _Batch, casino_id: str, m: InMessage) -> CasinoWatch | str:
        """The casino's watch for this batch, or why its stored state cannot be read. A poison
        digest still pending in a loaded state is taken out of it and parked."""
        watch = b.watches.get(casino_id)
        if watch is not None:
            return watch
        blob = self.load_state(casino_id)
        try:
            watch = CasinoWatch.load(blob) if blob else CasinoWatch(casino_id)
        except ValueError as exc:
            return (f"casino {casino_id}'s watch state cannot be loaded ({exc}): digest parked, not judged, "
                    "state kept")
        for (tid, rid), reason in b.poison.items():
            d = watch.release.evict(tid, rid)
            if d is not None:
                self._park(b, m, d, reason, d.to_json())
        b.watches[casino_id] = watch
        return watch

    def _reject(self, b: _Batch, m: InMessage, reason: str) -> None:
        row = rejected_record(m.value, reason, self.topic, m.partition, m.offset, b.now)
        b.res.rows["rejected"].append(row)
        b.res.messages.append(OutMessage(TOPIC_REJECTED, m.key or b"", message_json(rejected_message(row, m.value))))


__all__ = ["WatchProcessor"]
