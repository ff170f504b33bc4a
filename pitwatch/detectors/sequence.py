"""Per-table event-stream integrity: sequence gaps, duplicate events, stale sequence numbers.

Every table numbers its events with ``seq`` = 1, 2, 3... (DESIGN, event contract):

- ``seq`` jumps past ``last + 1``: events were lost -> ``sequence_gap`` alert; the event is
  still applied (the engine flags what the missing events leave inconsistent).
- an ``event_id`` seen recently arrives again: a duplicate -> ``duplicate_event`` alert; the
  copy is not applied twice.
- ``seq`` not after ``last`` with a new ``event_id``: the event is out of order or forged ->
  rejected with the reason (it goes to ``pitwatch.rejected``).
- a message that fails the event schema but whose envelope still names its table and ``seq``
  is rejected with its reason (reported once, as an invalid message); that ``seq`` is then
  *excused*: it is not reported again as missing by a later ``sequence_gap`` (:meth:`excuse`).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from pitwatch.rules.base import Violation, ViolationKind

CITATION = "pitwatch event contract: per-table seq strictly increasing (README, Event contract)"
RECENT_IDS = 2048
EXCUSED_MAX = 2048
"""At most this many excused seqs are remembered per table (the lowest are kept)."""


@dataclass(frozen=True, slots=True)
class SeqVerdict:
    """Outcome of :meth:`SequenceChecker.check`: ``apply`` tells whether to fold the event;
    ``violation`` is a gap or duplicate; ``reject_reason`` is set for stale/out-of-order seq."""

    apply: bool
    violation: Violation | None = None
    reject_reason: str | None = None


APPLY = SeqVerdict(True)
"""The common verdict: in order, apply it (shared, immutable)."""


class SequenceChecker:
    """Tracks one table's last ``seq`` and its recent event ids (bounded memory)."""

    __slots__ = ("last_seq", "recent", "excused")

    def __init__(self) -> None:
        self.last_seq = 0
        #: insertion-ordered, the oldest id evicted first: an OrderedDict, whose popitem(last=False)
        #: is O(1) (a plain dict's ``next(iter(d))`` rescans the slots freed at its front)
        self.recent: OrderedDict[str, int] = OrderedDict()
        #: seqs after ``last_seq`` whose message was rejected as invalid (already reported)
        self.excused: set[int] = set()

    def excuse(self, seq: int) -> None:
        """Note that the message carrying ``seq`` of this table was rejected as invalid (and
        reported as such): a later gap over ``seq`` does not count it as missing. Only seqs
        after ``last_seq`` are kept, at most :data:`EXCUSED_MAX` of them (the lowest); a valid
        event that arrives later with that ``seq`` is applied as usual."""
        if seq > self.last_seq:
            self.excused.add(seq)
            if len(self.excused) > EXCUSED_MAX:
                self.excused.remove(max(self.excused))

    def check(self, event_id: str, seq: int) -> SeqVerdict:
        """Classify an event of this table by its ``event_id`` and ``seq``."""
        if event_id in self.recent:
            first = self.recent[event_id]
            return SeqVerdict(False, Violation(
                ViolationKind.DUPLICATE_EVENT,
                f"event {event_id} (seq {seq}) received again; first seen as seq {first}",
                CITATION, (event_id,)))
        if seq <= self.last_seq:
            return SeqVerdict(False, None, f"seq {seq} is not after the table's last seq {self.last_seq}")
        violation = None
        if seq > self.last_seq + 1:
            violation = self._gap(event_id, seq)
        if self.excused:
            self.excused = {s for s in self.excused if s > seq}
        self.last_seq = seq
        recent = self.recent
        recent[event_id] = seq
        if len(recent) > RECENT_IDS:
            recent.popitem(last=False)
        return APPLY if violation is None else SeqVerdict(True, violation)

    def _gap(self, event_id: str, seq: int) -> Violation | None:
        """The ``sequence_gap`` before ``seq``, not counting excused seqs (None if all are)."""
        first, last = self.last_seq + 1, seq - 1
        excused = sorted(s for s in self.excused if first <= s <= last)
        missing = last - first + 1 - len(excused)
        if missing == 0:
            return None
        text = f"{missing} event(s) missing: seq {first}..{last}"
        if excused:
            shown = ", ".join(str(s) for s in excused[:10]) + (", ..." if len(excused) > 10 else "")
            text += f" (not counting seq {shown}, rejected as invalid)"
        return Violation(ViolationKind.SEQUENCE_GAP, text, CITATION, (event_id,), amount=None)
