"""The alert lifecycle (issue 8 §2): actions are checked, recorded once, never edited; where an
alert stands is a fold of its actions, in Python (pitwatch.lifecycle.state) and in the
warehouse's ``alert_status`` view, and the two agree (hypothesis, both ClickHouse engines)."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pitwatch.lifecycle.actions import DISPOSITIONS, ActionError, AlertAction, new_action
from pitwatch.lifecycle.state import ALLOWED, AlertStatus, apply, fold
from pitwatch.lifecycle.store import action_json, current, load_actions, record

from tests.warehouse.rows import alert

T0 = datetime(2026, 11, 24, 21, 0, tzinfo=timezone.utc)


def act(action: str, at: int, alert_id: str = "A-1", by: str = "surv-1", **details) -> AlertAction:
    return new_action(alert_id, action, by, T0 + timedelta(seconds=at), **details)


# ----------------------------------------------------------------------------- the fold


def test_a_full_history_folds_to_where_the_alert_stands():
    history = [act("acknowledge", 60), act("assign", 70, assignee="insp-2"), act("comment", 80, comment="camera 4"),
               act("escalate", 90, escalated_to="inspector"),
               act("close", 100, disposition="dealer_error_corrected", reason="corrected at the table"),
               act("reopen", 200, reason="the player disputes it"),
               act("close", 300, disposition="confirmed_violation", reason="seen on the replay")]
    s = fold("A-1", reversed(history))  # applied in time order whatever the order given
    assert (s.state, s.assignee, s.escalated_to, s.disposition, s.reason, s.actions) == (
        "closed", "insp-2", "inspector", "confirmed_violation", "seen on the replay", 7)
    assert s.acknowledged_at == T0 + timedelta(seconds=60) and s.closed_at == T0 + timedelta(seconds=300)


@pytest.mark.parametrize("history, refused, message", [
    ([act("close", 1, disposition="duplicate", reason="same as A-0")], act("comment", 2, comment="x"),
     "alert A-1 is closed (duplicate): reopen it first"),
    ([], act("reopen", 1, reason="why not"), "alert A-1 is open, not closed: nothing to reopen"),
    ([act("acknowledge", 1)], act("acknowledge", 2), "alert A-1 is already acknowledged"),
    ([act("escalate", 1, escalated_to="regulator")], act("acknowledge", 2), "already escalated"),
    ([act("acknowledge", 5)], act("assign", 5, assignee="x"), "is not after the alert's last action"),
])
def test_an_action_the_state_does_not_allow_is_refused_and_changes_nothing(history, refused, message):
    before = fold("A-1", history)
    with pytest.raises(ActionError, match=re.escape(message)):
        apply(before, refused)
    assert fold("A-1", history) == before


@pytest.mark.parametrize("action, details, message", [
    ("close", {"disposition": "false_positive"}, "close needs a reason"),
    ("close", {"disposition": "false_positive", "reason": "   "}, "close needs a reason"),
    ("close", {"reason": "no disposition"}, "close needs a disposition"),
    ("reopen", {}, "reopen needs a reason"),
    ("assign", {}, "assign needs a assignee"),
    ("escalate", {"escalated_to": "the press"}, "escalated_to"),
    ("acknowledge", {"reason": "x"}, "acknowledge takes no reason"),
    ("close", {"disposition": "fixed", "reason": "x"}, "disposition"),
])
def test_a_malformed_action_is_a_clear_error(action, details, message):
    with pytest.raises(ActionError, match=re.escape(message)):
        act(action, 1, **details)


# ----------------------------------------------------------------------------- the store


def test_record_checks_publishes_and_stores_each_action_once(warehouse):
    assert warehouse.insert_new("alerts", [alert(1), alert(2, detected_at=T0 + timedelta(minutes=1))]) == 2
    sent: list[tuple[bytes, bytes]] = []
    publish = lambda k, v: sent.append((k, v))  # noqa: E731
    record(warehouse, act("acknowledge", 60), publish)
    record(warehouse, act("close", 120, reason="paid again at the table", disposition="dealer_error_corrected"), publish)
    with pytest.raises(ActionError, match="unknown alert A-9"):
        record(warehouse, act("acknowledge", 60, alert_id="A-9"), publish)
    with pytest.raises(ActionError, match="is closed"):
        record(warehouse, act("comment", 130, comment="late"), publish)
    assert [k for k, _ in sent] == [b"A-1", b"A-1"] and b'"disposition": "dealer_error_corrected"' in sent[1][1]
    assert sorted(a.action for a in load_actions(warehouse, "A-1")) == ["acknowledge", "close"]
    rows = {r["alert_id"]: r for r in current(warehouse)}
    assert [r["alert_id"] for r in current(warehouse)] == ["A-2", "A-1"]  # newest first
    assert (rows["A-1"]["state"], rows["A-1"]["disposition"], rows["A-1"]["acknowledged_at"]) == (
        "closed", "dealer_error_corrected", T0 + timedelta(seconds=60))
    assert (rows["A-2"]["state"], rows["A-2"]["actions"]) == ("open", 0)
    assert [r["alert_id"] for r in current(warehouse, "active")] == ["A-2"]
    assert [r["alert_id"] for r in current(warehouse, "closed")] == ["A-1"]


def test_an_action_at_the_same_instant_as_the_last_is_kept_after_it(warehouse):
    warehouse.insert_new("alerts", [alert(1)])
    record(warehouse, act("acknowledge", 10))
    status = record(warehouse, act("assign", 10, assignee="insp-2"))
    assert status.last_acted_at == T0 + timedelta(seconds=10, milliseconds=1)
    assert fold("A-1", load_actions(warehouse, "A-1")) == status


def test_the_message_is_the_action_as_json():
    a = act("close", 1, disposition="referred", reason="to the regulator")
    assert AlertAction.model_validate_json(action_json(a)) == a
    assert b'"acted_at": "2026-11-24T21:00:01.000Z"' in action_json(a)


# ----------------------------------------------------------------------------- Python fold == SQL view

STATE_CHANGING = ("acknowledge", "escalate", "close", "reopen")


@st.composite
def histories(draw) -> list[AlertAction]:
    """A valid history: each step one of the actions the state allows."""
    status, out = AlertStatus("A-1"), []
    for i in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(sorted(ALLOWED[status.state])))
        details = {"assign": {"assignee": draw(st.sampled_from(["ana", "luis"]))},
                   "comment": {"comment": "c"},
                   "escalate": {"escalated_to": draw(st.sampled_from(["inspector", "regulator"]))},
                   "close": {"disposition": draw(st.sampled_from(DISPOSITIONS)), "reason": f"r{i}"},
                   "reopen": {"reason": f"o{i}"}}.get(kind, {})
        a = act(kind, i * 7 + draw(st.integers(1, 5)), **details)
        status = apply(status, a)
        out.append(a)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=histories())
def test_the_warehouse_view_folds_like_the_python_fold(warehouse, history):
    """A second implementation of the fold (SQL, schema.sql's alert_status) against the first."""
    alert_id = f"A-{uuid.uuid4().hex[:8]}"
    history = [a.model_copy(update={"alert_id": alert_id}) for a in history]
    warehouse.insert_new("alerts", [alert(0, alert_id=alert_id)])
    from pitwatch.lifecycle.store import action_row

    warehouse.insert_new("alert_actions", [action_row(a) for a in history])
    want = fold(alert_id, history)
    (got,) = current(warehouse, alert_id=alert_id)
    assert (got["state"], got["assignee"] or None, got["escalated_to"] or None, got["disposition"] or None,
            got["acknowledged_at"], got["closed_at"], got["actions"]) == (
        want.state, want.assignee, want.escalated_to, want.disposition, want.acknowledged_at, want.closed_at,
        want.actions)


def test_response_times_are_the_medians_from_detection(warehouse):
    """Median seconds from detection to the first acknowledgement (an escalation counts) and to
    the close, worked out by hand: acknowledged after 60, 30 and 90 s -> 60 s; closed after 300,
    600 and 450 s -> 450 s; an alert detected outside the period is not counted."""
    from tests.warehouse.rows import T0 as STORED_T0

    AT = STORED_T0.replace(microsecond=0)  # stored to the second, its milliseconds in detected_ms
    warehouse.insert_new("alerts", [alert(1, detected_at=AT, detected_ms=250), alert(2, detected_at=AT),
                                    alert(3, detected_at=AT), alert(4, detected_at=AT),
                                    alert(5, detected_at=AT + timedelta(days=40))])
    s = timedelta(seconds=1)
    for alert_id, action, after, details in [
            ("A-1", "acknowledge", 60.25, {}), ("A-1", "close", 300.25, {"disposition": "duplicate", "reason": "r"}),
            ("A-2", "escalate", 30, {"escalated_to": "inspector"}),
            ("A-2", "close", 600, {"disposition": "referred", "reason": "r"}),
            ("A-3", "acknowledge", 90, {}), ("A-4", "close", 450, {"disposition": "false_positive", "reason": "r"}),
            ("A-5", "acknowledge", 1, {})]:
        at = AT + after * s + (timedelta(days=40) if alert_id == "A-5" else timedelta(0))
        record(warehouse, new_action(alert_id, action, "surv-1", at.replace(tzinfo=timezone.utc), **details))
    from pitwatch.lifecycle.store import response_times

    got = response_times(warehouse, AT.replace(tzinfo=timezone.utc), (AT + timedelta(days=1)).replace(tzinfo=timezone.utc))
    assert got == {"alerts": 4, "acknowledged": 3, "closed": 3, "median_ack_s": 60.0, "median_close_s": 450.0}
