"""The demo's simulated surveillance staff (:mod:`pitwatch.sim.surveillance`): every action it takes
is one the alert lifecycle allows, after the alert's detection, in order; the same seed gives the
same actions."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st
from pitwatch.lifecycle.state import AlertStatus, apply
from pitwatch.sim.surveillance import OPERATOR, surveillance_actions

KINDS = ["payout_discrepancy", "past_posting", "float_discrepancy", "duplicate_event", "sequence_gap", "procedure"]
T0 = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)

alerts = st.lists(st.builds(
    lambda i, kind, sev, minutes: {"alert_id": f"A-{i}", "kind": kind, "severity": sev,
                                   "detected_at": T0 + timedelta(minutes=minutes)},
    st.integers(0, 10**6), st.sampled_from(KINDS), st.sampled_from(["critical", "high", "medium", "low"]),
    st.integers(0, 600)), max_size=40, unique_by=lambda a: a["alert_id"])


@settings(max_examples=50, deadline=None)
@given(alerts, st.integers(0, 1000))
def test_every_action_is_allowed_timed_after_detection_and_repeatable(batch, seed):
    actions = surveillance_actions(batch, seed)
    assert [a.model_dump() for a in surveillance_actions(batch, seed)] == [a.model_dump() for a in actions]
    detected = {a["alert_id"]: a["detected_at"] for a in batch}
    status: dict[str, AlertStatus] = {}
    last: dict[str, datetime] = {}
    for a in actions:
        assert a.actor == OPERATOR and a.acted_at > last.get(a.alert_id, detected[a.alert_id])
        status[a.alert_id] = apply(status.get(a.alert_id) or AlertStatus(a.alert_id), a)  # raises if not allowed
        last[a.alert_id] = a.acted_at
    for alert_id, s in status.items():
        kind = next(a["kind"] for a in batch if a["alert_id"] == alert_id)
        if s.state == "closed":
            assert s.disposition == {"duplicate_event": "duplicate", "float_discrepancy": "referred",
                                     "sequence_gap": "false_positive", "past_posting": "confirmed_violation",
                                     "payout_discrepancy": "dealer_error_corrected"}.get(kind, "confirmed_violation")
