"""Simulated surveillance staff for the demo: what a surveillance room does with an evening's alerts.

:func:`surveillance_actions` gives, for each alert, the actions an operator would take, timed after
its detection: most are acknowledged within minutes (critical and high ones sooner), some are
escalated to the inspector, many are closed with the disposition their kind usually gets (a
duplicate event is a ``duplicate``, a payout error the dealer put right is
``dealer_error_corrected``, past-posting a ``confirmed_violation``...), and some are left open, so
the monthly report and the dashboards have response times and open alerts to show. Deterministic
for a seed (action ids are UUID5 of the alert and the step); pure: no I/O, no clock.
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta
from typing import Any, Iterable

from pitwatch.lifecycle.actions import AlertAction

OPERATOR = "demo-surveillance"
"""The actor of every simulated action."""

_DISPOSITION = {"duplicate_event": "duplicate", "payout_discrepancy": "dealer_error_corrected",
                "past_posting": "confirmed_violation", "bet_above_maximum": "dealer_error_corrected",
                "float_discrepancy": "referred", "sequence_gap": "false_positive"}
_ACK_MINUTES = {"critical": (1, 4), "high": (2, 8), "medium": (3, 20), "low": (5, 45)}


def surveillance_actions(alerts: Iterable[dict[str, Any]], seed: int) -> list[AlertAction]:
    """Actions for ``alerts`` (dicts with ``alert_id``, ``kind``, ``severity``, ``detected_at`` UTC
    ``datetime``), in time order per alert: acknowledge (85%), then close (70% of those) or escalate
    to the inspector (float discrepancies, then closed as ``referred``)."""
    out: list[AlertAction] = []
    for a in alerts:
        rng = random.Random(f"{seed}/{a['alert_id']}")
        if rng.random() >= 0.85:
            continue
        lo, hi = _ACK_MINUTES.get(a["severity"], (3, 20))
        t: datetime = a["detected_at"] + timedelta(minutes=rng.uniform(lo, hi))
        out.append(_action(a, 0, "acknowledge", t))
        kind = a["kind"]
        if kind == "float_discrepancy":
            t += timedelta(minutes=rng.uniform(5, 30))
            out.append(_action(a, 1, "escalate", t, escalated_to="inspector", reason="chips missing from the float"))
        if rng.random() < 0.7:
            t += timedelta(minutes=rng.uniform(10, 180))
            out.append(_action(a, 2, "close", t, disposition=_DISPOSITION.get(kind, "confirmed_violation"),
                               reason=f"reviewed on camera ({kind.replace('_', ' ')})"))
    return out


def _action(alert: dict[str, Any], step: int, action: str, at: datetime, **details: str) -> AlertAction:
    aid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"pitwatch-demo/{alert['alert_id']}/{step}"))
    return AlertAction(action_id=aid, alert_id=alert["alert_id"], action=action, actor=OPERATOR,  # type: ignore[arg-type]
                       acted_at=at, **details)  # type: ignore[arg-type]


__all__ = ["OPERATOR", "surveillance_actions"]
