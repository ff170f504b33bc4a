"""Recording alert actions: verified against the alert's history, then put on the
``pitwatch.alert-actions`` topic (keyed by the alert) and in the warehouse's ``alert_actions``
table; and reading where alerts stand (the warehouse view ``alert_status``).

:func:`record` reads the alert and its stored actions from the warehouse, folds them
(:mod:`pitwatch.lifecycle.state`), refuses an action that does not apply with
:class:`~pitwatch.lifecycle.actions.ActionError`, then publishes it (``publish``, e.g. a Kafka
producer) and inserts its row (idempotent by ``action_id``). Two people acting on one alert at
the same moment are not serialised here: each action is checked against the history it read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Sequence

from pitwatch.lifecycle.actions import DETAILS, ActionError, AlertAction, new_action
from pitwatch.lifecycle.state import AlertStatus, apply, fold

Publish = Callable[[bytes, bytes], None]
"""``publish(key, value)``: put one action on the topic (raises if it could not)."""

CURRENT_SQL = """
SELECT a.alert_id, a.kind, a.severity, a.casino_id, a.table_id, a.round_id, a.dealer_id, a.amount,
       a.message, a.detected_at, a.detected_ms, if(s.state = '', 'open', s.state) AS state, s.assignee,
       s.escalated_to, s.disposition, s.acknowledged_ms, s.closed_ms, s.actions
FROM (SELECT alert_id, kind, severity, casino_id, table_id, round_id, dealer_id, amount, message, detected_at,
             detected_ms FROM pitwatch.alerts FINAL {where}) AS a
ANY LEFT JOIN (SELECT alert_id, state, assignee, escalated_to, disposition, acknowledged_ms, closed_ms, actions
               FROM pitwatch.alert_status) AS s USING alert_id
{having}
ORDER BY a.detected_at DESC, a.detected_ms DESC, a.alert_id
{limit}
"""
"""Every alert with where it stands (``state`` open when it has no action), newest first."""


def action_row(action: AlertAction) -> dict[str, Any]:
    """The ``alert_actions`` row of ``action`` (absent details as empty strings)."""
    at = action.acted_at
    return {"action_id": action.action_id, "alert_id": action.alert_id, "action": action.action,
            "actor": action.actor, **{k: getattr(action, k) or "" for k in DETAILS},
            "acted_at": at.replace(microsecond=0), "acted_ms": at.microsecond // 1000}


def action_of_row(row: dict[str, Any]) -> AlertAction:
    """Inverse of :func:`action_row`."""
    at = row["acted_at"]
    at = (at if at.tzinfo else at.replace(tzinfo=timezone.utc)) + timedelta(milliseconds=int(row["acted_ms"]))
    return AlertAction.model_validate({
        "action_id": row["action_id"], "alert_id": row["alert_id"], "action": row["action"], "actor": row["actor"],
        "acted_at": at, **{k: row[k] for k in DETAILS if row[k] != ""}})


def action_json(action: AlertAction) -> bytes:
    """The message value of ``action`` on ``pitwatch.alert-actions`` (UTF-8 JSON, absent details
    left out, ``acted_at`` UTC with milliseconds and a ``Z``)."""
    doc = action.model_dump(mode="json", exclude_none=True)
    doc["acted_at"] = action.acted_at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return json.dumps(doc).encode()


def load_actions(wh: Any, alert_id: str) -> list[AlertAction]:
    """The stored actions of ``alert_id`` (an alert's or a case's id), in the order they apply
    (``acted_at``, then ``action_id``)."""
    rows = wh.rows("alert_actions", "alert_id = %(a)s", {"a": alert_id})
    return sorted((action_of_row(r) for r in rows), key=lambda a: (a.acted_at, a.action_id))


def alert_exists(wh: Any, alert_id: str) -> bool:
    """Whether the warehouse holds an alert with this id."""
    return bool(wh.query("SELECT count() FROM pitwatch.alerts WHERE alert_id = %(a)s", {"a": alert_id})[0][0])


def history(wh: Any, alert_id: str) -> tuple[AlertStatus, list[AlertAction]]:
    """Where ``alert_id`` (an alert's or a case's id, :mod:`pitwatch.lifecycle.cases`) stands,
    and the stored actions that fold to it (in order). Raises :class:`ActionError` for an
    unknown alert or case."""
    from pitwatch.lifecycle.cases import is_case, load_case

    if is_case(alert_id):
        if load_case(wh, alert_id) is None:
            raise ActionError(f"unknown case {alert_id}: no such case in the warehouse")
    elif not alert_exists(wh, alert_id):
        raise ActionError(f"unknown alert {alert_id}: no such alert in the warehouse")
    actions = load_actions(wh, alert_id)
    return fold(alert_id, actions), actions


def status_of(wh: Any, alert_id: str) -> AlertStatus:
    """Where ``alert_id`` stands (:func:`history` without the actions)."""
    return history(wh, alert_id)[0]


@dataclass(frozen=True)
class Recorded:
    """What :func:`record_action` did: the subject's new ``status``; for a case's close, the
    member alerts it closed too (``also_closed``) and those already closed, left as they were
    (``already_closed``), both sorted."""

    status: AlertStatus
    also_closed: tuple[str, ...] = ()
    already_closed: tuple[str, ...] = ()


def _after_last(status: AlertStatus, action: AlertAction) -> AlertAction:
    """``action``, moved to 1 ms after the subject's last action when timed at or before it."""
    if status.last_acted_at is not None and action.acted_at <= status.last_acted_at:
        return action.model_copy(update={"acted_at": status.last_acted_at + timedelta(milliseconds=1)})
    return action


def record(wh: Any, action: AlertAction, publish: Publish | None = None) -> AlertStatus:
    """:func:`record_action`, returning only the subject's new status."""
    return record_action(wh, action, publish).status


def record_action(wh: Any, action: AlertAction, publish: Publish | None = None) -> Recorded:
    """Check ``action`` against its subject's history (an alert's or a case's), publish it,
    store it. An action timed at or before the subject's last one is moved to 1 ms after it (the
    history keeps its order).

    Closing a case closes its member alerts that are not closed yet, with the case's
    disposition and the reason ``with case CASE_ID: REASON``, by the same person; members already
    closed keep their own close. Reopening a case reopens none of them. The members' closes are
    published first, then the case's; the rows are stored once every message was published, so a
    refused publish stores nothing (messages put before it stay on the topic).

    Raises :class:`ActionError` (an unknown alert or case, an action the state does not allow;
    nothing is published or stored), or what ``publish`` or the warehouse raise."""
    from pitwatch.lifecycle.cases import is_case, load_case

    status = status_of(wh, action.alert_id)
    action = _after_last(status, action)
    after = apply(status, action)
    todo: list[AlertAction] = []
    closed: list[str] = []
    already: list[str] = []
    if action.action == "close" and is_case(action.alert_id):
        case = load_case(wh, action.alert_id)
        assert case is not None  # status_of checked it
        for alert_id, member in sorted(statuses(wh, list(case.alert_ids)).items()):
            if member.state == "closed":
                already.append(alert_id)
                continue
            close = new_action(alert_id, "close", action.actor, action.acted_at, disposition=action.disposition,
                               reason=f"with case {case.case_id}: {action.reason}")
            close = _after_last(member, close)
            apply(member, close)
            todo.append(close)
            closed.append(alert_id)
    todo.append(action)
    if publish is not None:
        for a in todo:
            publish(a.alert_id.encode(), action_json(a))
    wh.insert_new("alert_actions", [action_row(a) for a in todo])
    return Recorded(after, tuple(closed), tuple(already))


def statuses(wh: Any, alert_ids: list[str]) -> dict[str, AlertStatus]:
    """``{id: status}`` of the given alerts' (or cases') ids, from their stored actions (one
    query); an id with no action is open. Does not check that the ids exist."""
    rows = wh.rows("alert_actions", "has(%(ids)s, alert_id)", {"ids": list(alert_ids)}) if alert_ids else []
    by_id: dict[str, list[AlertAction]] = {a: [] for a in alert_ids}
    for r in rows:
        by_id[r["alert_id"]].append(action_of_row(r))
    return {a: fold(a, acts) for a, acts in by_id.items()}


def current(wh: Any, state: str | None = None, alert_id: str | None = None, limit: int | None = 1000, *,
            kinds: Sequence[str] = (), tables: Sequence[str] = (), severities: Sequence[str] = (),
            since: datetime | None = None, before: datetime | None = None) -> list[dict[str, Any]]:
    """Alerts with where they stand, newest first (then by id; at most ``limit``, ``None`` for
    all): all, those in ``state`` (``open``, ``acknowledged``, ``escalated``, ``closed``;
    ``active`` for any but closed), or the one ``alert_id``; and of one of ``kinds``, ``tables``
    (``table_id``), ``severities`` when given, detected at or after ``since`` and before
    ``before`` (UTC, to the millisecond; a naive time is taken as UTC). Times of acknowledgement
    and close as ``datetime`` (UTC) or ``None``."""
    conds, params = alert_conditions(alert_id=alert_id, kinds=kinds, tables=tables, severities=severities,
                                     since=since, before=before)
    having = ""
    if state == "active":
        having = "WHERE state != 'closed'"
    elif state:
        having = "WHERE state = %(s)s"
    sql = CURRENT_SQL.format(where=("WHERE " + " AND ".join(conds)) if conds else "", having=having,
                             limit=f"LIMIT {int(limit)}" if limit is not None else "")
    cols = ["alert_id", "kind", "severity", "casino_id", "table_id", "round_id", "dealer_id", "amount", "message",
            "detected_at", "detected_ms", "state", "assignee", "escalated_to", "disposition", "acknowledged_ms",
            "closed_ms", "actions"]
    out = []
    for r in wh.query(sql, {**params, "s": state}):
        row = dict(zip(cols, r))
        for k in ("acknowledged_ms", "closed_ms"):
            ms = int(row.pop(k) or 0)
            row[k.replace("_ms", "_at")] = datetime.fromtimestamp(ms / 1000, timezone.utc) if ms else None
        out.append(row)
    return out


def _epoch_ms(at: datetime) -> int:
    """Milliseconds since the epoch of ``at`` (naive: UTC), rounded up to a whole millisecond."""
    at = at if at.tzinfo else at.replace(tzinfo=timezone.utc)
    ms, rest = divmod(at - datetime(1970, 1, 1, tzinfo=timezone.utc), timedelta(milliseconds=1))
    return ms + (1 if rest else 0)


def alert_conditions(alert_id: str | None = None, kinds: Sequence[str] = (), tables: Sequence[str] = (),
                     severities: Sequence[str] = (), since: datetime | None = None,
                     before: datetime | None = None) -> tuple[list[str], dict[str, Any]]:
    """SQL conditions on the ``alerts`` table (ANDed) and their parameters, for the filters of
    :func:`current`. Times compare to the millisecond: ``detected_at`` seconds and
    ``detected_ms``."""
    conds: list[str] = []
    params: dict[str, Any] = {}
    for name, column, values in (("a", "alert_id", [alert_id] if alert_id else []), ("kinds", "kind", kinds),
                                 ("tables", "table_id", tables), ("sevs", "severity", severities)):
        if values:
            conds.append(f"has(%({name})s, {column})")
            params[name] = list(values)
    t = "toInt64(detected_at) * 1000 + detected_ms"
    if since is not None:
        conds.append(f"{t} >= %(since_ms)s")
        params["since_ms"] = _epoch_ms(since)
    if before is not None:
        conds.append(f"{t} < %(before_ms)s")
        params["before_ms"] = _epoch_ms(before)
    return conds, params


PublishMany = Callable[[list[tuple[bytes, bytes]]], Any]
"""``publish_many([(key, value), ...])``: put the actions on the topic, all or raise
(:meth:`pitwatch.lifecycle.publish.ActionPublisher.publish_many`)."""


def close_alerts(wh: Any, alert_ids: Sequence[str], actor: str, acted_at: datetime, disposition: str, reason: str,
                 publish_many: PublishMany | None = None) -> list[str]:
    """Close every alert of ``alert_ids`` that is not closed yet with ``disposition`` and
    ``reason``, by ``actor`` at ``acted_at`` (moved to 1 ms after an alert's last action when
    not after it); returns the ids closed, in the order given. One read of their actions, one
    publish of all the closes, then one insert: a refused publish stores nothing. Raises
    :class:`ActionError` for a malformed close (no reason, an unknown disposition) before
    anything is read, or what ``publish_many`` or the warehouse raise. The ids are not checked
    to be alerts: pass those :func:`current` returned."""
    new_action("-", "close", actor, acted_at, disposition=disposition, reason=reason)  # malformed: fail first
    closes = []
    for alert_id, status in statuses(wh, list(dict.fromkeys(alert_ids))).items():
        if status.state == "closed":
            continue
        close = _after_last(status, new_action(alert_id, "close", actor, acted_at, disposition=disposition,
                                               reason=reason))
        apply(status, close)
        closes.append(close)
    if closes:
        if publish_many is not None:
            publish_many([(a.alert_id.encode(), action_json(a)) for a in closes])
        wh.insert_new("alert_actions", [action_row(a) for a in closes])
    return [a.alert_id for a in closes]


def _median(col: str) -> str:
    """SQL: the median of ``col`` over the rows where it is >= 0, the mean of the two middle values
    of an even count (as :func:`statistics.median` and the monthly report; ``quantileExact(0.5)``
    takes the upper one); 0 without such a row."""
    xs = f"arraySort(groupArrayIf({col}, {col} >= 0))"
    return f"(arrayElement({xs}, intDiv(length({xs}) + 1, 2)) + arrayElement({xs}, intDiv(length({xs}), 2) + 1)) / 2"


def response_sql(where: str) -> str:
    """SQL of the response times of the alerts matching ``where`` (a condition on ``alerts``): how
    many, how many acknowledged and closed, and the median seconds from detection to the first
    acknowledgement (or escalation) and to the close (:func:`_median`). The surveillance dashboard's panel and
    :func:`response_times` run it."""
    return f"""SELECT count() AS alerts, countIf(ack_s >= 0) AS acknowledged, countIf(close_s >= 0) AS closed,
       {_median("ack_s")} AS median_ack_s,
       {_median("close_s")} AS median_close_s
FROM
(
    SELECT if(s.acknowledged_ms > 0, (toInt64(s.acknowledged_ms) - a.t) / 1000, -1) AS ack_s,
           if(s.closed_ms > 0, (toInt64(s.closed_ms) - a.t) / 1000, -1) AS close_s
    FROM (SELECT alert_id, toInt64(detected_at) * 1000 + detected_ms AS t FROM pitwatch.alerts FINAL
          WHERE {where}) AS a
    ANY LEFT JOIN (SELECT alert_id, acknowledged_ms, closed_ms FROM pitwatch.alert_status) AS s USING alert_id
)"""


RESPONSE_SQL = response_sql("detected_at >= toDateTime(%(since)s, 'UTC') AND detected_at < toDateTime(%(until)s, 'UTC')")
"""Response times of the alerts detected in ``[since, until)``."""


def response_times(wh: Any, since: datetime, until: datetime) -> dict[str, Any]:
    """:data:`RESPONSE_SQL` for alerts detected in ``[since, until)`` (UTC): ``alerts``,
    ``acknowledged``, ``closed`` (counts) and ``median_ack_s``, ``median_close_s`` (seconds, float;
    ``None`` when no alert was acknowledged / closed). An escalation counts as the acknowledgement."""
    fmt = "%Y-%m-%d %H:%M:%S"
    (row,) = wh.query(RESPONSE_SQL, {"since": since.astimezone(timezone.utc).strftime(fmt),
                                     "until": until.astimezone(timezone.utc).strftime(fmt)})
    alerts, acked, closed, med_ack, med_close = row
    return {"alerts": int(alerts), "acknowledged": int(acked), "closed": int(closed),
            "median_ack_s": float(med_ack) if acked else None, "median_close_s": float(med_close) if closed else None}
