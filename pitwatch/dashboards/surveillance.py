"""The surveillance room's dashboard (refresh 5 s): what needs someone now.

Panels (each a raw-SQL target on the warehouse, :mod:`pitwatch.dashboards.query`; every query
portable between ClickHouse 18.16 and current releases, time bucketed with ``intDiv`` on
``$__interval_s``):

- unacknowledged high and critical alerts (a big number, red from 1), whatever their age;
- the queue: every open alert (not closed), whatever its age (the dashboard's range does not cut
  it: an alert is open until someone closes it), most severe first, then oldest first, with its
  player, its euros and a link to the round (the round lookup dashboard; the auditor's dossier is
  ``pitwatch replay round TABLE ROUND --format html``, the command shown in the row);
- alerts per interval by kind;
- tables ranked by open alerts (whatever their age);
- rejected, parked and skipped messages;
- pipeline lag: seconds from an event's time to its storing (``events_raw.ingested_at``);
- response times: of the alerts detected on the gaming days dated within the range (as the monthly
  report counts them), how many were acknowledged and closed, and the median seconds from
  detection to the acknowledgement and to the close (:func:`pitwatch.lifecycle.store.response_sql`).

Template variables ``casino``, ``jurisdiction``, ``game`` and ``table`` filter every panel
(multi-value, All).
"""

from __future__ import annotations

from typing import Any

from pitwatch.dashboards import round_lookup
from pitwatch.dashboards.layout import (
    ALERT_DAYS,
    ALERTS,
    JURISDICTION,
    SEVERITY_RANK,
    Board,
    Panel,
    Variable,
    all_selected,
    jurisdiction_selected,
    selected,
)
from pitwatch.lifecycle.store import response_sql

VARIABLES = {"casino": "casino_id", "game": "game", "table": "table_id"}


def filters() -> str:
    """The template variables' filters on the alert (or event) columns, joined by AND."""
    return f"{all_selected(VARIABLES)} AND {jurisdiction_selected()}"


STATUS_JOIN = ("ANY LEFT JOIN (SELECT alert_id, state FROM pitwatch.alert_status) AS s USING alert_id")


def unacknowledged_high(where: str = "1") -> str:
    """SQL counting the high and critical alerts matching ``where`` that nobody acknowledged
    (open), whatever their age: the big number of this dashboard (``where``: the variables) and
    the alert rule of the same name (:mod:`pitwatch.dashboards.provisioning`, every alert), which
    fires until someone acknowledges (or escalates or closes) each one."""
    return f"""SELECT count() AS alerts
FROM (SELECT alert_id FROM pitwatch.alerts FINAL
      WHERE severity IN ('high', 'critical') AND {where}) AS a
{STATUS_JOIN}
WHERE s.state = '' OR s.state = 'open'"""


ROUND_LINK = f"/d/{round_lookup.BOARD.uid}?var-table=${{__data.fields.table_id}}&var-round=${{__data.fields.round_id}}"
"""The round lookup dashboard of a queue row's table and round (a Grafana data link)."""

PANELS: dict[str, tuple[str, str]] = {
    "Unacknowledged high-severity alerts": ("table", unacknowledged_high(filters())),
    "Open alerts": ("table", f"""
SELECT a.severity AS severity, if(s.state = '', 'open', s.state) AS state,
       dateDiff('minute', a.detected_at, $__toTime) AS age_min, a.detected_at AS detected_at, a.kind AS kind,
       a.table_id AS table_id, a.round_id AS round_id, a.player_id AS player_id, a.dealer_id AS dealer_id,
       if(a.amount = 0, NULL, toFloat64(a.amount)) AS amount_eur, a.message AS message,
       if(a.round_id = '', '', concat('pitwatch replay round ', a.table_id, ' ', a.round_id, ' --format html')) AS dossier,
       a.alert_id AS alert_id
FROM (SELECT alert_id, detected_at, detected_ms, severity, {SEVERITY_RANK} AS rank, kind, table_id, round_id,
             player_id, dealer_id, amount, message
      FROM pitwatch.alerts FINAL WHERE detected_at <= $__toTime AND {filters()}) AS a
{STATUS_JOIN}
WHERE s.state != 'closed'
ORDER BY a.rank, a.detected_at, a.detected_ms, alert_id
LIMIT 500"""),
    "Alerts per interval by kind": ("timeSeries", f"""
SELECT toDateTime(intDiv(toUInt32(detected_at), $__interval_s) * $__interval_s) AS time, kind, count() AS alerts
FROM pitwatch.alerts FINAL
WHERE $__timeFilter(detected_at) AND {filters()}
GROUP BY time, kind
ORDER BY time"""),
    "Tables by open alerts": ("table", f"""
SELECT a.table_id AS table_id, count() AS open_alerts, countIf(a.severity IN ('high', 'critical')) AS high
FROM (SELECT alert_id, table_id, severity FROM pitwatch.alerts FINAL
      WHERE detected_at <= $__toTime AND {filters()}) AS a
{STATUS_JOIN}
WHERE s.state != 'closed'
GROUP BY table_id
ORDER BY open_alerts DESC, table_id
LIMIT 20"""),
    "Rejected, parked and skipped messages": ("table", f"""
SELECT
    (SELECT count() FROM pitwatch.rejected FINAL WHERE $__timeFilter(rejected_at)) AS rejected,
    (SELECT count() FROM pitwatch.parked FINAL WHERE $__timeFilter(parked_at) AND {selected('table_id', 'table')}) AS parked,
    (SELECT uniqExact(table_id) FROM pitwatch.parked FINAL WHERE $__timeFilter(parked_at)) AS quarantined_tables,
    (SELECT count() FROM pitwatch.skipped FINAL
     WHERE $__timeFilter(skipped_at) AND {selected('table_id', 'table')}) AS skipped"""),
    "Pipeline lag (event time to stored, s)": ("timeSeries", f"""
SELECT toDateTime(intDiv(toUInt32(occurred_at), $__interval_s) * $__interval_s) AS time,
       quantile(0.5)(toFloat64(ingested_at) - toFloat64(occurred_at)) AS p50,
       quantile(0.99)(toFloat64(ingested_at) - toFloat64(occurred_at)) AS p99
FROM pitwatch.events_raw FINAL
WHERE $__timeFilter(occurred_at) AND {filters()}
GROUP BY time
ORDER BY time"""),
    "Response times (median s)": ("table", response_sql(
        f"alert_id IN (SELECT alert_id FROM {ALERTS} WHERE {ALERT_DAYS}) AND {filters()}")),
}
"""Panel title -> (query type, raw SQL with the plugin's macros and the template variables)."""

VARIABLE_SQL = {var: f"SELECT DISTINCT {col} FROM pitwatch.alerts ORDER BY {col}" for var, col in VARIABLES.items()}

_LAYOUT = {  # title -> (panel kind, width, height)
    "Unacknowledged high-severity alerts": ("stat", 6, 6),
    "Open alerts": ("table", 18, 12),
    "Alerts per interval by kind": ("timeseries", 12, 8),
    "Tables by open alerts": ("table", 6, 8),
    "Rejected, parked and skipped messages": ("table", 6, 6),
    "Pipeline lag (event time to stored, s)": ("timeseries", 12, 8),
    "Response times (median s)": ("table", 12, 5),
}

_FIELDS: dict[str, dict[str, Any]] = {  # title -> how its fields show (Panel's docstring)
    "Unacknowledged high-severity alerts": {"alarm": ("*",)},
    "Open alerts": {"money": ("amount_eur",), "units": (("age_min", "m"),), "severity": "severity",
                    "links": (("round_id", "Round lookup: events, settlements, violations", ROUND_LINK),)},
    "Tables by open alerts": {"alarm": ("high",)},
    "Rejected, parked and skipped messages": {"alarm": ("rejected", "parked", "quarantined_tables", "skipped")},
    "Pipeline lag (event time to stored, s)": {"units": (("*", "s"),)},
    "Response times (median s)": {"units": (("median_ack_s", "s"), ("median_close_s", "s"))},
}

BOARD = Board(
    uid="pitwatch-surveillance", title="pitwatch · surveillance room", tags=("pitwatch", "surveillance"),
    variables=(*(Variable(v, sql) for v, sql in VARIABLE_SQL.items()), JURISDICTION),
    panels=tuple(Panel(title, _LAYOUT[title][0], qtype, sql, _LAYOUT[title][1], _LAYOUT[title][2],
                       **_FIELDS.get(title, {}))
                 for title, (qtype, sql) in PANELS.items()),
    refresh="5s", since="now-6h")
"""The surveillance dashboard (module docstring)."""
