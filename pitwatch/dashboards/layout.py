"""What every pitwatch dashboard shares: panels described as data (title, panel kind, query type,
SQL, size), template variables, filters on them, and the one function that builds a dashboard
from that description with grafana-foundation-sdk."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from grafana_foundation_sdk.builders import dashboard, stat, table, timeseries
from grafana_foundation_sdk.models.dashboard import DataSourceRef, DynamicConfigValue, GridPos

from pitwatch.dashboards.query import DATASOURCE_UID, PLUGIN, SQL
from pitwatch.replay.figures import Z95

ALL_VALUE = "'*'"
"""What a multi-value variable's All stands for in the SQL: the quoted star (see :func:`selected`)."""


@dataclass(frozen=True)
class Panel:
    """One panel: ``kind`` (stat, table, timeseries), the plugin's ``query_type`` (table or
    timeSeries), the raw ``sql`` with macros and variables, its size on the 24-column grid;
    ``highlight`` names a table column of deviations in σ whose cells turn red outside ±1.96 (the
    95% band) and green inside."""

    title: str
    kind: str
    query_type: str
    sql: str
    width: int = 12
    height: int = 8
    highlight: str | None = None


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
        if p.kind == "stat":
            out = out.with_panel(stat.Panel().title(p.title).datasource(ds).grid_pos(pos).with_target(target))
        elif p.kind == "table":
            panel = table.Panel().title(p.title).datasource(ds).grid_pos(pos).with_target(target)
            if p.highlight:
                panel = panel.override_by_name(p.highlight, BAND_COLOURS)
            out = out.with_panel(panel)
        elif p.kind == "timeseries":
            out = out.with_panel(timeseries.Panel().title(p.title).datasource(ds).grid_pos(pos).with_target(target))
        else:
            raise ValueError(f"panel kind {p.kind!r} is not stat, table or timeseries")
        x, row_h = x + p.width, max(row_h, p.height)
    return out
