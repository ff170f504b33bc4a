"""What surveillance staff do with an alert: one immutable action per step, never an update.

An action is a JSON object (topic ``pitwatch.alert-actions``, warehouse table
``alert_actions``)::

    {"action_id": "0f6c...", "alert_id": "4b1e...", "action": "close", "actor": "inspector-3",
     "acted_at": "2026-11-24T22:10:05.120Z", "disposition": "false_positive",
     "reason": "dealer corrected the payout at the table, seen on camera 4"}

``action`` is one of :data:`ACTIONS`; the fields each needs (and only those) are checked here:
``assign`` names the ``assignee``; ``escalate`` the body escalated to (``escalated_to``:
inspector or regulator); ``comment`` carries its ``comment``; ``close`` a ``disposition`` and a
``reason``; ``reopen`` a ``reason``. Times are UTC to the millisecond. Whether an action is
allowed on the alert as it stands is the fold's concern (:mod:`pitwatch.lifecycle.state`).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pitwatch.schemas.envelope import UtcMs

ActionKind = Literal["acknowledge", "assign", "comment", "escalate", "close", "reopen"]
ACTIONS: tuple[str, ...] = ("acknowledge", "assign", "comment", "escalate", "close", "reopen")
Disposition = Literal["confirmed_violation", "dealer_error_corrected", "false_positive", "duplicate", "referred"]
DISPOSITIONS: tuple[str, ...] = (
    "confirmed_violation", "dealer_error_corrected", "false_positive", "duplicate", "referred")
"""How a closed alert was resolved: a violation confirmed, a dealer error corrected at the table,
a false positive, a duplicate of another alert, or referred (to the inspector, the regulator)."""
EscalationTarget = Literal["inspector", "regulator"]

Name = Annotated[str, Field(min_length=1, max_length=64)]
Text = Annotated[str, Field(max_length=4000)]

_NEEDS: dict[str, tuple[str, ...]] = {
    "acknowledge": (), "assign": ("assignee",), "comment": ("comment",),
    "escalate": ("escalated_to",), "close": ("disposition", "reason"), "reopen": ("reason",),
}
_OPTIONAL: dict[str, tuple[str, ...]] = {"escalate": ("reason",), "assign": ("reason",)}
DETAILS = ("assignee", "escalated_to", "disposition", "reason", "comment")
"""The fields of an action beyond who, what and when (each action takes some of them)."""


class ActionError(ValueError):
    """An action that cannot be recorded: malformed, or not allowed on the alert as it stands
    (unknown alert, closing without a reason, acting on a closed alert...). The message says
    which rule and why."""


class AlertAction(BaseModel):
    """One action on one alert (module docstring). Immutable. Raises a pydantic
    ``ValidationError`` (a ``ValueError``) when a field the action needs is missing or blank, or
    a field it does not take is given."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action_id: Annotated[str, Field(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")]
    alert_id: Name
    action: ActionKind
    actor: Name
    acted_at: UtcMs
    assignee: Name | None = None
    escalated_to: EscalationTarget | None = None
    disposition: Disposition | None = None
    reason: Text | None = None
    comment: Text | None = None

    @model_validator(mode="after")
    def _fields_of_the_action(self) -> AlertAction:
        needs = _NEEDS[self.action]
        for name in needs:
            value = getattr(self, name)
            if value is None or (isinstance(value, str) and not value.strip()):
                raise ValueError(f"{self.action} needs a {name.replace('_', ' ')}")
        extra = [n for n in DETAILS if getattr(self, n) is not None
                 and n not in needs and n not in _OPTIONAL.get(self.action, ())]
        if extra:
            raise ValueError(f"{self.action} takes no {', '.join(extra)}")
        return self


def new_action(alert_id: str, action: str, actor: str, acted_at: datetime, **details: str | None) -> AlertAction:
    """A new action with a fresh ``action_id`` (UUID 4); ``details`` as in :class:`AlertAction`.
    Raises :class:`ActionError` with the reason when the action is malformed."""
    from pydantic import ValidationError

    try:
        return AlertAction.model_validate({
            "action_id": str(uuid.uuid4()), "alert_id": alert_id, "action": action, "actor": actor,
            "acted_at": acted_at, **{k: v for k, v in details.items() if v is not None}})
    except ValidationError as exc:
        raise ActionError("; ".join(
            (f"{'.'.join(map(str, e['loc']))}: " if e["loc"] else "") + str(e["msg"]).removeprefix("Value error, ")
            for e in exc.errors())) from None


