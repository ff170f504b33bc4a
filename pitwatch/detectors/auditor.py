"""The per-table auditor: sequence integrity + rules engine + per-round detectors.

One :class:`TableAuditor` per table is the whole per-table state of the pipeline (the stream
processor keeps it, pickled, in a Faust table) and of a file replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pitwatch.detectors.alerts import Alert, alert_from_violation, round_alerts
from pitwatch.detectors.sequence import APPLY, SequenceChecker
from pitwatch.rules.base import RoundVerdict, Violation
from pitwatch.rules.engine import TableEngine


@dataclass
class AuditOutput:
    """What one event produced: finished round verdicts, alerts, or a rejection reason."""

    verdicts: list[RoundVerdict] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    rejected: str | None = None


NOTHING = AuditOutput()
"""Shared result of an event that produced nothing (callers must not mutate it)."""


class TableAuditor:
    """Sequence checker and rules engine of one table.

    ``last_offset`` is the offset (in its partition) of the last event applied; the stream
    processor uses it to skip redelivered messages after a crash without re-flagging them.
    """

    def __init__(self, table_id: str):
        self.table_id = table_id
        self.sequence = SequenceChecker()
        self.engine = TableEngine(table_id)
        self.last_offset = -1

    def _alert(self, v: Violation, event: Any) -> Alert:
        ctx = self.engine.ctx
        return alert_from_violation(
            v, casino_id=event.casino_id, table_id=self.table_id, game=event.game.value,
            round_id=event.round_id, dealer_id=ctx.dealer_id if ctx else None,
            detected_at=event.occurred_at)

    def feed(self, event: Any) -> AuditOutput:
        """Check and apply one event of this table (``seq`` order). Raises nothing for bad
        sequencing: it becomes an alert or a rejection reason. Raises
        :class:`pitwatch.rules.base.RuleError` only for events the engine cannot interpret
        (e.g. an unknown ruleset), which the caller rejects."""
        sv = self.sequence.check(event.event_id, event.seq)
        if sv is APPLY:
            produced = self.engine.apply(event)
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
            return out
        self._collect(self.engine.apply(event), event, out)
        return out

    def _collect(self, produced: list, event: Any, out: AuditOutput) -> None:
        for item in produced:
            if isinstance(item, RoundVerdict):
                out.verdicts.append(item)
                out.alerts.extend(round_alerts(item))
            else:
                out.alerts.append(self._alert(item, event))
