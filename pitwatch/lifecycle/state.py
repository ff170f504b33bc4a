"""The current state of an alert: a fold of its actions (pure; no I/O, no clock).

States and the actions that move between them (an action not listed for a state is refused
with :class:`~pitwatch.lifecycle.actions.ActionError`)::

    open          --acknowledge-->  acknowledged
    open          --escalate------>  escalated       (escalating acknowledges too)
    acknowledged  --escalate------>  escalated
    open, acknowledged, escalated  --close-->  closed   (disposition and reason required)
    closed        --reopen-------->  open            (reason required)
    any but closed: assign, comment  (the state does not change)

So the state is that of the last ``acknowledge``, ``escalate``, ``close`` or ``reopen``
(``open`` before any): the warehouse view ``alert_status`` computes it that way in SQL, and a
test checks the two against each other. Actions are applied in ``(acted_at, action_id)``
order; the recorder gives each action of an alert a time after the previous one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Iterable

from pitwatch.lifecycle.actions import ActionError, AlertAction

STATES = ("open", "acknowledged", "escalated", "closed")
STATE_AFTER = {"acknowledge": "acknowledged", "escalate": "escalated", "close": "closed", "reopen": "open"}
"""The state each state-changing action leads to (``assign`` and ``comment`` change none)."""
ALLOWED: dict[str, frozenset[str]] = {
    "open": frozenset({"acknowledge", "assign", "comment", "escalate", "close"}),
    "acknowledged": frozenset({"assign", "comment", "escalate", "close"}),
    "escalated": frozenset({"assign", "comment", "close"}),
    "closed": frozenset({"reopen"}),
}


@dataclass(frozen=True)
class AlertStatus:
    """Where an alert stands after its actions. Times UTC; ``None`` until it happened.

    ``acknowledged_at``: the first acknowledgement (or escalation); ``closed_at``, ``disposition``
    and ``reason``: the last close, while closed; ``assignee``/``escalated_to``: the last ones
    given; ``actions``: how many were applied."""

    alert_id: str
    state: str = "open"
    assignee: str | None = None
    escalated_to: str | None = None
    disposition: str | None = None
    reason: str | None = None
    acknowledged_at: datetime | None = None
    closed_at: datetime | None = None
    last_acted_at: datetime | None = None
    actions: int = 0


def verify(status: AlertStatus, action: AlertAction) -> None:
    """Raise :class:`ActionError` if ``action`` cannot apply to an alert in ``status``: another
    alert, a time not after the last action, or an action the state does not allow (see the
    module docstring)."""
    if action.alert_id != status.alert_id:
        raise ActionError(f"action {action.action_id} is for alert {action.alert_id}, not {status.alert_id}")
    if status.last_acted_at is not None and action.acted_at <= status.last_acted_at:
        raise ActionError(f"{action.action} at {action.acted_at.isoformat()} is not after the alert's last action "
                          f"({status.last_acted_at.isoformat()})")
    if action.action not in ALLOWED[status.state]:
        if status.state == "closed":
            raise ActionError(f"alert {status.alert_id} is closed ({status.disposition}): reopen it first, with a "
                              "reason")
        if action.action == "reopen":
            raise ActionError(f"alert {status.alert_id} is {status.state}, not closed: nothing to reopen")
        raise ActionError(f"alert {status.alert_id} is already {status.state}: {action.action} does not apply")


def apply(status: AlertStatus, action: AlertAction) -> AlertStatus:
    """The status after ``action``; raises :class:`ActionError` (via :func:`verify`) and then
    changes nothing."""
    verify(status, action)
    new = replace(status, last_acted_at=action.acted_at, actions=status.actions + 1,
                  state=STATE_AFTER.get(action.action, status.state))
    if action.action == "assign":
        new = replace(new, assignee=action.assignee)
    elif action.action in ("acknowledge", "escalate"):
        if new.acknowledged_at is None:
            new = replace(new, acknowledged_at=action.acted_at)
        if action.action == "escalate":
            new = replace(new, escalated_to=action.escalated_to)
    elif action.action == "close":
        new = replace(new, closed_at=action.acted_at, disposition=action.disposition, reason=action.reason)
    elif action.action == "reopen":
        new = replace(new, closed_at=None, disposition=None, reason=action.reason)
    return new


def fold(alert_id: str, actions: Iterable[AlertAction]) -> AlertStatus:
    """The status of ``alert_id`` after ``actions`` (applied in ``(acted_at, action_id)``
    order). Raises :class:`ActionError` on the first action that does not apply: a stored
    history is expected to be valid, since every action was verified before it was recorded."""
    status = AlertStatus(alert_id)
    for action in sorted(actions, key=lambda a: (a.acted_at, a.action_id)):
        status = apply(status, action)
    return status
