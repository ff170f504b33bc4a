"""Event-time release of a casino's round digests to its detectors: one order, whatever the delivery.

The cross-round detectors' alerts depend on the order they read rounds in (an alert fires the first
time a record crosses a threshold and quotes the counts of that moment). The order digests reach
the watch stage is not the rounds' order: it interleaves the casino's tables as the table stage's
batches were cut, and a producer retry or a crash can send a digest again at a new offset. A
:class:`ReleaseBuffer` makes the order one:

- **Identity.** A round is ``(table_id, round_id)``. A table's rounds reach the watch in the table's
  order (one partition, judged in ``seq`` order), so a digest that ends before the last one
  received from its table, or at the same time with a round id received at that time, was seen
  already: it is a **duplicate** and is not read again (the caller counts and stores it). (A table
  whose clock went back would have its earlier-dated rounds counted as duplicates, and stored.)
- **Order.** Digests wait in the buffer and are released in the key ``(ended_at, table_id,
  round_id)`` once the casino's **watermark** has passed their end: the watermark is the lowest of
  ``max_seen - lateness`` (``max_seen``: the latest round end received from any table) and the
  last round end of every open table that is not idle (received a round within ``idle`` of
  ``max_seen``). A table that lags its neighbours therefore holds the release back until it
  catches up, and a table first seen up to ``lateness`` behind the others is still in time.
- **Closing.** A table's ``table_closed`` (a :class:`pitwatch.detectors.digest.TableMark` after its
  last round) stops it holding the release; when every table the casino has seen is closed, the
  buffer is released whole (the end of a session; the offline replay also releases everything at
  the end of its input).
- **Late rounds.** A digest that ends before the last one released (its table lagged more than the
  bound: longer than ``lateness`` unseen, or idle for longer than ``idle``) is **late**: it is
  still judged, at the next release, and the caller counts it. Only late rounds can make the
  alerts depend on delivery.

Pure: no clock (event time only), no I/O. State: :meth:`ReleaseBuffer.to_state` (versioned with the
casino's watch, times as UTC ISO 8601, pending digests as their JSON).
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum
from typing import Any, Mapping

from pitwatch.detectors.digest import RoundDigest, iso_utc, parse_utc

Key = tuple[datetime, str, str]
"""The release order of a digest: ``(ended_at, table_id, round_id)``."""


@dataclass(frozen=True)
class ReleasePolicy:
    """The bounds of the release (module docstring), in event time. ``lateness``: how far behind the
    latest round end a round may still arrive in order (a table first seen, or lagging a little);
    ``idle``: how long a table that sends no round keeps holding the release back (an open table
    with nobody playing must not stop the casino's detectors)."""

    lateness: timedelta = timedelta(minutes=30)
    idle: timedelta = timedelta(hours=2)


class Intake(str, Enum):
    """What :meth:`ReleaseBuffer.offer` did with a digest."""

    BUFFERED = "buffered"
    """Waiting for the watermark, in order."""
    LATE = "late"
    """Waiting, but it ends before a round already released: judged out of order."""
    DUPLICATE = "duplicate"
    """Its round was received before: not read again."""


@dataclass
class _Table:
    last_end: datetime
    ties: list[str]
    """The rounds received that end at ``last_end``."""
    open: bool = True


def key_of(d: RoundDigest) -> Key:
    """The release key of a digest (module docstring)."""
    return (d.ended_at, d.table_id, d.round_id)


@dataclass
class ReleaseBuffer:
    """The casino's round digests waiting for release (module docstring)."""

    policy: ReleasePolicy = field(default_factory=ReleasePolicy)
    tables: dict[str, _Table] = field(default_factory=dict)
    pending: list[tuple[Key, RoundDigest]] = field(default_factory=list)
    """A heap on the release key."""
    frontier: Key | None = None
    """The key of the last digest released."""
    max_seen: datetime | None = None

    def offer(self, d: RoundDigest) -> Intake:
        """Take ``d`` in (or not: :attr:`Intake.DUPLICATE`); nothing is released here (:meth:`release`)."""
        t = self.tables.get(d.table_id)
        if t is not None and (d.ended_at < t.last_end or (d.ended_at == t.last_end and d.round_id in t.ties)):
            return Intake.DUPLICATE
        if t is None:
            self.tables[d.table_id] = _Table(d.ended_at, [d.round_id])
        elif d.ended_at == t.last_end:
            t.ties.append(d.round_id)
            t.open = True
        else:
            t.last_end, t.ties, t.open = d.ended_at, [d.round_id], True
        if self.max_seen is None or d.ended_at > self.max_seen:
            self.max_seen = d.ended_at
        k = key_of(d)
        heapq.heappush(self.pending, (k, d))
        return Intake.LATE if self.frontier is not None and k < self.frontier else Intake.BUFFERED

    def close(self, table_id: str) -> None:
        """The table closed: it no longer holds the release back (until its next round)."""
        t = self.tables.get(table_id)
        if t is not None:
            t.open = False

    def watermark(self) -> datetime | None:
        """The time before which every pending round is released (``None``: release everything, no
        table of the casino is open)."""
        if self.max_seen is None:
            return None
        holding = [t.last_end for t in self.tables.values()
                   if t.open and t.last_end >= self.max_seen - self.policy.idle]
        if not holding:
            return None
        return min(min(holding), self.max_seen - self.policy.lateness)

    def release(self, everything: bool = False) -> list[RoundDigest]:
        """Pop, in release order, the pending digests that end before the watermark (all of them with
        ``everything``, or when no table is open)."""
        mark = None if everything else self.watermark()
        out: list[RoundDigest] = []
        while self.pending and (mark is None or self.pending[0][0][0] < mark):
            k, d = heapq.heappop(self.pending)
            out.append(d)
            if self.frontier is None or k > self.frontier:
                self.frontier = k
        return out

    def offer_back(self, d: RoundDigest) -> None:
        """Return a released digest that was not judged (a poison digest before it) to the buffer."""
        heapq.heappush(self.pending, (key_of(d), d))

    def evict(self, table_id: str, round_id: str) -> RoundDigest | None:
        """Remove a pending digest (a poison one) and return it, or ``None`` if it is not pending."""
        for i, (_, d) in enumerate(self.pending):
            if d.table_id == table_id and d.round_id == round_id:
                self.pending.pop(i)
                heapq.heapify(self.pending)
                return d
        return None

    def to_state(self) -> dict[str, Any]:
        """JSON-ready state: tables (last round received, open), pending digests (their JSON, in
        release order), the frontier and the latest round end; times as UTC ISO 8601."""
        return {
            "tables": {tid: [iso_utc(t.last_end), list(t.ties), t.open] for tid, t in sorted(self.tables.items())},
            "pending": [json.loads(d.to_json()) for _, d in sorted(self.pending, key=lambda kd: kd[0])],
            "frontier": None if self.frontier is None else [iso_utc(self.frontier[0]), self.frontier[1], self.frontier[2]],
            "max_seen": None if self.max_seen is None else iso_utc(self.max_seen),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any], policy: ReleasePolicy | None = None) -> ReleaseBuffer:
        """Inverse of :meth:`to_state`. Raises ``ValueError`` for a malformed state."""
        out = cls(policy or ReleasePolicy())
        try:
            out.tables = {str(tid): _Table(parse_utc(e), [str(r) for r in ties], bool(o))
                          for tid, (e, ties, o) in state["tables"].items()}
            out.pending = [(key_of(d), d) for d in (RoundDigest.from_json(json.dumps(p)) for p in state["pending"])]
            heapq.heapify(out.pending)
            f = state.get("frontier")
            out.frontier = None if f is None else (parse_utc(f[0]), str(f[1]), str(f[2]))
            m = state.get("max_seen")
            out.max_seen = None if m is None else parse_utc(m)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a release buffer state: {type(exc).__name__}: {exc}") from exc
        return out


__all__ = ["Intake", "Key", "ReleaseBuffer", "ReleasePolicy", "key_of"]
