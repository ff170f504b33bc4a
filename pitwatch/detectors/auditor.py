"""The per-table auditor: sequence integrity + rules engine + per-round detectors.

One :class:`TableAuditor` per table is the whole per-table state of the pipeline and of a file
replay. The stream processor stores it between batches in the versioned snapshot format of
:mod:`pitwatch.detectors.snapshot` (never pickled).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pitwatch.detectors.alerts import Alert, alert_from_violation, round_alerts
from pitwatch.detectors.chain import GENESIS, chain_link
from pitwatch.detectors.sequence import APPLY, SequenceChecker, SeqVerdict
from pitwatch.rules.accounting import MOVEMENT_EVENT_TYPES, Movement, movement_of
from pitwatch.rules.base import RoundVerdict, RuleError, Violation, ViolationKind
from pitwatch.rules.engine import ENGINE_CITATION, TableEngine


@dataclass
class AuditOutput:
    """What one event produced: finished round verdicts, alerts, chip and cash movements
    (:class:`~pitwatch.rules.accounting.Movement`), or a rejection reason."""

    verdicts: list[RoundVerdict] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    rejected: str | None = None
    movements: list[Movement] = field(default_factory=list)
    #: why a valid event was not applied (its ``event_id`` was seen before: a ``duplicate_event``
    #: alert says so too); the stream processor stores its bytes in ``rejected`` with this reason,
    #: since ``events_raw`` keeps the first event of an id (a forged copy would be lost)
    duplicate: str | None = None


NOTHING = AuditOutput()
"""Shared result of an event that produced nothing (callers must not mutate it)."""


@dataclass
class Quarantine:
    """Why a table's events are parked instead of judged: the engine failed unexpectedly on
    the event ``since_event_id`` (``since_seq``) with ``reason``. ``parked`` counts the events
    parked since (the poison event included). Lifted by a release (``pitwatch quarantine
    release``), which applies the parked events again in order."""

    reason: str
    since_seq: int
    since_event_id: str
    parked: int = 0


class TableAuditor:
    """Sequence checker and rules engine of one table.

    ``positions`` maps an input position ``"topic:partition"`` to the offset of the last
    event of this table applied from it; the stream processor uses it to skip messages
    redelivered after a crash without re-flagging them (:meth:`already_applied`).
    ``versions`` pins ruleset versions (``{ruleset_id: content hash}``, see
    :class:`~pitwatch.rules.engine.TableEngine`); by default the shipped ones judge.
    ``chain_head`` is the link (32 bytes) of the table's last accepted event, :data:`GENESIS`
    before the first (:mod:`pitwatch.detectors.chain`).
    """

    def __init__(self, table_id: str, versions: Mapping[str, str] | None = None):
        self.table_id = table_id
        self.sequence = SequenceChecker()
        self.engine = TableEngine(table_id, versions)
        self.positions: dict[str, int] = {}
        #: set while the table is quarantined (its events are parked, not judged)
        self.quarantine: Quarantine | None = None
        #: link of the last event accepted (its ``events_raw`` row's ``hash``)
        self.chain_head: bytes = GENESIS

    def already_applied(self, position: str, offset: int, seq: int) -> bool:
        """Whether the message at ``offset`` of ``position`` (``"topic:partition"``) carrying
        an event with ``seq`` was applied before (a redelivery after a crash).

        Both must hold: the offset is not after the last one applied from that same
        topic-partition, and the seq is not after the table's last seq. An offset from
        another partition (the table's key moved: more partitions, a new topic) is never
        taken as applied, and neither is a new seq at an old offset (a topic re-created)."""
        last = self.positions.get(position)
        return last is not None and offset <= last and seq <= self.sequence.last_seq

    def mark_applied(self, position: str, offset: int) -> None:
        """Remember ``offset`` as the last one applied from ``position``."""
        if offset > self.positions.get(position, -1):
            self.positions[position] = offset

    def _alert(self, v: Violation, event: Any) -> Alert:
        ctx = self.engine.ctx
        return alert_from_violation(
            v, casino_id=event.casino_id, table_id=self.table_id, game=event.game,
            round_id=event.round_id, dealer_id=ctx.dealer_id if ctx else None,
            detected_at=event.occurred_at, ruleset_id=ctx.ruleset.id if ctx else "",
            ruleset_hash=ctx.ruleset.content_hash if ctx else "")

    def feed(self, event: Any, raw: bytes | None = None) -> AuditOutput:
        """Check and apply one event of this table (``seq`` order); ``raw`` is the event as
        received (the bytes it was parsed from).

        Bad sequencing becomes an alert (gap, duplicate) or a rejection reason (stale seq).
        An event the rules reject (:class:`~pitwatch.rules.base.RuleError`) changes nothing
        and becomes a ``rejected_event`` alert citing the rule. Any other exception is an
        engine defect: the table is left as it was before the event (its sequence state
        included: the event counts as not seen) and the exception propagates (the caller
        quarantines the table).

        An event the sequence check accepts (in order, or after a gap; not a duplicate, not a
        stale seq) extends the table's hash chain with ``raw``: ``chain_head`` becomes
        :func:`~pitwatch.detectors.chain.chain_link` ``(chain_head, raw)``, the ``hash`` of its
        ``events_raw`` row (the head before is its ``prev_hash``). An event the rules refuse is
        accepted (it is stored). Without ``raw`` the chain is left as it is (callers that
        store nothing, e.g. tests of the rules)."""
        seqc = self.sequence
        before = (seqc.last_seq, seqc.excused)  # check() replaces ``excused``, never mutates it
        sv = seqc.check(event.event_id, event.seq)
        try:
            out = self._judge(sv, event)
        except Exception:  # all or nothing: the event was not seen either
            seqc.last_seq, seqc.excused = before
            seqc.forget(event.event_id)
            raise
        if raw is not None and sv.apply:
            self.chain_head = chain_link(self.chain_head, raw)
        return out

    def _judge(self, sv: SeqVerdict, event: Any) -> AuditOutput:
        if sv is APPLY:
            produced = self._apply(event)
            if not produced:
                return NOTHING
            out = AuditOutput()
            self._collect(produced, event, out)
            return out
        out = AuditOutput()
        if sv.violation is not None:
            out.alerts.append(self._alert(sv.violation, event))
        if sv.reject_reason is not None:
            out.rejected = sv.reject_reason
            return out
        if not sv.apply:
            if sv.violation is not None:
                out.duplicate = f"{sv.violation.message}: not applied"
            return out
        self._collect(self._apply(event), event, out)
        return out

    def _apply(self, event: Any) -> list[Any]:
        """The engine's outputs for ``event``, plus the chip or cash movement it records once
        the engine applied it (:func:`~pitwatch.rules.accounting.movement_of`)."""
        try:
            produced = self.engine.apply(event)
            m = movement_of(event) if event.type in MOVEMENT_EVENT_TYPES else None
            return produced if m is None else [*produced, m]
        except RuleError as exc:
            return [Violation(
                ViolationKind.REJECTED_EVENT,
                f"{event.type} (seq {event.seq}) rejected by the rules, table unchanged: {exc}",
                exc.citation or ENGINE_CITATION, (str(event.event_id),))]

    def _collect(self, produced: list[Any], event: Any, out: AuditOutput) -> None:
        for item in produced:
            if isinstance(item, RoundVerdict):
                out.verdicts.append(item)
                out.alerts.extend(round_alerts(item))
            elif isinstance(item, Movement):
                out.movements.append(item)
            else:
                out.alerts.append(self._alert(item, event))
