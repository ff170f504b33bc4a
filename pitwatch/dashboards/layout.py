"""What every pitwatch dashboard shares: panels described as data (title, panel kind, query type,
SQL, size), template variables, filters on them, and the one function that builds a dashboard
from that description with grafana-foundation-sdk."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from grafana_foundation_sdk.builders import dashboard, stat, table, timeseries
from grafana_foundation_sdk.models.dashboard import DataSourceRef, DynamicConfigValue, GridPos, Threshold, ThresholdsMode

from pitwatch.dashboards.query import DATASOURCE_UID, PLUGIN, SQL
from pitwatch.replay.figures import Z95
from pitwatch.reports.queries import ALERT_DAY

ALL_VALUE = "'*'"
"""What a multi-value variable's All stands for in the SQL: the quoted star (see :func:`selected`)."""


@dataclass(frozen=True)
class Panel:
    """One panel: ``kind`` (stat, table, timeseries), the plugin's ``query_type`` (table or
    timeSeries), the raw ``sql`` with macros and variables, its size on the 24-column grid;
    ``highlight`` names a table column of deviations in σ whose cells turn red outside ±1.96 (the
    95% band) and green inside. How fields show (:func:`field_overrides`): ``money`` columns in
    euros (Grafana unit ``currencyEUR``, 2 decimals); ``units`` other ``(column, Grafana unit)``
    pairs (``percent``, ``s``, ``m``), column ``"*"`` for a whole stat or time-series panel;
    ``severity`` a column of alert severities, its cell coloured by :data:`SEVERITY_COLOURS`;
    ``alarm`` counts that want someone (green at 0, red from 1: a table's cell, or the whole stat
    panel with ``"*"``); ``links`` ``(column, title, url)`` data links (Grafana's
    ``${__data.fields.<column>}`` in the url)."""

    title: str
    kind: str
    query_type: str
    sql: str
    width: int = 12
    height: int = 8
    highlight: str | None = None
    money: tuple[str, ...] = ()
    units: tuple[tuple[str, str], ...] = ()
    severity: str | None = None
    alarm: tuple[str, ...] = ()
    links: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Variable:
    """A query variable: ``sql`` lists its values; ``multi`` ones have All (:data:`ALL_VALUE`)."""

    name: str
    sql: str
    multi: bool = True


@dataclass(frozen=True)
class Board:
    """A dashboard: uid, title, tags, refresh, default range, variables and panels."""

    uid: str
    title: str
    tags: tuple[str, ...]
    variables: tuple[Variable, ...]
    panels: tuple[Panel, ...]
    refresh: str = "1m"
    since: str = "now-24h"


BAND_COLOURS = [
    DynamicConfigValue(id_val="custom.cellOptions", value={"type": "color-background"}),
    DynamicConfigValue(id_val="thresholds", value={"mode": "absolute", "steps": [
        {"color": "red", "value": None}, {"color": "green", "value": -float(Z95)}, {"color": "red", "value": float(Z95)}]}),
]
"""A field override: the cell red below -1.96 σ (:data:`~pitwatch.replay.figures.Z95`) and above
+1.96 σ, green between (Grafana's thresholds: each step's colour from its value up)."""


SEVERITY_COLOURS = {"critical": "dark-red", "high": "red", "medium": "orange", "low": "yellow"}
"""Alert severity -> the colour of its cell (Grafana's named colours)."""

SEVERITY_RANK = "multiIf(severity = 'critical', 0, severity = 'high', 1, severity = 'medium', 2, severity = 'low', 3, 4)"
"""SQL: an alert's severity as a rank, most severe 0 (for ``ORDER BY``)."""

ALARM_STEPS: list[dict[str, Any]] = [{"color": "green", "value": None}, {"color": "red", "value": 1}]
"""Thresholds of a count that wants someone: green at 0, red from 1."""


def field_overrides(p: Panel) -> list[tuple[str, list[DynamicConfigValue]]]:
    """``(column, properties)`` overrides of a table panel's fields from ``p``'s description (the
    :class:`Panel` docstring), in a stable order: band colours, money, units, severity, alarms, links."""
    out: list[tuple[str, list[DynamicConfigValue]]] = []
    if p.highlight:
        out.append((p.highlight, BAND_COLOURS))
    out += [(c, [DynamicConfigValue(id_val="unit", value="currencyEUR"), DynamicConfigValue(id_val="decimals", value=2)])
            for c in p.money if c != "*"]
    out += [(c, [DynamicConfigValue(id_val="unit", value=u)]) for c, u in p.units if c != "*"]
    if p.severity:
        options = {sev: {"color": colour, "index": i, "text": sev} for i, (sev, colour) in enumerate(SEVERITY_COLOURS.items())}
        out.append((p.severity, [DynamicConfigValue(id_val="mappings", value=[{"type": "value", "options": options}]),
                                 DynamicConfigValue(id_val="custom.cellOptions", value={"type": "color-background"})]))
    out += [(c, [DynamicConfigValue(id_val="thresholds", value={"mode": "absolute", "steps": ALARM_STEPS}),
                 DynamicConfigValue(id_val="custom.cellOptions", value={"type": "color-background"})])
            for c in p.alarm if c != "*"]
    out += [(c, [DynamicConfigValue(id_val="links", value=[{"title": title, "url": url}])]) for c, title, url in p.links]
    return out


ALERTS = f"(SELECT *, {ALERT_DAY} AS alert_day FROM pitwatch.alerts FINAL)"
"""The alerts with ``alert_day``, the gaming day of their detection (Europe/Madrid, from 06:00, as
the monthly report dates them: :data:`pitwatch.reports.queries.ALERT_DAY`), to select FROM."""

ALERT_DAYS = "$__dateFilter(alert_day)"
"""SQL on :data:`ALERTS`: detected on a gaming day dated within the range's UTC dates (whole
gaming days, as the monthly report counts a month's alerts)."""


def selected(column: str, variable: str) -> str:
    """SQL: ``column`` is among the values of multi-value ``variable`` (any when All is selected)."""
    return f"(has([${{{variable}:singlequote}}], '*') OR {column} IN (${{{variable}:singlequote}}))"


def jurisdiction_selected(table_column: str = "table_id") -> str:
    """SQL: the row's table (``table_column``) had bets judged under a ruleset of a jurisdiction
    selected in the ``jurisdiction`` variable (any row when All: a table without a bet too)."""
    rulesets = "SELECT ruleset_id FROM pitwatch.rulesets WHERE jurisdiction IN (${jurisdiction:singlequote})"
    return (f"(has([${{jurisdiction:singlequote}}], '*') OR {table_column} IN "
            f"(SELECT DISTINCT table_id FROM pitwatch.settlements WHERE ruleset_id IN ({rulesets})))")


JURISDICTION = Variable("jurisdiction", "SELECT DISTINCT jurisdiction FROM pitwatch.rulesets ORDER BY jurisdiction")
"""The jurisdiction variable (the rulesets' jurisdictions), filtered with :func:`jurisdiction_selected`."""


def all_selected(variables: Mapping[str, str]) -> str:
    """SQL: every ``{variable: column}`` filter of :func:`selected`, joined by AND."""
    return " AND ".join(selected(col, var) for var, col in variables.items())


def _unit(p: Panel) -> str | None:
    """The unit of a whole stat or time-series panel: ``money=("*",)`` euros, or ``("*", unit)``."""
    if "*" in p.money:
        return "currencyEUR"
    return next((u for c, u in p.units if c == "*"), None)


def build(board: Board) -> dashboard.Dashboard:
    """The SDK builder of ``board``: its variables, then its panels laid out left to right, a new
    row when the next does not fit."""
    ds = DataSourceRef(type_val=PLUGIN, uid=DATASOURCE_UID)
    out = (dashboard.Dashboard(board.title).uid(board.uid).tags(list(board.tags)).refresh(board.refresh)
           .time(board.since, "now").timezone("utc"))
    for v in board.variables:
        var = dashboard.QueryVariable(v.name).label(v.name).datasource(ds).query(v.sql)
        out = out.with_variable(var.multi(True).include_all(True).all_value(ALL_VALUE) if v.multi else var)
    x = y = row_h = 0
    for p in board.panels:
        if x + p.width > 24:
            x, y, row_h = 0, y + row_h, 0
        pos, target = GridPos(h=p.height, w=p.width, x=x, y=y), SQL(p.sql.strip(), p.query_type)
        unit = _unit(p)
        if p.kind == "stat":
            big = stat.Panel().title(p.title).datasource(ds).grid_pos(pos).with_target(target)
            if "*" in p.alarm:
                big = big.thresholds(dashboard.ThresholdsConfig().mode(ThresholdsMode.ABSOLUTE).steps(
                    [Threshold(value=s["value"], color=str(s["color"])) for s in ALARM_STEPS]))
            out = out.with_panel(big.unit(unit) if unit else big)
        elif p.kind == "table":
            panel = table.Panel().title(p.title).datasource(ds).grid_pos(pos).with_target(target)
            for column, props in field_overrides(p):
                panel = panel.override_by_name(column, props)
            out = out.with_panel(panel)
        elif p.kind == "timeseries":
            series = timeseries.Panel().title(p.title).datasource(ds).grid_pos(pos).with_target(target)
            out = out.with_panel(series.unit(unit) if unit else series)
        else:
            raise ValueError(f"panel kind {p.kind!r} is not stat, table or timeseries")
        x, row_h = x + p.width, max(row_h, p.height)
    return out
