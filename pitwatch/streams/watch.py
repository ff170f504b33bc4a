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

A message that is not a digest, a digest under another key than its casino, or a digest of a
casino whose stored state cannot be read goes to ``pitwatch.rejected`` with its bytes and the
reason; it changes no state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

from pitwatch.detectors.digest import RoundDigest
from pitwatch.detectors.watch import CasinoWatch
from pitwatch.streams.processor import BatchResult, InMessage, OutMessage, message_json, rejected_message, rejected_record
from pitwatch.streams.topics import TOPIC_ALERTS, TOPIC_REJECTED, TOPIC_ROUND_DIGESTS


@dataclass
class _Batch:
    res: BatchResult
    now: datetime
    watches: dict[str, CasinoWatch] = field(default_factory=dict)


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
        """Process one batch (any mix of casinos, each partition's messages in offset order)."""
        b = _Batch(BatchResult(), self.clock().replace(microsecond=0))
        res = b.res
        for m in batch:
            res.consumed += 1
            try:
                digest = RoundDigest.from_json(m.value)
            except ValueError as exc:
                self._reject(b, m, str(exc))
                continue
            if m.key != digest.casino_id.encode("utf-8"):
                self._reject(b, m, f"Kafka key {m.key!r} is not the casino_id {digest.casino_id!r}: not applied "
                                   "(a casino's digests must all be keyed by its casino_id)")
                continue
            watch = self._watch(b, digest.casino_id)
            if isinstance(watch, str):
                self._reject(b, m, watch)
                continue
            position = f"{self.topic}:{m.partition}"
            if watch.already_applied(position, m.offset):
                res.skipped += 1
                res.rows["skipped"].append({
                    "skip_id": f"{position}:{m.offset}", "table_id": digest.table_id, "seq": 0,
                    "event_id": digest.round_id, "topic": self.topic, "partition": m.partition, "offset": m.offset,
                    "reason": f"redelivered: round digest already applied (casino {digest.casino_id}'s last applied "
                              f"offset in {position} is {watch.positions[position]})",
                    "skipped_at": b.now})
                continue
            watch.mark_applied(position, m.offset)
            for a in watch.observe(digest):
                res.rows["alerts"].append(a.to_row())
                res.messages.append(OutMessage(TOPIC_ALERTS, a.table_id.encode(), message_json(a.to_json_dict())))
        res.states = {cid: w.dump() for cid, w in b.watches.items()}
        return res

    def _watch(self, b: _Batch, casino_id: str) -> CasinoWatch | str:
        """The casino's watch for this batch, or why its stored state cannot be read."""
        watch = b.watches.get(casino_id)
        if watch is not None:
            return watch
        blob = self.load_state(casino_id)
        try:
            watch = CasinoWatch.load(blob) if blob else CasinoWatch(casino_id)
        except ValueError as exc:
            return f"casino {casino_id}'s watch state cannot be loaded ({exc}): digest not applied, state kept"
        b.watches[casino_id] = watch
        return watch

    def _reject(self, b: _Batch, m: InMessage, reason: str) -> None:
        row = rejected_record(m.value, reason, self.topic, m.partition, m.offset, b.now)
        b.res.rows["rejected"].append(row)
        b.res.messages.append(OutMessage(TOPIC_REJECTED, m.key or b"", message_json(rejected_message(row, m.value))))


__all__ = ["WatchProcessor"]
