"""Alerts: what the surveillance room sees. Built from the engine's violations, with a
severity and a stable id, so re-processing the same events never duplicates an alert.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from pitwatch.detectors.figures import gaming_day
from pitwatch.rules.accounting import BetFigures, bet_figures
from pitwatch.rules.base import BetCheck, RoundVerdict, Violation, ViolationKind

NAMESPACE = uuid.UUID("6c1f7f5e-3b1e-4d7e-9a35-2f5a1d0c9b11")

SEVERITY: dict[str, str] = {
    ViolationKind.PAYOUT_DISCREPANCY: "high",
    ViolationKind.UNKNOWN_BET_SETTLED: "critical",
    ViolationKind.PAST_POSTING: "critical",
    ViolationKind.DEALER_MISDRAW: "high",
    ViolationKind.BET_ABOVE_MAXIMUM: "medium",
    ViolationKind.BET_BELOW_MINIMUM: "medium",
    ViolationKind.INVALID_BET: "medium",
    ViolationKind.ILLEGAL_DECISION: "medium",
    ViolationKind.SPIN_DIRECTION: "medium",
    ViolationKind.SEQUENCE_GAP: "medium",
    ViolationKind.DUPLICATE_EVENT: "low",
    ViolationKind.REJECTED_EVENT: "medium",
    ViolationKind.TABLE_QUARANTINED: "high",
    ViolationKind.QUARANTINE_RELEASED: "low",
    ViolationKind.FLOAT_DISCREPANCY: "high",
    ViolationKind.DEALER_PLAYER_COLLUSION: "high",
    ViolationKind.RAKE_DISCREPANCY: "high",
    ViolationKind.PROHIBITED_PLAY: "high",
    ViolationKind.CHIP_DUMPING: "high",
    ViolationKind.SOFT_PLAY: "high",
    ViolationKind.WHIPSAW: "high",
    ViolationKind.ASSOCIATION: "high",
    ViolationKind.PROCEDURE: "low",
}
"""Alert severity per kind: ``critical`` (money left the table on a bet that should not exist
or was placed late), ``high`` (wrong money or a wrong draw), ``medium``, ``low``."""


_NAMESPACE_BYTES = NAMESPACE.bytes


def stable_id(*parts: object) -> str:
    """A deterministic UUID (v5, RFC 4122 name-based with SHA-1, in :data:`NAMESPACE`) from
    ``parts`` joined by ``|`` (``None`` as empty): the same inputs always give the same id.
    Equal to ``str(uuid.uuid5(NAMESPACE, name))``, computed without building ``UUID`` objects
    (one per settlement row made it a tenth of the pipeline's row building)."""
    name = "|".join("" if p is None else str(p) for p in parts)
    h = bytearray(hashlib.sha1(_NAMESPACE_BYTES + name.encode("utf-8")).digest()[:16])
    h[6] = (h[6] & 0x0F) | 0x50  # version 5
    h[8] = (h[8] & 0x3F) | 0x80  # RFC 4122 variant
    x = h.hex()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:]}"


def settlement_id(table_id: str, round_id: str, bet_id: str) -> str:
    """Stable id of the settlement of ``bet_id`` in ``round_id`` (a roulette bet en prison is
    settled in two rounds, hence the round in the key)."""
    return stable_id("settlement", table_id, round_id, bet_id)


@dataclass(frozen=True)
class Alert:
    """One alert. ``amount`` is the euros at stake (signed for payout discrepancies:
    positive = the player was over-paid); ``evidence`` the event ids behind it (a cross-round
    detector's: the rounds, ``table/round``); ``detected_at`` the UTC time of the event that
    revealed it. A cross-round detector's alert names every party in ``parties``
    (``"role:id"``, e.g. ``("dealer:D-1", "player:P-7")`` or the two players of a ring, in the
    detector's order) and gives its ``score`` (-log10 of its p-value); a round's alert has no
    ``parties`` (its ``player_id`` and ``dealer_id`` say who) and a score of 0."""

    alert_id: str
    kind: str
    severity: str
    casino_id: str
    table_id: str
    game: str
    round_id: str
    bet_id: str
    player_id: str
    dealer_id: str
    amount: Decimal | None
    message: str
    citation: str
    detected_at: datetime
    evidence: tuple[str, ...] = field(default=())
    ruleset_id: str = ""
    ruleset_hash: str = ""
    """The ruleset version in force at the table when the alert was raised ('' if none)."""
    parties: tuple[str, ...] = field(default=())
    score: float = 0.0

    def to_row(self) -> dict[str, Any]:
        """Warehouse row of the ``alerts`` table."""
        return {
            "alert_id": self.alert_id, "kind": self.kind, "severity": self.severity,
            "casino_id": self.casino_id, "table_id": self.table_id, "game": self.game,
            "round_id": self.round_id, "bet_id": self.bet_id, "player_id": self.player_id,
            "dealer_id": self.dealer_id,
            "amount": self.amount if self.amount is not None else Decimal("0.00"),
            "message": self.message, "citation": self.citation,
            "evidence": list(self.evidence), "parties": list(self.parties), "score": self.score,
            "ruleset_id": self.ruleset_id, "ruleset_hash": self.ruleset_hash,
            "detected_at": self.detected_at.replace(microsecond=0),
            "detected_ms": self.detected_at.microsecond // 1000,
        }

    def to_json_dict(self) -> dict[str, Any]:
        """JSON-ready dict for the ``pitwatch.alerts`` topic."""
        row = self.to_row()
        row["amount"] = None if self.amount is None else str(self.amount)
        row["detected_at"] = self.detected_at.isoformat().replace("+00:00", "Z")
        return row


def alert_from_violation(
    v: Violation, *, casino_id: str, table_id: str, game: str, round_id: str | None,
    dealer_id: str | None, detected_at: datetime, ruleset_id: str = "", ruleset_hash: str = "",
) -> Alert:
    """Turn a rules-engine :class:`Violation` into an :class:`Alert` with a stable id.

    The id depends only on the table, round, kind, bet and evidence, all of which are
    derived from the events, so replaying the same events yields the same id (whatever the
    ruleset version, which the alert records beside it).
    """
    aid = stable_id("alert", table_id, round_id or "", v.kind, v.bet_id or "", ",".join(v.event_ids))
    return Alert(
        alert_id=aid, kind=v.kind, severity=SEVERITY.get(v.kind, "medium"),
        casino_id=casino_id, table_id=table_id, game=game, round_id=round_id or "",
        bet_id=v.bet_id or "", player_id=v.player_id or "", dealer_id=dealer_id or "",
        amount=v.amount, message=v.message, citation=v.citation, detected_at=detected_at,
        evidence=tuple(e for e in v.event_ids if e), ruleset_id=ruleset_id, ruleset_hash=ruleset_hash,
    )


def round_alerts(verdict: RoundVerdict) -> list[Alert]:
    """Alerts for every violation of a round verdict (payout discrepancies, limits,
    past-posting, misdraws, illegal decisions, spin direction, procedure)."""
    return [
        alert_from_violation(
            v, casino_id=verdict.casino_id, table_id=verdict.table_id, game=verdict.game,
            round_id=verdict.round_id, dealer_id=verdict.dealer_id, detected_at=verdict.ended_at,
            ruleset_id=verdict.ruleset_id, ruleset_hash=verdict.ruleset_hash,
        )
        for v in verdict.violations
    ]


def settlement_rows(verdict: RoundVerdict) -> list[dict[str, Any]]:
    """Warehouse rows of the ``settlements`` table for a round verdict (one per bet check)."""
    rows: list[dict[str, Any]] = []
    ended: datetime = verdict.ended_at
    day = gaming_day(ended)
    figures = verdict.figures or tuple(bet_figures(c) for c in verdict.checks)
    for c, fig in zip(verdict.checks, figures, strict=True):
        rows.append(settlement_row(verdict, c, ended, fig, day))
    return rows


def settlement_row(verdict: RoundVerdict, c: BetCheck, ended: datetime, fig: BetFigures, day: date) -> dict[str, Any]:
    """One ``settlements`` row: expected vs recorded settlement of one bet, with its
    accounting figures ``fig`` (handle, win, theoretical win and variance: computed by the engine,
    :func:`pitwatch.rules.accounting.bet_figures`) and the gaming ``day`` of the round's end
    (:func:`pitwatch.detectors.figures.gaming_day`)."""
    e, r = c.expected, c.recorded
    return {
        "handle": fig.handle, "win": fig.win, "theoretical_win": fig.theoretical_win,
        "theoretical_variance": fig.theoretical_variance, "gaming_day": day,
        "settlement_id": settlement_id(verdict.table_id, verdict.round_id, e.bet_id),
        "casino_id": verdict.casino_id, "table_id": verdict.table_id, "game": verdict.game,
        "ruleset_id": verdict.ruleset_id, "ruleset_hash": verdict.ruleset_hash,
        "round_id": verdict.round_id, "bet_id": e.bet_id,
        "player_id": e.player_id, "dealer_id": verdict.dealer_id or "", "spot": e.spot,
        "stake": e.stake, "expected_outcome": e.outcome, "expected_returned": e.returned,
        "expected_commission": e.commission, "recorded": 1 if r is not None else 0,
        "recorded_outcome": r.outcome if r else "",
        "recorded_returned": r.returned if r else Decimal("0.00"),
        "recorded_commission": r.commission if r else Decimal("0.00"),
        "discrepancy": c.discrepancy, "citation": e.citation, "detail": e.detail,
        "settled_at": ended.replace(microsecond=0), "settled_ms": ended.microsecond // 1000,
    }
