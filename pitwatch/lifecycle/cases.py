"""Cases: alerts about the same table, round or person within a window, handled together.

A case groups two or more alerts that share a key (``table``: the same table; ``round``: the
same round of one table; ``player`` or ``dealer``: the same person) and were all detected within
``window`` of each other. It is stored once in the warehouse's ``cases`` table; its id is derived
from its key and its alerts (``case-`` + a UUID 5), so opening the same case again changes
nothing. A case carries the same lifecycle as an alert: its actions are recorded with the case id
where an alert's id goes (:func:`pitwatch.lifecycle.store.record`), and ``alert_status`` folds
them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from pitwatch.detectors.alerts import stable_id
from pitwatch.lifecycle.actions import ActionError

CASE_PREFIX = "case-"
GROUP_KEYS = {"table": ("table_id",), "round": ("table_id", "round_id"), "player": ("player_id",),
              "dealer": ("dealer_id",)}
"""What the alerts of a case share, per grouping: the alerts' columns that must be equal (and
not empty)."""
DEFAULT_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class Case:
    """A case: ``grouped_by`` (a key of :data:`GROUP_KEYS`) and ``key`` (its value, e.g. the
    player id; ``table/round`` for a round), the ``alert_ids`` (sorted), who opened it and when
    (UTC), and why."""

    case_id: str
    grouped_by: str
    key: str
    alert_ids: tuple[str, ...]
    opened_by: str
    opened_at: datetime
    reason: str


def is_case(subject_id: str) -> bool:
    """Whether an id names a case (else an alert)."""
    return subject_id.startswith(CASE_PREFIX)


def case_id(grouped_by: str, key: str, alert_ids: list[str]) -> str:
    """The id of the case of ``alert_ids`` grouped by ``grouped_by`` = ``key``."""
    return CASE_PREFIX + stable_id("case", grouped_by, key, *sorted(set(alert_ids)))


def _alert_rows(wh: Any, alert_ids: list[str]) -> dict[str, dict[str, Any]]:
    cols = ("alert_id", "table_id", "round_id", "player_id", "dealer_id", "detected_at", "detected_ms")
    rows = wh.query(f"SELECT {', '.join(cols)} FROM pitwatch.alerts FINAL WHERE has(%(ids)s, alert_id)",
                    {"ids": list(alert_ids)})
    return {r[0]: dict(zip(cols, r)) for r in rows}


def plan_case(alerts: dict[str, dict[str, Any]], alert_ids: list[str], grouped_by: str,
              window: timedelta) -> tuple[str, list[str]]:
    """``(key, sorted alert ids)`` of a case of ``alert_ids`` grouped by ``grouped_by``, given the
    stored ``alerts`` rows (``{alert_id: row}``). Pure. Raises :class:`ActionError` naming the
    problem: fewer than two alerts, an unknown alert or grouping, alerts that do not share the
    key (or have none), or detected further apart than ``window``."""
    ids = sorted(set(alert_ids))
    if grouped_by not in GROUP_KEYS:
        raise ActionError(f"a case groups by {', '.join(GROUP_KEYS)}, not {grouped_by!r}")
    if len(ids) < 2:
        raise ActionError("a case groups at least two alerts")
    missing = [a for a in ids if a not in alerts]
    if missing:
        raise ActionError(f"unknown alert(s) {', '.join(missing)}: no such alert in the warehouse")
    cols = GROUP_KEYS[grouped_by]
    keys = {tuple(str(alerts[a][c] or "") for c in cols) for a in ids}
    if len(keys) != 1 or not all(next(iter(keys))):
        shown = "; ".join(f"{a}: {'/'.join(str(alerts[a][c] or '-') for c in cols)}" for a in ids)
        raise ActionError(f"the alerts do not share one {grouped_by} ({shown})")
    times = [_detected(alerts[a]) for a in ids]
    if max(times) - min(times) > window:
        raise ActionError(f"the alerts were detected {max(times) - min(times)} apart, more than the window {window}")
    return "/".join(next(iter(keys))), ids


def _detected(row: dict[str, Any]) -> datetime:
    at = row["detected_at"]
    at = at if at.tzinfo else at.replace(tzinfo=timezone.utc)
    return at + timedelta(milliseconds=int(row["detected_ms"] or 0))


def open_case(wh: Any, alert_ids: list[str], grouped_by: str, opened_by: str, opened_at: datetime,
              reason: str = "", window: timedelta = DEFAULT_WINDOW) -> Case:
    """Check and store the case of ``alert_ids`` (see :func:`plan_case`); returns it. Opening a
    case that exists returns it unchanged. Raises :class:`ActionError`."""
    if not opened_by.strip():
        raise ActionError("a case needs who opens it")
    key, ids = plan_case(_alert_rows(wh, alert_ids), alert_ids, grouped_by, window)
    cid = case_id(grouped_by, key, ids)
    at = opened_at.astimezone(timezone.utc)
    wh.insert_new("cases", [{"case_id": cid, "grouped_by": grouped_by, "group_key": key, "alert_ids": ids,
                             "opened_by": opened_by, "reason": reason, "opened_at": at.replace(microsecond=0),
                             "opened_ms": at.microsecond // 1000}])
    found = load_case(wh, cid)
    assert found is not None
    return found


def load_case(wh: Any, cid: str) -> Case | None:
    """The stored case ``cid``, or ``None``."""
    rows = wh.rows("cases", "case_id = %(c)s", {"c": cid})
    if not rows:
        return None
    r = rows[0]
    at = r["opened_at"] if r["opened_at"].tzinfo else r["opened_at"].replace(tzinfo=timezone.utc)
    return Case(r["case_id"], r["grouped_by"], r["group_key"], tuple(r["alert_ids"]), r["opened_by"],
                at + timedelta(milliseconds=int(r["opened_ms"])), r["reason"])
