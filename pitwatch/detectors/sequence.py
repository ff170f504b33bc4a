"""Per-table event-stream integrity: sequence gaps, duplicate events, stale sequence numbers.

Every table numbers its events with ``seq`` = 1, 2, 3... (``docs/events.md``, the event contract):

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

from collections import deque
from dataclasses import dataclass

from pitwatch.rules.base import Violation, ViolationKind

CITATION = "pitwatch event contract: per-table seq strictly increasing (docs/events.md, Stream integrity)"
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
    """Tracks one table's last ``seq`` and its recent event ids (bounded memory).

    ``recent`` maps the last :data:`RECENT_IDS` applied event ids to their seqs, oldest first
    (seqs strictly increase along it). Its stored form (:meth:`recent_ids`,
    :meth:`recent_seq_runs`) is kept up to date as events arrive, so that writing the table's
    state after every batch costs what the batch added, not the 2,048 ids again: those ids are
    scattered in memory, and reading them all back cost about a millisecond per table per batch.
    Change ``recent`` only through :meth:`check`, :meth:`forget` and :meth:`restore`.
    """

    __slots__ = ("last_seq", "recent", "excused", "_order", "_runs", "_text", "_text_n", "_added", "_dropped")

    def __init__(self) -> None:
        self.last_seq = 0
        #: id -> seq, oldest first (a dict keeps its insertion order); ``_order`` holds the same
        #: ids in a deque, whose popleft finds the oldest at once (``next(iter(dict))`` rescans the
        #: slots freed at the dict's front, and an OrderedDict's linked nodes cost a cache miss each)
        self.recent: dict[str, int] = {}
        self._order: deque[str] = deque()
        #: seqs after ``last_seq`` whose message was rejected as invalid (already reported)
        self.excused: set[int] = set()
        #: the seqs of ``recent`` in order, as runs ``[first, last]`` of consecutive seqs
        self._runs: list[list[int]] = []
        #: ``recent``'s ids joined by commas as of the last :meth:`recent_ids` (``_text_n`` ids),
        #: the ids added since and how many of the oldest were evicted since
        self._text = ""
        self._text_n = 0
        self._added: list[str] = []
        self._dropped = 0

    @classmethod
    def restore(cls, last_seq: int, recent: list[tuple[str, int]], excused: set[int]) -> "SequenceChecker":
        """A checker with ``last_seq``, the recent ``(event_id, seq)`` pairs (oldest first,
        seqs increasing) and the excused seqs, as a stored table state holds them."""
        seqc = cls()
        seqc.last_seq = last_seq
        seqc.excused = set(excused)
        for event_id, seq in recent:
            seqc._remember(event_id, seq)
        seqc.recent_ids()
        return seqc

    def _remember(self, event_id: str, seq: int) -> None:
        recent = self.recent
        recent[event_id] = seq
        self._order.append(event_id)
        added = self._added
        if len(added) < RECENT_IDS:
            added.append(event_id)
        else:  # no stored form asked for in a while (a replay): join all at the next one
            self._text_n = -1
            added.clear()
        runs = self._runs
        if runs and runs[-1][1] == seq - 1:
            runs[-1][1] = seq
        else:
            runs.append([seq, seq])
        if len(recent) > RECENT_IDS:
            del recent[self._order.popleft()]
            self._dropped += 1
            first = runs[0]
            if first[0] == first[1]:
                del runs[0]
            else:
                first[0] += 1

    def forget(self, event_id: str) -> None:
        """Undo the remembering of ``event_id`` by the last :meth:`check` (the event was not
        applied after all). An id evicted by that check to make room stays evicted."""
        if not self._order or self._order[-1] != event_id:
            return
        self._order.pop()
        seq = self.recent.pop(event_id)
        last = self._runs[-1]
        if last[0] == last[1] == seq:
            self._runs.pop()
        else:
            last[1] = seq - 1
        if self._added and self._added[-1] == event_id:
            self._added.pop()
        else:  # already in the joined text: join again at the next recent_ids()
            self._text_n = -1

    def recent_ids(self) -> str:
        """The ids of ``recent``, oldest first, joined by commas (event ids are UUIDs: no
        commas), as the table state stores them."""
        text, drop = self._text, self._dropped
        if self._text_n < 0 or self._text_n - drop + len(self._added) != len(self.recent):
            text = ",".join(self.recent)  # after a forget(): once
        else:
            new = self._added
            if drop >= self._text_n:
                text, new = "", new[drop - self._text_n:]
            elif drop:
                pos = 0
                for _ in range(drop):
                    pos = text.index(",", pos) + 1
                text = text[pos:]
            if new:
                tail = ",".join(new)
                text = f"{text},{tail}" if text else tail
        self._text, self._text_n, self._added, self._dropped = text, len(self.recent), [], 0
        return text

    def recent_seq_runs(self) -> list[list[int]]:
        """The seqs of ``recent``, oldest first, as runs ``[first, last]`` of consecutive seqs
        (a copy)."""
        return [list(r) for r in self._runs]

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
        self._remember(event_id, seq)
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
